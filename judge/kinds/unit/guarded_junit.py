"""The stand-ins of a JUnit problem's classes for a tests problem (a student's JUnit tests of
the teacher's classes): made in a box of the teacher's, from the reference's sources, by the
kit's JudgeStandIns; only the generated sources (public signatures, no bodies) leave it, for
the students' tests' box. docs/tests.md."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from judge.kinds.unit import kit
from judge.run import languages, programs
from judge.run.programs import ProgramError

STAND_INS_CLASS = "JudgeStandIns"
FOLDER = "standins"  # the box's folder the stand-ins are written into, and kept from
SUFFIX = ".standin"  # a stand-in in the tests' box: Stack.java.standin (JudgeTests.STAND_IN_SUFFIX)
MAX_FILES = 200
# A stand-in's file name as JudgeStandIns writes it: a Java identifier and .java, nothing else.
NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]{0,99}\.java")


def stand_ins(built: programs.Built, limits: programs.ToolLimits, where: Path) -> tuple[tuple[str, Path], ...]:
    """The stand-ins of the classes of `built` (the reference's build: its sources), made in a
    sandbox of their own and written into `where`: each as (its name in the tests' box, its
    file). ProgramError when the classes do not compile or no stand-in is made."""
    made = kit.kit()
    java = languages.load().by_id("java")
    maker = programs.Built(
        f"{built.label} (stand-ins)",
        built.directory,
        tuple(made.argv(limits.memory_mib, main=STAND_INS_CLASS)),
        "java",
        java.address_space_limit,
        java.jvm_allowance_mib,
    )
    own = limits.sandbox_limits(maker)
    own = replace(own, read_only=(*own.read_only, str(made.folder)))
    done = programs.run_keeping(programs.Task(maker, (FOLDER,), None, own, keep=FOLDER))
    if done.run.exit_code != 0 or done.run.limit_hit:
        raise ProgramError(f"{built.label}: no stand-ins of its classes: {programs.failure(done.run, maker)}")
    files = [(name, text) for name, text in done.kept if NAME.fullmatch(name)]
    if not files or len(files) > MAX_FILES:
        raise ProgramError(f"{built.label}: no public class to stand in for (a tests problem's classes are public)")
    where.mkdir(parents=True, exist_ok=True)
    found = []
    for name, text in sorted(files):
        (where / name).write_bytes(text)
        found.append((f"{name}{SUFFIX}", where / name))
    return tuple(found)
