"""A Java or Kotlin call at the cost of a JVM's start: the family's harness compiled once per
machine into a jar, and a class-data-sharing archive (AppCDS, static) of the classes a call
loads, the JDK's and the harness's, never a student's.

Each call stays a fresh JVM (a JVM cannot be forked), so nothing of one call reaches the next;
what the archive saves is the parsing, checking and linking of those classes at every start:
the JVM maps them ready-made. The kit's folder is named by the harness's source and the JDK
(its `java`, `lib/modules` and `libjvm.so` by size and time), so an upgrade of either makes a
new one, and it is made whole or not at all (a folder renamed into place, as the JUnit kit's),
in the sandbox as every Java run is. It is bound read-only into the submission's sandbox, at
the same path, outside the box: no call can change what the next one maps.

The JVM takes a truncated or altered archive on trust (it maps it, and may crash), so the
judge checks the archive's SHA-256 against the one written when it was made before it uses
it; one that does not match is not used, and the calls start as before. An archive the JVM
finds stale (another JDK, another jar) it sets aside itself under -Xshare:auto.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from judge.errors import SandboxFailure
from judge.kinds import jars
from judge.kinds.functions import families, programs, types
from judge.paths import cache_dir
from judge.run import languages, lifecycle, sandbox, toolfolders
from judge.run.programs import ProgramError

KITS = "functions-jvm"
JAR = "harness.jar"
ARCHIVE = "call.jsa"
DIGEST = "call.jsa.sha256"
# The languages whose calls use a kit, by family: the language whose run and compile it takes.
LANGUAGES = {"java": "java", "kotlin": "kotlin"}
# The student's side of the sample call the archive is made from (the harness's never start
# with these): its classes are left out of the jar and of the archive.
SAMPLE_PREFIX = "Solution"
# A call of every kind of value: a list, a map, a string in; a list out.
SAMPLE_SIGNATURE = "sample(xs: list[int], named: dict[str, str], word: str) -> list[long]"
SAMPLES = {
    "java": (
        "import java.util.*;\npublic class Solution {\n"
        "    public static long[] sample(int[] xs, Map<String, String> named, String word) {\n"
        "        long[] out = new long[xs.length];\n"
        "        for (int i = 0; i < xs.length; i++) out[i] = xs[i] + named.size() + word.length();\n"
        "        return out;\n    }\n}\n"
    ),
    "kotlin": (
        "fun sample(xs: List<Int>, named: Map<String, String>, word: String): List<Long> =\n"
        "    xs.map { it.toLong() + named.size + word.length }\n"
    ),
}
SAMPLE_CALL = b'[[1, 2, 3], {"a": "b"}, "w\\u00e9"]\n'
MAKE_LIMITS = sandbox.RunLimits(
    cpu_s=60.0, wall_s=sandbox.wall_for(60.0), memory_mib=768, output_bytes=64 << 20, address_space=False
)
# The JVM's own warnings (an archive it sets aside) go to stderr: stdout is the call's.
LOG_FLAGS = ("-Xlog:disable", "-Xlog:all=warning:stderr")
# A call's collector, in place of the language's Serial: JDK 17 maps an archive's heap objects
# (the module graph, interned strings) under G1 only, and builds them at every start otherwise.
# Measured through the judge: 36-38 ms of CPU a trivial call under G1, 46-51 under Serial, with
# the same archive; its peak memory 12.0 MiB against 11.5. The heap's limit is -Xmx either way.
GC = ("-XX:+UseSerialGC", "-XX:+UseG1GC")
# What else a call's start is spared (issue 62; each changes no limit and nothing a call may do):
# no hsperfdata file made, mapped and removed at every start (only jps and jstat read it); and a
# small initial heap, which G1 would otherwise commit and set up at start as large as -Xmx (the
# default, RAM/64, is larger here): the heap grows on demand up to -Xmx, where an OOM is MLE.
# Measured outside the sandbox (a call's argv, 2 x 60 interleaved runs, load 1.3-1.6): 5.9-6.5 ms
# off the wall median, 1.9-2.3 ms off the CPU; through the judge about 4 ms of CPU (load 6-10).
START_FLAGS = ("-XX:-UsePerfData",)
INITIAL_HEAP_MIB = 8


@dataclass(frozen=True)
class JvmKit:
    folder: Path  # bound read-only into the calls' sandboxes, at the same path
    archive: bool  # call.jsa is there and matched its digest: the calls map it

    def argv(self, run: Sequence[str], dump: str = "") -> list[str]:
        """A call's command from the language's `run` (java ... -cp CP MAIN): the harness's jar
        first on the class path, then the jars of CP, then its folders (the student's); the
        archive mapped where there is one. `dump`: instead write a class list there."""
        shared = [f"-XX:SharedArchiveFile={self.folder / ARCHIVE}", "-Xshare:auto"] if self.archive else []
        if dump:
            shared = ["-Xshare:off", f"-XX:DumpLoadedClassList={dump}"]  # every class, none taken as shared
        out = [run[0], *LOG_FLAGS, *START_FLAGS, *shared]
        rest = list(run[1:])
        while rest:
            part = rest.pop(0)
            if part in ("-cp", "-classpath") and rest:
                out += [part, class_path(self.folder, rest.pop(0))]
            else:
                out += [GC[1] if part == GC[0] else part, *initial_heap(part)]
        return out


def initial_heap(part: str) -> list[str]:
    """The -Xms that follows a run's -Xmx<N>m: the kit's small one, never above the limit (the
    JVM refuses to start with -Xms above -Xmx)."""
    size = re.fullmatch(r"-Xmx(\d+)m", part)
    return [f"-Xms{min(INITIAL_HEAP_MIB, int(size.group(1)))}m"] if size and int(size.group(1)) > 0 else []


def class_path(folder: Path, given: str) -> str:
    """The kit's jar, the jars of `given`, then its other entries: the archive was made with
    the first two, and the JVM takes an archive whose class path is a prefix of the run's."""
    entries = given.split(":")
    jars = [entry for entry in entries if entry.endswith(".jar")]
    return ":".join([str(folder / JAR), *jars, *(entry for entry in entries if entry not in jars)])


def _language(family: str) -> languages.Language:
    return languages.load().languages[LANGUAGES[family]]


def _key(family: str) -> str:
    """What the kit is made from: the harness's source, the language's commands and the JDK."""
    digest = hashlib.sha256(f"{family}\0".encode())
    record = families.FAMILIES[family]
    language = _language(family)
    digest.update(programs.harness(record.harness))
    digest.update(repr((language.compile, language.run, GC, START_FLAGS, INITIAL_HEAP_MIB, SAMPLES[family])).encode())
    digest.update(SAMPLE_CALL)
    java = toolfolders.locate("java").where
    if java is None:
        raise ProgramError("no java here")
    home = Path(java).resolve().parent.parent
    for path in (Path(java).resolve(), home / "lib" / "modules", home / "lib" / "server" / "libjvm.so"):
        if path.exists():
            status = path.stat()
            digest.update(f"{path}\0{status.st_size}\0{status.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:20]


def _sum(path: Path) -> str:
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def checked(folder: Path) -> bool:
    """The archive is there and is the one that was made (a truncated one crashes the JVM)."""
    try:
        return (folder / DIGEST).read_text().strip() == _sum(folder / ARCHIVE)
    except OSError:
        return False


@lru_cache(maxsize=8)
def _kit(family: str, key: str, cache: str) -> JvmKit | None:
    """The kit, made where it is not whole; None where it cannot be made (not tried again in
    this process: each submission would wait for it)."""
    folder = Path(cache) / KITS / f"{family}-{key}"
    try:
        if not (folder / JAR).is_file() or not (folder / ARCHIVE).is_file():
            _make(family, folder)
    except (ProgramError, OSError):
        return None
    return JvmKit(folder, checked(folder)) if (folder / JAR).is_file() else None


def kit(family: str) -> JvmKit | None:
    """This machine's kit of a family's calls, made on first use; None where the family has
    none or it cannot be made (the calls then start as before)."""
    if family not in LANGUAGES or os.environ.get(KIT_ENV, "").strip() == "0":
        return None
    try:
        key = _key(family)
    except (ProgramError, OSError):
        return None
    return _kit(family, key, cache_dir())


KIT_ENV = "JUDGE_JVM_KIT"  # 0: every call starts as before, without the kit (the bench's "before")


def _sample_box(family: str, work: Path) -> Path:
    """A box holding the harness and a sample student's module, as a build of a call has them."""
    box = work / "box"
    box.mkdir()
    sandbox.prepare_box(box)
    _, files = families.FAMILIES[family].program(types.parse_api(SAMPLE_SIGNATURE), SAMPLES[family].encode())
    for name, data in files.items():
        (box / name).write_bytes(data)
    (box / "call.json").write_bytes(SAMPLE_CALL)
    return box


def _run(argv: list[str], box: Path, what: str, reads: tuple[str, ...] = (), stdin: Path | None = None) -> None:
    try:
        result = sandbox.run(argv, box=box, limits=replace(MAKE_LIMITS, read_only=reads), stdin=stdin)
    except SandboxFailure as err:
        raise ProgramError(f"the JVM kit's {what} failed: {err}") from None
    if not result.ok:
        said = (result.stdout + result.stderr).decode("utf-8", errors="replace").strip()
        raise ProgramError(f"the JVM kit's {what} failed: {said[-300:]}")


def _make(family: str, folder: Path) -> None:
    """The harness and a sample student's module compiled in the sandbox (by the language's own
    compile), the harness's classes put in a jar (its folder appears whole or not at all, and
    a judge that made it first wins), then the archive made from the sample's call."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = lifecycle.make_temp_dir("jvm-kit", where=folder.parent)  # on the cache's disk: renamed into place
    try:
        box = _sample_box(family, work)
        sources = sorted(name for name in os.listdir(box) if name.endswith((".java", ".kt")))
        _run([part for part in _language(family).compile or [] if part != "{files}"] + sources, box, "compile")
        harness = [path for path in box.rglob("*.class") if not path.name.startswith(SAMPLE_PREFIX)]
        if not (folder / JAR).is_file():
            classes = ((path, path.relative_to(box).as_posix()) for path in sorted(harness))
            jars.place(work / "kit", folder, JAR, classes, 0o444)
        for path in harness:  # the calls load the harness from the jar, and only from there
            path.unlink()
        if not (folder / ARCHIVE).is_file():
            _make_archive(family, folder, box, work)
    finally:
        lifecycle.remove_dir(work)


def _run_argv(family: str) -> list[str]:
    language = _language(family)
    return [part.replace("{memory_mib}", "256").replace("{mainclass}", "Main") for part in language.run]


def _make_archive(family: str, folder: Path, box: Path, work: Path) -> None:
    """The archive of the classes the sample call loads (the student's left out), dumped in
    the sandbox with the calls' own flags. Without it the calls are slower, not wrong: a
    failure here leaves none."""
    run, reads = _run_argv(family), (str(folder),)
    try:
        _run(JvmKit(folder, False).argv(run, dump="classes.lst"), box, "sample call", reads, box / "call.json")
    except ProgramError:
        return
    listed = (box / "classes.lst").read_text(errors="replace").splitlines()
    kept = [line for line in listed if line and not line.startswith(SAMPLE_PREFIX)]
    (box / "classes.lst").write_text("\n".join(kept) + "\n")
    flags = [GC[1] if part == GC[0] else part for part in run if part.startswith(("-XX:", "-Xmx"))]
    listed_jars = [part for part in class_path(folder, run[run.index("-cp") + 1]).split(":") if part.endswith(".jar")]
    dump = [run[0], *flags, "-Xshare:dump", "-XX:SharedClassListFile=classes.lst", f"-XX:SharedArchiveFile={ARCHIVE}"]
    try:
        _run([*dump, "-cp", ":".join(listed_jars)], box, "archive", reads)
    except ProgramError:
        return
    kept_file = jars.copied_out(box / ARCHIVE, work, 0o444)
    if kept_file is not None:
        (work / DIGEST).write_text(_sum(kept_file) + "\n")
        os.chmod(work / DIGEST, 0o444)
        os.replace(work / DIGEST, folder / DIGEST)
        os.replace(kept_file, folder / ARCHIVE)  # last: an archive is never there without its digest
