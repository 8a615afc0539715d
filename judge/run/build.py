"""A submission's Sources -> Build: read its files safely (judge.run.sources), compile them once in the
sandbox under their own limits, keeping the compiler's output for a CE message."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from judge.errors import SandboxFailure
from judge.run import compiler_output, defaults, lifecycle, sandbox, sources
from judge.run.languages import Language
from judge.run.sandbox import Limit
from judge.run.sources import Sources

# Compiling gets its own limits (problem.yaml: limits.compile_time_s, compile_memory_mib):
# a compile bomb ends as CE, not as a hung judge or a machine out of memory. Ten seconds of
# CPU is ample for any real submission (gcc -O2 on a 1 MiB source takes about two).
COMPILE_OUTPUT_BYTES = 64 << 20  # any one file the compiler writes (the binary, say)
COMPILER_OUTPUT_CAP = 8 * 1024  # characters of compiler output kept for the CE message


@dataclass(frozen=True)
class Build:
    ok: bool
    message: str  # the compiler's output (truncated), shown on CE; or why the judge failed
    cpu_s: float
    wall_s: float
    internal: bool = False  # not compiled because the judge failed (IE), not the compiler


def load_submission(
    path: Path, language_id: str | None = None, allow_build: bool = False, guess_entry: bool = False
) -> Sources:
    """Read and identify a submission (a source file, a folder, a .zip or .tar.gz); JudgeError
    (one line, naming the file) if unusable. `allow_build`: its problem lets a `build` script
    replace the compile; `guess_entry`: a problem's own solution, run as problemtools would."""
    return sources.read(path, sources.SUBMISSION_CAPS, language_id, "use" if allow_build else "refuse", guess_entry)


def write_files(where: Path, files: Sequence[tuple[str, bytes]]) -> None:
    """Put a program's files into a box; its folders writable by the programs (a compiler
    writes beside its sources)."""
    for name, content in files:
        target = where / name
        for folder in reversed(target.relative_to(where).parents[:-1]):
            made = where / folder
            if not made.is_dir():
                made.mkdir()
                sandbox.prepare_box(made)
        target.write_bytes(content)


@contextmanager
def box() -> Iterator[Path]:
    """A fresh, private working directory for one submission, removed afterwards."""
    directory = lifecycle.make_temp_dir("box", cap=lifecycle.BOX_CAP_BYTES)
    try:
        sandbox.prepare_box(directory)
        yield directory
    finally:
        lifecycle.remove_dir(directory)


def compile_limits(
    language: Language, time_s: float = defaults.COMPILE_TIME_S, memory_mib: int = defaults.COMPILE_MEMORY_MIB
) -> sandbox.RunLimits:
    """The limits of one compilation. Its private /tmp (a tmpfs: memory) gets a quarter of
    the memory limit and is charged to the same cgroup, so what the compiler writes there
    counts against the compile memory limit too."""
    time_s *= language.compile_time_factor
    return sandbox.RunLimits(
        cpu_s=time_s,
        wall_s=sandbox.wall_for(time_s),
        memory_mib=memory_mib,
        output_bytes=COMPILE_OUTPUT_BYTES,
        pids=64,
        address_space=language.address_space_limit,  # a JVM (javac) reserves far more than it uses
        tmp_mib=max(16, memory_mib // 4),
        read_only=language.compile_reads,
    )


def box_names(program: Sources, student: Sources) -> tuple[dict[str, str], list[str]]:
    """(box name -> the name the student gave, the judge's own box names) of a program built
    of the student's files (the same bytes, under a name of the program's) and the judge's."""
    given = {content: name for name, content in reversed(student.files)}
    if student.single and student.files:
        # One file: its own name, not a folder's; pasted text (a name of no suffix, the web's
        # "pasted") has none to give, and keeps the box's (main.py).
        given[student.files[0][1]] = student.path.name if student.path.suffix else student.main_box_name
    names: dict[str, str] = {}
    judges: list[str] = []
    for name, content in program.box_files():
        if content in given:
            names[name] = given[content]
        else:
            judges.append(name)
    return names, judges


def compile_submission(
    submission: Sources,
    where: Path,
    limits: sandbox.RunLimits | None = None,
    student: Sources | None = None,
    stop: sandbox.Stop | None = None,
) -> Build:
    """Write the files into the box and compile them there, under `limits` (default:
    compile_limits of its language). A failed compile's output speaks of `student`'s files
    (the submission the program was built from; default: the program itself) by their names.
    `stop`, once set, ends the compile (a web run giving its worker up to a submission)."""
    write_files(where, submission.box_files())
    argv = submission.compile_argv()
    if argv is None:
        return Build(True, "", 0.0, 0.0)
    try:
        result = sandbox.run(argv, box=where, limits=limits or compile_limits(submission.language), stop=stop)
    except SandboxFailure as err:
        return Build(False, str(err), 0.0, 0.0, internal=True)
    text = (result.stdout + result.stderr).decode("utf-8", errors="replace")
    if len(text) > COMPILER_OUTPUT_CAP:
        text = text[:COMPILER_OUTPUT_CAP] + "\n[... compiler output truncated]"
    if result.limit_hit is not None:
        what = {Limit.CPU: "CPU time", Limit.WALL: "time", Limit.FILE_SIZE: "file size"}
        text = f"compilation stopped: {what.get(result.limit_hit, str(result.limit_hit))} limit\n{text}"
        return Build(False, text, result.cpu_s, result.wall_s)
    if result.exit_code != 0:
        names, judges = box_names(submission, student or submission)
        if submission.language.id == "ada":  # GNAT names the files gnatchop wrote, one per unit
            names = compiler_output.ada_units(submission.box_files(), names)
        text = compiler_output.for_student(text, submission.language.family or submission.language.id, names, judges)
    return Build(result.exit_code == 0, text, result.cpu_s, result.wall_s)
