"""A variant's choice, parameters, statement and spec (pure)."""

from __future__ import annotations

import pytest

from judge.errors import JudgeError
from judge.problem import variants
from judge.problem.spec import Group, Limits, ProblemSpec, Variants

PER_STUDENT = Variants(per_student=True)


def test_a_student_gets_the_same_variant_and_another_student_another() -> None:
    first = variants.chosen(PER_STUDENT, "salt", "p", "alice")
    assert first == variants.chosen(PER_STUDENT, "salt", "p", "alice")
    assert first != variants.chosen(PER_STUDENT, "salt", "p", "bob")
    assert first != variants.chosen(PER_STUDENT, "salt", "q", "alice")
    # Without the salt, a student cannot work out a classmate's variant.
    assert first != variants.chosen(PER_STUDENT, "other salt", "p", "alice")


def test_a_count_gives_one_of_its_numbered_variants() -> None:
    three = Variants(count=3)
    labels = {variants.chosen(three, "s", "p", f"student{i}").label for i in range(40)}
    assert labels == {"v1", "v2", "v3"}
    assert [c.label for c in variants.sample(three.model_copy(update={"verify_sample": 5}), "p")] == ["v1", "v2", "v3"]


def test_spec_needs_count_or_per_student() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        Variants()
    with pytest.raises(ValueError, match="exactly one"):
        Variants(count=2, per_student=True)


def test_params_are_one_object_of_named_plain_values() -> None:
    assert variants.parse_params('{"n": 3, "word": "ab", "ok": true}', "x") == {"n": 3, "word": "ab", "ok": True}
    for bad, said in (("[1]", "JSON object"), ('{"N": 1}', "a name"), ('{"n": [1]}', "a number"), ("{", "JSON")):
        with pytest.raises(JudgeError, match=f"^params.py: .*{said}"):
            variants.parse_params(bad, "params.py")


def test_statement_shows_the_parameters() -> None:
    assert variants.render_statement("n is {{ n }}; {{ w | upper }}\n", {"n": 7, "w": "ab"}, "s.md") == "n is 7; AB\n"


@pytest.mark.parametrize(
    "template",
    [
        "{{ n.__class__ }}",
        "{{ n.__class__.__mro__[1].__subclasses__() }}",
        "{{ w.format.__globals__ }}",
        "{% include '/etc/passwd' %}",
        "{% import '/etc/passwd' as x %}",
        "{{ lipsum.__globals__ }}",
        "{{ range(10) }}",
        "{{ cycler }}",
        "{{ self._TemplateReference__context }}",
        "{{ missing }}",
        "{{ w.upper.__self__ }}",
    ],
)
def test_a_template_reaches_nothing_but_the_parameters(template: str) -> None:
    with pytest.raises(JudgeError, match=r"^statement.md(:\d+)?: statement template"):
        variants.render_statement(template, {"n": 7, "w": "ab"}, "statement.md")


def test_variant_spec_reseeds_generated_groups_and_fills_parameters() -> None:
    spec = ProblemSpec(
        id="p",
        title="P",
        source="s",
        reference="ref.py",
        limits=Limits(time_s=1, memory_mib=64),
        groups=(
            Group(name="samples", cases=({"input": "1\n"},)),  # type: ignore[arg-type]
            Group(name="big", generate="gen.py {n} {word} {seed}", count=2, seed=5),
        ),
    )
    one = variants.variant_spec(spec, 1, {"n": 9, "word": "a b{c}"}, "problem.yaml")
    two = variants.variant_spec(spec, 2, {"n": 9, "word": "x"}, "problem.yaml")
    assert one.groups[0] == spec.groups[0]
    assert one.groups[1].seed != two.groups[1].seed
    # A string parameter stays one word, and its braces are no placeholder.
    assert one.groups[1].generate == "gen.py 9 'a b{{c}}' {seed}"
    with pytest.raises(JudgeError, match=r"\{n\} is not a parameter of the variant \(known: none\)"):
        variants.variant_spec(spec, 1, {}, "problem.yaml")


@pytest.mark.parametrize(
    ("template", "said"),
    [
        ("{{ w|sum }}", "unsupported operand"),
        ("{{ w|dictsort }}", "no attribute"),
        ("{{ w|format(w) }}", "not all arguments"),
        ("{{ n ** 99999999 }}", "more than 4096 digits"),
        ("{{ 'x' * 50000000 }}", "a repeat longer than 1 MiB"),
        ("{% for i in w * 300000 %}{{ w * 2 }}{% endfor %}", "more than 1 MiB of statement"),
    ],
)
def test_a_template_that_fails_as_it_runs_is_one_line_naming_the_file(template: str, said: str) -> None:
    with pytest.raises(JudgeError, match=f"^statement.md: statement template: .*{said}") as failed:
        variants.render_statement(template, {"n": 3, "w": "ab"}, "statement.md")
    assert "\n" not in str(failed.value)


def test_params_are_finite_numbers() -> None:
    for bad in ('{"n": NaN}', '{"n": Infinity}', '{"n": -Infinity}', '{"n": 1e999}'):
        with pytest.raises(JudgeError, match=r"^params.py: .*(not a number|a finite number)"):
            variants.parse_params(bad, "params.py")
