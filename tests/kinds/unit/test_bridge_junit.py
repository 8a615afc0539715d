"""JUnit's mode apart (bridge_junit_*.java): what crosses between the tests' JVM and the
student's, judged through the judge as a problem, on a class of each shape the stand-ins cover."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from judge.author import scaffold
from judge.grade import judging
from judge.kinds.table import load_problem
from judge.kinds.unit import kit
from judge.problem.spec import JUDGE_JAVA_CLASSES, Problem, SpecError
from tests import needs
from tests.test_cli import judge

needs_java = needs.mark("isolation", "junit")

SHAPES = """import java.util.*;

public class Shapes {
    public static int[] sorted(int[] a) { int[] b = a.clone(); Arrays.sort(b); return b; }
    public static void sortInPlace(int[] a) { Arrays.sort(a); }
    public static void reverse(List<Integer> xs) { Collections.reverse(xs); }
    public static List<String> words(String s) { return new ArrayList<>(Arrays.asList(s.split(" "))); }
    public static Map<String, Integer> counts(String... ws) {
        Map<String, Integer> m = new TreeMap<>();
        for (String w : ws) m.merge(w, 1, Integer::sum);
        return m;
    }
    public static double total(List<Shape> shapes) { double t = 0; for (Shape s : shapes) t += s.area(); return t; }
    public static <T extends Comparable<T>> T max(List<T> xs) { return Collections.max(xs); }
    public static void hello(String name) { System.out.println("Hello, " + name + "!"); }
    public static Map<List<Integer>, Integer> collide(int n) {
        Map<List<Integer>, Integer> m = new TreeMap<>((a, b) -> Integer.compare(a.get(0), b.get(0)));
        for (int k = 0; k < n; k++) m.put(List.of(k, 7 - 31 * k), k);  // every key's hashCode is 968
        return m;
    }
    public static Set<Integer> evens(int n) {
        return new AbstractSet<Integer>() {
            public Iterator<Integer> iterator() {
                List<Integer> all = new ArrayList<>();
                for (int i = 0; i < n; i++) all.add(2 * i);
                return all.iterator();
            }
            public int size() { return n; }
        };
    }
    public static Map<String, Integer> sizes() {
        return new AbstractMap<String, Integer>() {
            public Set<Map.Entry<String, Integer>> entrySet() { return Set.of(Map.entry("a", 1)); }
        };
    }
    public static List<Integer> huge() { return new ArrayList<>(Collections.nCopies(3_000_000, 7)); }
    public static Color next(Color c) { return Color.values()[(c.ordinal() + 1) % 3]; }
    public static Iterator<Integer> upTo(int n) {
        return new Iterator<Integer>() {
            int i = 0;
            public boolean hasNext() { return i < n; }
            public Integer next() { return i++; }
        };
    }
}

interface Shape { double area(); default String describe() { return "shape of area " + area(); } }

class Circle implements Shape, Comparable<Circle> {
    private final double r;
    Circle(double r) { if (r < 0) throw new BadShape("negative radius " + r); this.r = r; }
    public double area() { return Math.PI * r * r; }
    public int compareTo(Circle o) { return Double.compare(r, o.r); }
    @Override public boolean equals(Object o) { return o instanceof Circle && ((Circle) o).r == r; }
    @Override public int hashCode() { return Double.hashCode(r); }
    @Override public String toString() { return "Circle(" + r + ")"; }
}

class BadShape extends RuntimeException { BadShape(String m) { super(m); } }

enum Color { RED, GREEN, BLUE; Color twice() { return Shapes.next(Shapes.next(this)); } }

record Point(int x, int y) { Point plus(Point o) { return new Point(x + o.x, y + o.y); } }

class Box<T> implements Iterable<T> {
    private final List<T> items = new ArrayList<>();
    public void add(T x) { items.add(x); }
    public T get(int i) { return items.get(i); }
    public Iterator<T> iterator() { return items.iterator(); }
    public static class Counter { private int n; public int tick() { return ++n; } }
}
"""

TESTS = """import static org.junit.jupiter.api.Assertions.*;
import java.io.*;
import java.util.*;
import org.junit.jupiter.api.Test;

class ShapesTest {
    static final Circle ONE = new Circle(1);  // made before any test starts
    @Test void arrays() { assertArrayEquals(new int[] {1, 2, 3}, Shapes.sorted(new int[] {3, 1, 2})); }
    @Test void inPlace() { int[] a = {3, 1, 2}; Shapes.sortInPlace(a); assertArrayEquals(new int[] {1, 2, 3}, a); }
    @Test void listInPlace() {
        List<Integer> xs = new ArrayList<>(List.of(1, 2, 3));
        Shapes.reverse(xs);
        assertEquals(List.of(3, 2, 1), xs);
    }
    @Test void lists() { assertEquals(List.of("a", "b"), Shapes.words("a b")); }
    @Test void maps() { assertEquals(Map.of("a", 2, "b", 1), Shapes.counts("a", "b", "a")); }
    @Test void interfaces() {
        Shape s = new Circle(1);
        assertEquals(Math.PI, s.area(), 1e-9);
        assertTrue(s.describe().startsWith("shape of area 3.14"));
    }
    @Test void objectsInLists() { assertEquals(2 * Math.PI, Shapes.total(List.of(new Circle(1), new Circle(1))), 1e-9); }
    @Test void ownException() {
        BadShape e = assertThrows(BadShape.class, () -> new Circle(-1));
        assertEquals("negative radius -1.0", e.getMessage());
    }
    @Test void equality() {
        assertEquals(new Circle(2), new Circle(2));
        assertNotEquals(new Circle(2), new Circle(3));
        assertNotEquals(new Circle(2), 2.0);
        assertEquals("Circle(2.0)", new Circle(2).toString());
    }
    @Test void comparable() {
        List<Circle> cs = new ArrayList<>(List.of(new Circle(3), ONE));
        Collections.sort(cs);
        assertEquals(new Circle(1), cs.get(0));
    }
    @Test void generics() { assertEquals(7, Shapes.max(List.of(3, 7, 5))); }
    @Test void printing() {
        PrintStream old = System.out;
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        System.setOut(new PrintStream(b));
        try { Shapes.hello("Ann"); } finally { System.setOut(old); }
        assertEquals("Hello, Ann!\\n", b.toString());
    }
    @Test void enums() { assertEquals(Color.GREEN, Shapes.next(Color.RED)); assertEquals(Color.BLUE, Color.RED.twice()); }
    @Test void records() { Point p = new Point(1, 2).plus(new Point(3, 4)); assertEquals(new Point(4, 6), p); assertEquals(4, p.x()); }
    @Test void iterable() {
        Box<String> b = new Box<>();
        b.add("x");
        b.add("y");
        List<String> seen = new ArrayList<>();
        for (String s : b) seen.add(s);
        assertEquals(List.of("x", "y"), seen);
        assertEquals("y", b.get(1));
    }
    @Test void nested() { Box.Counter c = new Box.Counter(); c.tick(); assertEquals(2, c.tick()); }
    @Test void iterators() {
        Iterator<Integer> it = Shapes.upTo(2);
        assertEquals(0, it.next());
        assertEquals(1, it.next());
        assertFalse(it.hasNext());
    }
    @Test void close() { assertTrue(Math.abs(new Circle(1).area() - Math.PI) < 1e-9); }
    @Test void sameArrays() { assertTrue(Arrays.equals(new int[] {1, 2, 3}, Shapes.sorted(new int[] {2, 3, 1}))); }
    @Test void ownCollections() {
        assertEquals(new TreeSet<>(List.of(0, 2, 4)), Shapes.evens(3));
        assertEquals(Map.of("a", 1), Shapes.sizes());
    }
    @Test void qualified() { org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {1, 2, 3}, Shapes.sorted(new int[] {3, 1, 2})); }
    @Test void collide() { assertEquals(3, Shapes.collide(3).size()); }
    @Test void tooBig() { assertEquals(3_000_000, Shapes.huge().size()); }
    @Test void unexpected() { Shapes.sorted(null); }
    @Test void lambdas() { Comparator<Integer> c = (a, b) -> a - b; new Box<Comparator<Integer>>().add(c); }
}
"""


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("shapes")
    scaffold.create(problems, "shapes", "java", kind="unit")
    folder = problems / "shapes"
    spec = folder / "problem.yaml"
    spec.write_text(spec.read_text().replace("Stack.java", "Shapes.java"))
    (folder / "starter" / "Stack.java").rename(folder / "starter" / "Shapes.java")  # the spec names it so
    shutil.rmtree(folder / "unit")
    shutil.rmtree(folder / "solutions")
    (folder / "unit" / "public").mkdir(parents=True)
    (folder / "unit" / "public" / "ShapesTest.java").write_text(TESTS)
    (folder / "solutions" / "accepted").mkdir(parents=True)
    (folder / "solutions" / "accepted" / "Shapes.java").write_text(SHAPES)
    assert judge("--problems", str(problems), "gen", "shapes").returncode == 0
    return load_problem(folder)


@needs_java
def test_every_shape_of_value_crosses_as_the_docs_say(shapes: Problem, tmp_path: Path) -> None:
    (tmp_path / "Shapes.java").write_text(SHAPES)
    record = judging.judge(judging.identify(shapes, tmp_path / "Shapes.java", "ann"), full=True)
    verdicts = {c.group.removeprefix("shapestest-shapestest-"): (c.verdict, c.message) for c in record.cases}
    # The student's NPE is theirs; a lambda handed over is what a stand-in cannot do (the teacher's).
    assert verdicts.pop("unexpected")[0] == "RE"
    # A reply over the wire's bound fails its test; the file's other tests run in a new pair.
    verdict, message = verdicts.pop("toobig")
    assert verdict == "RE" and "a reply of over 8 MiB" in message, message
    verdict, message = verdicts.pop("lambdas")
    assert verdict == "IE" and "mode apart hands the student's code plain values" in message
    assert {v for v, _ in verdicts.values()} == {"AC"}, verdicts
    assert len(verdicts) == 22


@needs_java
def test_a_class_that_does_not_fit_the_tests_is_a_ce_naming_the_line(shapes: Problem, tmp_path: Path) -> None:
    (tmp_path / "Shapes.java").write_text(SHAPES.replace("public static int[] sorted(", "public static int[] sortedd("))
    record = judging.judge(judging.identify(shapes, tmp_path / "Shapes.java", "bob"), full=True)
    assert {c.verdict for c in record.cases} == {"CE"}
    assert any("public/ShapesTest.java:" in c.message and "cannot find symbol" in c.message for c in record.cases)


@needs_java
@pytest.mark.slow  # heavy end to end: make test-slow
def test_the_students_code_never_runs_in_the_tests_jvm(shapes: Problem, tmp_path: Path) -> None:
    """A static initializer that would end the tests' JVM runs only in the student's: each test
    touching the class fails there (RE) and no test's record is lost or an IE."""
    hostile = SHAPES.replace(
        "public class Shapes {", "public class Shapes {\n    static { Runtime.getRuntime().halt(0); }\n"
    )
    (tmp_path / "Shapes.java").write_text(hostile)
    record = judging.judge(judging.identify(shapes, tmp_path / "Shapes.java", "eve"), full=True)
    verdicts = {c.group.removeprefix("shapestest-shapestest-"): c.verdict for c in record.cases}
    assert verdicts["arrays"] == "RE" and verdicts["lambdas"] == "IE"
    assert "IE" not in {v for k, v in verdicts.items() if k != "lambdas"}, verdicts
    assert verdicts["interfaces"] == "AC"  # Circle's own tests never load Shapes


def test_no_submitted_class_takes_a_name_of_the_judges(tmp_path: Path) -> None:
    assert set(JUDGE_JAVA_CLASSES) == kit.KIT_CLASSES
    scaffold.create(tmp_path, "jstack", "java", kind="unit")
    spec = tmp_path / "jstack" / "problem.yaml"
    made = spec.read_text().replace("  starter: starter/Stack.java\n", "")  # the name alone is refused
    spec.write_text(made.replace("student_files: [Stack.java]", "student_files: [JudgeWire.java]"))
    with pytest.raises(SpecError, match=r"JudgeWire\.java"):
        load_problem(tmp_path / "jstack")


# Wrong (sorted returns its input, a circle's area is 0), with classes of its own named as the
# JDK's that the tests use unqualified: Math (java.lang) and Arrays (java.util.*, imported on
# demand), whose abs and equals would answer for the tests if they were stood in.
SHADOWS = (
    SHAPES.replace("Math.PI * r * r", "0")
    .replace("int[] b = a.clone(); Arrays.sort(b); return b;", "return a;")
    .replace("Arrays.sort(a);", "")
    .replace("Arrays.asList", "java.util.Arrays.asList")
    + "class Math { static double abs(double x) { return 0; } }\n"
    + "class Arrays { static boolean equals(int[] a, int[] b) { return true; } }\n"
    + "class org { static class junit { static class jupiter { static class api { static class Assertions {\n"
    + "    static void assertArrayEquals(int[] a, int[] b) {}\n} } } } }\n"
)


@needs_java
def test_a_class_named_as_the_jdks_never_answers_for_the_tests(shapes: Problem, tmp_path: Path) -> None:
    (tmp_path / "Shapes.java").write_text(SHADOWS)
    record = judging.judge(judging.identify(shapes, tmp_path / "Shapes.java", "mallory"), full=True)
    verdicts = {c.group.removeprefix("shapestest-shapestest-"): c.verdict for c in record.cases}
    assert verdicts["close"] == "WA" and verdicts["samearrays"] == "WA", record.cases
    # A class named org hides the package in org.junit.jupiter.api.Assertions: not stood in.
    assert verdicts["qualified"] == "WA", record.cases
    assert verdicts["arrays"] == "WA" and verdicts["lists"] == "AC", record.cases


@needs_java
def test_javac_kept_busy_by_a_students_source_is_their_ce_not_the_judges_ie(tmp_path: Path) -> None:
    """The tests' JVM compiles the student's sources (for their signatures) within a CPU budget:
    over it, a CE and this JVM's end, never its limit (an IE). Here the budget is made tiny
    (the kit's JudgeTests run directly, on the judge's own class: nothing hostile runs)."""
    made = kit.kit()
    box = tmp_path / "box"
    (box / "student").mkdir(parents=True)
    (box / "feedback").mkdir()
    (box / "Shapes.java.student").write_text(SHAPES)
    (tmp_path / "clock").symlink_to("0.0")
    argv = made.argv(256, main=kit.TESTS_CLASS)
    argv[1:1] = ["-Djudge.compileCpuS=0.000001", f"-Djava.io.tmpdir={tmp_path}"]
    done = subprocess.run(
        [*argv, "feedback", "2", "5", str(tmp_path / "clock"), "ShapesTest.java::ShapesTest::arrays"],
        cwd=box,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 42, done.stderr
    lines = (box / "feedback" / "results.jsonl").read_text().splitlines()
    assert len(lines) == 1 and '"student": true' in lines[0] and "took the judge over" in lines[0], lines


def _verdicts(shapes: Problem, source: str, where: Path) -> dict[str, tuple[str, str]]:
    (where / "Shapes.java").write_text(source)
    record = judging.judge(judging.identify(shapes, where / "Shapes.java", "mallory"), full=True)
    return {c.group.removeprefix("shapestest-shapestest-"): (c.verdict, c.message) for c in record.cases}


@needs_java
def test_a_class_in_a_java_package_is_a_ce_not_an_ie(shapes: Problem, tmp_path: Path) -> None:
    # The tests' JVM may not load a java.* class (a SecurityException): once, that ended it.
    verdicts = _verdicts(shapes, "package java.hostile;\n\n" + SHAPES, tmp_path)
    assert {v for v, _ in verdicts.values()} == {"CE"}, verdicts


@needs_java
def test_a_line_separator_in_a_students_message_breaks_no_record(shapes: Problem, tmp_path: Path) -> None:
    # U+2028 and U+0085 end a line for str.splitlines: once, they cut a record in two (an IE).
    odd = SHAPES.replace('"negative radius " + r', '"negative\\u2028radius\\u0085" + r')
    odd = odd.replace('System.out.println("Hello, " + name + "!");', 'System.out.print("\\u2028\\u2029");')
    verdicts = _verdicts(shapes, odd, tmp_path)
    assert verdicts["ownexception"][0] == "WA"
    assert verdicts["printing"][0] == "WA" and verdicts["arrays"][0] == "AC", verdicts
    assert [k for k, (v, _) in verdicts.items() if v == "IE"] == ["lambdas"], verdicts


# It waits out a test's deadline and starts a pair anew: the slow tier (CI runs it).
@pytest.mark.slow
@needs_java
def test_a_reply_made_slow_to_read_is_the_tests_tle_by_its_deadline(shapes: Problem, tmp_path: Path) -> None:
    """A map whose 200,000 keys all share a hashCode takes the tests' JVM minutes to put in a
    HashMap: the test is TLE by its deadline and a grace, and the file's others run after."""
    slow = SHAPES.replace(
        "m.put(List.of(k, 7 - 31 * k), k);",
        "m.put(List.of(k, 7 - 31 * k), k);\n        if (n == 3) return collide(200_000);",
    )
    verdicts = _verdicts(shapes, slow, tmp_path)
    verdict, message = verdicts["collide"]
    assert verdict == "TLE", message
    assert verdicts["arrays"][0] == "AC" and verdicts["records"][0] == "AC", verdicts


# Its set (an anonymous AbstractSet) holds elements ordered level with everything: an expected
# TreeSet would ask their compareTo about its own values, and hear 0 (equal) each time.
JOKERS = SHAPES.replace(
    "        return new AbstractSet<Integer>() {\n            public Iterator<Integer> iterator() {\n"
    "                List<Integer> all = new ArrayList<>();\n"
    "                for (int i = 0; i < n; i++) all.add(2 * i);",
    "        return (Set) new AbstractSet<Object>() {\n            public Iterator<Object> iterator() {\n"
    "                List<Object> all = new ArrayList<>();\n"
    "                for (int i = 0; i < n; i++) all.add(new Joker());",
) + (
    "class Joker implements Comparable {\n"
    '    public int compareTo(Object o) { System.out.println("LEAK " + o); return 0; }\n'
    "}\n"
)


@needs_java
def test_an_expected_set_never_asks_the_students_elements_about_its_values(shapes: Problem, tmp_path: Path) -> None:
    (tmp_path / "Shapes.java").write_text(JOKERS)
    assert "new Joker()" in JOKERS
    record = judging.judge(judging.identify(shapes, tmp_path / "Shapes.java", "mallory"), full=True)
    cases = {c.group.removeprefix("shapestest-shapestest-"): c for c in record.cases}
    assert cases["owncollections"].verdict == "WA", cases["owncollections"]
    assert "LEAK" not in (cases["owncollections"].output or ""), cases["owncollections"]


KINDS_TESTS = """import static org.junit.jupiter.api.Assertions.*;

import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KindsTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    @Tag("points=3")
    void doubles(int x) { assertEquals(x * 2, Counter.twice(x)); }

    @ParameterizedTest(name = "twice {0} is {1}")
    @CsvSource({"0, 0", "4, 8", "-3, -6"})
    @Tag("points=2")
    void table(int x, int expected) { assertEquals(expected, Counter.twice(x)); }

    @RepeatedTest(3)
    void repeats() { assertEquals(4, Counter.twice(2)); }

    @TestFactory
    Stream<DynamicTest> dynamic() {
        return IntStream.of(0, 5).mapToObj(x -> DynamicTest.dynamicTest("x=" + x, () -> assertEquals(2 * x, Counter.twice(x))));
    }

    @Test
    @DisplayName("zero doubles to zero")
    void plain() { assertEquals(0, Counter.twice(0)); }

    @Test
    @Disabled("next year")
    void notYet() { fail("a disabled test never runs"); }

    @Nested
    @DisplayName("negative numbers")
    class Negative {
        @Test
        @Tag("points=2")
        void minusOne() { assertEquals(-2, Counter.twice(-1)); }
    }
}
"""
# The tests' points as their @Tag("points=N") say (1 where none does), for the launcher's score.
KINDS_POINTS = {
    "kindstest-doubles": 3.0,
    "kindstest-table": 2.0,
    "kindstest-repeats": 1.0,
    "kindstest-dynamic": 1.0,
    "kindstest-plain": 1.0,
    "kindstest-negative-minusone": 2.0,
}
COUNTER = "public class Counter {\n    public static int twice(int x) { return 2 * x; }\n}\n"


@pytest.fixture(scope="module", params=["apart", "together"])
def kinds(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Problem:
    problems = tmp_path_factory.mktemp("kinds")
    scaffold.create(problems, "kinds", "java", kind="unit")
    folder = problems / "kinds"
    spec = folder / "problem.yaml"
    text = spec.read_text().replace("Stack.java", "Counter.java")
    (folder / "starter" / "Stack.java").rename(folder / "starter" / "Counter.java")  # the spec names it so
    spec.write_text(text.replace("  per_test_time_s: 2\n", f"  per_test_time_s: 2\n  mode: {request.param}\n"))
    shutil.rmtree(folder / "unit")
    shutil.rmtree(folder / "solutions")
    (folder / "unit" / "public").mkdir(parents=True)
    (folder / "unit" / "public" / "KindsTest.java").write_text(KINDS_TESTS)
    (folder / "solutions" / "accepted").mkdir(parents=True)
    (folder / "solutions" / "accepted" / "Counter.java").write_text(COUNTER)
    assert judge("--problems", str(problems), "gen", "kinds").returncode == 0
    return load_problem(folder)


@needs_java
def test_parameterized_repeated_factory_and_nested_tests_are_a_case_each_passing_when_all_do(
    kinds: Problem, tmp_path: Path
) -> None:
    def verdicts(source: str) -> dict[str, str]:
        (tmp_path / "Counter.java").write_text(source)
        record = judging.judge(judging.identify(kinds, tmp_path / "Counter.java", "ann"), full=True)
        return {c.group.removeprefix("kindstest-kindstest-"): c.verdict for c in record.cases}

    # Every kind a case, the @Disabled one none; points from @Tag, titles from @DisplayName.
    assert verdicts(COUNTER) == {
        "doubles": "AC",
        "table": "AC",
        "repeats": "AC",
        "dynamic": "AC",
        "plain": "AC",
        "negative-minusone": "AC",
    }
    assert {g.name.removeprefix("kindstest-"): g.points for g in kinds.spec.groups} == KINDS_POINTS
    # Right for 2 alone: one parameter of three passes, one row of three, one repetition's
    # input, one dynamic test of two.
    assert verdicts(COUNTER.replace("2 * x", "x + 2")) == {
        "doubles": "WA",
        "table": "WA",
        "repeats": "AC",
        "dynamic": "WA",
        "plain": "WA",
        "negative-minusone": "WA",
    }
    assert verdicts(COUNTER.replace("2 * x", "x == 3 ? 7 : 2 * x"))["doubles"] == "WA"


@needs_java
def test_what_the_jvm_writes_after_the_end_changes_no_verdict(kinds: Problem, tmp_path: Path) -> None:
    """A shutdown hook of the student's class writes after the runner's end line, on stdout
    and on the descriptor itself: every test keeps its verdict (together: the end line closes
    the channel; apart: the student's JVM ends without its hooks)."""
    hook = (
        "public class Counter {\n    static {\n        Runtime.getRuntime().addShutdownHook(new Thread(() -> {\n"
        '            System.out.println("bye");\n'
        "            try {\n                new java.io.FileOutputStream(java.io.FileDescriptor.out).write(\n"
        '                    "bye\\n{\\"end\\": true}\\n".getBytes());\n'
        "            } catch (java.io.IOException e) {\n            }\n        }));\n    }\n"
    )
    (tmp_path / "Counter.java").write_text(COUNTER.replace("public class Counter {\n", hook))
    record = judging.judge(judging.identify(kinds, tmp_path / "Counter.java", "ann"), full=True)
    assert {c.verdict for c in record.cases} == {"AC"}, record.cases


def _launcher_outcomes(tests: Path, student: str, where: Path) -> dict[str, bool]:
    """JUnit's console launcher run directly on the public tests and `student` (the judge's
    own honest files, not a hostile's): each test method, passing when all its runs pass."""
    import xml.etree.ElementTree as ElementTree

    shutil.copytree(tests / "public", where)
    (where / "Counter.java").write_text(student)
    classes, reports = where / "classes", where / "reports"
    sources = [str(p) for p in where.glob("*.java")]
    subprocess.run(["javac", "-cp", kit.JUNIT_JAR, "-d", str(classes), *sources], check=True, timeout=120)
    launcher = ["java", "-jar", kit.JUNIT_JAR, "-cp", str(classes), "--scan-classpath", "--disable-banner"]
    subprocess.run([*launcher, "--details=none", f"--reports-dir={reports}"], capture_output=True, timeout=120)
    outcomes: dict[str, bool] = {}
    for report in reports.glob("*.xml"):
        for case in ElementTree.parse(report).iter("testcase"):
            key = f"{case.get('classname', '')}-{case.get('name', '').split('(')[0]}".lower().replace("$", "-")
            bad = any(case.find(tag) is not None for tag in ("failure", "error", "skipped"))
            outcomes[key] = outcomes.get(key, True) and not bad
    return outcomes


# JUnit's launcher run beside the judge, in both modes: the slow tier (CI runs it).
@pytest.mark.slow
@needs_java
def test_every_verdict_agrees_with_junits_own_launcher(kinds: Problem, tmp_path: Path) -> None:
    """The judge's verdicts are the console launcher's outcomes on the same files, method by
    method (parameterized by values and by a CSV table, repeated, factory, nested, display
    names, a disabled test), for a right and three wrong classes; and the judge's score is the
    points of the tests the launcher passes."""
    wrong = (
        COUNTER.replace("2 * x", "x + 2"),  # right for 2 alone
        COUNTER.replace("2 * x", "x == 3 ? 7 : 2 * x"),  # one parameter of three
        COUNTER.replace("2 * x", "x < 0 ? x : 2 * x"),  # a CSV row and the nested test
    )
    scores = []
    for n, student in enumerate((COUNTER, *wrong)):
        (tmp_path / "Counter.java").write_text(student)
        record = judging.judge(judging.identify(kinds, tmp_path / "Counter.java", "ann"), full=True)
        judged = {c.group.removeprefix("kindstest-"): c.verdict == "AC" for c in record.cases}
        theirs = _launcher_outcomes(kinds.directory / "unit", student, tmp_path / f"run{n}")
        # @Disabled: skipped by the launcher, so it scores nothing there; no case here.
        assert theirs.pop("kindstest-notyet") is False
        assert len(judged) == 6 and judged == theirs, (n, judged, theirs)
        assert record.score == sum(KINDS_POINTS[test] for test, passed in theirs.items() if passed)
        scores.append(record.score)
    assert scores == [10.0, 1.0, 7.0, 6.0]


@needs_java
def test_a_test_reading_a_field_is_a_ce_that_says_fields_are_not_stood_in(shapes: Problem, tmp_path: Path) -> None:
    tests = shapes.directory / "unit" / "public" / "ShapesTest.java"
    kept = tests.read_text()
    try:
        tests.write_text(
            kept.replace(
                "    @Test void arrays() {",
                "    @Test void field() { assertEquals(0, new Box.Counter().n); }\n    @Test void arrays() {",
            )
        )
        assert judge("--problems", str(shapes.directory.parent), "gen", "shapes").returncode == 0
        (tmp_path / "Shapes.java").write_text(SHAPES)
        record = judging.judge(
            judging.identify(load_problem(shapes.directory), tmp_path / "Shapes.java", "ann"), full=True
        )
        assert {c.verdict for c in record.cases} == {"CE"}, record.cases
        assert "a field is not stood in" in record.cases[0].message, record.cases[0].message
    finally:
        tests.write_text(kept)
        assert judge("--problems", str(shapes.directory.parent), "gen", "shapes").returncode == 0
