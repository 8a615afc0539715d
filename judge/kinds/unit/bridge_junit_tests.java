import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The tests' side of a JUnit problem in mode apart. In a sandbox of its own, it compiles the
 * student's classes only to read their signatures (loaded, never initialized: none of their
 * code runs here), writes stand-ins of the same names (JudgeStandIns), compiles the teacher's
 * tests against them, and runs the tests; each thing a test does with a stand-in is sent to the
 * student's JVM (JudgeStudent) and its reply brought back. The assertions, each test's outcome
 * and the file of results stay here, where the student's code never runs: all it can send is
 * what its methods return or raise. A test's CPU time is the kernel's figure for the student's
 * process, read on the judge's clock (a symbolic link the judge replaces as it watches).
 * Runs as JudgeTests FEEDBACK_DIR PER_TEST_S WALL_S CLOCK ID...; stdin and stdout are the pipes to
 * the student's JVM, and the student's sources are in student/.
 */
public final class JudgeTests {
    static final String RESULTS = "results.jsonl";
    static final String STUDENT = "student";
    static final String STUDENT_SUFFIX = ".student";
    static final String STAND_INS = "judge-standins";
    static final String STAND_IN_SUFFIX = ".standin";
    static final String GUARDED = "--guarded"; // after the clock: a tests problem's run (`prepared`)
    private static boolean guarded;
    static final int PRINTED_CHARS = 4096;
    static final String MEMORY_ERROR = "the student's code raised MemoryError";
    static final Object ENDED = new Object();
    static final Object GARBLED = new Object();

    private static final Map<Integer, Object> held = new HashMap<>();
    private static final Set<Throwable> raised = Collections.newSetFromMap(new IdentityHashMap<>());
    private static final BlockingQueue<Object> replies = new ArrayBlockingQueue<>(4);
    private static OutputStream toStudent;
    private static ClassLoader standIns;
    private static Path clock;
    private static double perTest;
    /** A test's wall limit, as the judge's sandbox.wall_for makes it of perTest. */
    private static double wallPerTest;
    private static double cpuAtStart;
    private static double lastCpu;
    private static long started;
    private static StringBuilder printed = new StringBuilder();
    static String faultKind;
    static String faultMessage;
    private static volatile String garbled = "";
    private static Thread reader;
    static final double GRACE_S = 2.0;
    static volatile String current; // the test running, for the watch
    static final java.util.concurrent.atomic.AtomicBoolean recorded = new java.util.concurrent.atomic.AtomicBoolean(true);

    private JudgeTests() {
    }

    /** What the student's side did to the channel (or a stand-in could not do): an Error, so a
     * test's `catch (Exception e)` does not take it; the test's record says it whatever the
     * test does with it. */
    static final class Fault extends Error {
        Fault(String message) {
            super(message);
        }
    }

    /** A value of the test's that does not cross to the student's JVM (a lambda, a stream). */
    static final class Unsupported extends IOException {
        Unsupported(String message) {
            super(message);
        }
    }

    static Fault fault(String kind, String message) {
        if (faultKind == null) {
            faultKind = kind;
            faultMessage = message;
        }
        return new Fault(faultMessage);
    }

    // ---------------------------------------------------------------- the bridge, for stand-ins

    static final JudgeWire.Side SIDE = new JudgeWire.Side() {
        @Override
        public boolean byReference(Object value) {
            return value instanceof JudgeWire.Remote || forwarder(value) != null;
        }

        @Override
        public void writeOther(DataOutputStream out, Object value) throws IOException {
            if (value instanceof Enum && ((Enum<?>) value).getDeclaringClass().getClassLoader() == standIns) {
                out.writeByte('U');
                JudgeWire.writeString(out, ((Enum<?>) value).getDeclaringClass().getName());
                JudgeWire.writeString(out, ((Enum<?>) value).name());
                return;
            }
            JudgeWire.Handle handle = value instanceof JudgeWire.Remote ? ((JudgeWire.Remote) value).judge$handle() : null;
            Forwarder proxy = forwarder(value);
            if (handle == null && proxy == null) {
                throw new Unsupported("mode apart hands the student's code plain values and its own objects, not a "
                        + value.getClass().getName() + " (use mode: together for this test)");
            }
            out.writeByte('H');
            out.writeInt(handle != null ? handle.id : proxy.id);
            out.writeInt(0);
        }

        @Override
        public Object readHandle(int id, String[] names) throws IOException {
            Object known = held.get(id);
            return known != null ? known : remote(id, names);
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Object readEnum(String type, String name) throws IOException {
            Class<?> c = named(type);
            if (!c.isEnum() || c.getClassLoader() != standIns) {
                throw new IOException("no enum of the student's is named " + type);
            }
            try {
                return Enum.valueOf((Class) c, name);
            } catch (IllegalArgumentException e) {
                throw new IOException("no constant " + name + " in " + type);
            }
        }

        @Override
        public Class<?> named(String name) {
            return local(name);
        }
    };

    /** A class by its name here: a stand-in, the JDK's or JUnit's; Object when there is none. */
    static Class<?> local(String name) {
        Class<?> primitive = JudgeWire.primitive(name);
        if (primitive != null) {
            return primitive;
        }
        try {
            return Class.forName(name, false, standIns);
        } catch (ClassNotFoundException | LinkageError e) {
            return Object.class;
        }
    }

    /** A stand-in made for a student's object: registered, so the same object is the same here. */
    public static void hold(JudgeWire.Handle handle, Object standIn) {
        held.putIfAbsent(handle.id, standIn);
    }

    /** `a.equals(b)` for a stand-in `a`: the student's equals when `b` is the student's object
     * too, else false (a plain value equals no object of the student's: decided here). */
    public static boolean same(Object self, Object other) {
        if (!(other instanceof JudgeWire.Remote) && forwarder(other) == null) {
            return false;
        }
        return (Boolean) call(self, "java.lang.Object", "equals", new String[] {"java.lang.Object"}, new Object[] {other});
    }

    /** A student's object orders with no plain value: that is refused here, as `equals` is
     * decided here, so no expected value goes over to be compared (an expected TreeSet asks
     * each element's compareTo about its own values). */
    public static void ordered(Object other) {
        if (!(other instanceof JudgeWire.Remote) && forwarder(other) == null) {
            throw new ClassCastException("a student's object is not ordered against a "
                    + (other == null ? "null" : other.getClass().getName()) + " (decided by the judge)");
        }
    }

    static Forwarder forwarder(Object value) {
        if (value != null && Proxy.isProxyClass(value.getClass())) {
            InvocationHandler handler = Proxy.getInvocationHandler(value);
            return handler instanceof Forwarder ? (Forwarder) handler : null;
        }
        return null;
    }

    /** A student's object with no stand-in of its class (a lambda, a JDK object, an anonymous
     * class): a proxy of its public interfaces, each call sent on. */
    static final class Forwarder implements InvocationHandler {
        final int id;

        Forwarder(int id) {
            this.id = id;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            Object[] given = args == null ? new Object[0] : args;
            if (method.getName().equals("judge$handle") && given.length == 0) {
                return new JudgeWire.Handle(id);
            }
            if (method.getName().equals("equals") && given.length == 1 && method.getParameterTypes()[0] == Object.class) {
                return same(proxy, given[0]);
            }
            if (method.getName().equals("compareTo") && given.length == 1) {
                ordered(given[0]);
            }
            String declaring = method.getDeclaringClass() == Object.class ? "java.lang.Object" : method.getDeclaringClass().getName();
            Class<?>[] types = method.getParameterTypes();
            String[] descs = new String[types.length];
            for (int i = 0; i < types.length; i++) {
                descs[i] = types[i].getName();
            }
            return call(proxy, declaring, method.getName(), descs, given);
        }
    }

    static Object remote(int id, String[] names) {
        boolean collection = List.of(names).contains("java.util.Collection") || List.of(names).contains("java.util.Map");
        for (String name : names) {
            Class<?> c = local(name);
            boolean fits = !collection || Collection.class.isAssignableFrom(c) || Map.class.isAssignableFrom(c);
            if (c.getClassLoader() == standIns && !c.isInterface() && !c.isEnum() && fits) {
                try {
                    java.lang.reflect.Constructor<?> made = c.getDeclaredConstructor(JudgeWire.Handle.class);
                    made.setAccessible(true);
                    return made.newInstance(new JudgeWire.Handle(id));
                } catch (ReflectiveOperationException e) {
                    // an abstract class's: a proxy of its interfaces below
                }
            }
        }
        if (collection) {
            // A collection or map of the student's with no stand-in that is one (an anonymous AbstractSet):
            // its contents, copied over there. As a proxy, the JDK's equals of an expected set
            // or map would ask it about the expected values (contains, get, compareTo).
            return copied(id);
        }
        Set<Class<?>> faces = new LinkedHashSet<>();
        for (String name : names) {
            Class<?> c = local(name);
            ClassLoader from = c.getClassLoader();
            boolean known = from == null || from == ClassLoader.getPlatformClassLoader() || from == standIns;
            // The JDK's interfaces and the stand-ins', never JUnit's or the judge's own.
            if (known && c.isInterface() && Modifier.isPublic(c.getModifiers()) && !c.isSealed()) {
                faces.add(c);
            }
        }
        faces.add(JudgeWire.Remote.class);
        Object proxy = Proxy.newProxyInstance(standIns, faces.toArray(new Class<?>[0]), new Forwarder(id));
        held.putIfAbsent(id, proxy);
        return proxy;
    }

    /** The contents of the student's collection or map `id`, as plain data. */
    static Object copied(int id) {
        byte[] request = request(out -> {
            out.writeByte('V');
            out.writeInt(id);
        });
        return answer(exchange(request), new Object[0]);
    }

    /** A stand-in's constructor: the student's object made over there; its handle. */
    public static JudgeWire.Handle make(String type, String[] descs, Object[] args) {
        byte[] request = request(out -> {
            out.writeByte('N');
            JudgeWire.writeString(out, type);
            strings(out, descs);
            values(out, args);
        });
        Object made = answer(exchange(request), args);
        if (!(made instanceof Integer)) {
            throw fault("garbled", "the student's JVM made an object and sent no handle for it");
        }
        return new JudgeWire.Handle((Integer) made);
    }

    /** A stand-in's method: the student's method called over there; what it returned. */
    public static Object call(Object self, String declaring, String name, String[] descs, Object[] args) {
        byte[] request = request(out -> {
            out.writeByte('C');
            JudgeWire.write(out, self, SIDE, 0);
            JudgeWire.writeString(out, declaring);
            JudgeWire.writeString(out, name);
            strings(out, descs);
            values(out, args);
        });
        return answer(exchange(request), args);
    }

    private static void strings(DataOutputStream out, String[] items) throws IOException {
        out.writeInt(items.length);
        for (String item : items) {
            JudgeWire.writeString(out, item);
        }
    }

    private static void values(DataOutputStream out, Object[] items) throws IOException {
        out.writeInt(items.length);
        for (Object item : items) {
            JudgeWire.write(out, item, SIDE, 0);
        }
    }

    private static byte[] request(JudgeWire.Filler fill) {
        try {
            return JudgeWire.frame(fill);
        } catch (Unsupported e) {
            throw fault("unsupported", e.getMessage());
        } catch (IOException e) {
            throw fault("unsupported", "a value the test hands the student's code: " + e.getMessage());
        }
    }

    static double cpuNow() {
        try {
            lastCpu = Math.max(lastCpu, Double.parseDouble(Files.readSymbolicLink(clock).toString()));
        } catch (IOException | NumberFormatException e) {
            // a rename replaces it whole: the last figure holds
        }
        return lastCpu;
    }

    static double used() {
        return cpuNow() - cpuAtStart;
    }

    /** The request sent, its reply frame; a Fault when the student's JVM is lost, stuck or garbled. */
    private static byte[] exchange(byte[] request) {
        if (faultKind != null && !faultKind.equals("unsupported")) {
            throw new Fault(faultMessage);
        }
        try {
            JudgeWire.writeFrame(toStudent, request);
        } catch (IOException e) {
            throw fault("gone", "the student's process has ended");
        }
        long deadline = started + (long) (wallPerTest * 1e9);
        while (true) {
            if (used() > perTest) {
                throw fault("stuck", String.format(Locale.ROOT, "the student's code used more than %g s of CPU time", perTest));
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw fault("stuck", String.format(Locale.ROOT, "the student's code did not return within %g s", wallPerTest));
            }
            Object got;
            try {
                got = replies.poll(Math.min(left, 50_000_000L), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                throw fault("stuck", "interrupted");
            }
            if (got == ENDED) {
                throw fault("gone", "the student's process ended during this test");
            }
            if (got == GARBLED) {
                throw fault("garbled", garbled);
            }
            if (got != null) {
                return (byte[]) got;
            }
        }
    }

    /** The reply read: its value, or the student's exception thrown here. */
    private static Object answer(byte[] reply, Object[] args) {
        Throwable thrown;
        try {
            DataInputStream in = JudgeWire.reading(reply);
            int kind = in.readUnsignedByte();
            String said = JudgeWire.readString(in);
            if (printed.length() < PRINTED_CHARS) {
                printed.append(said, 0, Math.min(said.length(), PRINTED_CHARS - printed.length()));
            }
            System.out.print(said);
            if (kind == 'R') {
                Object value = JudgeWire.read(in, SIDE, 0);
                int count = JudgeWire.readCount(in);
                for (int i = 0; i < count; i++) {
                    if (in.readBoolean()) {
                        Object after = JudgeWire.read(in, SIDE, 0);
                        if (i < args.length) {
                            changed(args[i], after, 0);
                        }
                    }
                }
                if (used() > perTest) {
                    throw fault("stuck", String.format(Locale.ROOT, "the student's code used more than %g s of CPU time", perTest));
                }
                return value;
            }
            if (kind != 'X') {
                throw new IOException("no reply has the kind " + kind);
            }
            String[] names = new String[JudgeWire.readCount(in)];
            for (int i = 0; i < names.length; i++) {
                names[i] = JudgeWire.readString(in);
            }
            Object message = JudgeWire.read(in, SIDE, 0);
            if (message != null && !(message instanceof String)) {
                throw new IOException("an exception's message that is not text");
            }
            thrown = remade(names, (String) message, in.readInt());
        } catch (Fault e) {
            throw e;
        } catch (IOException | RuntimeException | LinkageError e) {
            throw fault("garbled", "the student's code wrote on the tests' channel (a reply that is not one)");
        }
        raised.add(thrown);
        throw JudgeTests.<RuntimeException>sneaky(thrown);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable error) throws E {
        throw (E) error;
    }

    /** The student's exception here: its stand-in (the student's class), else the JDK's class
     * nearest to it made anew with its message, else a RuntimeException naming it. */
    private static Throwable remade(String[] names, String message, int id) {
        Object known = held.get(id);
        if (known instanceof Throwable) {
            return (Throwable) known;
        }
        for (String name : names) {
            Class<?> c = local(name);
            if (!Throwable.class.isAssignableFrom(c)) {
                continue;
            }
            try {
                if (c.getClassLoader() == standIns) {
                    java.lang.reflect.Constructor<?> made = c.getDeclaredConstructor(JudgeWire.Handle.class);
                    made.setAccessible(true);
                    return (Throwable) made.newInstance(new JudgeWire.Handle(id));
                }
                ClassLoader from = c.getClassLoader();
                if ((from == null || from == ClassLoader.getPlatformClassLoader()) && Modifier.isPublic(c.getModifiers())) {
                    String text = c == OutOfMemoryError.class ? MEMORY_ERROR + ": " + message : message;
                    return (Throwable) c.getConstructor(String.class).newInstance(text);
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                // the next class up
            }
        }
        return new RuntimeException((names.length > 0 ? names[0] : "an exception") + ": " + message);
    }

    /** A test's array or collection takes the changes the student's call made to it. */
    @SuppressWarnings("unchecked")
    static void changed(Object original, Object after, int depth) {
        if (original == null || after == null || depth > JudgeWire.MAX_DEPTH) {
            return;
        }
        try {
            if (original.getClass().isArray() && after.getClass().isArray()) {
                int length = Array.getLength(original);
                if (length != Array.getLength(after)) {
                    return;
                }
                for (int i = 0; i < length; i++) {
                    Object was = Array.get(original, i);
                    Object now = Array.get(after, i);
                    if (was != null && now != null && was.getClass().isArray()) {
                        changed(was, now, depth + 1);
                    } else {
                        Array.set(original, i, now);
                    }
                }
            } else if (original instanceof Collection && after instanceof Collection) {
                Collection<Object> kept = (Collection<Object>) original;
                kept.clear();
                kept.addAll((Collection<Object>) after);
            } else if (original instanceof Map && after instanceof Map) {
                Map<Object, Object> kept = (Map<Object, Object>) original;
                kept.clear();
                kept.putAll((Map<Object, Object>) after);
            }
        } catch (RuntimeException e) {
            // an unchangeable collection (List.of) stays as it was, as it would have
        }
    }

    // ---------------------------------------------------------------- compiling

    /** The student's classes (the top-level .java files of `folder`) compiled into a private
     * folder and loaded from there, apart from the judge's classes; null when they do not
     * compile, the errors in `errors`. */
    static ClassLoader compileStudent(Path folder, StringBuilder errors) throws IOException {
        List<File> sources;
        try (Stream<Path> listed = Files.list(folder)) {
            sources = listed.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
                    .sorted().map(Path::toFile).collect(Collectors.toList());
        }
        Path classes = Files.createTempDirectory("judge-student");
        String failed = compile(sources, classes, classes.toString(), folder);
        if (failed != null) {
            if (errors != null) {
                errors.append(failed);
            }
            return null;
        }
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    }

    /** CPU time the tests' JVM may spend reading the student's classes and compiling the tests
     * against their stand-ins, in all: sources made to keep javac (or the stand-ins) busy would
     * end this process at its limit (the judge's IE) or slow every pair. A few small classes
     * take 0.4 s. */
    static final double PREPARE_CPU_S = Double.parseDouble(System.getProperty("judge.compileCpuS", "3"));

    /** The work of `prepared`, in a thread of its own whose CPU time is watched: over
     * PREPARE_CPU_S (or six times that of wall time) the student's sources are to blame, a CE,
     * and this JVM ends. */
    static ClassLoader watched(Path box, List<String> ids) throws IOException {
        ClassLoader[] result = new ClassLoader[1];
        Throwable[] failed = new Throwable[1];
        Thread work = new Thread(() -> {
            try {
                result[0] = prepared(box, ids);
            } catch (Throwable e) {
                failed[0] = e;
            }
        }, "judge-prepare");
        work.setDaemon(true);
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long until = System.nanoTime() + (long) (6 * PREPARE_CPU_S * 1e9);
        work.start();
        try {
            while (work.isAlive()) {
                work.join(50);
                if (cpu.getThreadCpuTime(work.getId()) > PREPARE_CPU_S * 1e9 || System.nanoTime() > until) {
                    collectError(String.format(Locale.ROOT, "your classes took the judge over %g s to read and stand in for",
                            PREPARE_CPU_S), true);
                    results.flush();
                    Runtime.getRuntime().halt(42);
                }
            }
        } catch (InterruptedException e) {
            Runtime.getRuntime().halt(42);
        }
        if (failed[0] instanceof IOException) {
            throw (IOException) failed[0];
        }
        if (failed[0] instanceof RuntimeException) {
            throw (RuntimeException) failed[0];
        }
        if (failed[0] instanceof LinkageError) {
            throw (LinkageError) failed[0];
        }
        if (failed[0] != null) {
            throw new IOException(failed[0]);
        }
        return result[0];
    }

    /** javac on `sources` into `classes`: null, or its errors as the student is shown them. */
    static String compile(List<File> sources, Path classes, String classPath, Path base) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> found = new DiagnosticCollector<>();
        StandardJavaFileManager files = javac.getStandardFileManager(found, Locale.ROOT, StandardCharsets.UTF_8);
        // No annotation processing: nothing of the student's runs while compiling.
        List<String> options = List.of("-encoding", "UTF-8", "-proc:none", "-nowarn", "-Xlint:none",
                "-cp", classPath, "-d", classes.toString());
        boolean ok = javac.getTask(null, files, found, options, null, files.getJavaFileObjectsFromFiles(sources)).call();
        files.close();
        return ok ? null : JudgeRunner.errors(found.getDiagnostics(), base);
    }

    /** The student's classes as compiled, loaded and never initialized. */
    static List<Class<?>> classesOf(ClassLoader loader) throws IOException {
        Path folder = Paths.get(((URLClassLoader) loader).getURLs()[0].getPath());
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path p : walk.sorted().collect(Collectors.toList())) {
                String name = folder.relativize(p).toString();
                if (!name.endsWith(".class")) {
                    continue;
                }
                try {
                    found.add(Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false, loader));
                } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
                    // a class that does not load here (a java.* package: a SecurityException)
                    // is not stood in: the tests' compile names it
                }
            }
        }
        return found;
    }

    static final java.util.regex.Pattern TEST_FILE = java.util.regex.Pattern.compile("(Test.*|.*Tests?)\\.java");

    /** The tests and stand-ins compiled and loaded; null when they do not compile (written). */
    static final java.util.regex.Pattern ON_DEMAND = java.util.regex.Pattern.compile(
            "^\\s*import\\s+([\\w.]+)\\s*\\.\\s*\\*\\s*;", java.util.regex.Pattern.MULTILINE);

    /** Which of `names` the tests see as a class of the JDK's or JUnit's: java.lang's, or one of
     * a package a test file imports on demand (`import java.util.*;`). */
    static Set<String> seen(List<File> tests, List<Class<?>> classes) throws IOException {
        Set<String> packages = new LinkedHashSet<>(List.of("java.lang"));
        for (File test : tests) {
            java.util.regex.Matcher found = ON_DEMAND.matcher(Files.readString(test.toPath(), StandardCharsets.UTF_8));
            while (found.find()) {
                packages.add(found.group(1));
            }
        }
        Set<String> taken = new LinkedHashSet<>(roots());
        for (Class<?> c : classes) {
            for (String where : packages) {
                try {
                    Class.forName(where + "." + c.getSimpleName(), false, JudgeTests.class.getClassLoader());
                    taken.add(c.getSimpleName());
                } catch (ClassNotFoundException | LinkageError e) {
                    // not a class there
                }
            }
        }
        return taken;
    }

    /** The first names of every package the tests can name (java, javax, jdk, org, com, ...): a
     * class of the student's by one of them would hide the package in a qualified name
     * (`org.junit.jupiter.api.Assertions.assertEquals` would be the student's). */
    static Set<String> roots() throws IOException {
        Set<String> found = new LinkedHashSet<>();
        for (Module module : ModuleLayer.boot().modules()) {
            for (String name : module.getPackages()) {
                found.add(name.split("\\.", 2)[0]);
            }
        }
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.endsWith(".jar") || !Files.isRegularFile(Paths.get(entry))) {
                continue;
            }
            try (java.util.jar.JarFile jar = new java.util.jar.JarFile(entry)) {
                jar.stream().forEach(item -> {
                    String name = item.getName();
                    if (name.endsWith(".class") && name.contains("/")) {
                        found.add(name.substring(0, name.indexOf('/')));
                    }
                });
            }
        }
        return found;
    }

    /** `student`: the classes stood in for, or null when the stand-ins are made (guarded). */
    static ClassLoader compileTests(Path box, List<String> ids, ClassLoader student) throws IOException {
        Set<String> own = new LinkedHashSet<>();
        for (String id : ids) {
            own.add(id.split("::", 2)[0]);
        }
        List<File> tests = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(box)) {
            for (Path p : walk.sorted().collect(Collectors.toList())) {
                String name = box.relativize(p).toString();
                boolean helper = !TEST_FILE.matcher(p.getFileName().toString()).matches();
                if (name.endsWith(".java") && Files.isRegularFile(p) && !name.startsWith(STUDENT + "/")
                        && !name.startsWith(STAND_INS + "/") && (own.contains(name) || helper)) {
                    tests.add(p.toFile());
                }
            }
        }
        Path folder = box.resolve(STAND_INS);
        Files.createDirectories(folder);
        List<File> sources = new ArrayList<>(tests);
        if (student != null) {
            List<Class<?>> theirs = classesOf(student);
            Map<String, String> made = new JudgeStandIns(student, theirs, seen(tests, theirs)).sources();
            for (Map.Entry<String, String> file : made.entrySet()) {
                Files.writeString(folder.resolve(file.getKey()), file.getValue());
            }
        }
        // Guarded, the stand-ins are the judge's, made in the teacher's box (`prepared`).
        try (Stream<Path> made = Files.list(folder)) {
            for (Path p : made.sorted().collect(Collectors.toList())) {
                sources.add(p.toFile());
            }
        }
        Path classes = Files.createTempDirectory("judge-tests");
        String failed = compile(sources, classes, System.getProperty("java.class.path"), box);
        if (failed != null) {
            boolean ours = failed.contains(STAND_INS + "/");
            String why = ours ? "the judge could not stand in for your classes in mode apart (use mode: together): " : "";
            // A test reading a field: the stand-ins have methods only. Said, for the teacher's verify.
            String field = failed.contains("symbol:   variable") ? "\n(mode apart: the tests reach the student's"
                    + " classes through their methods; a field is not stood in: docs/unit.md, mode: together)" : "";
            collectError(why + failed + field, true);
            return null;
        }
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, JudgeTests.class.getClassLoader());
    }

    // ---------------------------------------------------------------- results

    private static PrintStream results;

    static synchronized void write(String line) {
        results.println(line);
        results.flush();
    }

    static void collectError(String message, boolean student) {
        String text = message.length() > 2000 ? message.substring(0, 2000) : message;
        write("{\"collect_error\": \"\", \"student\": " + student + ", \"message\": " + JudgeRunner.quote(text) + "}");
    }

    static void begin() {
        faultKind = "unsupported".equals(faultKind) ? null : faultKind;
        printed = new StringBuilder();
        cpuAtStart = cpuNow();
        started = System.nanoTime();
    }

    /** A test's one failing phase: its fault, the student's exception, a skip or the test's own. */
    static String phase(TestExecutionResult result, String when) {
        String kind = "error";
        String message;
        Throwable error = result.getThrowable().orElse(null);
        if (faultKind == null && result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
            return null;
        }
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            kind = "skipped";
            message = error == null ? "aborted" : error.toString();
        } else if (error != null && raised.contains(error)) {
            kind = "student";
            message = error.getClass() == OutOfMemoryError.class ? error.getMessage()
                    : "the student's code raised " + error.getClass().getName() + ": " + safeMessage(error);
        } else if (error instanceof AssertionError) {
            kind = "assert";
            message = safeMessage(error);
        } else {
            message = error == null ? "failed" : error.getClass().getName() + ": " + safeMessage(error);
        }
        if (faultKind != null) {
            // Last: a fault while the message was made (a stand-in's getMessage) counts too.
            kind = faultKind;
            message = faultMessage;
        }
        if (message.length() > 2000) {
            message = message.substring(0, 2000);
        }
        return "{\"when\": \"" + when + "\", \"kind\": \"" + kind + "\", \"message\": " + JudgeRunner.quote(message) + "}";
    }

    /** An exception's message; a stand-in's asks the student's JVM, which may fail (a fault). */
    static String safeMessage(Throwable error) {
        try {
            return String.valueOf(error.getMessage());
        } catch (Throwable e) {
            return "(no message)";
        }
    }

    static void record(String id, String phase) {
        double cpu = used();
        double wall = (System.nanoTime() - started) / 1e9;
        String text = printed.toString();
        write(String.format(Locale.ROOT, "{\"id\": %s, \"phases\": [%s], \"cpu\": %.4f, \"wall\": %.4f, \"printed\": %s}",
                JudgeRunner.quote(id), phase == null ? "" : phase, cpu, wall, JudgeRunner.quote(text)));
    }

    static boolean lost() {
        return faultKind != null && !faultKind.equals("unsupported");
    }

    // ---------------------------------------------------------------- running

    /** The student's JVM's first word: ready, or its compile failed; null when it is fine. */
    static String ready() {
        Object first;
        try {
            first = replies.poll(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            first = null;
        }
        if (first instanceof byte[] && ((byte[]) first).length == 1 && ((byte[]) first)[0] == 'K') {
            return null;
        }
        if (first instanceof byte[] && ((byte[]) first).length == 1 && ((byte[]) first)[0] == 'E') {
            return "your classes do not compile";
        }
        return "the student's process ended before its first test";
    }

    static void listen(InputStream from) {
        reader = new Thread(() -> {
            try {
                while (true) {
                    byte[] frame = JudgeWire.readFrame(from);
                    replies.put(frame == null ? ENDED : frame);
                    if (frame == null) {
                        return;
                    }
                }
            } catch (IOException | OutOfMemoryError e) {
                garbled = e instanceof OutOfMemoryError || String.valueOf(e.getMessage()).startsWith("a frame of")
                        ? "the student's code sent a reply of over " + (JudgeWire.MAX_FRAME >> 20) + " MiB"
                        : "the student's code wrote on the tests' channel (a reply that is not one)";
                try {
                    replies.put(GARBLED);
                } catch (InterruptedException stop) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
        }, "judge-replies");
        reader.setDaemon(true);
        reader.start();
    }

    public static void main(String[] args) throws IOException {
        Path box = Paths.get("").toAbsolutePath();
        results = new PrintStream(new FileOutputStream(box.resolve(args[0]).resolve(RESULTS).toFile(), true), true,
                StandardCharsets.UTF_8);
        toStudent = new FileOutputStream(FileDescriptor.out);
        InputStream fromStudent = new BufferedInputStream(new FileInputStream(FileDescriptor.in));
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        System.setIn(InputStream.nullInputStream());
        perTest = Double.parseDouble(args[1]);
        wallPerTest = Double.parseDouble(args[2]);
        clock = Paths.get(args[3]);
        try {
            lastCpu = Double.parseDouble(Files.readSymbolicLink(clock).toString());
        } catch (IOException | NumberFormatException e) {
            collectError("no clock of the student's CPU time: " + e, false);
            System.exit(42);
        }
        guarded = args.length > 4 && args[4].equals(GUARDED);
        List<String> ids = new ArrayList<>(List.of(args).subList(guarded ? 5 : 4, args.length));
        listen(fromStudent);
        try {
            standIns = watched(box, ids);
        } catch (IOException | RuntimeException | LinkageError e) {
            // The student's sources are all that differ between one run and the next (the
            // reference's `judge verify` passes here): what they make fail is theirs, a CE.
            collectError("the judge could not read your classes: " + e, true);
            System.exit(42);
        }
        if (standIns == null) {
            System.exit(42);
        }
        String late = ready();
        if (late != null) {
            collectError(late, true);
            System.exit(42);
        }
        begin(); // a test class's own setup (@BeforeAll, a static field) may call the student's code
        watch();
        run(ids);
        results.flush();
        // The JVM's exit waits up to 0.3 s for a thread blocked in a read (the replies' reader):
        // the student's JVM is told to end, so that the read ends first.
        try {
            JudgeWire.writeFrame(toStudent, new byte[] {'Q'});
            reader.join(100);
        } catch (IOException | InterruptedException e) {
            // it has ended already
        }
        Runtime.getRuntime().halt(42);
    }

    /** The student's classes read and the tests compiled against their stand-ins, loaded; null
     * when either does not compile (written as a CE). */
    static ClassLoader prepared(Path box, List<String> ids) throws IOException {
        StringBuilder errors = new StringBuilder();
        if (guarded) {
            // A tests problem: the tests are a student's, and the classes the teacher's, whose
            // sources never come here. The judge lays only their stand-ins, made in a box of the
            // teacher's (JudgeStandIns.main), as NAME.java.standin.
            Files.createDirectories(box.resolve(STAND_INS));
            try (Stream<Path> listed = Files.list(box)) {
                for (Path p : listed.collect(Collectors.toList())) {
                    String name = p.getFileName().toString();
                    if (name.endsWith(".java" + STAND_IN_SUFFIX)) {
                        Files.copy(p, box.resolve(STAND_INS).resolve(name.substring(0, name.length() - STAND_IN_SUFFIX.length())));
                    }
                }
            }
            return compileTests(box, ids, null);
        }
        // The judge lays the student's sources beside the tests as NAME.java.student (read-only).
        try (Stream<Path> listed = Files.list(box)) {
            for (Path p : listed.collect(Collectors.toList())) {
                String name = p.getFileName().toString();
                if (name.endsWith(".java" + STUDENT_SUFFIX)) {
                    Files.copy(p, box.resolve(STUDENT).resolve(name.substring(0, name.length() - STUDENT_SUFFIX.length())));
                }
            }
        }
        ClassLoader student = compileStudent(box.resolve(STUDENT), errors);
        if (student == null) {
            collectError(errors.toString(), true);
            return null;
        }
        return compileTests(box, ids, student);
    }

    /** Each test ends by its deadline (wallPerTest: the wall limit the judge gives its CPU time)
     * and a grace of GRACE_S, whatever holds it: a reply made to be slow to read (keys that all collide in a hash map),
     * a test's own work on what the student's code gave it. Past that, the test is TLE and this
     * JVM ends, so that the judge runs the file's other tests in a new pair. */
    static void watch() {
        Thread watcher = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
                long over = started + (long) ((wallPerTest + GRACE_S) * 1e9);
                String id = current;
                if (id != null && System.nanoTime() > over && recorded.compareAndSet(false, true)) {
                    String why = String.format(Locale.ROOT, "the test did not end within %g s", wallPerTest);
                    record(id, "{\"when\": \"call\", \"kind\": \"stuck\", \"message\": " + JudgeRunner.quote(why) + "}");
                    results.flush();
                    Runtime.getRuntime().halt(43);
                }
            }
        }, "judge-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    static void run(List<String> ids) {
        Thread.currentThread().setContextClassLoader(standIns);
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        for (String id : ids) {
            JudgeRunner.select(request, standIns, id);
        }
        Set<String> reported = new LinkedHashSet<>();
        Map<String, String> failedClasses = new LinkedHashMap<>();
        Launcher launcher = LauncherFactory.create();
        try {
            execute(launcher, request, ids, reported, failedClasses);
        } catch (RuntimeException e) {
            // JUnit could not find or start the tests (the teacher's file): each is unreported below.
            failedClasses.put("", "{\"when\": \"setup\", \"kind\": \"error\", \"message\": "
                    + JudgeRunner.quote(String.valueOf(e.getMessage())) + "}");
        }
        String why = failedClasses.isEmpty() ? null : failedClasses.values().iterator().next();
        for (String id : ids) {
            if (!reported.contains(id)) {
                write("{\"start\": " + JudgeRunner.quote(id) + "}");
                begin();
                record(id, why != null ? why
                        : "{\"when\": \"setup\", \"kind\": \"error\", \"message\": \"JUnit did not run this test\"}");
            }
        }
    }

    static void execute(Launcher launcher, LauncherDiscoveryRequestBuilder request, List<String> ids, Set<String> reported,
            Map<String, String> failedClasses) {
        launcher.execute(request.build(), new JudgeRunner.Gathering(ids) {
            @Override
            void opened(String id) {
                write("{\"start\": " + JudgeRunner.quote(id) + "}");
                begin();
                current = id;
                recorded.set(false);
            }

            @Override
            void containerFailed(TestIdentifier test, TestExecutionResult result) {
                failedClasses.put(test.getDisplayName(), phase(result, "setup"));
            }

            @Override
            void closed(String id, TestExecutionResult result) {
                String phase = phase(result, "call");
                if (!recorded.compareAndSet(false, true)) {
                    return; // the watch recorded it, and ends this JVM
                }
                current = null;
                record(id, phase);
                reported.add(id);
                if (lost()) {
                    results.flush();
                    Runtime.getRuntime().halt(43); // the student's JVM is lost or stuck: the judge starts another
                }
            }
        });
    }
}
