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
 */
public final class JudgeStudent implements JudgeWire.Side {
    static final int PRINTED_BYTES = 1 << 16;

    private final ClassLoader loader;
    private final List<Object> objects = new ArrayList<>();
    private final Map<Object, Integer> ids = new IdentityHashMap<>();

    JudgeStudent(ClassLoader loader) {
        this.loader = loader;
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
        out.writeByte('H');
        out.writeInt(id);
        out.writeInt(names.size());
        for (String name : names) {
            JudgeWire.writeString(out, name);
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
            return Class.forName(name, true, loader);
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
                Constructor<?> constructor = made.getDeclaredConstructor(types(strings(in)));
                args = values(in);
                constructor.setAccessible(true);
                Object object = constructor.newInstance(args);
                int id = objects.size();
                objects.add(object);
                ids.put(object, id);
                result = id;
            } else if (kind == 'C') {
                Object self = JudgeWire.read(in, this, 0);
                Class<?> declaring = named(JudgeWire.readString(in));
                String name = JudgeWire.readString(in);
                Method method = method(declaring, name, types(strings(in)));
                args = values(in);
                method.trySetAccessible();
                result = method.invoke(self, args);
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
                JudgeWire.writeString(out, printed.take());
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
            JudgeWire.writeString(out, printed.take());
            List<String> names = new ArrayList<>();
            for (Class<?> c = error.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
                names.add(c.getName());
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

    public static void main(String[] args) throws IOException {
        OutputStream channel = new FileOutputStream(FileDescriptor.out);
        InputStream requests = new BufferedInputStream(new FileInputStream(FileDescriptor.in));
        Printed printed = new Printed();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        System.setIn(InputStream.nullInputStream());
        ClassLoader loader = JudgeTests.compileStudent(java.nio.file.Paths.get("").toAbsolutePath(), null);
        if (loader == null) {
            JudgeWire.writeFrame(channel, new byte[] {'E'});
            System.exit(0);
        }
        JudgeStudent side = new JudgeStudent(loader);
        Thread.currentThread().setContextClassLoader(loader);
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
