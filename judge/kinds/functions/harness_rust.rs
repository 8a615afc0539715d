// The judge's harness of a Rust function (judge_harness.rs in the box, a module of main.rs):
// one call's arguments read from JSON on stdin into Rust's own types (FromJudge), what the
// student's function returned written back as JSON (ToJudge), a panic caught as Rust's
// exception, and the result written after a mark as the last line of stdout (harness_python.py's
// protocol). main.rs, made from the signature, includes the student's file at the crate root.
// The expected value is never here: the judge compares outside the sandbox.
use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::os::unix::io::FromRawFd;

pub enum Value {
    Null,
    Bool(bool),
    Number(String),
    Text(String),
    List(Vec<Value>),
    Map(Vec<(String, Value)>),
}

impl Value {
    pub fn items(&self) -> &[Value] {
        match self {
            Value::List(items) => items,
            _ => &[],
        }
    }
    pub fn text(&self) -> &str {
        match self {
            Value::Text(text) => text,
            _ => "",
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn space(&mut self) {
        while self.at < self.s.len() && (self.s[self.at] as char).is_ascii_whitespace() {
            self.at += 1;
        }
    }
    fn string(&mut self) -> String {
        let mut out: Vec<u16> = Vec::new();
        let mut bytes: Vec<u8> = Vec::new();
        self.at += 1;
        while self.s[self.at] != b'"' {
            let c = self.s[self.at];
            self.at += 1;
            if c != b'\\' {
                bytes.push(c);
                continue;
            }
            if !bytes.is_empty() {
                out.extend(String::from_utf8_lossy(&bytes).encode_utf16());
                bytes.clear();
            }
            let e = self.s[self.at];
            self.at += 1;
            match e {
                b'n' => out.push(10),
                b't' => out.push(9),
                b'r' => out.push(13),
                b'b' => out.push(8),
                b'f' => out.push(12),
                b'u' => {
                    let hex = std::str::from_utf8(&self.s[self.at..self.at + 4]).unwrap_or("0");
                    out.push(u16::from_str_radix(hex, 16).unwrap_or(0xfffd));
                    self.at += 4;
                }
                other => out.push(other as u16),
            }
        }
        self.at += 1;
        out.extend(String::from_utf8_lossy(&bytes).encode_utf16());
        String::from_utf16_lossy(&out)
    }
    fn value(&mut self) -> Value {
        self.space();
        match self.s[self.at] {
            b'n' => {
                self.at += 4;
                Value::Null
            }
            b't' => {
                self.at += 4;
                Value::Bool(true)
            }
            b'f' => {
                self.at += 5;
                Value::Bool(false)
            }
            b'"' => Value::Text(self.string()),
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.s[self.at] == b']' {
                    self.at += 1;
                    return Value::List(items);
                }
                loop {
                    items.push(self.value());
                    self.space();
                    self.at += 1;
                    if self.s[self.at - 1] == b']' {
                        return Value::List(items);
                    }
                }
            }
            b'{' => {
                self.at += 1;
                let mut fields = Vec::new();
                self.space();
                if self.s[self.at] == b'}' {
                    self.at += 1;
                    return Value::Map(fields);
                }
                loop {
                    self.space();
                    let key = self.string();
                    self.space();
                    self.at += 1;
                    fields.push((key, self.value()));
                    self.space();
                    self.at += 1;
                    if self.s[self.at - 1] == b'}' {
                        return Value::Map(fields);
                    }
                }
            }
            _ => {
                let start = self.at;
                while self.at < self.s.len() && b"+-.eE0123456789".contains(&self.s[self.at]) {
                    self.at += 1;
                }
                Value::Number(String::from_utf8_lossy(&self.s[start..self.at]).into_owned())
            }
        }
    }
}

pub fn arguments() -> Value {
    let mut text = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut text);
    Reader { s: &text, at: 0 }.value()
}

pub trait FromJudge: Sized {
    fn from_judge(v: &Value) -> Self;
}

macro_rules! judge_numbers {
    ($($t:ty),*) => {$(
        impl FromJudge for $t {
            fn from_judge(v: &Value) -> Self {
                match v {
                    Value::Number(text) => text.parse().expect("a number of its type"),
                    _ => panic!("not a number"),
                }
            }
        }
        impl ToJudge for $t {
            fn to_judge(&self) -> Result<String, String> {
                Ok(self.to_string())
            }
        }
    )*};
}
judge_numbers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl FromJudge for f64 {
    fn from_judge(v: &Value) -> Self {
        match v {
            Value::Number(text) => text.parse().expect("a number"),
            _ => panic!("not a number"),
        }
    }
}
impl FromJudge for bool {
    fn from_judge(v: &Value) -> Self {
        matches!(v, Value::Bool(true))
    }
}
impl FromJudge for String {
    fn from_judge(v: &Value) -> Self {
        v.text().to_string()
    }
}
impl<T: FromJudge> FromJudge for Vec<T> {
    fn from_judge(v: &Value) -> Self {
        v.items().iter().map(T::from_judge).collect()
    }
}
impl<T: FromJudge> FromJudge for Option<T> {
    fn from_judge(v: &Value) -> Self {
        match v {
            Value::Null => None,
            other => Some(T::from_judge(other)),
        }
    }
}
impl<T: FromJudge> FromJudge for HashMap<String, T> {
    fn from_judge(v: &Value) -> Self {
        match v {
            Value::Map(fields) => fields.iter().map(|(k, x)| (k.clone(), T::from_judge(x))).collect(),
            _ => HashMap::new(),
        }
    }
}

pub trait ToJudge {
    fn to_judge(&self) -> Result<String, String>;
}

pub fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 32 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl ToJudge for f64 {
    fn to_judge(&self) -> Result<String, String> {
        if !self.is_finite() {
            return Err("float (not finite)".to_string());
        }
        let text = format!("{:?}", self);
        Ok(if text.contains(['.', 'e', 'E']) { text } else { text + ".0" })
    }
}
impl ToJudge for f32 {
    fn to_judge(&self) -> Result<String, String> {
        (*self as f64).to_judge()
    }
}
impl ToJudge for bool {
    fn to_judge(&self) -> Result<String, String> {
        Ok(self.to_string())
    }
}
impl ToJudge for String {
    fn to_judge(&self) -> Result<String, String> {
        Ok(quote(self))
    }
}
impl ToJudge for &str {
    fn to_judge(&self) -> Result<String, String> {
        Ok(quote(self))
    }
}
impl ToJudge for () {
    fn to_judge(&self) -> Result<String, String> {
        Ok("null".to_string())
    }
}
impl<T: ToJudge> ToJudge for Vec<T> {
    fn to_judge(&self) -> Result<String, String> {
        let parts: Result<Vec<String>, String> = self.iter().map(|x| x.to_judge()).collect();
        Ok(format!("[{}]", parts?.join(",")))
    }
}
impl<T: ToJudge> ToJudge for Option<T> {
    fn to_judge(&self) -> Result<String, String> {
        match self {
            None => Ok("null".to_string()),
            Some(x) => x.to_judge(),
        }
    }
}
macro_rules! judge_maps {
    ($($map:ident),*) => {$(
        impl<T: ToJudge> ToJudge for $map<String, T> {
            fn to_judge(&self) -> Result<String, String> {
                let mut parts = Vec::new();
                for (k, x) in self {
                    parts.push(format!("{}:{}", quote(k), x.to_judge()?));
                }
                Ok(format!("{{{}}}", parts.join(",")))
            }
        }
    )*};
}
judge_maps!(HashMap, BTreeMap);

pub fn returned<T: ToJudge>(value: &T) -> String {
    match value.to_judge() {
        Ok(text) => format!("{{\"returned\":{}}}", text),
        Err(what) => format!("{{\"unserializable\":{}}}", quote(&what)),
    }
}

/// What one call came to: a panic is what it raised, its message taken from the payload.
pub fn call<F: FnOnce() -> String>(f: F) -> String {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(got) => got,
        Err(payload) => {
            let message = if let Some(text) = payload.downcast_ref::<&str>() {
                text.to_string()
            } else if let Some(text) = payload.downcast_ref::<String>() {
                text.clone()
            } else {
                String::new()
            };
            let cut: String = message.chars().take(500).collect();
            format!("{{\"raised\":\"panic\",\"message\":{}}}", quote(&cut))
        }
    }
}

pub fn scenario(said: &[String]) -> String {
    format!("{{\"steps\":[{}]}}", said.join(","))
}

/// The result line on descriptor 1 itself, then the end (no destructor of the student's runs).
pub fn report(text: &str) -> ! {
    let _ = std::io::stdout().flush();
    let mut out = unsafe { std::fs::File::from_raw_fd(1) };
    let _ = out.write_all(format!("\n\x1ejudge-result\x1e {}\n", text).as_bytes());
    std::process::exit(0)
}
