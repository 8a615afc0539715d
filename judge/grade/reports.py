"""Reports from saved results (never running anything): index.html, one page per
submission, grades.csv, results.json and junit.xml, each written atomically.

The class's files are the teacher's: every figure of every case. What a student may see is
cut by judge.grade.feedback, and `render_for_students` writes those pages apart.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

import jinja2
from markupsafe import Markup, escape

from judge import paths
from judge.errors import JudgeError
from judge.grade import feedback, highlight
from judge.grade.feedback import Shown
from judge.grade.grading import Entry, Override
from judge.grade.results import GradeRecord, isolated_mode, to_json
from judge.kinds import shown
from judge.kinds import table as kinds
from judge.problem.spec import Problem
from judge.run import sources
from judge.run.verdicts import Verdict

TEMPLATES = Path(paths.TEMPLATES)
# XML 1.0 forbids most control characters: student output must not break junit.xml.
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass(frozen=True)
class Cell:
    record: GradeRecord | None
    override: Override | None
    score: float
    link: str

    @property
    def counted(self) -> bool:
        return self.record is not None or self.override is not None


@dataclass(frozen=True)
class StudentRow:
    name: str
    cells: tuple[Cell, ...]

    @property
    def total(self) -> float:
        return sum(c.score for c in self.cells if c.counted)


@dataclass(frozen=True)
class TestRow:
    problem: str
    name: str
    passed: int
    total: int  # submissions that ran the test
    not_judged: int = 0  # submissions whose group had already failed before it

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0


@dataclass(frozen=True)
class Written:
    directory: Path
    files: int


def _fmt(value: float) -> str:
    return f"{value:g}"


def _visible(text: str) -> Markup:
    shown = (
        str(escape(text)).replace(" ", '<span class="ws">\u00b7</span>').replace("\t", '<span class="ws">\u2192</span>')
    )
    return Markup(shown or '<span class="meta">(empty)</span>')


def _when(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined
    )
    env.filters["fmt"] = _fmt
    env.filters["visible"] = _visible
    env.filters["when"] = _when  # the web judge's pages show submission times
    env.globals["isolated"] = isolated_mode  # the red banner of unsafe-no-sandbox results
    env.globals["highlight_css"] = highlight.stylesheet
    return env


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def score_of(record: GradeRecord | Shown, overrides: Mapping[tuple[str, str], Override]) -> float:
    override = overrides.get((record.student, record.problem))
    return override.score if override is not None else record.score


def page_name(record: GradeRecord) -> str:
    return f"submissions/{record.student}/{record.problem}.html"


def _histogram(totals: Sequence[float], maximum: float) -> str:
    """Inline SVG: students per tenth of the maximum total."""
    bins = [0] * 10
    for total in totals:
        index = min(int(10 * total / maximum), 9) if maximum > 0 else 0
        bins[index] += 1
    height, width, bar = 120, 420, 38
    top = max(bins) or 1
    top_margin = 16  # room for the count above the tallest bar
    parts = [
        # The viewBox lets the stylesheet shrink it to a phone's width (it overflowed 390 px).
        f'<svg id="histogram" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + top_margin + 30}"'
        f' viewBox="0 0 {width} {height + top_margin + 30}" role="img" aria-label="score histogram">'
    ]
    for i, count in enumerate(bins):
        h = round(height * count / top)
        x = 10 + i * (bar + 3)
        parts.append(
            f'<rect x="{x}" y="{top_margin + height - h}" width="{bar}" height="{h}" fill="#4c8bd6"><title>{count} students</title></rect>'
        )
        parts.append(
            f'<text x="{x + bar / 2}" y="{top_margin + height + 15}" font-size="10" text-anchor="middle">{i * 10}%</text>'
        )
        if count:
            parts.append(
                f'<text x="{x + bar / 2}" y="{top_margin + height - h - 4}" font-size="10" text-anchor="middle">{count}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class ClassView:
    """The class as the reports show it: a row per student, the tests by pass rate."""

    problem_ids: tuple[str, ...]
    max_of: Mapping[str, float]
    students: tuple[StudentRow, ...]
    tests: tuple[TestRow, ...]
    notes: tuple[str, ...]  # not graded: each file and why (the student's to fix)
    judge_errors: tuple[str, ...] = ()  # IE: where the judge itself failed (never the student's)


def class_view(
    records: Sequence[GradeRecord],
    problems: Mapping[str, Problem],
    overrides: Mapping[tuple[str, str], Override],
    entries: Sequence[Entry],
    link: Callable[[GradeRecord], str] = page_name,
) -> ClassView:
    problem_ids = tuple(sorted({r.problem for r in records} | set(problems)))
    max_of = {pid: problems[pid].max_score if pid in problems else 0.0 for pid in problem_ids}
    by_key = {(r.student, r.problem): r for r in records}
    student_names = sorted({r.student for r in records} | {e.student for e in entries})
    students = tuple(
        StudentRow(name, tuple(_cell(by_key.get((name, pid)), overrides.get((name, pid)), link) for pid in problem_ids))
        for name in student_names
    )
    tests: dict[tuple[str, str], list[int]] = {}
    for record in records:
        for case in record.cases:
            counts = tests.setdefault((record.problem, case.name), [0, 0, 0])
            if case.verdict == Verdict.NJ.value:
                counts[2] += 1  # counted apart: neither passed nor failed
                continue
            counts[0] += case.verdict == "AC"
            counts[1] += 1
    test_rows = tuple(
        sorted(
            (TestRow(p, n, passed, total, skipped) for (p, n), (passed, total, skipped) in tests.items()),
            key=lambda row: (row.rate, row.problem, row.name),
        )
    )
    notes = [f"{e.path}: {e.problem_error}" for e in entries if e.problem_error]
    notes += [f"{r.student}/{r.problem}: {r.error}" for r in records if r.error and r.verdict == Verdict.NG.value]
    failed = [f"{r.student}/{r.problem}: {r.error}" for r in records if r.error and r.verdict != Verdict.NG.value]
    return ClassView(problem_ids, max_of, students, test_rows, tuple(notes), tuple(failed))


def index_html(
    view: ClassView,
    records: Sequence[GradeRecord],
    overrides: Mapping[tuple[str, str], Override],
    sandbox_mode: str,
    generated: str,
    statements: Collection[str] = (),
    **extra: object,
) -> str:
    """The class page (matrix, histogram, tests by pass rate), each problem linked to its
    statement page where it has one (`statements`); `extra` goes to the template."""
    return (
        environment()
        .get_template("index.html.j2")
        .render(
            title=", ".join(view.problem_ids),
            records=records,
            students=view.students,
            problems=[{"id": pid, "max": view.max_of[pid], "statement": pid in statements} for pid in view.problem_ids],
            histogram=_histogram([s.total for s in view.students], sum(view.max_of.values())),
            tests=view.tests,
            overrides=sorted(overrides.values(), key=lambda o: (o.student, o.problem)),
            notes=view.notes,
            judge_errors=view.judge_errors,
            sandbox=sandbox_mode,
            # One result judged without isolation is enough for the red banner.
            banner_mode=next((r.sandbox for r in records if r.sandbox and not isolated_mode(r.sandbox)), sandbox_mode),
            generated=generated,
            **extra,
        )
    )


def submission_context(
    record: Shown,
    problem: Problem | None,
    overrides: Mapping[tuple[str, str], Override],
    back: str,
    source: Sequence[str] | None,
    **extra: object,
) -> dict[str, object]:
    """What a submission's page shows, as `record` was cut for its reader (judge.grade.feedback):
    groups, cases, sample diffs, compiler output, numbered source. The static report's page and
    the web judge's render it alike (submission_body.html.j2)."""
    return {
        "r": record,
        "back": back,
        "verdict_name": Verdict(record.verdict).long_name,
        "score": score_of(record, overrides),
        "override": overrides.get((record.student, record.problem)),
        "diffs": _diffs(record, problem),
        "source": source,
        # A unit problem's tests by their titles, in one table (issue 59); {}: groups and cases.
        "titles": kinds.of(problem).test_titles(problem) if problem is not None else {},
        **extra,
    }


def submission_html(context: Mapping[str, object]) -> str:
    """One submission's page of a static report, from its submission_context."""
    return environment().get_template("submission.html.j2").render(**context)


def statement_pages(problems: Mapping[str, Problem], folder: Path, back: str, back_label: str) -> int:
    """Each problem's statement page (FOLDER/<id>.html), rendered as the web judge renders it."""
    for pid, problem in problems.items():
        statement, samples = shown.page_parts(problem)
        page = (
            environment()
            .get_template("statement.html.j2")
            .render(problem=problem, statement=Markup(statement), samples=samples, back=back, back_label=back_label)
        )
        write_atomic(folder / f"{pid}.html", page)
    return len(problems)


def grades_csv(view: ClassView) -> str:
    return _csv(view.students, view.problem_ids)


def render(
    records: Sequence[GradeRecord],
    problems: Mapping[str, Problem],
    overrides: Mapping[tuple[str, str], Override],
    entries: Sequence[Entry],
    out_dir: Path,
    sandbox_mode: str,
    explanations: Mapping[tuple[str, str], str] | None = None,
) -> Written:
    """Every page and file of a class's report; `explanations` holds the HTML section of
    `judge explain` for the submissions that have one (by student and problem)."""
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    view = class_view(records, problems, overrides, entries)
    similarity = (out_dir / "similarity.html").is_file()  # made by `judge similar`
    write_atomic(
        out_dir / "index.html",
        index_html(view, records, overrides, sandbox_mode, generated, set(problems), similarity=similarity),
    )
    for record in records:
        write_atomic(
            out_dir / page_name(record),
            submission_html(
                submission_context(
                    feedback.for_teacher(record),
                    problems.get(record.problem),
                    overrides,
                    "../../index.html",
                    _source_lines(record.source, record.language),
                    statement_link=f"../../problems/{record.problem}.html" if record.problem in problems else "",
                    explanation=Markup((explanations or {}).get((record.student, record.problem), "")),
                    variant=record.variant,
                )
            ),
        )
    statement_pages(
        {p: problems[p] for p in view.problem_ids if p in problems}, out_dir / "problems", "../index.html", "class"
    )
    write_atomic(out_dir / "grades.csv", grades_csv(view))
    write_atomic(out_dir / "results.json", _json(records, overrides, sandbox_mode, generated))
    write_atomic(out_dir / "junit.xml", _junit(records))
    return Written(out_dir, 4 + len(records))


def render_for_students(
    records: Sequence[GradeRecord],
    problems: Mapping[str, Problem],
    overrides: Mapping[tuple[str, str], Override],
    out_dir: Path,
    explanations: Mapping[tuple[str, str], str] | None = None,
) -> Written:
    """A page per submission to hand to its student, at its problem's feedback level:
    OUT/students/<student>/<problem>.html, with the problem's statement beside it
    (<problem>.statement.html: each student's folder stands alone). `explanations` must already
    be cut for students (Explanation.for_student). Nothing of the class (no index, CSV or JSON)
    is written."""
    folder = out_dir / STUDENTS_DIR
    statements = 0
    for record in records:
        problem = problems.get(record.problem)
        if problem is not None:
            statements += statement_pages(
                {f"{record.problem}.statement": problem}, folder / record.student, "index.html", "back"
            )
        write_atomic(
            folder / record.student / f"{record.problem}.html",
            submission_html(
                submission_context(
                    feedback.for_student(record, problem),
                    problem,
                    overrides,
                    "index.html",
                    _source_lines(record.source, record.language),
                    back_label="your submissions",
                    statement_link=f"{record.problem}.statement.html" if problem is not None else "",
                    explanation=Markup((explanations or {}).get((record.student, record.problem), "")),
                )
            ),
        )
    students = sorted({r.student for r in records})
    for student in students:
        mine = [r for r in records if r.student == student]
        write_atomic(
            folder / student / "index.html",
            environment()
            .get_template("student_index.html.j2")
            .render(student=student, records=mine, overrides=overrides, score_of=score_of),
        )
    return Written(folder, len(records) + len(students) + statements)


STUDENTS_DIR = "students"


def _cell(record: GradeRecord | None, override: Override | None, link: Callable[[GradeRecord], str]) -> Cell:
    score = override.score if override is not None else (record.score if record is not None else 0.0)
    return Cell(record, override, score, link(record) if record is not None else "")


def _source_lines(source: str, language: str = "") -> list[Markup] | None:
    """The numbered, highlighted lines of a submission's page; a folder or an archive shows each
    of its text files after a `==> name <==` line (as head(1) does)."""
    path = Path(source)
    try:
        if path.is_dir() or sources.is_archive(path):
            files = sources.read_files(path, sources.SUBMISSION_CAPS)
            shown = [(name, data.decode("utf-8", errors="replace")) for name, data in files if b"\0" not in data]
        else:
            shown = [(path.name, path.read_text(encoding="utf-8", errors="replace"))]
    except (JudgeError, OSError):
        return None
    return [Markup(line) for line in highlight.files_lines(shown, language)]


def _diffs(record: Shown, problem: Problem | None) -> list[dict[str, object]]:
    """The first difference of each failing public case (secret cases have no output kept)."""
    if problem is None:
        return []
    found = []
    for case in record.cases:
        if not case.public or case.verdict != "WA" or case.output is None:
            continue
        answer_file = problem.tests_dir / f"{case.name}.ans"
        try:
            want = answer_file.read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            continue
        got = case.output.replace("\r\n", "\n").split("\n")
        at = max(case.diff_line, 1) - 1
        found.append(
            {
                "case": case.name,
                "line": at + 1,
                "expected": want[at] if at < len(want) else "(end of answer)",
                "received": got[at] if at < len(got) else "(end of output)",
            }
        )
    return found


def _variant(cell: Cell) -> str:
    return cell.record.variant if cell.record is not None else ""


def _csv(students: Sequence[StudentRow], problem_ids: Sequence[str]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    # Which variant each student had, a column per problem judged on variants, after the
    # total: a class without variants keeps the columns it always had.
    varied = [i for i in range(len(problem_ids)) if any(_variant(s.cells[i]) for s in students)]
    writer.writerow(["student", *problem_ids, "total", *(f"{problem_ids[i]} variant" for i in varied)])
    for student in students:
        scores = [_fmt(cell.score) if cell.counted else "" for cell in student.cells]
        labels = [_variant(student.cells[i]) for i in varied]
        writer.writerow([student.name, *scores, _fmt(student.total), *labels])
    return buffer.getvalue()


def _json(
    records: Sequence[GradeRecord], overrides: Mapping[tuple[str, str], Override], sandbox_mode: str, generated: str
) -> str:
    payload = {
        "schema": 1,
        "generated": generated,
        "sandbox": sandbox_mode,
        "submissions": [
            {
                **to_json(r),
                "final_score": score_of(r, overrides),
                "override": asdict(overrides[(r.student, r.problem)]) if (r.student, r.problem) in overrides else None,
            }
            for r in records
        ],
    }
    return json.dumps(payload, indent=1, sort_keys=True) + "\n"


def xml_text(text: str) -> str:
    return _XML_BAD.sub("\ufffd", text)


def _junit(records: Sequence[GradeRecord]) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>"]
    for r in records:
        failures = sum(c.verdict not in ("AC", "IE", "NJ") for c in r.cases) + (r.verdict in ("CE", "NG"))
        errors = sum(c.verdict == "IE" for c in r.cases) + (1 if r.error and r.verdict != "NG" else 0)
        tests = len(r.cases) or 1
        name = quoteattr(xml_text(f"{r.student}/{r.problem}"))
        skipped = sum(c.verdict == Verdict.NJ.value for c in r.cases)
        lines.append(
            f'  <testsuite name={name} tests="{tests}" failures="{failures}" errors="{errors}" skipped="{skipped}">'
        )
        classname = quoteattr(xml_text(f"{r.student}.{r.problem}"))
        if r.verdict == "CE" or r.error:
            kind = "failure" if r.verdict in ("CE", "NG") else "error"  # the student's, or the judge's
            text = r.compile_output if r.verdict == "CE" else r.error
            lines.append(f'    <testcase classname={classname} name="compile" time="0">')
            lines.append(f"      <{kind} message={quoteattr(r.verdict)}>{xml_escape(xml_text(text))}</{kind}>")
            lines.append("    </testcase>")
        for c in r.cases:
            lines.append(
                f'    <testcase classname={classname} name={quoteattr(xml_text(c.name))} time="{c.cpu_s:.3f}">'
            )
            if c.verdict == Verdict.NJ.value:
                lines.append('      <skipped message="not judged: an earlier case of its group failed"/>')
            elif c.verdict == "IE":
                lines.append(f"      <error message={quoteattr(xml_text(c.message))}/>")
            elif c.verdict != "AC":
                lines.append(f"      <failure message={quoteattr(xml_text(c.verdict + ' ' + c.message))}/>")
            lines.append("    </testcase>")
        lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"
