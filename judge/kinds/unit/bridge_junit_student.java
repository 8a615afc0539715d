import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The student's side of a JUnit problem in mode apart: it compiles the student's classes (the
 * box's top-level .java files) and does what the tests' JVM asks of them, a frame at a time
 * (JudgeWire): make an object, call a method, and reply with the value returned (plain data by
 * value, the student's objects and others as handles), or the exception raised, what the call
 * printed, and the test's arrays and collections as the call left them. The tests, their
 * assertions and their results are in the other JVM: nothing here decides anything.
 * Runs as JudgeStudent, from the judge's kit; stdin and stdout are the pipes to the tests.
 *
 * With `--guarded` (a tests problem: the classes are the teacher's and the tests a student's,
 * who holds the pipe and can write any frame) it answers only the classes' public API: objects
 * of their public classes by public constructors, their public methods (and an object's
 * equals, hashCode, toString, an exception's message, a JDK interface's method on their own
 * objects); names resolve to nothing else, nothing is made accessible, and a value crosses as
 * plain data or as a handle of their own objects, never a Class, a loader or another JDK object.
 */
public final class JudgeStudent implements JudgeWire.Side {
    static final int PRINTED_BYTES = 1 << 16;

    static final String GUARDED = "--guarded";
    static final byte[] GATE = "%judge-gate%\n".getBytes(StandardCharsets.US_ASCII);

    private final ClassLoader loader;
    private final boolean guarded;
    private final List<Object> objects = new ArrayList<>();
    private final Map<Object, Integer> ids = new IdentityHashMap<>();

    JudgeStudent(ClassLoader loader, boolean guarded) {
        this.loader = loader;
        this.guarded = guarded;
    }

    /**
     * Guarded: each public class of the teacher's initialized now, before the first request,
     * so that no test can time a class's static initializer (a bug's extra work there) by its
     * first call, as a fifth review timed a Python bug's imports by a test's import. An
     * initializer that fails makes each later use of its class fail, as its first would have.
     */
    void initializeAll() {
        if (!(loader instanceof java.net.URLClassLoader)) {
            return;
        }
        for (java.net.URL url : ((java.net.URLClassLoader) loader).getURLs()) {
            java.nio.file.Path root;
            List<String> names = new ArrayList<>();
            try {
                root = java.nio.file.Paths.get(url.toURI());
                try (java.util.stream.Stream<java.nio.file.Path> walk = java.nio.file.Files.walk(root)) {
                    walk.filter(p -> p.toString().endsWith(".class")).forEach(p -> {
                        String relative = root.relativize(p).toString();
                        names.add(relative.substring(0, relative.length() - 6).replace(java.io.File.separatorChar, '.'));
                    });
                }
            } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
                continue;
            }
            java.util.Collections.sort(names);
            for (String name : names) {
                try {
                    if (teachers(Class.forName(name, false, loader))) {
                        Class.forName(name, true, loader);
                    }
                } catch (Throwable e) {
                    // Its first use fails as it would have (NoClassDefFoundError after a failed one).
                }
            }
        }
    }

    /** Guarded: what a request may name as a class to make, call or be an enum of. */
    boolean teachers(Class<?> c) {
        if (c.getClassLoader() != loader) {
            return false;
        }
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            boolean nested = k.getEnclosingClass() != null;
            if (!Modifier.isPublic(k.getModifiers()) || (nested && !Modifier.isStatic(k.getModifiers()))
                    || k.isAnonymousClass() || k.isLocalClass() || k.isSynthetic()) {
                return false;
            }
        }
        return true;
    }

    /** Guarded: a refusal, raised to the tests as the call's exception. */
    static SecurityException refused(String what) {
        return new SecurityException("the judge answers only the public API of the problem's classes: not " + what);
    }

    /** Guarded: the method a request may call, or a refusal. */
    Method allowed(Object self, Class<?> declaring, String name, Class<?>[] types) throws NoSuchMethodException {
        String shown = declaring.getName() + "." + name;
        boolean own = self != null && self.getClass().getClassLoader() == loader;
        if (teachers(declaring)) {
            Method m = declaring.getMethod(name, types); // public ones only
            if (teachers(m.getDeclaringClass()) && (Modifier.isStatic(m.getModifiers()) || declaring.isInstance(self))) {
                return m;
            }
        } else if (declaring == Object.class && (name.equals("equals") || name.equals("hashCode")
                || name.equals("toString")) && self != null) {
            return Object.class.getMethod(name, types);
        } else if (declaring == Throwable.class && (name.equals("getMessage") || name.equals("getLocalizedMessage"))
                && self instanceof Throwable) {
            return Throwable.class.getMethod(name, types);
        } else if (declaring.isInterface() && declaring.getClassLoader() == null && Modifier.isPublic(declaring.getModifiers())
                && own && declaring.isInstance(self)) {
            // A JDK interface's method on the teacher's own object (an Iterator's next, a compareTo).
            Method m = declaring.getMethod(name, types);
            if (m.getDeclaringClass().getClassLoader() == null && !Modifier.isStatic(m.getModifiers())) {
                return m;
            }
        }
        throw refused(shown);
    }

    /** Guarded: Object's own hashCode or toString on an object whose class does not override
     * it. Its identity hash is made in this JVM by what ran before (a bug's other code path
     * hashes other objects first), the same in every fresh reference run: no behaviour, yet it
     * would tell the reference from a bug. */
    static boolean identity(Object self, Method method) throws NoSuchMethodException {
        String name = method.getName();
        return self != null && method.getParameterCount() == 0 && (name.equals("hashCode") || name.equals("toString"))
                && self.getClass().getMethod(name).getDeclaringClass() == Object.class;
    }

    /** Guarded: Object's hashCode or toString of `self` from its handle's number instead, which
     * is the same on the reference and a bug as long as the tests' calls and their answers were:
     * `Stack@9e3779b9`, by the first class of its own above it that the API shows. */
    Object byHandle(Object self, String name) {
        Integer id = ids.get(self);
        int hash = (int) (((id == null ? -1L : id) + 1L) * 0x9E3779B97F4A7C15L >>> 33);
        if (name.equals("hashCode")) {
            return hash;
        }
        String shown = "java.lang.Object";
        for (Class<?> c = self.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            if (!hidden(c.getName())) {
                shown = c.getName();
                break;
            }
        }
        return shown + "@" + Integer.toHexString(hash);
    }

    // A lambda's or hidden class's name: `Stack$$Lambda$217/0x00007f5b3102c240`, a count of the
    // lambdas this JVM made and a metaspace address whose low bits are the same in every fresh
    // reference run: what ran before, not behaviour.
    private static final java.util.regex.Pattern SPUN = java.util.regex.Pattern.compile(
            "(\\$\\$Lambda)\\$\\d+|(?<=[\\w$])/0x[0-9a-f]{16}");

    @Override
    public String shown(String text) {
        return guarded && text != null ? SPUN.matcher(text).replaceAll("$1") : text;
    }

    /** What the student's code prints in a call, kept to PRINTED_BYTES. */
    static final class Printed extends OutputStream {
        final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            if (kept.size() < PRINTED_BYTES) {
                kept.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            kept.write(b, off, Math.max(0, Math.min(len, PRINTED_BYTES - kept.size())));
        }

        synchronized String take() {
            String text = new String(kept.toByteArray(), StandardCharsets.UTF_8);
            kept.reset();
            return text;
        }
    }

    @Override
    public boolean byReference(Object value) {
        return value.getClass().getClassLoader() == loader || value instanceof Enum;
    }

    @Override
    public void writeOther(DataOutputStream out, Object value) throws IOException {
        if (guarded && value.getClass().getClassLoader() != loader) {
            // A Class, a loader, a reflected member, a stream, any JDK object: not the API's.
            throw refused("a value of " + value.getClass().getName());
        }
        if (guarded && value instanceof Enum && !teachers(((Enum<?>) value).getDeclaringClass())) {
            throw refused("a value of " + value.getClass().getName());
        }
        if (value instanceof Enum && ((Enum<?>) value).getDeclaringClass().getClassLoader() == loader) {
            out.writeByte('U');
            JudgeWire.writeString(out, ((Enum<?>) value).getDeclaringClass().getName());
            JudgeWire.writeString(out, ((Enum<?>) value).name());
            return;
        }
        Integer id = ids.get(value);
        if (id == null) {
            id = objects.size();
            objects.add(value);
            ids.put(value, id);
        }
        Set<String> names = new LinkedHashSet<>();
        for (Class<?> c = value.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            names.add(c.getName());
        }
        for (Class<?> c = value.getClass(); c != null; c = c.getSuperclass()) {
            interfaces(c, names);
        }
        if (guarded) {
            names.removeIf(this::hidden);
        }
        out.writeByte('H');
        out.writeInt(id);
        out.writeInt(names.size());
        for (String name : names) {
            JudgeWire.writeString(out, name);
        }
    }

    /** Guarded: a class name not shown (a teacher's class that is not public API). */
    private boolean hidden(String name) {
        try {
            Class<?> c = Class.forName(name, false, loader);
            return c.getClassLoader() == loader ? !teachers(c) : !Modifier.isPublic(c.getModifiers());
        } catch (ClassNotFoundException | LinkageError e) {
            return true;
        }
    }

    private static void interfaces(Class<?> c, Set<String> names) {
        for (Class<?> i : c.getInterfaces()) {
            if (names.add(i.getName())) {
                interfaces(i, names);
            }
        }
    }

    @Override
    public Object readHandle(int id, String[] names) throws IOException {
        if (id < 0 || id >= objects.size()) {
            throw new IOException("no object has the handle " + id);
        }
        return objects.get(id);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Object readEnum(String type, String name) throws IOException {
        Class<?> c = named(type);
        if (guarded && !teachers(c)) {
            throw refused(type);
        }
        if (!c.isEnum()) {
            throw new IOException(type + " is not an enum");
        }
        return Enum.valueOf((Class) c, name);
    }

    @Override
    public Class<?> named(String name) throws IOException {
        Class<?> primitive = JudgeWire.primitive(name);
        if (primitive != null) {
            return primitive;
        }
        try {
            // Guarded, a name is resolved without running a class's initializer (a JDK class's
            // is no business of a request): it is a parameter type, else refused where used.
            Class<?> found = Class.forName(name, !guarded, loader);
            Class<?> component = found;
            while (component.isArray()) {
                component = component.getComponentType();
            }
            if (guarded && component.getClassLoader() == loader && !teachers(component)) {
                // A class of the teacher's outside the API answers as one that is not there.
                throw new ClassNotFoundException(name);
            }
            return found;
        } catch (ClassNotFoundException e) {
            throw new IOException("no class " + name);
        }
    }

    private Class<?>[] types(String[] descs) throws IOException {
        Class<?>[] found = new Class<?>[descs.length];
        for (int i = 0; i < descs.length; i++) {
            found[i] = named(descs[i]);
        }
        return found;
    }

    /** The method `name` with these parameters, declared by `declaring` or a class above it. */
    private static Method method(Class<?> declaring, String name, Class<?>[] types) throws NoSuchMethodException {
        for (Class<?> c = declaring; c != null; c = c.getSuperclass()) {
            try {
                return c.getDeclaredMethod(name, types);
            } catch (NoSuchMethodException e) {
                // on up
            }
        }
        return declaring.getMethod(name, types); // an interface's, or Object's
    }

    private static String[] strings(DataInputStream in) throws IOException {
        String[] found = new String[JudgeWire.readCount(in)];
        for (int i = 0; i < found.length; i++) {
            found[i] = JudgeWire.readString(in);
        }
        return found;
    }

    private Object[] values(DataInputStream in) throws IOException {
        Object[] found = new Object[JudgeWire.readCount(in)];
        for (int i = 0; i < found.length; i++) {
            found[i] = JudgeWire.read(in, this, 0);
        }
        return found;
    }

    /** Does one request; its reply frame. */
    byte[] answer(byte[] request, Printed printed) throws IOException {
        DataInputStream in = JudgeWire.reading(request);
        int kind = in.readUnsignedByte();
        Object[] args;
        Object result;
        try {
            if (kind == 'N') {
                Class<?> made = named(JudgeWire.readString(in));
                if (guarded && (!teachers(made) || Modifier.isAbstract(made.getModifiers()))) {
                    throw refused("new " + made.getName());
                }
                Constructor<?> constructor = guarded ? made.getConstructor(types(strings(in)))
                        : made.getDeclaredConstructor(types(strings(in)));
                args = values(in);
                if (!guarded) {
                    constructor.setAccessible(true);
                }
                Object object = constructor.newInstance(args);
                int id = objects.size();
                objects.add(object);
                ids.put(object, id);
                result = id;
            } else if (kind == 'C') {
                Object self = JudgeWire.read(in, this, 0);
                Class<?> declaring = named(JudgeWire.readString(in));
                String name = JudgeWire.readString(in);
                Class<?>[] types = types(strings(in));
                Method method = guarded ? allowed(self, declaring, name, types) : method(declaring, name, types);
                args = values(in);
                if (!guarded) {
                    method.trySetAccessible();
                }
                result = guarded && identity(self, method) ? byHandle(self, name) : method.invoke(self, args);
            } else if (kind == 'V') {
                args = new Object[0];
                result = copy(readHandle(in.readInt(), new String[0]));
            } else {
                throw new IOException("no request has the kind " + kind);
            }
        } catch (InvocationTargetException e) {
            return raised(e.getCause(), printed);
        } catch (Throwable e) {
            return raised(e, printed);
        }
        Object returned = result;
        Object[] given = args;
        try {
            return JudgeWire.frame(out -> {
                out.writeByte('R');
                JudgeWire.writeString(out, shown(printed.take()));
                JudgeWire.write(out, returned, this, 0);
                out.writeInt(given.length);
                for (Object arg : given) {
                    boolean changes = arg != null && (arg.getClass().isArray() || arg instanceof java.util.Collection
                            || arg instanceof Map) && !byReference(arg);
                    out.writeBoolean(changes);
                    if (changes) {
                        JudgeWire.write(out, arg, this, 0);
                    }
                }
            });
        } catch (Throwable e) {
            return raised(e, printed);
        }
    }

    /** A collection or map of the student's as the JDK's own (its elements as they cross). */
    static Object copy(Object value) {
        if (value instanceof Map) {
            return new java.util.LinkedHashMap<>((Map<?, ?>) value);
        }
        if (value instanceof Set) {
            return new LinkedHashSet<>((Set<?>) value);
        }
        return new ArrayList<>((java.util.Collection<?>) value);
    }

    /** The reply for an exception of the student's code: its classes, message and handle. */
    private byte[] raised(Throwable error, Printed printed) throws IOException {
        String message;
        try {
            message = error.getMessage();
        } catch (Throwable e) {
            message = null;
        }
        String said = message;
        return JudgeWire.frame(out -> {
            out.writeByte('X');
            JudgeWire.writeString(out, shown(printed.take()));
            List<String> names = new ArrayList<>();
            for (Class<?> c = error.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
                if (!guarded || !hidden(c.getName())) {
                    names.add(c.getName());
                }
            }
            out.writeInt(names.size());
            for (String name : names) {
                JudgeWire.writeString(out, name);
            }
            JudgeWire.write(out, said, this, 0);
            Integer id = ids.get(error);
            if (id == null) {
                id = objects.size();
                objects.add(error);
                ids.put(error, id);
            }
            out.writeInt(id);
        });
    }

    /** Guarded, the tests' JVM is started only once these bytes are written (the judge takes
     *  them off the pipe): the compile and the classes' initializers are not theirs to time. */
    static void gate(OutputStream channel, boolean guarded) throws IOException {
        if (guarded) {
            channel.write(GATE);
            channel.flush();
        }
    }

    public static void main(String[] args) throws IOException {
        OutputStream channel = new FileOutputStream(FileDescriptor.out);
        InputStream requests = new BufferedInputStream(new FileInputStream(FileDescriptor.in));
        Printed printed = new Printed();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        System.setIn(InputStream.nullInputStream());
        boolean guarded = args.length > 0 && args[0].equals(GUARDED);
        ClassLoader loader = JudgeTests.compileStudent(java.nio.file.Paths.get("").toAbsolutePath(), null);
        if (loader == null) {
            gate(channel, guarded);
            JudgeWire.writeFrame(channel, new byte[] {'E'});
            System.exit(0);
        }
        JudgeStudent side = new JudgeStudent(loader, guarded);
        Thread.currentThread().setContextClassLoader(loader);
        if (side.guarded) {
            side.initializeAll();
        }
        gate(channel, guarded);
        JudgeWire.writeFrame(channel, new byte[] {'K'});
        while (true) {
            byte[] request;
            try {
                request = JudgeWire.readFrame(requests);
            } catch (IOException e) {
                request = null;
            }
            if (request == null || (request.length == 1 && request[0] == 'Q')) {
                Runtime.getRuntime().halt(0); // the tests are done (or gone)
            }
            JudgeWire.writeFrame(channel, side.answer(request, printed));
        }
    }
}
