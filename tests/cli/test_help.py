"""`judge --help` and the README say how many languages there are: the number of languages.yaml."""

from __future__ import annotations

import re

from judge.run import languages
from tests.conftest import REPO
from tests.test_cli import judge


def test_the_help_and_the_readme_count_the_languages_of_the_table() -> None:
    count = len(languages.load().languages)
    shown = " ".join(judge("--help").stdout.split())  # click folds the text over lines
    assert f"submissions in {count} languages" in shown, shown
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    said = re.findall(r"submissions in (\d+) languages|all (\d+) on Debian", readme)
    assert sorted(int(a or b) for a, b in said) == [count, count], said


def test_the_readmes_install_line_brings_every_languages_package() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    [line] = re.findall(r"apt-get install --no-install-recommends ((?:.|\\\n)*?)\n(?!  )", readme)
    named = set(line.replace("\\\n", " ").split())
    wanted = {language.package for language in languages.load().languages.values()}
    assert wanted <= named, sorted(wanted - named)
