"""The kit a JUnit 5 problem's runs share, made once per machine in the judge's cache: the
judge's runners (bridge_junit*.java: together's, and apart's two JVMs) compiled into a jar,
and a class-data-sharing archive of what one judging loads (javac's classes, JUnit's, the
runner's).

No compile happens at build: in mode together one JVM compiles the box's sources and runs the
tests there; in mode apart the tests' JVM and the student's each compile theirs, side by side.
The archive takes class loading off each JVM's start (the runner's compile of a few files:
0.45 s cold, 0.30 s with it). The JVM checks the archive against the jars' paths, sizes and
times, and runs without it, slower, if anything differs; the kit's folder is named by the
runners' sources, JUnit's jar and the JDK, so an upgrade of either makes a new one. Both files
are made in the sandbox, as every Java run is.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path

from judge.errors import SandboxFailure
from judge.kinds import jars
from judge.paths import cache_dir
from judge.run import lifecycle, sandbox, toolfolders
from judge.run.programs import ProgramError

JUNIT_JAR = "/usr/share/java/junit-platform-console-standalone.jar"  # Debian's junit5
RUNNER_CLASS = "JudgeRunner"  # mode together: the tests in the student's JVM
TESTS_CLASS = "JudgeTests"  # mode apart: the tests' JVM
STUDENT_CLASS = "JudgeStudent"  # mode apart: the student's JVM
# The kit's sources (the package's files) under the names javac wants.
SOURCES = {
    "bridge_junit.java": "JudgeRunner.java",
    "bridge_junit_tests.java": "JudgeTests.java",
    "bridge_junit_student.java": "JudgeStudent.java",
    "bridge_junit_standins.java": "JudgeStandIns.java",
    "bridge_junit_wire.java": "JudgeWire.java",
}
# The kit's classes: no class of a submission may take one of these names.
KIT_CLASSES = frozenset(name.removesuffix(".java") for name in SOURCES.values())
JAR = "runner.jar"
ARCHIVE = "runner.jsa"
KITS = "unit-junit"
# The runs' JVM: the java language's flags (judge/run/languages.yaml). The JVM's own warnings
# go to stderr: its stdout is the results channel, where a warning (an archive it could not
# map) would be a line out of turn.
JVM_FLAGS = (
    "-Xss64m",
    "-XX:+UseSerialGC",
    "-XX:ActiveProcessorCount=1",
    "-XX:TieredStopAtLevel=1",
    "-Xlog:disable",
    "-Xlog:all=warning:stderr",
)
# The guarded classes' JVM (a tests problem's JudgeStudent --guarded): every identity hash is 1.
# HotSpot's own is made by what ran before in the JVM, the same in every fresh reference run and
# different on a bug's code path, and it shows in strings the classes make (`[I@1b6d3586`, a
# `Node@...` inside a toString, a loader's `@...` in a ClassCastException's message): no behaviour.
GUARDED_FLAGS = ("-XX:+UnlockExperimentalVMOptions", "-XX:hashCode=2")
MAKE_LIMITS = sandbox.RunLimits(
    cpu_s=30.0, wall_s=sandbox.wall_for(30.0), memory_mib=768, output_bytes=64 << 20, address_space=False
)
# What the archive is made from: a judging of a class and two tests of the judge's own (one
# passing, one failing), so the classes of both outcomes are in it.
SAMPLE = {
    "Sample.java": "public final class Sample {\n    public static int twice(int x) {\n        return 2 * x;\n    }\n}\n",
    "public/SampleTest.java": (
        "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
        "import org.junit.jupiter.api.Test;\n\n"
        "class SampleTest {\n"
        "    @Test\n    void twice() {\n        assertEquals(4, Sample.twice(2));\n    }\n\n"
        '    @Test\n    void fails() {\n        assertEquals(5, Sample.twice(2), "not five");\n    }\n}\n'
    ),
}
SAMPLE_IDS = ("public/SampleTest.java::SampleTest::twice", "public/SampleTest.java::SampleTest::fails")


@dataclass(frozen=True)
class Kit:
    folder: Path  # bound read-only into the runs' sandboxes, at the same path
    archive: bool  # runner.jsa is there: the runs map it

    def argv(self, memory_mib: int, dump: str = "", main: str = RUNNER_CLASS, flags: tuple[str, ...] = ()) -> list[str]:
        """The command of one of the kit's programs, `main` (its arguments follow): from the
        kit, with JUnit; `dump`: write the class-data archive there as the JVM ends, instead
        of mapping one; `flags`: the JVM's own besides JVM_FLAGS."""
        if dump:
            shared = [f"-XX:ArchiveClassesAtExit={dump}"]
        else:
            shared = [f"-XX:SharedArchiveFile={self.folder / ARCHIVE}"] if self.archive else []
        classes = f"{self.folder / JAR}:{JUNIT_JAR}"
        return ["java", f"-Xmx{memory_mib}m", *JVM_FLAGS, *flags, *shared, "-cp", classes, main]


def junit_here() -> str:
    """JUnit 5's jar as the student's sandbox will find it, or what brings it."""
    if Path(JUNIT_JAR).is_file():
        return JUNIT_JAR
    return "missing: apt-get install junit5 (JUnit 5 problems compile and run against its jar)"


@lru_cache(maxsize=1)
def _runner_sources() -> tuple[tuple[str, bytes], ...]:
    folder = resources.files("judge.kinds.unit")
    return tuple((name, folder.joinpath(source).read_bytes()) for source, name in SOURCES.items())


def _key() -> str:
    """What the kit is made from: the runner's source, JUnit's jar and the JDK (by path and time)."""
    digest = hashlib.sha256()
    for name, text in _runner_sources():
        digest.update(f"{name}\0{len(text)}\0".encode() + text)
    java = toolfolders.locate("java").where  # the sandbox's java, or one outside /usr it is shown
    if java is None or not Path(JUNIT_JAR).is_file():
        raise ProgramError(f"JUnit 5 problems need java and JUnit's jar: {junit_here()}")
    home = Path(java).resolve().parent.parent
    for path in (Path(JUNIT_JAR), home / "lib" / "modules", home / "lib" / "server" / "libjvm.so"):
        if path.exists():
            status = path.stat()
            digest.update(f"{path}\0{status.st_size}\0{status.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:20]


@lru_cache(maxsize=2)
def _kit(key: str) -> Kit:
    root = Path(cache_dir()) / KITS
    folder = root / key
    if not (folder / JAR).is_file():
        _make_jar(root, folder)
    if not (folder / ARCHIVE).is_file():
        _make_archive(folder)
    return Kit(folder, (folder / ARCHIVE).is_file())


def kit() -> Kit:
    """This machine's kit, made on first use (ProgramError, saying why, when it cannot be)."""
    return _kit(_key())


def _make_jar(root: Path, folder: Path) -> None:
    """The runner compiled (in the sandbox) and put in a jar; the folder appears whole or not at
    all, and a judge that made it first wins."""
    root.mkdir(parents=True, exist_ok=True)
    work = lifecycle.make_temp_dir("junit-kit", where=root)  # on the cache's disk: renamed into place
    try:
        box = work / "box"
        box.mkdir()
        sandbox.prepare_box(box)
        for name, text in _runner_sources():
            (box / name).write_bytes(text)
        argv = [
            "javac",
            "-encoding",
            "UTF-8",
            "-J-XX:+UseSerialGC",
            "-cp",
            JUNIT_JAR,
            "-d",
            ".",
            *(name for name, _ in _runner_sources()),
        ]
        try:
            result = sandbox.run(argv, box=box, limits=MAKE_LIMITS)
        except SandboxFailure as err:
            raise ProgramError(f"the JUnit runner could not be compiled: {err}") from None
        if not result.ok:
            said = (result.stdout + result.stderr).decode("utf-8", errors="replace").strip()
            raise ProgramError(f"the JUnit runner does not compile: {said[:300]}")
        jars.place(work / "kit", folder, JAR, ((path, path.name) for path in sorted(box.glob("*.class"))), 0o644)
    finally:
        lifecycle.remove_dir(work)


def _make_archive(folder: Path) -> None:
    """The class-data archive, dumped by a JVM judging the sample as a run does. Without it the
    runs are slower, not wrong: a failure here leaves none."""
    work = lifecycle.make_temp_dir("junit-archive", where=folder.parent)
    try:
        box = work / "box"
        box.mkdir()
        sandbox.prepare_box(box)
        for name, text in SAMPLE.items():
            (box / name).parent.mkdir(exist_ok=True)
            (box / name).write_text(text)
        sandbox.prepare_box(box / "public")
        argv = [*Kit(folder, False).argv(256, dump=ARCHIVE), "Sample", *SAMPLE_IDS]
        try:
            sandbox.run(argv, box=box, limits=replace(MAKE_LIMITS, read_only=(str(folder),)))
        except SandboxFailure:
            return
        kept = jars.copied_out(box / ARCHIVE, work, 0o644)
        if kept is not None:
            os.replace(kept, folder / ARCHIVE)
    finally:
        lifecycle.remove_dir(work)
