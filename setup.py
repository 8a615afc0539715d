"""The judge's one C extension; everything else about the package is in pyproject.toml.

judge/run/sandbox/_fastspawn.c starts a case's program by vfork from the sandbox's
supervisor. It is optional: where no C compiler (or no Python headers) is found at install,
the install goes on without it and the supervisor forks each case instead.
JUDGE_PURE_WHEEL=1 leaves it out on purpose: `judge gradescope` ships a wheel that must
install on whichever CPython the autograder runs.
"""

import os

from setuptools import Extension, setup

FASTSPAWN = Extension("judge.run.sandbox._fastspawn", ["judge/run/sandbox/_fastspawn.c"], optional=True)

setup(ext_modules=[] if os.environ.get("JUDGE_PURE_WHEEL") == "1" else [FASTSPAWN])
