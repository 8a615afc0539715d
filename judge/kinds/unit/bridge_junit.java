import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The judge's runner of a unit-test problem's JUnit 5 tests in mode together. It compiles the
 * box's sources (the student's classes and the teacher's tests) in its own JVM, as one JVM start
 * instead of javac's and then the tests'; then each test's start and result go out on the
 * channel that was this process's stdout (System.out now writes to stderr), then an end line.
 * Runs as JudgeRunner STUDENT_CLASSES ID... where an id is FILE::CLASS::METHOD and the
 * student's classes are comma-separated. It comes from the judge's kit (a jar of its own, not
 * in the box), so the box holds only what is compiled here.
 */
public final class JudgeRunner {
    private static OutputStream channel;

    private static synchronized void write(String line) {
        try {
            channel.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            channel.flush();
        } catch (java.io.IOException e) {
            Runtime.getRuntime().halt(3);
        }
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    // Control characters and the other line ends (U+0085, U+2028, U+2029): a
                    // reader that splits lines on them would break the record.
                    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        return out.append('"').toString();
    }

    /** Where a test file is secret (unit/secret/): its lines are not shown in a compile error. */
    static final String SECRET = "secret/";
    static final int SHOWN = 4000;

    /** The compile errors as javac words them; a secret file's by its name and first line only. */
    static String errors(List<Diagnostic<? extends JavaFileObject>> found, Path box) {
        StringBuilder out = new StringBuilder();
        for (Diagnostic<? extends JavaFileObject> d : found) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            String name = d.getSource() == null ? "" : box.relativize(Paths.get(d.getSource().toUri())).toString();
            String message = d.getMessage(Locale.ROOT);
            if (name.startsWith(SECRET)) {
                out.append(name).append(": error: ").append(message.split("\n", 2)[0]).append('\n');
            } else {
                out.append(name).append(':').append(d.getLineNumber()).append(": error: ").append(message).append('\n');
            }
        }
        String text = out.toString().strip();
        return text.length() > SHOWN ? text.substring(0, SHOWN) + "..." : text;
    }

    /** The box's classes compiled into a private folder, loaded from there; null when they do
     * not compile (the reason written on the channel, as the student's: a CE). */
    static ClassLoader compiled() throws IOException {
        Path box = Paths.get("").toAbsolutePath();
        List<File> sources;
        try (Stream<Path> walk = Files.walk(box)) {
            sources = walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
                    .sorted().map(Path::toFile).collect(Collectors.toList());
        }
        Path classes = Files.createTempDirectory("judge-classes");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> found = new DiagnosticCollector<>();
        StandardJavaFileManager files = javac.getStandardFileManager(found, Locale.ROOT, StandardCharsets.UTF_8);
        // No annotation processing: nothing of the student's runs while compiling.
        List<String> options = List.of("-encoding", "UTF-8", "-proc:none", "-nowarn", "-Xlint:none",
                "-cp", System.getProperty("java.class.path"), "-d", classes.toString());
        boolean ok = javac.getTask(null, files, found, options, null, files.getJavaFileObjectsFromFiles(sources)).call();
        files.close();
        if (!ok) {
            write("{\"collect_error\": \"\", \"student\": true, \"message\": " + quote(errors(found.getDiagnostics(), box)) + "}");
            return null;
        }
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, JudgeRunner.class.getClassLoader());
    }

    /**
     * JUnit's events gathered into one a listed test: a test method's own, or the invocations
     * of a parameterized, repeated or factory method (and anything else that runs inside it),
     * which pass when all do: the first that does not is the test's result. A test JUnit skips
     * at run time (a condition) is an aborted one: a skip earns nothing.
     */
    abstract static class Gathering implements TestExecutionListener {
        private final List<String> ids;
        private String open;
        private int depth;
        private TestExecutionResult failed;

        Gathering(List<String> ids) {
            this.ids = ids;
        }

        /** A listed test starts. */
        abstract void opened(String id);

        /** A listed test ends: successful, or the first result of it that was not. */
        abstract void closed(String id, TestExecutionResult result);

        /** A container outside any listed test failed (a class's @BeforeAll). */
        void containerFailed(TestIdentifier test, TestExecutionResult result) {
        }

        @Override
        public void executionStarted(TestIdentifier test) {
            if (open != null) {
                depth++;
                return;
            }
            String id = idOf(test, ids);
            if (id != null) {
                open = id;
                depth = 1;
                failed = null;
                opened(id);
            }
        }

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            TestExecutionResult skipped = TestExecutionResult.aborted(
                    new org.opentest4j.TestAbortedException("skipped at run time: " + reason));
            if (open != null) {
                failed = failed == null ? skipped : failed;
                return;
            }
            String id = idOf(test, ids);
            if (id != null) {
                opened(id);
                closed(id, skipped);
            }
        }

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (open == null) {
                if (test.isContainer() && result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    containerFailed(test, result);
                }
                return;
            }
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL && failed == null) {
                failed = result;
            }
            if (--depth == 0) {
                String id = open;
                open = null;
                closed(id, failed == null ? TestExecutionResult.successful() : failed);
            }
        }
    }

    /** The test `id` (FILE::CLASS::METHOD) selected: each method of that name of the class, by
     * its Method (JUnit's selection by name alone finds only a method without parameters, so a
     * parameterized test was never found). */
    static void select(LauncherDiscoveryRequestBuilder request, ClassLoader loader, String id) {
        String[] parts = id.split("::");
        try {
            Class<?> test = Class.forName(parts[1], false, loader);
            boolean found = false;
            for (java.lang.reflect.Method method : test.getDeclaredMethods()) {
                if (method.getName().equals(parts[2])) {
                    request.selectors(DiscoverySelectors.selectMethod(test, method));
                    found = true;
                }
            }
            if (found) {
                return;
            }
        } catch (ClassNotFoundException | LinkageError e) {
            // JUnit says why below
        }
        request.selectors(DiscoverySelectors.selectMethod(parts[1], parts[2]));
    }

    /** The id (of `ids`) of a test JUnit ran, null when it is none of them. */
    static String idOf(TestIdentifier test, List<String> ids) {
        if (!(test.getSource().orElse(null) instanceof MethodSource)) {
            return null;
        }
        MethodSource source = (MethodSource) test.getSource().get();
        String suffix = "::" + source.getClassName() + "::" + source.getMethodName();
        for (String id : ids) {
            if (id.endsWith(suffix)) {
                return id;
            }
        }
        return null;
    }

    public static void main(String[] args) throws IOException {
        channel = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        ClassLoader loader = compiled();
        if (loader == null) {
            System.exit(0);
        }
        // JUnit finds the tests' classes by name through the thread's loader.
        Thread.currentThread().setContextClassLoader(loader);
        Set<String> students = new HashSet<>(List.of(args[0].split(",")));
        List<String> ids = new ArrayList<>();
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        for (int i = 1; i < args.length; i++) {
            ids.add(args[i]);
            select(request, loader, args[i]);
        }
        LauncherDiscoveryRequest built = request.build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(built, new Gathering(ids) {
            @Override
            void opened(String id) {
                write("{\"start\": " + quote(id) + "}");
            }

            @Override
            void closed(String id, TestExecutionResult result) {
                String phases = "[]";
                if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    Throwable error = result.getThrowable().orElse(null);
                    String kind = "error";
                    String message = error == null ? "aborted" : error.toString();
                    if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
                        kind = "skipped";
                    } else if (error instanceof AssertionError) {
                        kind = "assert";
                        message = String.valueOf(error.getMessage());
                    } else if (error != null && error.getStackTrace().length > 0
                            && students.contains(error.getStackTrace()[0].getClassName().split("\\$")[0])) {
                        kind = "student";
                        message = "the student's code raised " + error;
                    }
                    if (message.length() > 2000) {
                        message = message.substring(0, 2000);
                    }
                    phases = "[{\"when\": \"call\", \"kind\": \"" + kind + "\", \"message\": " + quote(message) + "}]";
                }
                // No times: the judge's end of the channel takes the kernel's, from the start line on.
                write("{\"id\": " + quote(id) + ", \"phases\": " + phases + ", \"printed\": \"\"}");
            }
        });
        write("{\"end\": true}");
        System.exit(0);
    }
}
