"""A problem's own programs (reference, generators, input validators, checker): a file or a
folder of files in any of the judge's languages, compiled once into a cache keyed by the
hash of its content, and run in the sandbox like a submission, under limits of its own.

A folder is one program: every source file of its language is compiled together, and
other files (a validator's `testlib.h`, say) sit beside them in the box. The cache lives
under the judge's cache folder, so a second `judge gen` or a worker process compiles
nothing; a build is written to a temporary folder and renamed into place, so a judge
killed mid-compile leaves no half-built program behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.paths import cache_dir
from judge.run import lifecycle, sandbox, sources
from judge.run.sandbox import Limit
from judge.run.sandbox.records import BOX_MOUNT
from judge.run.sources import Caps, Sources

MAX_PROGRAM_BYTES = 8 << 20  # all files of one program together
COMPILE_TIME_S = 60.0  # a validator built on a big header (testlib) needs more than a submission
COMPILE_MEMORY_MIB = 2048
KEPT_BYTES = 64 * 1024  # of each feedback file a checker writes
STDERR_SHOWN = 400  # characters of a program's stderr quoted in an error (its start and its end)
# Bump when the layout of a cached build changes.
CACHE_VERSION = 1


class ProgramError(JudgeError):
    """A problem's program is unusable or failed: one line naming it (and what it ran on)."""


Program = Sources  # a program's files, read and identified as a submission's are

PROGRAM_CAPS = Caps(bytes=MAX_PROGRAM_BYTES, files=10_000)


def digest_of(program: Program) -> str:
    """The cache key of a program's build: its language's commands and its files."""
    digest = hashlib.sha256(f"judge-program {CACHE_VERSION}\0".encode())
    spec = program.language.model_dump(mode="json", exclude={"name", "version", "extensions"})
    digest.update(json.dumps(spec, sort_keys=True).encode() + b"\0")
    digest.update(f"{program.main}\0{program.mainclass}\0".encode())
    for name, content in program.box_files():
        digest.update(f"{name}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


@dataclass(frozen=True)
class Built:
    """A compiled program in the cache: what to copy into a box and how to start it."""

    label: str  # the program's path, for messages
    directory: Path
    argv: tuple[str, ...]
    language: str
    address_space: bool
    jvm_allowance_mib: int


@dataclass(frozen=True)
class ToolLimits:
    time_s: float
    memory_mib: int
    output_bytes: int

    def sandbox_limits(self, built: Built) -> sandbox.RunLimits:
        return sandbox.RunLimits(
            cpu_s=self.time_s,
            wall_s=sandbox.wall_for(self.time_s),
            memory_mib=self.memory_mib + built.jvm_allowance_mib,
            output_bytes=self.output_bytes,
            address_space=built.address_space,
        )


def load(path: Path) -> Program:
    """Read a program (file or folder); ProgramError naming the file when it is unusable. A
    `build` file in a folder is just a file: problems' programs are compiled by language."""
    try:
        return sources.read(path, PROGRAM_CAPS, build_scripts="ignore", guess_entry=True)
    except JudgeError as err:
        raise ProgramError(str(err)) from None


def _cache_root() -> Path:
    return Path(cache_dir()) / "programs"


def build(program: Program, memory_mib: int) -> Built:
    """The cached build of the program, compiling it (in the sandbox) when it is not there.
    `memory_mib` is what its runs get (a JVM's -Xmx)."""
    language = program.language
    target = _cache_root() / digest_of(program)
    argv = tuple(program.run_argv(memory_mib))
    built = Built(
        str(program.path),
        target,
        argv,
        language.id,
        language.address_space_limit,
        language.jvm_allowance_mib,
    )
    if (target / ".built").is_file():
        return built
    from judge.run.build import compile_limits, write_files

    work = lifecycle.make_temp_dir("program")  # renamed into the cache: on disk (a mount cannot move)
    try:
        sandbox.prepare_box(work)
        write_files(work, program.box_files())
        compile_argv = program.compile_argv()
        if compile_argv is not None:
            limits = compile_limits(language, COMPILE_TIME_S, COMPILE_MEMORY_MIB)
            result = sandbox.run(compile_argv, box=work, limits=limits)
            if not result.ok:
                text = (result.stdout + result.stderr).decode("utf-8", errors="replace").strip()
                lines = [line.strip() for line in text.splitlines() if line.strip()]
                # The line that names the error: gcc's first "error:", Python's last line.
                named = [line for line in lines if "error" in line.lower() and not line.startswith("Traceback")]
                first = (named or lines or [f"exit code {result.exit_code}, {result.limit_hit} limit"])[0]
                raise ProgramError(f"{program.path}: does not compile: {first[:STDERR_SHOWN]}")
        (work / ".built").write_text(json.dumps({"argv": argv}) + "\n")
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(work, target)
        except OSError:
            if not (target / ".built").is_file():  # another judge may have won the race
                raise
    finally:
        lifecycle.remove_dir(work)
    return built


def load_and_build(path: Path, memory_mib: int) -> Built:
    return build(load(path), memory_mib)


@dataclass(frozen=True)
class Task:
    """One run of a built program: arguments, the text on its stdin, its limits."""

    built: Built
    args: tuple[str, ...]
    stdin: bytes | None
    limits: sandbox.RunLimits
    files: tuple[tuple[str, Path], ...] = ()  # copied into the box first: (name there, source)
    keep: str = ""  # a folder of the box (name) whose files are returned with the result
    keep_bytes: int = KEPT_BYTES  # of each of them, at most (what is beyond is not read)


@dataclass(frozen=True)
class Outcome:
    run: sandbox.RunResult
    kept: tuple[tuple[str, bytes], ...]  # files of Task.keep after the run


def run(task: Task) -> sandbox.RunResult:
    """Run the program in a fresh box holding a copy of its build (it may write there)."""
    return run_keeping(task).run


def run_keeping(
    task: Task, stdin_fd: int | None = None, stdout_fd: int | None = None, stop: threading.Event | None = None
) -> Outcome:
    """`run`, and the files the program left in Task.keep. `stdin_fd` and `stdout_fd`: pipe
    ends to another program (taken over by the sandbox); `stop`, once set, ends it."""
    _require_isolation()
    work = lifecycle.make_temp_dir("prog", cap=lifecycle.BOX_CAP_BYTES)
    try:
        box = work / "box"
        shutil.copytree(task.built.directory, box, ignore=shutil.ignore_patterns(".built"))
        for name, source in task.files:
            shutil.copyfile(source, box / name)
        if task.keep:
            (box / task.keep).mkdir()
        sandbox.prepare_box(box)
        for item in box.rglob("*"):
            os.chmod(item, 0o777 if item.is_dir() else 0o755)
        # The case's files (a checker's input and answer) are private copies, and read-only:
        # by their mode to uid 65534, by a read-only mount in the sandbox to any uid.
        fixed = tuple(name for name, _ in task.files)
        for name in fixed:
            os.chmod(box / name, 0o444)
        stdin: Path | int | None = stdin_fd
        if task.stdin is not None:
            stdin = work / "stdin"
            stdin.write_bytes(task.stdin)
        result = sandbox.run(
            [*task.built.argv, *task.args],
            box=box,
            limits=task.limits,
            stdin=stdin,
            stdout=stdout_fd,
            stop=stop,
            fixed=fixed,
        )
        kept: list[tuple[str, bytes]] = []
        if task.keep:
            for item in sorted((box / task.keep).iterdir()):
                if item.is_file() and not item.is_symlink():
                    with open(item, "rb") as stream:
                        kept.append((item.name, stream.read(task.keep_bytes)))
        return Outcome(result, tuple(kept))
    finally:
        lifecycle.remove_dir(work)


def _require_isolation() -> None:
    # A problem's programs may come from a package off the internet: they run isolated
    # like a submission, unless the user said --unsafe-no-sandbox.
    if os.environ.get(sandbox.UNSAFE_ENV) == "1":
        return
    why = sandbox.isolation_problem(sandbox.detect())
    if why:
        raise ProgramError(why)


def run_all(tasks: Sequence[Task], jobs: int, on_done: Callable[[int], None] | None = None) -> list[sandbox.RunResult]:
    """Every task's result, in order; `jobs` worker processes when there is more than one task."""
    if jobs <= 1 or len(tasks) <= 1:
        results = []
        for index, task in enumerate(tasks):
            results.append(run(task))
            if on_done is not None:
                on_done(index)
        return results
    found: dict[int, sandbox.RunResult] = {}
    with lifecycle.worker_pool(min(jobs, len(tasks))) as pool:
        futures: dict[Future[sandbox.RunResult], int] = {
            pool.submit(lifecycle.in_worker, run, task): index for index, task in enumerate(tasks)
        }
        pending = set(futures)
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    found[futures[future]] = future.result()
                    if on_done is not None:
                        on_done(futures[future])
        except BaseException:
            lifecycle.stop_pool(pool)
            raise
    return [found[i] for i in range(len(tasks))]


def failure(result: sandbox.RunResult, built: Built | None = None) -> str:
    """Why a run of a problem's program failed, in a few words, with its stderr (naming the
    program's own files, not the box's: see stderr_tail); "" if it did not."""
    if result.ok:
        return ""
    if result.limit_hit is not None:
        what = {Limit.CPU: "time", Limit.WALL: "wall-clock time", Limit.FILE_SIZE: "file size"}.get(
            result.limit_hit, str(result.limit_hit)
        )
        how = f"went over its {what} limit"
    elif result.signal is not None:
        how = f"was killed by signal {result.signal}"
    else:
        how = f"exited with code {result.exit_code}"
    return how + stderr_tail(result.stderr, built)


def stderr_tail(stderr: bytes, built: Built | None = None) -> str:
    """A program's stderr for a one-line error: its lines joined, and a long one cut in the
    middle, so both ends show: Java names the error first, Python and C++ last. A single-file
    program runs in the box as main.<ext>: a traceback there names the author's file instead
    (`ref.py`, not `/box/main.py`), and the box's other paths lose their `/box/`."""
    decoded = stderr.decode("utf-8", errors="replace")
    if built is not None:
        own = Path(built.label).name
        decoded = re.sub(rf"{re.escape(BOX_MOUNT)}/main\.[A-Za-z0-9]+\b", lambda _: own, decoded)
        decoded = decoded.replace(f"{BOX_MOUNT}/", "")
    text = " | ".join(line.strip() for line in decoded.splitlines() if line.strip())
    if not text:
        return ""
    if len(text) > STDERR_SHOWN:
        head = STDERR_SHOWN // 3
        text = f"{text[:head]} ... {text[len(text) - (STDERR_SHOWN - head) :]}"
    return f" ({text})"
