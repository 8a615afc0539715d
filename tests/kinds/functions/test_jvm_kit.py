"""A Java call from the JVM kit: the harness's jar first on the class path, the archive of the
classes a call loads mapped (the JVM says so under -Xshare:on), the student's classes never in
it; an archive that is not the one made is not used, and one the JVM finds stale it sets aside."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from judge.grade import judging
from judge.kinds.functions import jvm_kit
from judge.kinds.table import load_problem
from judge.run import sandbox
from tests import needs

RUN = ["java", "-Xmx64m", "-XX:+UseSerialGC", "-cp", ".:/usr/share/java/x.jar", "Main"]
SOLUTION = "public class Solution {\n    public static int add(int a, int b) { return a + b; }\n}\n"
LIMITS = sandbox.RunLimits(cpu_s=20.0, wall_s=60.0, memory_mib=512, output_bytes=1 << 20, address_space=False)


def test_a_call_takes_the_harness_from_the_jar_and_maps_the_archive() -> None:
    made = jvm_kit.JvmKit(Path("/kit"), True)
    assert made.argv(RUN) == [
        "java",
        *jvm_kit.LOG_FLAGS,
        "-XX:-UsePerfData",  # no hsperfdata file at each start
        "-XX:SharedArchiveFile=/kit/call.jsa",
        "-Xshare:auto",
        "-Xmx64m",
        "-Xms8m",  # a small initial heap, grown on demand up to -Xmx
        "-XX:+UseG1GC",  # whose start maps the archive's heap objects too
        "-cp",
        "/kit/harness.jar:/usr/share/java/x.jar:.",  # the archive's jars first, the student's folder last
        "Main",
    ]
    assert not any("SharedArchiveFile" in part for part in jvm_kit.JvmKit(Path("/kit"), False).argv(RUN))


def test_the_initial_heap_is_never_above_the_limit() -> None:
    # A JVM whose -Xms is above its -Xmx refuses to start: a 4 MiB limit gets a 4 MiB start.
    assert jvm_kit.initial_heap("-Xmx4m") == ["-Xms4m"]
    assert jvm_kit.initial_heap("-Xmx256m") == ["-Xms8m"]
    assert jvm_kit.initial_heap("-Xmx2g") == jvm_kit.initial_heap("-Xss64m") == []  # only sizes in MiB
    argv = jvm_kit.JvmKit(Path("/kit"), True).argv(["java", "-Xmx4m", "-cp", ".", "Main"])
    assert argv[argv.index("-Xmx4m") + 1] == "-Xms4m"


def test_an_archive_that_is_not_the_one_made_is_not_used(tmp_path: Path) -> None:
    (tmp_path / jvm_kit.ARCHIVE).write_bytes(b"archive" * 100)
    (tmp_path / jvm_kit.DIGEST).write_text("0" * 64 + "\n")
    assert not jvm_kit.checked(tmp_path)
    (tmp_path / jvm_kit.DIGEST).unlink()
    assert not jvm_kit.checked(tmp_path)


def _kit() -> jvm_kit.JvmKit:
    made = jvm_kit.kit("java")
    assert made is not None and made.archive, "the JVM kit could not be made"
    return made


def _box(tmp_path: Path) -> Path:
    """A box with a student's Solution compiled (in the sandbox) and a call of add(3, 4)."""
    box = tmp_path / "box"
    box.mkdir()
    sandbox.prepare_box(box)
    (box / "Solution.java").write_text(SOLUTION)
    (box / "function.txt").write_text("add\nfunction\n")
    (box / "call.json").write_text("[3, 4]\n")
    compiled = sandbox.run(["javac", "-J-XX:+UseSerialGC", "-d", ".", "Solution.java"], box=box, limits=LIMITS)
    assert compiled.ok, compiled.stderr
    return box


def _call(made: jvm_kit.JvmKit, box: Path, *extra: str) -> sandbox.RunResult:
    run = ["java", "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", *extra, "-cp", ".", "Main"]
    limits = replace(LIMITS, read_only=(str(made.folder),))
    return sandbox.run(made.argv(run), box=box, limits=limits, stdin=box / "call.json")


@needs.mark("java", "isolation")
def test_a_java_call_maps_the_kits_archive_and_loads_only_the_students_own_class(tmp_path: Path) -> None:
    made = _kit()
    # -Xshare:on: the JVM ends in an error where it cannot map the archive, instead of going on
    ran = _call(made, _box(tmp_path), "-Xshare:on", "-Xlog:class+load=info:stderr")
    said = ran.stderr.decode()
    assert ran.ok, said[-500:]
    assert ran.stdout.endswith(b'\x1ejudge-result\x1e {"returned":7}\n')
    assert "Main source: shared objects file" in said  # the harness, from the archive
    assert "Solution source: file:" in said  # the student's class, from its folder, never archived
    assert "java.lang.reflect.InvocationTargetException source: shared objects file" in said


@pytest.mark.slow
@needs.mark("java", "isolation")
def test_an_archive_the_jvm_finds_stale_is_set_aside_and_the_call_still_runs(tmp_path: Path) -> None:
    made = _kit()
    copy = tmp_path / "kit"
    shutil.copytree(made.folder, copy)
    os.utime(copy / jvm_kit.JAR, (0, 0))  # another jar than the archive's: the JVM must not use it
    stale = jvm_kit.JvmKit(copy, jvm_kit.checked(copy))
    assert stale.archive  # the judge's digest is of the archive, which is whole
    ran = _call(stale, _box(tmp_path), "-Xlog:class+load=info:stderr")
    said = ran.stderr.decode()
    assert ran.ok and ran.stdout.endswith(b'{"returned":7}\n'), said[-500:]
    assert "Main source: shared objects file" not in said


JAVA_MEMORY = (
    "public class Solution {\n    public static long max_sum(int[] xs) {\n"
    "        java.util.List<long[]> kept = new java.util.ArrayList<>();\n"
    "        while (true) kept.add(new long[1 << 20]);\n    }\n}\n"
)


@pytest.mark.slow
@needs.mark("java", "isolation")
def test_a_java_function_over_its_memory_is_mle_from_the_kit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.author import scaffold
    from tests.test_cli import judge

    scaffold.create(tmp_path / "problems", "maxf", "python3", kind="functions")
    assert judge("--problems", str(tmp_path / "problems"), "gen", "maxf").returncode == 0
    problem = load_problem(tmp_path / "problems" / "maxf")
    _kit()
    # A sandbox per case: the tests' cache is under /tmp, which a session's cases do not see.
    monkeypatch.setenv(sandbox.SESSION_ENV, "0")
    for name, text, verdict in (
        ("Solution.java", JAVA_MEMORY, "MLE"),
        ("Kadane.java", "public class Solution {\n    public static long max_sum(int[] xs) { return 0; }\n}\n", "WA"),
    ):
        folder = tmp_path / verdict
        folder.mkdir()
        (folder / "Solution.java").write_text(text)
        record = judging.judge(judging.identify(problem, folder / "Solution.java", "ada"))
        assert record.verdict == verdict, (name, record.compile_output, record.cases[:2])
