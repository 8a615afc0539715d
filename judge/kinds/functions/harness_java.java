// The judge's harness of a Java function (Main.java in the box): one call's arguments (JSON) in,
// the student's method of class Solution called by reflection with Java's own types, and what
// came of it written after a mark as the last line of stdout (harness_python.py's protocol). A
// class problem's scenario makes the student's class and calls its methods in turn, a step each.
// The expected value is never here: the judge compares outside the sandbox.
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class Main {
    static final String MARK = "\n\u001ejudge-result\u001e ";
    static String text;
    static int at;

    static Object value() {
        while (Character.isWhitespace(text.charAt(at))) at++;
        char c = text.charAt(at);
        if (c == 'n') { at += 4; return null; }
        if (c == 't') { at += 4; return Boolean.TRUE; }
        if (c == 'f') { at += 5; return Boolean.FALSE; }
        if (c == '"') return string();
        if (c == '[') {
            List<Object> items = new ArrayList<>();
            at++;
            skip();
            if (text.charAt(at) == ']') { at++; return items; }
            while (true) { items.add(value()); skip(); if (text.charAt(at++) == ']') return items; }
        }
        if (c == '{') {
            Map<String, Object> fields = new LinkedHashMap<>();
            at++;
            skip();
            if (text.charAt(at) == '}') { at++; return fields; }
            while (true) {
                skip(); String key = string(); skip(); at++;
                fields.put(key, value()); skip();
                if (text.charAt(at++) == '}') return fields;
            }
        }
        int start = at;
        while (at < text.length() && "+-.eE0123456789".indexOf(text.charAt(at)) >= 0) at++;
        return text.substring(start, at);  // a number, kept as its digits until its type is known
    }

    static void skip() { while (Character.isWhitespace(text.charAt(at))) at++; }

    static String string() {
        StringBuilder out = new StringBuilder();
        at++;
        while (text.charAt(at) != '"') {
            char c = text.charAt(at++);
            if (c != '\\') { out.append(c); continue; }
            char e = text.charAt(at++);
            switch (e) {
                case 'n': out.append('\n'); break;
                case 't': out.append('\t'); break;
                case 'r': out.append('\r'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'u': out.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
                default: out.append(e);
            }
        }
        at++;
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    static Object as(Object value, Type type) {
        if (type instanceof ParameterizedType) {
            ParameterizedType generic = (ParameterizedType) type;
            Class<?> raw = (Class<?>) generic.getRawType();
            Type[] inner = generic.getActualTypeArguments();
            if (Map.class.isAssignableFrom(raw)) {
                Map<String, Object> out = new LinkedHashMap<>();
                for (Map.Entry<String, Object> e : ((Map<String, Object>) value).entrySet()) {
                    out.put(e.getKey(), as(e.getValue(), inner[1]));
                }
                return out;
            }
            List<Object> out = new ArrayList<>();
            for (Object item : (List<Object>) value) out.add(as(item, inner[0]));
            return out;
        }
        Class<?> kind = (Class<?>) type;
        if (value == null) return null;
        if (kind == int.class || kind == Integer.class) return Integer.parseInt((String) value);
        if (kind == long.class || kind == Long.class) return Long.parseLong((String) value);
        if (kind == double.class || kind == Double.class) return Double.parseDouble((String) value);
        if (kind == boolean.class || kind == Boolean.class) return value;
        if (kind == String.class) return value;
        if (kind.isArray()) {
            List<Object> items = (List<Object>) value;
            Object out = Array.newInstance(kind.getComponentType(), items.size());
            for (int i = 0; i < items.size(); i++) Array.set(out, i, as(items.get(i), kind.getComponentType()));
            return out;
        }
        throw new IllegalArgumentException(cat("no JSON type for a parameter of type ", kind.getName()));
    }

    // Strings joined without `+`: javac compiles `+` to an invokedynamic whose first use spins
    // LambdaForm classes at run time, about 20 ms of CPU in a JVM's start (the whole call's cost).
    static String cat(Object... parts) {
        StringBuilder out = new StringBuilder();
        for (Object part : parts) out.append(part);
        return out.toString();
    }

    static final String HEX = "0123456789abcdef";
    static final FileOutputStream ERR = new FileOutputStream(FileDescriptor.err);  // before the student's code

    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') out.append("\\\"");
            else if (c == '\\') out.append("\\\\");
            else if (c < 32) out.append("\\u00").append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 15));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    static String dump(Object v) {
        if (v == null) return "null";
        Class<?> kind = v.getClass();
        if (kind == Boolean.class) return v.toString();
        if (kind == Integer.class || kind == Long.class || kind == Short.class || kind == Byte.class) return v.toString();
        if (kind == Double.class || kind == Float.class) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalStateException("float (not finite)");
            return Double.toString(d);
        }
        if (kind == String.class) return quote((String) v);
        if (kind == Character.class) return quote(v.toString());
        if (kind.isArray()) {
            StringBuilder out = new StringBuilder("[");
            for (int i = 0; i < Array.getLength(v); i++) out.append(i > 0 ? "," : "").append(dump(Array.get(v, i)));
            return out.append(']').toString();
        }
        if (v instanceof List) {
            StringBuilder out = new StringBuilder("[");
            boolean first = true;
            for (Object item : (List<?>) v) { out.append(first ? "" : ",").append(dump(item)); first = false; }
            return out.append(']').toString();
        }
        if (v instanceof Map) {
            StringBuilder out = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!(e.getKey() instanceof String)) throw new IllegalStateException(cat("a map with keys of ", e.getKey().getClass().getSimpleName()));
                out.append(first ? "" : ",").append(quote((String) e.getKey())).append(':').append(dump(e.getValue()));
                first = false;
            }
            return out.append('}').toString();
        }
        throw new IllegalStateException(kind.getSimpleName());
    }

    static void report(FileOutputStream out, String result) {
        System.out.flush();
        try {
            out.write(cat(MARK, result, "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (Exception ignored) {
            // its stdout is the student's to break
        }
        Runtime.getRuntime().halt(0);
    }

    static String raised(Throwable error) {
        // The heap's limit (-Xmx) reached is the memory limit's verdict, not an exception the
        // call raised: the JVM's own last words on stderr, as a program's are (memory_marks).
        if (error instanceof OutOfMemoryError) {
            try {
                ERR.write(cat("java.lang.OutOfMemoryError: ", error.getMessage(), "\n").getBytes(StandardCharsets.UTF_8));
            } catch (Exception ignored) {
                // the exit says it all the same
            }
            Runtime.getRuntime().halt(3);
        }
        String message = error.getMessage() == null ? "" : error.getMessage();
        if (message.length() > 500) message = message.substring(0, 500);
        return cat("{\"raised\":", quote(error.getClass().getSimpleName()), ",\"message\":", quote(message), "}");
    }

    // What one call came to: its value, its exception, or a value of no JSON type.
    static String outcome(java.lang.reflect.Executable found, Object self, List<Object> given) {
        Object[] values = new Object[given.size()];
        Type[] types = found.getGenericParameterTypes();
        Object result;
        try {
            for (int i = 0; i < values.length; i++) values[i] = as(given.get(i), types[i]);
            found.setAccessible(true);
            if (found instanceof java.lang.reflect.Constructor) {
                made = ((java.lang.reflect.Constructor<?>) found).newInstance(values);
                return "{\"returned\":null}";
            }
            Method method = (Method) found;
            result = method.invoke(Modifier.isStatic(method.getModifiers()) ? null : self, values);
            if (method.getReturnType() == void.class) return "{\"returned\":null}";
        } catch (InvocationTargetException error) {
            return raised(error.getCause());
        } catch (Throwable error) {
            return raised(error);
        }
        try {
            return cat("{\"returned\":", dump(result), "}");
        } catch (IllegalStateException | StackOverflowError error) {
            return cat("{\"unserializable\":", quote(String.valueOf(error.getMessage())), "}");
        }
    }

    static Object made;  // the object of a class's scenario

    static java.lang.reflect.Executable named(Class<?> owner, String name, int count) {
        if (name == null) {
            for (java.lang.reflect.Constructor<?> c : owner.getDeclaredConstructors()) if (c.getParameterCount() == count) return c;
            return null;
        }
        Method found = null;
        for (Method m : owner.getDeclaredMethods()) if (m.getName().equals(name) && m.getParameterCount() == count) found = m;
        return found;
    }

    // A class's scenario: the constructor, then each method in turn on the object it made.
    @SuppressWarnings("unchecked")
    static String scenario(Class<?> owner, List<Object> steps) {
        StringBuilder said = new StringBuilder("{\"steps\":[");
        for (int i = 0; i < steps.size(); i++) {
            List<Object> step = (List<Object>) steps.get(i);
            List<Object> given = step.subList(1, step.size());
            java.lang.reflect.Executable found = named(owner, i == 0 ? null : (String) step.get(0), given.size());
            String got = found == null
                ? cat("{\"raised\":\"NoSuchMethodException\",\"message\":", quote(cat(step.get(0), " with ", given.size(), " parameter(s)")), "}")
                : outcome(found, made, given);
            said.append(i > 0 ? "," : "").append(got);
            if (made == null) break;  // the constructor raised: the scenario ends there
        }
        return said.append("]}").toString();
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        FileOutputStream out = new FileOutputStream(FileDescriptor.out);  // taken before its code runs
        InputStream in = System.in;
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        at = 0;
        List<Object> call = (List<Object>) value();
        // A FileInputStream, not java.nio.file's Files: those are some 30 classes more to load.
        String[] asked = new String(new FileInputStream("function.txt").readAllBytes(), StandardCharsets.UTF_8).split("\n");
        boolean isClass = asked.length > 1 && asked[1].trim().equals("class");
        Class<?> owner;
        try {
            owner = Class.forName(isClass ? asked[0].trim() : "Solution");
        } catch (Throwable error) {
            report(out, cat("{\"import\":", raised(error), "}"));
            return;
        }
        if (isClass) { report(out, scenario(owner, call)); return; }
        java.lang.reflect.Executable found = named(owner, asked[0].trim(), call.size());
        if (found == null) { report(out, cat("{\"missing\":", quote(asked[0].trim()), "}")); return; }
        Object self = null;
        if (!Modifier.isStatic(found.getModifiers())) {
            try {
                self = newInstance(owner);
            } catch (InvocationTargetException error) {
                report(out, raised(error.getCause()));
                return;
            } catch (Throwable error) {
                report(out, raised(error));
                return;
            }
        }
        report(out, outcome(found, self, call));
    }

    static Object newInstance(Class<?> solution) throws Exception {
        java.lang.reflect.Constructor<?> made = solution.getDeclaredConstructor();
        made.setAccessible(true);
        return made.newInstance();
    }
}
