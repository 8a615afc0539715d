"""`judge run` end to end: verdicts, scores, JSON, ad hoc runs, bad input, and no leaks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.run import build, lifecycle, sandbox
from judge.run.sources import Launch
from tests import needs
from tests.conftest import PROBLEMS, REPO
from tests.test_cli import judge

PROGRAMS = REPO / "tests" / "programs"


def test_accepted_cpp_json() -> None:
    result = judge("run", str(PROGRAMS / "sicily_ok.cpp"), "-p", "sicily-rotations", "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["verdict"] == "AC" and payload["score"] == 100
    assert len(payload["cases"]) == 12
    assert set(payload["cases"][0]) == {"name", "group", "verdict", "cpu_s", "wall_s", "memory_kib", "message"}
    assert all(c["verdict"] == "AC" and c["memory_kib"] > 0 for c in payload["cases"])


@needs.mark("java")
def test_java_with_any_file_name_and_class() -> None:
    # The file is EightDigits.java but declares `public class Solver`: compiled as Solver.java.
    # (Java over a whole problem is `judge verify`'s: the puzzles have Java solutions.)
    samples = PROBLEMS / "eight-digits" / "tests" / "samples"
    args = ["--input", str(samples / "01.in"), "--answer", str(samples / "01.ans"), "--time-limit", "2"]
    result = judge("run", str(PROGRAMS / "EightDigits.java"), *args, "--json")
    assert json.loads(result.stdout)["verdict"] == "AC", result.stdout[-2000:]


def secret_texts(problem: str) -> list[str]:
    texts = []
    for path in (PROBLEMS / problem / "tests").glob("*/*.in"):
        if path.parent.name != "samples":
            texts += [line.strip() for line in path.read_text().splitlines() if line.strip()]
    return texts


def test_wrong_answer_shows_samples_and_hides_secrets() -> None:
    result = judge("run", str(PROGRAMS / "lanqiao_prints_zero.py"), "-p", "lanqiao")
    assert result.returncode == 1
    shown = result.stdout + result.stderr
    assert "samples/01: first difference, line 1" in shown and "expected: 3" in shown and "received: 0" in shown
    assert "WA wrong answer; score" in shown
    leaked = [t for t in secret_texts("lanqiao") if t in shown]
    assert leaked == []
    as_json = judge("run", str(PROGRAMS / "lanqiao_prints_zero.py"), "-p", "lanqiao", "--json")
    cases = json.loads(as_json.stdout)["cases"]
    secret_wrong = [c for c in cases if c["group"] != "samples" and c["verdict"] == "WA"]
    assert secret_wrong and all(c["message"] == "wrong answer" for c in secret_wrong)
    assert [t for t in secret_texts("lanqiao") if t in as_json.stdout] == []


def test_first_failing_case_sets_the_headline_and_groups_score(tmp_path: Path) -> None:
    # Reads only the first case of each file: right on one-case files, wrong elsewhere.
    result = judge("run", str(PROGRAMS / "sicily_first_case_only.py"), "-p", "sicily-rotations", "--json")
    payload = json.loads(result.stdout)
    assert payload["verdict"] == "WA" and payload["cases"][0]["verdict"] == "WA"
    assert payload["cases"][1]["verdict"] == "AC"  # edge/01 holds the goal alone
    assert payload["score"] == 0  # every group has a multi-case file


def test_compile_error(tmp_path: Path) -> None:
    source = tmp_path / "broken.c"
    source.write_text("int main( { return 0; }\n")
    result = judge("run", str(source), "-p", "lanqiao", "--json")
    payload = json.loads(result.stdout)
    assert result.returncode == 1 and payload["verdict"] == "CE" and payload["cases"] == []
    assert "broken.c" in payload["compile_output"] or "main.c" in payload["compile_output"]
    table = judge("run", str(source), "-p", "lanqiao")
    assert "CE compilation error" in table.stdout


@pytest.mark.slow  # heavy end to end: make test-slow
def test_ad_hoc_with_and_without_answer(tmp_path: Path) -> None:
    case, answer = tmp_path / "case.in", tmp_path / "case.ans"
    case.write_text("4 1 3 5 2 6 7 8 9\n")
    answer.write_text("3\n")
    judged = judge("run", str(PROGRAMS / "sicily_ok.cpp"), "--input", str(case), "--answer", str(answer))
    assert judged.returncode == 0 and judged.stdout.split()[0] == "AC"
    answer.write_text("4\n")
    wrong = judge("run", str(PROGRAMS / "sicily_ok.cpp"), "--input", str(case), "--answer", str(answer))
    assert wrong.returncode == 1 and wrong.stdout.split()[0] == "WA"
    plain = judge("run", str(PROGRAMS / "sicily_ok.cpp"), "--input", str(case))
    assert plain.returncode == 0 and plain.stdout == "3\n"
    slow = tmp_path / "slow.py"
    slow.write_text("while True:\n    pass\n")
    tle = judge("run", str(slow), "--input", str(case), "--answer", str(answer), "--time-limit", "0.3")
    assert tle.stdout.split()[0] == "TLE"
    # --json: one object, with or without an answer.
    wrong_json = judge("run", str(PROGRAMS / "sicily_ok.cpp"), "--input", str(case), "--answer", str(answer), "--json")
    got = json.loads(wrong_json.stdout)
    assert wrong_json.returncode == 1 and got["verdict"] == "WA" and got["output"] == "3\n"
    assert got["exit_code"] == 0 and got["memory_kib"] >= 0 and got["isolated"] is True
    plain_json = judge("run", str(PROGRAMS / "sicily_ok.cpp"), "--input", str(case), "--json")
    assert plain_json.returncode == 0 and json.loads(plain_json.stdout)["verdict"] == "OK"
    tle_json = json.loads(judge("run", str(slow), "--input", str(case), "--time-limit", "0.3", "--json").stdout)
    assert tle_json["verdict"] == "TLE" and tle_json["cpu_s"] >= 0.3
    broken = tmp_path / "broken.c"
    broken.write_text("int main( {")
    ce = judge("run", str(broken), "--input", str(case), "--json")
    assert ce.returncode == 1 and json.loads(ce.stdout)["verdict"] == "CE" and "error" in ce.stdout


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.cpp", b"  \n", "empty submission"),
        ("binary.c", b"\x7fELF\x02\x01\x00\x00", "binary file, not source code"),
        ("latin.py", b"print('caf\xe9')\n", ":1: not UTF-8 text"),
        ("script.zig", b"pub fn main() void {}\n", "unknown language for extension '.zig'"),
    ],
)
def test_bad_submissions_get_one_line(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    source = tmp_path / name
    source.write_bytes(content)
    result = judge("run", str(source), "-p", "lanqiao")
    assert result.returncode == 2
    assert message in result.stderr and str(source) in result.stderr
    with pytest.raises(JudgeError):
        build.load_submission(source)


def test_unknown_language_flag(tmp_path: Path) -> None:
    result = judge("run", str(PROGRAMS / "sicily_ok.cpp"), "-p", "lanqiao", "--lang", "cobol")
    assert result.returncode == 2 and "unknown language 'cobol'" in result.stderr


@pytest.mark.slow  # heavy end to end: make test-slow
def test_custom_checker_protocol(problems_copy: Path, tmp_path: Path) -> None:
    problem = problems_copy / "eight-digits"
    (problem / "checker.py").write_text(
        "import sys\n"
        "inp, ans, feedback = sys.argv[1:4]\n"
        "got = sys.stdin.read().split()\n"
        "want = open(ans).read().split()\n"
        "if got == want:\n    sys.exit(42)\n"
        "open(feedback + 'judgemessage.txt', 'w').write('custom: expected ' + ' '.join(want) + '\\n')\n"
        "sys.exit(43)\n"
    )
    spec = problem / "problem.yaml"
    spec.write_text(spec.read_text().replace("checker: {type: tokens}", "checker: {type: custom, program: checker.py}"))
    right = problem / "solutions" / "accepted" / "ida_star.c"
    ok = judge("--problems", str(problems_copy), "run", str(right), "-p", "eight-digits", "--json")
    assert json.loads(ok.stdout)["verdict"] == "AC", ok.stdout[-1500:]
    zero = tmp_path / "zero.py"
    zero.write_text("input()\nprint(0)\n")
    wrong = json.loads(judge("--problems", str(problems_copy), "run", str(zero), "-p", "eight-digits", "--json").stdout)
    assert wrong["verdict"] == "WA" and wrong["cases"][0]["message"] == "custom: expected 19"
    (problem / "checker.py").write_text("import sys\nsys.exit(1)\n")
    broken = json.loads(
        judge("--problems", str(problems_copy), "run", str(zero), "-p", "eight-digits", "--json").stdout
    )
    assert broken["verdict"] == "IE" and "expected exit 42 or 43" in broken["cases"][0]["message"]


def test_doctor_reports_languages_and_layers() -> None:
    result = judge("doctor")
    for word in ("gcc", "g++", "python3", "bwrap", "cgroup", "rlimits", "sandbox mode:"):
        assert word in result.stdout
    # A missing language is no fault of the machine's: doctor fails only where nothing isolates.
    assert result.returncode == (1 if needs.why_not("isolation") else 0), result.stdout


@pytest.mark.parametrize(("on_reject", "earned"), [("continue", 50.0), ("break", 10.0)])
def test_on_reject_break_counts_only_the_cases_before_the_first_failure(
    tmp_path: Path, on_reject: str, earned: float
) -> None:
    from judge.grade import runner
    from judge.kinds.table import load_problem
    from judge.run import sandbox
    from judge.run.build import Build, load_submission
    from judge.run.sources import Sources
    from judge.run.verdicts import Verdict
    from tests.author.test_parts import make_problem

    directory = make_problem(tmp_path)
    spec = directory / "problem.yaml"
    spec.write_text(
        spec.read_text().replace(
            "    points: 60\n", f"    points: 60\n    scoring: per_case\n    on_reject: {on_reject}\n"
        )
    )
    problem = load_problem(directory)
    submission: Sources = load_submission(directory / "solutions" / "accepted" / "ref.py")
    verdicts = [Verdict.AC, Verdict.WA, Verdict.AC, Verdict.AC, Verdict.AC, Verdict.AC]
    cases = [runner.CaseResult(f"random/0{i + 1}", "random", False, v, "", 0.0, 0.0, 0) for i, v in enumerate(verdicts)]
    limits = sandbox.RunLimits(cpu_s=1, wall_s=3, memory_mib=256, output_bytes=1 << 20)
    result = runner.summarise(problem, submission, Build(True, "", 0.0, 0.0), cases, limits)
    random = next(g for g in result.groups if g.name == "random")
    assert (random.passed, random.earned) == (5, earned)


def test_a_group_gives_up_on_a_streak_of_one_kind_of_limit_only() -> None:
    # lanqiao's random group gives up after 3 TLEs or 3 MLEs in a row: TLE and MLE in turn
    # are no streak of either, an AC breaks a streak, and the third MLE in a row ends it.
    from judge.grade import runner
    from judge.kinds.table import load_problem
    from judge.run.verdicts import Verdict

    ends = runner.GroupEnds(load_problem(PROBLEMS / "lanqiao"))
    T, M, A = Verdict.TLE, Verdict.MLE, Verdict.AC
    verdicts = [T, M, T, M, T, T, A, M, M, A, M, M, M]
    ended = [
        ends.add(runner.CaseResult(f"random/{i:02}", "random", False, v, "", 0.0, 0.0, 0))
        for i, v in enumerate(verdicts)
    ]
    assert ended == [False] * 12 + [True]
    assert ends.ended == {"random": "not judged: 3 memory limits exceeded in a row before it"}
    assert not runner.GroupEnds(load_problem(PROBLEMS / "lanqiao"), full=True).give_up  # --full judges all


@needs.mark("isolation")
def test_a_case_whose_box_goes_away_is_the_judges_failure_not_the_students(tmp_path: Path) -> None:
    """Another process removed the box (as a judge that took it for stale once did): IE with
    one line, never a traceback, never RE or WA."""
    import threading
    import time

    from judge.grade import runner
    from judge.kinds.table import load_problem
    from judge.problem import testdata

    problem = load_problem(PROBLEMS / "sicily-rotations")
    case = next(c for c in testdata.load_cases(problem) if c.public)
    submission = build.load_submission(PROGRAMS / "sicily_first_case_only.py")
    limits = runner.run_limits(problem, submission.language)
    with build.box() as where:
        made = runner.compile_for(problem, submission, where)
        assert made.ok
        launch = submission.launch(problem.spec.limits.memory_mib)
        slow = where / "slow.py"
        slow.write_text("import time\ntime.sleep(1.5)\nprint(0)\n")
        # as another judge removes a folder (a capped box is unmounted whole, then removed)
        remover = threading.Timer(0.4, lifecycle.remove_tree, args=(where,))
        remover.start()
        began = time.monotonic()
        result = runner.run_case(problem, Launch(("python3", "slow.py"), "python3"), where, case, limits)
        remover.join()
        assert result.verdict.value == "IE" and "went away" in result.message and "\n" not in result.message
        assert time.monotonic() - began < 30
        gone = runner.run_case(problem, launch, where, case, limits)  # the box is gone before the run
        assert gone.verdict.value == "IE" and "is gone" in gone.message
        where.mkdir()  # for box() to remove


def test_a_compilation_the_sandbox_fails_is_ie_with_its_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.errors import SandboxFailure
    from judge.grade import runner
    from judge.kinds.table import load_problem

    def vanish(*_: object, **__: object) -> object:
        raise SandboxFailure("the sandbox failed to run gcc: its box went away")

    problem = load_problem(PROBLEMS / "sicily-rotations")
    submission = build.load_submission(PROBLEMS / "sicily-rotations" / "solutions" / "accepted" / "cantor_table.c")
    monkeypatch.setattr(sandbox, "run", vanish)
    made = runner.compile_for(problem, submission, tmp_path)
    assert not made.ok and made.internal and "went away" in made.message
    result = runner.summarise(problem, submission, made, [], runner.run_limits(problem, submission.language))
    assert result.verdict.value == "IE"
    from judge.grade import results

    record = results.from_result("ana", "h", result)
    assert record.verdict == "IE" and "went away" in record.error and record.compile_output == ""


def test_a_judging_paused_after_every_case_ends_as_one_run_straight_through() -> None:
    # The web judge's turns: each turn runs one case and gives up; the next resumes from the
    # stored records. The end result must be the straight run's, NJ cases of broken groups too.
    from judge.grade import results, runner
    from judge.kinds.table import load_problem
    from judge.problem import testdata

    problem = load_problem(PROBLEMS / "lanqiao")
    submission = build.load_submission(PROGRAMS / "lanqiao_prints_zero.py")
    cases = testdata.load_cases(problem)
    straight = runner.judge_submission(problem, submission, cases)
    done: tuple[runner.CaseResult, ...] = ()
    turns = 0
    while True:
        try:
            resumed = runner.judge_submission(problem, submission, cases, done=done, pause=lambda: True)
            break
        except runner.Paused as paused:
            assert len(paused.done) > len(done)  # every turn gets somewhere
            done = tuple(results.case_result(results.case_record(c)) for c in paused.done)
            turns += 1
    assert turns > 10
    assert (resumed.verdict, resumed.score, resumed.groups) == (straight.verdict, straight.score, straight.groups)
    assert [(c.name, c.verdict, c.output) for c in resumed.cases] == [
        (c.name, c.verdict, c.output) for c in straight.cases
    ]


def test_a_build_script_where_the_problem_allows_it(tmp_path: Path) -> None:
    """A folder with `build` (and `run`): refused unless the spec says build_script: true; then
    the script is the compile, under the compile limits, and `run` starts the program."""
    problems = tmp_path / "problems"
    problems.mkdir()
    assert judge("--problems", str(problems), "new", "addup").returncode == 0
    assert judge("--problems", str(problems), "gen", "addup").returncode == 0
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(problems / "addup" / "solutions" / "accepted" / "ref.cpp", project / "solve.cpp")
    (project / "build").write_text("g++ -O2 -o prog solve.cpp\n")  # not the language's own binary name
    (project / "run").write_text("exec ./prog\n")

    def run() -> tuple[int, dict[str, object] | str]:
        done = judge("--problems", str(problems), "run", str(project), "-p", "addup", "--json")
        return done.returncode, json.loads(done.stdout) if done.stdout.strip() else done.stderr

    code, refused = run()
    assert code == 2 and "has a `build` script, which this problem does not allow" in str(refused)
    spec = problems / "addup" / "problem.yaml"
    spec.write_text(spec.read_text() + "build_script: true\n")
    code, judged = run()
    assert code == 0 and isinstance(judged, dict) and judged["verdict"] == "AC", judged
    (project / "build").write_text("echo the build broke >&2\nexit 1\n")
    code, broken = run()
    assert isinstance(broken, dict) and broken["verdict"] == "CE"
    assert "the build broke" in str(broken["compile_output"])


@needs.mark("isolation")
def test_a_worker_s_next_build_gets_the_same_session_and_a_box_with_only_its_files(tmp_path: Path) -> None:
    from judge.grade import runner
    from judge.kinds.table import load_problem
    from judge.problem import testdata

    problem = load_problem(PROBLEMS / "sicily-rotations")
    case = next(c for c in testdata.load_cases(problem) if c.public)  # public: its output is kept
    lister = "import os\nprint(sorted(os.listdir('.')))\nprint(os.path.exists('secret.txt'))\n"
    first, second = tmp_path / "first", tmp_path / "second"
    for built, name in ((first, "first.py"), (second, "second.py")):
        built.mkdir()
        (built / name).write_text(lister)
    (first / "secret.txt").write_text("the first build's\n")
    (first / "data").mkdir()
    (first / "data" / "table.txt").write_text("1 2 3\n")
    limits = runner.run_limits(problem, build.load_submission(first / "first.py").language)
    try:
        seen = runner.run_case_from(problem, Launch(("python3", "first.py"), "python3"), first, case, limits)
        assert seen.output == b"['data', 'first.py', 'secret.txt']\nTrue\n"
        held = runner._held
        assert held is not None
        session = held.runner.session
        seen = runner.run_case_from(problem, Launch(("python3", "second.py"), "python3"), second, case, limits)
        assert seen.output == b"['second.py']\nFalse\n"
        now = runner._held
        assert now is not None and now.built == str(second)
        if session is not None:  # where a session runs the cases: the same one, in the same box
            assert now.runner.session is session and now.box == held.box
    finally:
        runner._drop_held()


def test_a_public_group_scored_all_is_judged_whole_and_a_secret_one_still_breaks(tmp_path: Path) -> None:
    """Issue 59: a student saw "samples/03 NJ not judged" after samples/01 failed. A public
    all-or-nothing group is judged whole (its score and the headline are its first failure's
    anyway); a secret group still ends at its first failure."""
    from judge.author import scaffold
    from judge.grade.runner import CaseResult, GroupEnds
    from judge.kinds.table import load_problem
    from judge.run.verdicts import Verdict

    problem = load_problem(scaffold.create(tmp_path, "maxsum", "python3").directory)
    ends = GroupEnds(problem)
    assert not ends.add(CaseResult("samples/01", "samples", True, Verdict.WA, "", 0.0, 0.0, 0))
    assert "samples" not in ends.ended
    assert ends.add(CaseResult("negative/01", "negative", False, Verdict.WA, "", 0.0, 0.0, 0))
