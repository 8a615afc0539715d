// The judge's harness of a C++ function: JSON in (one call's arguments), the student's function
// called with the language's own types, and what came of it written after a mark as the last
// line of stdout (harness_python.py's protocol). main.cpp, made from the signature, includes
// this file and then the student's (solution.hpp). The expected value is never here: the judge
// compares outside the sandbox.
#include <bits/stdc++.h>
#include <cxxabi.h>
#include <unistd.h>

namespace judge_harness {

struct Value {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool flag = false;
    std::string text;  // a number's digits, or a string
    std::vector<Value> items;
    std::vector<std::pair<std::string, Value>> fields;
};

struct Reader {
    const std::string &s;
    size_t at = 0;
    void space() { while (at < s.size() && isspace((unsigned char)s[at])) at++; }
    std::string string_() {
        std::string out;
        at++;  // the opening quote
        while (at < s.size() && s[at] != '"') {
            char c = s[at++];
            if (c != '\\') { out += c; continue; }
            char e = s[at++];
            if (e == 'n') out += '\n'; else if (e == 't') out += '\t'; else if (e == 'r') out += '\r';
            else if (e == 'b') out += '\b'; else if (e == 'f') out += '\f';
            else if (e == 'u') {
                unsigned code = std::stoul(s.substr(at, 4), nullptr, 16);
                at += 4;
                if (code >= 0xD800 && code < 0xDC00 && s.compare(at, 2, "\\u") == 0) {
                    unsigned low = std::stoul(s.substr(at + 2, 4), nullptr, 16);
                    at += 6;
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                if (code < 0x80) out += (char)code;
                else if (code < 0x800) { out += (char)(0xC0 | (code >> 6)); out += (char)(0x80 | (code & 63)); }
                else if (code < 0x10000) {
                    out += (char)(0xE0 | (code >> 12)); out += (char)(0x80 | ((code >> 6) & 63));
                    out += (char)(0x80 | (code & 63));
                } else {
                    out += (char)(0xF0 | (code >> 18)); out += (char)(0x80 | ((code >> 12) & 63));
                    out += (char)(0x80 | ((code >> 6) & 63)); out += (char)(0x80 | (code & 63));
                }
            } else out += e;
        }
        at++;
        return out;
    }
    Value value() {
        space();
        Value v;
        char c = s[at];
        if (c == 'n') { at += 4; }
        else if (c == 't') { v.kind = Value::Bool; v.flag = true; at += 4; }
        else if (c == 'f') { v.kind = Value::Bool; at += 5; }
        else if (c == '"') { v.kind = Value::String; v.text = string_(); }
        else if (c == '[') {
            v.kind = Value::Array; at++; space();
            if (s[at] == ']') { at++; return v; }
            while (true) { v.items.push_back(value()); space(); if (s[at++] == ']') break; }
        } else if (c == '{') {
            v.kind = Value::Object; at++; space();
            if (s[at] == '}') { at++; return v; }
            while (true) {
                space(); std::string key = string_(); space(); at++;  // the colon
                v.fields.emplace_back(key, value()); space();
                if (s[at++] == '}') break;
            }
        } else {
            v.kind = Value::Number;
            size_t start = at;
            while (at < s.size() && (isdigit((unsigned char)s[at]) || strchr("+-.eE", s[at]))) at++;
            v.text = s.substr(start, at - start);
        }
        return v;
    }
};

template <class T> struct As;
template <> struct As<int> { static int from(const Value &v) { return (int)std::stoll(v.text); } };
template <> struct As<long long> { static long long from(const Value &v) { return std::stoll(v.text); } };
template <> struct As<double> { static double from(const Value &v) { return std::stod(v.text); } };
template <> struct As<bool> { static bool from(const Value &v) { return v.flag; } };
template <> struct As<std::string> { static std::string from(const Value &v) { return v.text; } };
template <class T> struct As<std::vector<T>> {
    static std::vector<T> from(const Value &v) {
        std::vector<T> out;
        for (const Value &item : v.items) out.push_back(As<T>::from(item));
        return out;
    }
};
template <class T> struct As<std::map<std::string, T>> {
    static std::map<std::string, T> from(const Value &v) {
        std::map<std::string, T> out;
        for (const auto &field : v.fields) out[field.first] = As<T>::from(field.second);
        return out;
    }
};
template <class T> struct As<std::optional<T>> {
    static std::optional<T> from(const Value &v) {
        if (v.kind == Value::Null) return std::nullopt;
        return As<T>::from(v);
    }
};

inline std::string quote(const std::string &text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c < 32) { char buffer[8]; snprintf(buffer, sizeof buffer, "\\u%04x", c); out += buffer; }
        else out += (char)c;
    }
    return out + "\"";
}

struct Unserializable { std::string what; };

inline std::string dump(bool v) { return v ? "true" : "false"; }
inline std::string dump(const std::string &v) { return quote(v); }
inline std::string dump(const char *v) { return v ? quote(v) : "null"; }
inline std::string dump(char v) { return quote(std::string(1, v)); }
template <class T> typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value &&
                                           !std::is_same<T, char>::value, std::string>::type
dump(T v) { return std::to_string(v); }
template <class T> typename std::enable_if<std::is_floating_point<T>::value, std::string>::type dump(T v) {
    if (!std::isfinite((double)v)) throw Unserializable{"float (not finite)"};
    char buffer[40];
    snprintf(buffer, sizeof buffer, "%.17g", (double)v);
    std::string text = buffer;
    if (text.find_first_of(".eE") == std::string::npos) text += ".0";
    return text;
}
template <class T> std::string dump(const std::vector<T> &v);
template <class T> std::string dump(const std::map<std::string, T> &v);
template <class T> std::string dump(const std::optional<T> &v) { return v ? dump(*v) : "null"; }
template <class T> std::string dump(const std::vector<T> &v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); i++) out += (i ? "," : "") + dump(v[i]);
    return out + "]";
}
template <class T> std::string dump(const std::map<std::string, T> &v) {
    std::string out = "{";
    bool first = true;
    for (const auto &field : v) { out += (first ? "" : ",") + quote(field.first) + ":" + dump(field.second); first = false; }
    return out + "}";
}

inline Value arguments() {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    Reader reader{text};
    return reader.value();
}

[[noreturn]] inline void report(const std::string &result) {
    fflush(stdout);
    std::cout.flush();
    std::string line = "\n\x1ejudge-result\x1e " + result + "\n";
    ssize_t written = write(1, line.data(), line.size());
    (void)written;
    _exit(0);
}

inline std::string type_name(const std::type_info &type) {
    int status = 0;
    char *named = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
    std::string out = status == 0 && named ? named : type.name();
    free(named);
    return out;
}

inline std::string raised(const std::string &type, const std::string &message) {
    return "{\"raised\":" + quote(type) + ",\"message\":" + quote(message.substr(0, 500)) + "}";
}

}  // namespace judge_harness
