"""YAML with lines: aliases that expand past any spec's size are refused at their line, in
bounded time, where they once held the process (a course.yaml reloaded inside a request)."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.problem import yamlpos

LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)},"
    f" *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(9)
)  # 9 ** 10 values once expanded


def test_aliases_that_expand_to_billions_are_refused_at_a_line(tmp_path: Path) -> None:
    spec = tmp_path / "course.yaml"
    spec.write_text(LAUGHS)
    with pytest.raises(yamlpos.YamlError, match=r"more than 200000 values once its aliases") as caught:
        yamlpos.load(spec)
    assert 1 <= caught.value.line <= 10


def test_an_alias_a_teacher_writes_still_reads(tmp_path: Path) -> None:
    spec = tmp_path / "problem.yaml"
    spec.write_text("base: &limits {time_s: 1, memory_mib: 256}\ngroups:\n  - limits: *limits\n  - limits: *limits\n")
    loaded = yamlpos.load(spec)
    assert loaded.data["groups"] == [{"limits": {"time_s": 1, "memory_mib": 256}}] * 2
    assert loaded.line_of(("groups", 1)) == 4


def test_a_character_yaml_forbids_is_one_line_at_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "course.yaml"
    spec.write_text("title: x\nassignments:\n  - id: a\0b\n")
    with pytest.raises(yamlpos.YamlError) as caught:
        yamlpos.load(spec)
    assert caught.value.line == 3 and "\n" not in str(caught.value)
    assert "character U+0000 is not allowed" in str(caught.value)
