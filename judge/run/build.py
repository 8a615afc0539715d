"""Source file -> Build: identify the language, read the source safely, compile it once
in the sandbox under its own limits, keeping the compiler's output for a CE message."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError, SandboxFailure
from judge.run import defaults, languages, lifecycle, sandbox
from judge.run.languages import Language
from judge.run.sandbox import Limit

# Compiling gets its own limits (problem.yaml: limits.compile_time_s, compile_memory_mib):
# a compile bomb ends as CE, not as a hung judge or a machine out of memory. Ten seconds of
# CPU is ample for any real submission (gcc -O2 on a 1 MiB source takes about two).
COMPILE_OUTPUT_BYTES = 64 << 20  # any one file the compiler writes (the binary, say)
COMPILER_OUTPUT_CAP = 8 * 1024  # characters of compiler output kept for the CE message
MAX_SOURCE_BYTES = 1 << 20


@dataclass(frozen=True)
class Submission:
    """A source file and how to build it (language and, for Java, its main class)."""

    path: Path
    language: Language
    source: bytes
    mainclass: str


@dataclass(frozen=True)
class Build:
    ok: bool
    message: str  # the compiler's output (truncated), shown on CE; or why the judge failed
    cpu_s: float
    wall_s: float
    internal: bool = False  # not compiled because the judge failed (IE), not the compiler


def load_submission(path: Path, language_id: str | None = None) -> Submission:
    """Read and identify a source file; JudgeError (one line, naming the file) if unusable."""
    table = languages.load()
    language = table.by_id(language_id) if language_id else table.detect(path)
    try:
        source = path.read_bytes()
    except OSError as err:
        raise JudgeError(f"{path}: cannot read: {err.strerror}") from None
    if not source.strip():
        raise JudgeError(f"{path}: empty submission")
    if len(source) > MAX_SOURCE_BYTES:
        raise JudgeError(f"{path}: {len(source)} bytes, over the {MAX_SOURCE_BYTES}-byte source limit")
    if b"\0" in source:
        raise JudgeError(f"{path}: binary file, not source code")
    try:
        source.decode("utf-8")
    except UnicodeDecodeError as err:
        line = source[: err.start].count(b"\n") + 1
        raise JudgeError(f"{path}:{line}: not UTF-8 text") from None
    mainclass = language.main_class(source) if language.uses_mainclass else "Main"
    return Submission(path, language, source, mainclass)


@contextmanager
def box() -> Iterator[Path]:
    """A fresh, private working directory for one submission, removed afterwards."""
    directory = lifecycle.make_temp_dir("box")
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


def compile_submission(submission: Submission, where: Path, limits: sandbox.RunLimits | None = None) -> Build:
    """Write the source into the box and compile it there, under `limits` (default:
    compile_limits of its language)."""
    (where / submission.language.source_name(submission.mainclass)).write_bytes(submission.source)
    argv = submission.language.compile_argv(submission.mainclass)
    if argv is None:
        return Build(True, "", 0.0, 0.0)
    try:
        result = sandbox.run(argv, box=where, limits=limits or compile_limits(submission.language))
    except SandboxFailure as err:
        return Build(False, str(err), 0.0, 0.0, internal=True)
    text = (result.stdout + result.stderr).decode("utf-8", errors="replace")
    if len(text) > COMPILER_OUTPUT_CAP:
        text = text[:COMPILER_OUTPUT_CAP] + "\n[... compiler output truncated]"
    if result.limit_hit is not None:
        what = {Limit.CPU: "CPU time", Limit.WALL: "time", Limit.FILE_SIZE: "file size"}
        text = f"compilation stopped: {what.get(result.limit_hit, str(result.limit_hit))} limit\n{text}"
        return Build(False, text, result.cpu_s, result.wall_s)
    return Build(result.exit_code == 0, text, result.cpu_s, result.wall_s)
