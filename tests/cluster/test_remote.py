"""The worker side of judge hosts, in process: a problem and a build travel as archives and
are judged without the teacher's folders; what comes back of a secret case is its verdict."""

from __future__ import annotations

import io
import shutil
import tarfile
from pathlib import Path

import pytest

from judge.cluster import remote
from judge.grade import runner
from judge.kinds.table import load_problem
from judge.problem import testdata
from judge.run import languages, sources
from judge.run.sources import Launch
from tests import needs
from tests.author.test_parts import make_problem
from tests.test_cli import judge


def test_a_case_is_judged_from_the_archives_alone(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    make_problem(problems)
    assert judge("--problems", str(problems), "gen").returncode == 0
    problem = load_problem(problems / "sum")
    data = remote.pack_problem(problem, problem.digest)
    cases = testdata.load_cases(problem)
    source = b"a, b = map(int, input().split())\nprint(a + b)\n"
    shutil.rmtree(problems)  # the teacher's folder is gone: only the archive is left

    compiled = remote.compile_remote(data, sources.from_upload("sum.py", source))
    assert compiled.build.ok and compiled.archive
    here = remote.problem_here(data)
    assert here.directory != problem.directory and (here.tests_dir / "hand").is_dir()
    python = languages.load().by_id("python3")
    limits = runner.run_limits(here, python)
    launch = Launch(tuple(python.run_argv(here.spec.limits.memory_mib)), python.id)
    refs = tuple(remote.CaseRef(c.group, c.name, c.public) for c in cases)
    found = remote.cases_remote(data, compiled, launch, refs, limits)  # one batch, in its order
    assert [r.name for r in found] == [c.id for c in cases]
    assert [r.verdict.value for r in found] == ["AC"] * len(cases)
    assert all(r.output is None for r in found if not r.public)  # a secret case's output stays here
    assert any(r.output == b"3\n" for r in found if r.public)


def test_an_archive_with_a_link_out_is_refused(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        link = tarfile.TarInfo("escape")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/shadow"
        archive.addfile(link)
    with pytest.raises(tarfile.TarError):
        remote._unpack(buffer.getvalue(), tmp_path / "target")
    assert not (tmp_path / "target").exists()
    assert [p.name for p in tmp_path.iterdir()] == []  # no staging folder left behind


def test_a_function_problem_is_judged_on_a_judge_host_by_its_language(tmp_path: Path) -> None:
    """A function's harness is built on the host from the signature, and the case is decided
    there by the submission's language (the exception it must raise)."""
    from judge.author import scaffold

    problems = tmp_path / "problems"
    problems.mkdir()
    made = scaffold.create(problems, "maxf", "python3", kind="functions")
    spec = made.directory / "problem.yaml"
    spec.write_text(spec.read_text() + "raises: {python3: ValueError}\n")
    assert judge("--problems", str(problems), "gen", "maxf").returncode == 0
    problem = load_problem(made.directory)
    data = remote.pack_problem(problem, problem.digest)
    samples = [c for c in testdata.load_cases(problem) if c.group == "samples"]
    refs = tuple(remote.CaseRef(c.group, c.name, c.public) for c in samples)
    wrong_kind = (
        (made.directory / "solutions" / "accepted" / "max_sum.py").read_bytes().replace(b"ValueError", b"KeyError")
    )
    submission = sources.from_upload("mine.py", wrong_kind)
    compiled = remote.compile_remote(data, submission)
    assert compiled.build.ok
    here = remote.problem_here(data)
    launch = runner.launch_of(here, submission)
    assert launch.language == "python3"
    found = remote.cases_remote(data, compiled, launch, refs, runner.run_limits(here, submission.language))
    assert [(r.verdict.value, r.message) for r in found] == [
        ("AC", ""),
        ("AC", ""),
        ("WA", "max_sum([]): raised KeyError, expected ValueError"),  # a failed call names itself
    ]


@needs.mark("isolation")
def test_a_students_variant_reaches_a_host_as_its_own_tests_without_the_salt(tmp_path: Path) -> None:
    from judge.author import making
    from judge.web import variants
    from tests.author.test_variants import scaled

    problems, data = tmp_path / "problems", tmp_path / "data"
    problems.mkdir()
    base = load_problem(scaled(problems))
    making.write(base, making.generate(base))
    ada, bob = (variants.of_student(base, who, data) for who in ("ada", "bob"))
    packed = [remote.pack_problem(v, v.digest) for v in (ada, bob)]
    for variant, data_of in zip((ada, bob), packed, strict=True):
        with tarfile.open(fileobj=io.BytesIO(data_of.archive)) as archive:
            names = archive.getnames()
        assert not any("salt" in name or "variants" in name for name in names)  # nothing of DATA's
        here = remote.problem_here(data_of)
        cases = testdata.load_cases(variant)
        arrived = testdata.load_cases(here)
        assert [c.id for c in arrived] == [c.id for c in cases]
        assert [c.input.read_bytes() for c in arrived] == [c.input.read_bytes() for c in cases]
    assert packed[0].archive != packed[1].archive  # each student's own tests, not tests/
