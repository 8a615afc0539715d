"""What a zygote of a language other than Python needs from the judge: for Node, the addon
(zygote_node.c) compiled once per machine with its C compiler and kept in the judge's cache
by the digest of its source, and the zygote's script (zygote_node.js), run by `node -e`.

The judge compiles its own C file, as the install builds _fastspawn: no student's byte goes
in. Where there is no C compiler or the compile fails, `node_addon` says "" and each call of
a JavaScript function is Node's own start, as before.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from functools import lru_cache
from importlib import resources
from pathlib import Path

from judge import paths
from judge.run import lifecycle

_ADDON_SOURCE = "zygote_node.c"
_SCRIPT = "zygote_node.js"
KIT_FOLDER = "zygote-node"
_COMPILE_S = 60.0  # a few hundred milliseconds here; far more on a loaded machine
NODE_ENV = "JUDGE_NODE_ZYGOTE"  # 0: each JavaScript call is Node's own start (tests run both)


def _text(name: str) -> bytes:
    return resources.files("judge.run.sandbox").joinpath(name).read_bytes()


@lru_cache(maxsize=1)
def node_script() -> str:
    """zygote_node.js's text, handed to the supervisor with each Node zygote's start."""
    return _text(_SCRIPT).decode("utf-8")


def node_addon() -> str:
    """The compiled addon's path ("" where it cannot be had, or $JUDGE_NODE_ZYGOTE is 0)."""
    if os.environ.get(NODE_ENV, "").strip() == "0":
        return ""
    return _addon(paths.cache_dir())


@lru_cache(maxsize=4)
def _addon(cache: str) -> str:
    source = _text(_ADDON_SOURCE)
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return ""
    digest = hashlib.sha256(source + compiler.encode()).hexdigest()[:20]
    target = os.path.join(cache, KIT_FOLDER, f"{digest}.node")
    if os.path.isfile(target):
        return target
    os.makedirs(os.path.dirname(target), exist_ok=True)
    work = lifecycle.make_temp_dir("zygote-node", where=Path(target).parent)  # renamed into place
    try:
        (work / _ADDON_SOURCE).write_bytes(source)
        made = work / "addon.node"
        argv = [compiler, "-O2", "-shared", "-fPIC", "-o", str(made), str(work / _ADDON_SOURCE)]
        try:
            done = subprocess.run(argv, capture_output=True, timeout=_COMPILE_S, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return ""
        if done.returncode != 0 or not made.is_file():
            return ""
        os.chmod(made, 0o644)
        os.replace(made, target)  # a judge that made it first is overwritten by the same bytes
    finally:
        lifecycle.remove_dir(work)
    return target
