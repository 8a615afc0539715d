"""A tests problem for a JUnit problem: a student's JUnit classes run against the reference
(validity) and each bug, the classes in a box of their own behind JudgeStudent --guarded, the
tests' box holding only stand-ins made in a box of the teacher's. A student's test that reaches
for the reference's source or class bytes (files, resources, reflection on the stand-in,
Class.forName, raw requests on the bridge's wire) fails on the reference, is invalid, and no
message carries the reference's code. JVM end to end is heavy: one cheap test (the stand-ins
made) in make test, the rest under make test-slow."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.author import scaffold
from judge.errors import JudgeError
from judge.grade import judging, results
from judge.kinds import table as kinds
from judge.kinds.tests import unit_suite
from judge.problem.spec import Suite
from tests import needs
from tests.kinds.tests import test_unit_suite as unit
from tests.test_cli import judge

pytestmark = needs.mark("isolation", "junit")

SPEC = unit.SPEC.replace("stack", "jstack")  # jstack-tests, for: jstack, 5 points a bug
THOROUGH = """import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MineTest {
    @Test
    void popGivesTheLastPushed() {
        Stack s = new Stack();
        s.push(1);
        s.push(2);
        assertEquals(2, s.pop());
    }

    @Test
    void sizeCounts() {
        Stack s = new Stack();
        s.push(5);
        assertEquals(1, s.size());
    }

    @Test
    void wrongOnTheReference() {
        assertEquals(1, new Stack().size());
    }

    @Test
    void neverEnds() {
        Stack s = new Stack();
        while (true) {
            s.push(1);
        }
    }
}
"""
# A walk of the file system outside the system's folders (a Java method of the classes below).
WALKER = """    /** The files outside the system's folders whose bytes `wanted` takes. */
    static List<Path> reading(java.util.function.Predicate<byte[]> wanted) throws Exception {
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(Paths.get("/"), new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                // The system's folders hold nothing of a problem's: the rest is walked whole.
                boolean skip = false;
                for (String system : new String[] {"/proc", "/sys", "/dev", "/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc"}) {
                    skip |= dir.startsWith(system);
                }
                return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                try {
                    if (attrs.isRegularFile() && attrs.size() < (1 << 20) && wanted.test(Files.readAllBytes(file))) {
                        found.add(file);
                    }
                } catch (Exception e) {
                    // unreadable: on
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, java.io.IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        return found;
    }
"""
# Each test passes only if it reads the reference's (or a bug's) source or class bytes; the
# last one expects what the wrong_answer bug (a queue) gives.
HOSTILE = (
    """import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.FileVisitResult;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Each test passes only if it reads the reference's source or class bytes. */
class StackTest {
    // Made at run time: a constant would be in this class's own bytes.
    static final String MARK = String.join("", "A stack on an ", "ArrayList");
    static final String BUG = String.join("", "a queue, ", "not a stack");
    static final String USES = String.join("", "peek at an ", "empty stack"); // in its class's bytes

    static boolean reference(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        return text.contains(MARK) || text.contains(BUG) || text.contains(USES);
    }

    @Test
    void theFileSystem() throws Exception {
        if (reading(StackTest::reference).isEmpty()) {
            throw new AssertionError("found nothing of the reference's");
        }
    }

"""
    + WALKER
    + """
    @Test
    void theResourceOfItsClass() throws Exception {
        try (InputStream in = Stack.class.getResourceAsStream("Stack.class")) {
            assertTrue(reference(in.readAllBytes()));
        }
    }

    @Test
    void theResourceOfItsSource() throws Exception {
        try (InputStream in = Stack.class.getResourceAsStream("Stack.java")) {
            assertTrue(reference(in.readAllBytes()));
        }
    }

    @Test
    void reflectionOnTheStandIn() throws Exception {
        assertNotNull(Stack.class.getDeclaredField("items"));
    }

    @Test
    void classForNameOfTheTeachersClass() throws Exception {
        Class<?> c = Class.forName("Stack", false, Thread.currentThread().getContextClassLoader());
        assertNotNull(c.getDeclaredField("items"));
    }

    @Test
    void getClassOverTheWire() {
        assertNotNull(JudgeTests.call(new Stack(), "java.lang.Object", "getClass", new String[] {}, new Object[] {}));
    }

    @Test
    void aFileReaderMadeOverTheWire() {
        assertNotNull(JudgeTests.make("java.io.FileInputStream", new String[] {"java.lang.String"}, new Object[] {"Stack.java"}));
    }

    @Test
    void aJdkStaticOverTheWire() {
        assertNotNull(JudgeTests.call(null, "java.lang.System", "getProperty", new String[] {"java.lang.String"}, new Object[] {"user.dir"}));
    }

    @Test
    void aPrivateFieldsListOverTheWire() {
        assertNotNull(JudgeTests.call(new Stack(), "java.lang.Object", "clone", new String[] {}, new Object[] {}));
    }

    @Test
    void theExpectedValueIsTheBugs() {
        Stack s = new Stack();
        s.push(1);
        s.push(2);
        assertEquals(1, s.pop());
    }
}
"""
)

# Valid (it passes on the reference), and it fails on a bug only if that bug's source is in its
# reach: it must catch none.
SPY = (
    """import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Passes on the reference; fails on a bug only if the bug's source is in reach. */
class SpyTest {
    static final String[] BUGS = {String.join("", "a queue, ", "not a stack"), String.join("", "the list is ", "never made")};

    static boolean bug(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        return text.contains(BUGS[0]) || text.contains(BUGS[1]);
    }

    @Test
    void readsTheBugsFiles() throws Exception {
        if (!reading(SpyTest::bug).isEmpty()) {
            throw new AssertionError("read a bug's source");
        }
    }

"""
    + WALKER
    + """
}
"""
)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("problems")
    scaffold.create(root, "jstack", "java", kind="unit")
    assert judge("--problems", str(root), "gen", "jstack").returncode == 0
    here = root / "jstack-tests"
    (here / "suite").mkdir(parents=True)
    (here / "suite" / "StackTest.java").write_bytes(
        (root / "jstack" / "unit" / "public" / "StackTest.java").read_bytes()
    )
    (here / "statement.md").write_text("# Tests of jstack\n")
    (here / "problem.yaml").write_text(SPEC)
    return root


def judged(root: Path, text: str, name: str, file: str = "StackTest.java") -> results.GradeRecord:
    problem = kinds.load_problem(root / "jstack-tests")
    folder = root / "students" / name
    folder.mkdir(parents=True)
    (folder / file).write_text(text)
    return judging.judge(judging.identify(problem, folder, name))


def validity(record: results.GradeRecord) -> dict[str, tuple[str, str]]:
    return {c.name.removeprefix("validity/"): (c.verdict, c.message) for c in record.cases if c.group == "validity"}


def test_the_stand_ins_are_the_references_public_signatures_and_nothing_else(tmp_path: Path) -> None:
    """The fast tier's JUnit test: made in a box of the teacher's, they hold the public
    constructors and methods (bodies forwarded), no field, private member, body or comment."""
    scaffold.create(tmp_path, "jstack", "java", kind="unit")
    reference = tmp_path / "jstack" / "solutions" / "accepted" / "Stack.java"
    reference.write_text(
        reference.read_text().replace(
            "    public int size() {",
            "    private int secretDepth() {\n        return 42;\n    }\n\n"
            "    int packageOnly() {\n        return 7;\n    }\n\n    public int size() {",
        )
    )
    (reference.parent / "Helper.java").write_text(
        "class Helper {\n    public static int help() {\n        return 1;\n    }\n}\n"
    )
    problem = kinds.load_problem(tmp_path / "jstack")
    made = unit_suite.junit_stand_ins(problem, kinds.of(problem), tmp_path / "standins")
    assert [name for name, _ in made] == ["Stack.java.standin"]  # Helper is not public: no stand-in
    text = made[0][1].read_text()
    for member in (
        "public Stack()",
        "public void push(int a0)",
        "public int pop()",
        "public int peek()",
        "public int size()",
    ):
        assert member in text, text
    for secret in ("items", "ArrayList", "secretDepth", "packageOnly", "empty stack", "A stack on", "42"):
        assert secret not in text, (secret, text)


def test_a_file_that_is_not_a_junit_test_class_is_refused_naming_it(tmp_path: Path) -> None:
    suite = Suite.model_validate({"for": "jstack"})
    for name in ("Stack.java", "notes.txt", "JudgeTests.java", "test_mine.py", "My-Test.java"):
        with pytest.raises(JudgeError, match=rf"{name}: not a JUnit test class"):
            unit_suite.checked_files((name, b"class X {}\n"), suite, "junit5")
    with pytest.raises(JudgeError, match=r"BigTest\.java: 70000 bytes, over the cap of 65536"):
        unit_suite.checked_files(("BigTest.java", b"/" * 70000), suite, "junit5")  # a huge test
    with pytest.raises(JudgeError, match=r"no tests \(@Test methods"):
        unit_suite.read(("MineTest.java", b"class MineTest {}\n"), suite, tmp_path / "t", "junit5")


@pytest.mark.slow  # JVMs end to end: make test-slow
def test_a_students_junit_class_is_checked_on_the_reference_and_catches_the_bugs(root: Path) -> None:
    record = judged(root, THOROUGH, "thorough", "MineTest.java")
    said = validity(record)
    assert said["minetest-minetest-popgivesthelastpushed"] == ("AC", "valid"), said
    assert said["minetest-minetest-sizecounts"] == ("AC", "valid"), said
    verdict, why = said["minetest-minetest-wrongonthereference"]
    assert verdict == "NJ" and "fails on the reference (WA)" in why, why
    verdict, why = said["minetest-minetest-neverends"]
    assert verdict == "NJ" and "fails on the reference" in why, why
    bugs = {c.group: (c.verdict, c.message) for c in record.cases if c.group != "validity"}
    assert bugs == {
        "stack": ("AC", "caught by minetest-minetest-popgivesthelastpushed"),  # wrong_answer/Stack.java
        "stack-2": ("AC", "caught by minetest-minetest-popgivesthelastpushed"),  # run_time_error/Stack.java
    }, bugs
    assert (record.verdict, record.score, record.max_score) == ("AC", 10.0, 10.0)


@pytest.mark.slow  # JVMs end to end: make test-slow
def test_a_junit_test_reaching_for_the_references_source_or_bytes_is_invalid_and_shown_none(root: Path) -> None:
    record = judged(root, HOSTILE, "hostile")
    said = validity(record)
    assert len(said) == 10 and all(verdict == "NJ" for verdict, _ in said.values()), said
    assert record.score == 0.0
    shown = " ".join(message for _, message in said.values())
    # Lines of the reference's and its bugs' that no test holds.
    assert "items.remove" not in shown and "A stack on an ArrayList" not in shown and "a queue, not" not in shown, shown


@pytest.mark.slow  # JVMs end to end: make test-slow
def test_judge_new_for_a_junit_problem_starts_from_its_public_tests_and_verifies(root: Path) -> None:
    made = judge("--problems", str(root), "new", "jstack-new", "--kind", "tests", "--for", "jstack")
    assert made.returncode == 0, made.stdout + made.stderr
    assert sorted(p.name for p in (root / "jstack-new" / "suite").iterdir()) == ["StackTest.java"]
    problem = kinds.load_problem(root / "jstack-new")
    assert "JUnit 5 classes NAMETest.java" in kinds.of(problem).public_files(problem)[0][1]
    verified = judge("--problems", str(root), "verify", "jstack-new")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "the reference suite catches every bug" in verified.stdout


@pytest.mark.slow  # JVMs end to end: make test-slow
def test_the_bugs_sources_never_enter_the_students_box(root: Path) -> None:
    record = judged(root, SPY, "spy", "SpyTest.java")
    assert validity(record) == {"spytest-spytest-readsthebugsfiles": ("AC", "valid")}
    assert record.score == 0.0 and not [c for c in record.cases if c.group != "validity" and c.verdict == "AC"]


# A failing primer leaves a mark the later test needs: were a bug to run only the valid test, it
# would fail there and catch every bug (issue 60's review).
ORDER = """import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.*;

@TestMethodOrder(MethodOrderer.MethodName.class)
class StackTest {
    static boolean ran = false;

    @Test
    void a_primer() {
        ran = true;
        fail("meant to be invalid");
    }

    @Test
    void b_needs_the_primer() {
        assertTrue(ran);
    }
}
"""


@pytest.mark.slow  # JVMs end to end: make test-slow
def test_a_junit_test_passing_by_an_invalid_ones_state_catches_no_bug(root: Path) -> None:
    record = judged(root, ORDER, "order")
    said = validity(record)
    assert said["stacktest-stacktest-b_needs_the_primer"] == ("AC", "valid"), said
    assert said["stacktest-stacktest-a_primer"][0] == "NJ", said
    assert record.score == 0.0, [(c.group, c.message) for c in record.cases]


# Passes on the reference; its own record on the results channel would make it fail on a bug.
FORGE = """import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;

/** Passes on the reference; on a bug it would fail, were its own record believed. */
class ForgeTest {
    @Test
    void writesItsOwnRecord() throws Exception {
        String line = "{\\"id\\": \\"ForgeTest.java::ForgeTest::writesItsOwnRecord\\", \\"phases\\": []}\\n";
        Files.writeString(Paths.get("feedback", "results.jsonl"), line, StandardOpenOption.APPEND);
    }
}
"""


@pytest.mark.slow  # JVMs end to end: make test-slow
def test_a_junit_class_writing_on_the_results_channel_fails_there(root: Path) -> None:
    record = judged(root, FORGE, "forge", "ForgeTest.java")
    verdict, why = validity(record)["forgetest-forgetest-writesitsownrecord"]
    assert verdict == "NJ" and "the tests wrote on the judge's results channel" in why, why
    assert record.score == 0.0


# What Object's hashCode and toString of fresh stacks say on the reference, shown by a failing test.
LEARN = """import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;

class LearnTest {
    @Test
    void shows() {
        Stack a = new Stack();
        Stack b = new Stack();
        fail("<" + a.toString() + " " + b.hashCode() + " " + a.hashCode() + ">");
    }
}
"""
# The same values asserted (SHOWN): no method of the stack's is called, nothing of its behaviour seen.
IDENTITY = (
    LEARN.replace("fail;", "assertEquals;")
    .replace("LearnTest", "IdentityTest")
    .replace("void shows", "void sameAsTheReference")
    .replace('fail("<" + a', 'assertEquals("SHOWN", a')
    .replace(' + ">");', ");")
)


@pytest.mark.slow  # JVMs end to end: make test-slow
def test_a_junit_test_of_identity_hashes_alone_is_valid_and_catches_no_bug(root: Path) -> None:
    """Object's hashCode and toString of a class that does not override them come from the
    handle, not the classes' JVM's identity hash, which is the same in every fresh reference
    run and differs on a bug's code path (a test asserting it alone caught every bug)."""
    _, message = validity(judged(root, LEARN, "learn", "LearnTest.java"))["learntest-learntest-shows"]
    shown = message.partition("<")[2].partition(">")[0]
    assert shown.startswith("Stack@"), message
    record = judged(root, IDENTITY.replace("SHOWN", shown), "identity", "IdentityTest.java")
    assert validity(record) == {"identitytest-identitytest-sameasthereference": ("AC", "valid")}, record.cases
    bugs = {c.group: c.message for c in record.cases if c.group != "validity"}
    assert bugs == {"stack": "not caught", "stack-2": "not caught"}, bugs
    assert record.score == 0.0


OWN_TO_STRING = """import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OwnTest {
    @Test
    void saysItsSize() {
        Stack s = new Stack();
        s.push(7);
        assertEquals("a stack of 1 [I@1 Stack$$Lambda@1", s.toString());
    }
}
"""


@pytest.mark.slow  # JVMs end to end: make test-slow
def test_a_classs_own_to_string_is_its_own_without_the_jvms_history(root: Path, tmp_path: Path) -> None:
    """Where the teacher's class overrides toString, the answer is its own (behaviour): a test
    of it is valid and catches the bugs, which do not override it. What only the classes' JVM's
    history made is not in it: an array's identity hash is 1, a lambda's name has no count of
    the lambdas made before it and no address."""
    shutil.copytree(root, tmp_path / "p", ignore=shutil.ignore_patterns("students"))
    reference = tmp_path / "p" / "jstack" / "solutions" / "accepted" / "Stack.java"
    reference.write_text(
        reference.read_text().replace(
            "    public int size() {",
            '    @Override\n    public String toString() {\n        return "a stack of " + size() + " " + new int[0] + " " + ((Runnable) () -> { });\n    }\n\n'
            "    public int size() {",
        )
    )
    record = judged(tmp_path / "p", OWN_TO_STRING, "own", "OwnTest.java")
    assert validity(record) == {"owntest-owntest-saysitssize": ("AC", "valid")}, record.cases
    bugs = {c.group: c.message for c in record.cases if c.group != "validity"}
    assert bugs == {
        "stack": "caught by owntest-owntest-saysitssize",
        "stack-2": "caught by owntest-owntest-saysitssize",
    }


STARTED = """import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StartTest {
    @Test
    void initializedBeforeTheFirstCall() {
        long before = System.nanoTime();
        assertTrue(Stack.started() < before);
    }
}
"""


@pytest.mark.slow  # JVMs end to end: make test-slow
def test_the_teachers_classes_are_initialized_before_any_request(root: Path, tmp_path: Path) -> None:
    """A static initializer runs when the classes' JVM starts, not at a test's first call: a
    test could time a bug's extra work there (a fifth review timed a Python bug's imports).
    Both JVMs read one monotonic clock: the class's start is before the test's first call."""
    shutil.copytree(root, tmp_path / "p", ignore=shutil.ignore_patterns("students"))
    reference = tmp_path / "p" / "jstack" / "solutions" / "accepted" / "Stack.java"
    reference.write_text(
        reference.read_text().replace(
            "    public int size() {",
            "    private static final long STARTED = System.nanoTime();\n\n"
            "    public static long started() {\n        return STARTED;\n    }\n\n    public int size() {",
        )
    )
    record = judged(tmp_path / "p", STARTED, "started", "StartTest.java")
    assert validity(record) == {"starttest-starttest-initializedbeforethefirstcall": ("AC", "valid")}, record.cases
