"""`judge similar` on the sample class with planted copies: each copy pairs with its original
above every honest pair; handed-out code counts for nobody; the page and the JSON."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.test_cli import judge

PLANTED = REPO / "tests" / "programs" / "similar"
# (copy's student, its file, the planted file, the original's student)
COPIES = (
    ("student90", "lanqiao.cpp", "lanqiao_renamed.cpp", "student01"),  # every identifier renamed
    ("student91", "lanqiao.c", "lanqiao_reordered.c", "student04"),  # functions reordered, comments changed
    ("student92", "lanqiao.java", "Lanqiao.java", "student01"),  # the C++ solution written in Java
)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("similar")
    shutil.copytree(REPO / "submissions", root / "class")
    for student, name, source, _ in COPIES:
        (root / "class" / student).mkdir()
        shutil.copy(PLANTED / source, root / "class" / student / name)
    # A copy handed in as a folder of two files: student01's search in a header, its main in
    # the other (both are compared: the header's code too).
    original = (REPO / "submissions" / "student01" / "lanqiao.cpp").read_text()
    split = original.index("int main")
    folder = root / "class" / "student93" / "lanqiao"
    folder.mkdir(parents=True)
    (folder / "search.hpp").write_text(original[:split])
    (folder / "main.cpp").write_text('#include "search.hpp"\n' + original[split:])
    return root


def pairs_of(root: Path, *extra: str) -> list[dict[str, object]]:
    result = judge("similar", str(root / "class"), "--json", "-o", str(root / "out"), *extra)
    assert result.returncode == 0, result.stderr
    pairs: list[dict[str, object]] = json.loads(result.stdout)["pairs"]
    return pairs


def score(pairs: list[dict[str, object]], problem: str, a: str, b: str) -> float:
    [found] = [p for p in pairs if p["problem"] == problem and {p["a"], p["b"]} == {a, b}]
    value = found["score"]
    assert isinstance(value, float | int)
    return float(value)


def test_each_copy_pairs_with_its_original_above_every_honest_pair(planted: Path) -> None:
    pairs = pairs_of(planted)
    planted_ids = {student for student, _, _, _ in COPIES} | {"student93"}
    honest = [p for p in pairs if p["problem"] == "lanqiao" and not {p["a"], p["b"]} & planted_ids]
    top_honest = max(float(p["score"]) for p in honest)  # type: ignore[arg-type]
    for student, _, _, original in (*COPIES, ("student93", "", "", "student01")):
        assert score(pairs, "lanqiao", student, original) > top_honest, (student, top_honest)
    # Every pair of a problem, highest first, scores 0..1.
    for _, group in itertools.groupby(pairs, key=lambda p: p["problem"]):
        scores = [float(p["score"]) for p in group]  # type: ignore[arg-type]
        assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    lanqiao = {p["a"] for p in pairs if p["problem"] == "lanqiao"} | {
        p["b"] for p in pairs if p["problem"] == "lanqiao"
    }
    assert len([p for p in pairs if p["problem"] == "lanqiao"]) == len(lanqiao) * (len(lanqiao) - 1) // 2


def test_handed_out_code_counts_for_nobody(planted: Path, tmp_path: Path) -> None:
    template = tmp_path / "template.cpp"
    template.write_text(
        "// given to everyone: fast input\n#include <cstdio>\n"
        "static char buf[1 << 16]; static int len = 0, pos = 0;\n"
        "static int next_char() { if (pos == len) { len = (int)fread(buf, 1, sizeof buf, stdin); pos = 0;"
        " if (len <= 0) return -1; } return buf[pos++]; }\n"
        "static int read_int(int *out) { int c = next_char(), sign = 1, v = 0; while (c == ' ' || c == '\\n') c ="
        " next_char(); if (c == '-') { sign = -1; c = next_char(); } if (c < '0' || c > '9') return 0;"
        " while (c >= '0' && c <= '9') { v = v * 10 + c - '0'; c = next_char(); } *out = v * sign; return 1; }\n"
    )
    root = tmp_path / "root"
    shutil.copytree(planted / "class", root / "class")
    before = pairs_of(root)
    for student, name in (("student01", "lanqiao.cpp"), ("student09", "lanqiao.cpp"), ("student04", "lanqiao.c")):
        path = root / "class" / student / name
        path.write_text(template.read_text() + path.read_text())
    inflated = pairs_of(root)
    assert (
        score(inflated, "lanqiao", "student04", "student09") > score(before, "lanqiao", "student04", "student09") + 0.1
    )
    cleaned = pairs_of(root, "--boilerplate", str(template))
    for a, b in (("student01", "student09"), ("student04", "student09"), ("student01", "student04")):
        assert abs(score(cleaned, "lanqiao", a, b) - score(before, "lanqiao", a, b)) < 0.08, (a, b)


def test_the_page_marks_the_shared_code_and_accuses_nobody(planted: Path) -> None:
    (planted / "out" / "results").mkdir(parents=True, exist_ok=True)
    result = judge("similar", str(planted / "class"), "-p", "lanqiao", "-o", str(planted / "out"))
    assert result.returncode == 0, result.stderr
    assert "a reason to look" in result.stdout
    page = (planted / "out" / "similarity.html").read_text()
    assert "A high score is a reason to look, not a verdict." in page
    assert "student90" in page and "<mark>" in page and "<script" not in page
    assert 'href="similarity.html"' in (planted / "out" / "index.html").read_text()


def test_bad_input_gets_one_line(planted: Path, tmp_path: Path) -> None:
    missing = judge("similar", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "nowhere" in missing.stderr and len(missing.stderr.strip().splitlines()) == 1
    unknown = judge("similar", str(planted / "class"), "-p", "nope")
    assert unknown.returncode == 2 and "nope" in unknown.stderr
    gone = judge("similar", str(planted / "class"), "--boilerplate", str(tmp_path / "template.cpp"))
    assert gone.returncode == 2 and "template.cpp" in gone.stderr
    root = tmp_path / "odd"
    shutil.copytree(planted / "class", root / "class")
    (root / "class" / "student01" / "lanqiao.cpp").write_bytes(b"\x7fELF\0\0\0")
    listed = judge("similar", str(root / "class"), "-p", "lanqiao", "-o", str(root / "out"))
    assert listed.returncode == 0 and "lanqiao.cpp: binary file" in listed.stderr


def test_members_of_one_team_are_no_pair(tmp_path: Path) -> None:
    from judge.similar.score import compare

    program = (
        "total = 0\nfor line in open(0):\n    for word in line.split():\n        total += int(word)\nprint(total)\n"
    )
    for student in ("ann", "ben", "cal"):
        (tmp_path / student).mkdir()
        (tmp_path / student / "sums.py").write_text(program)
    every = compare(tmp_path, ["sums"])
    assert sorted((p.a.student, p.b.student) for p in every.pairs) == [("ann", "ben"), ("ann", "cal"), ("ben", "cal")]
    teamed = compare(tmp_path, ["sums"], together=[frozenset({"ann", "ben"})])
    assert sorted((p.a.student, p.b.student) for p in teamed.pairs) == [("ann", "cal"), ("ben", "cal")]
