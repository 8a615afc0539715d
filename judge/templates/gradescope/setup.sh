#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder's image. It installs the judge from
# the wheels in this zip, and from Ubuntu's packages the compilers and bubblewrap: nothing else.
# AUTOGRADER_ROOT moves /autograder (the tests run it in a temporary folder).
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
PYTHON="${JUDGE_PYTHON:-python@PYTHON_VERSION@}"

need=()
command -v gcc >/dev/null || need+=(gcc)
command -v g++ >/dev/null || need+=(g++)
command -v javac >/dev/null || need+=(default-jdk-headless)
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v setpriv >/dev/null || need+=(util-linux)
command -v python3 >/dev/null || need+=(python3)
# Unit-test problems run the teacher's pytest files on the system's python3, in their sandbox.
python3 -c 'import pytest' 2>/dev/null || need+=(python3-pytest)
[ -f /usr/share/java/junit-platform-console-standalone.jar ] || need+=(junit5)  # JUnit 5 unit problems
command -v "$PYTHON" >/dev/null || need+=("python@PYTHON_VERSION@" "python@PYTHON_VERSION@-venv")
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}"
fi

"$PYTHON" -m venv "$ROOT/venv"
"$ROOT/venv/bin/python" -m pip install --quiet --no-index --find-links "$SOURCE/wheels" @REQUIREMENTS@
"$ROOT/venv/bin/python" -m pip install --quiet --no-index --no-deps "$SOURCE"/wheels/judge-*.whl
# The tests stay unreadable to the unprivileged user the students' programs run as.
chmod -R go-rwx "$SOURCE"
"$ROOT/venv/bin/judge" doctor || true
