"""The review's rows (schema versions 7, 9 and 10, judge.web.state.database): rubric items made on the
grading page, each grade by hand on the submission it was made on (item ids applied, a general comment, done or not), score overrides (a log:
the newest counts), comments on lines, graders' saved comments, who grades whom, the release of
an assignment's grades, regrade requests with their answers (appended), and the log of changes
to released grades. Held beside the store, on its
database, like LTI's rows."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from judge.course import rubric
from judge.course.gradebook import Gradebook
from judge.course.spec import Course
from judge.web.state.database import Database


@dataclass(frozen=True)
class Marked:
    """A student's grade by hand on one problem, as stored."""

    student: str
    problem: str
    submission: int
    applied: frozenset[str]
    comment: str
    done: bool
    grader: str
    updated: float


@dataclass(frozen=True)
class ScoreOverride:
    student: str
    problem: str
    score: float | None  # None: lifted
    reason: str
    by: str
    at: float


@dataclass(frozen=True)
class LineComment:
    id: int
    submission: int
    file: str  # "": a general comment
    first: int
    last: int
    text: str
    item: str | None
    author: str
    at: float


@dataclass(frozen=True)
class Answer:
    text: str
    by: str
    at: float


@dataclass(frozen=True)
class Regrade:
    id: int
    student: str
    problem: str
    submission: int
    target: str
    reason: str
    asked: float
    answers: tuple[Answer, ...] = ()  # oldest first: a later answer is appended, never over one

    @property
    def answer(self) -> str | None:
        """The newest answer's text (None: not answered yet)."""
        return self.answers[-1].text if self.answers else None

    @property
    def answered_by(self) -> str | None:
        return self.answers[-1].by if self.answers else None


@dataclass(frozen=True)
class GradeChange:
    """A change to a released grade: who, when, the items (and done) before and after."""

    student: str
    problem: str
    submission: int
    before: tuple[str, ...]
    after: tuple[str, ...]
    by: str
    at: float
    why: str = ""  # "": the items changed; else what else did (it stopped counting, an item's points)


def _log(db: sqlite3.Connection, marked: Marked, before: str, after: str, by: str, now: float, why: str) -> None:
    db.execute(
        "INSERT INTO review_grade_log (student, problem, submission, before, after, by, at, why)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (marked.student, marked.problem, marked.submission, before, after, by, now, why),
    )


def _score(value: float | None) -> str:
    return "blank" if value is None else f"{value:g}"


def _state(marked: Marked | None) -> str:
    if marked is None:
        return json.dumps({"applied": [], "done": False})
    return json.dumps({"applied": sorted(marked.applied), "done": marked.done})


def _items(state: str) -> tuple[str, ...]:
    held = json.loads(state)
    return (*held["applied"], *(("(done)",) if held["done"] else ()))


def _marked(row: sqlite3.Row) -> Marked:
    applied = frozenset(str(i) for i in json.loads(row["applied"]))
    return Marked(
        row["student"],
        row["problem"],
        row["submission"],
        applied,
        row["comment"],
        bool(row["done"]),
        row["grader"],
        row["updated"],
    )


def _regrades(db: sqlite3.Connection, rows: list[sqlite3.Row]) -> list[Regrade]:
    """Regrade requests with their answers, each request's oldest first."""
    answers: dict[int, list[Answer]] = {}
    ids = [int(r["id"]) for r in rows]
    for start in range(0, len(ids), 500):  # SQLite's bound on a statement's parameters
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        sql = f"SELECT * FROM review_answers WHERE regrade IN ({marks}) ORDER BY id"
        for a in db.execute(sql, chunk):
            answers.setdefault(int(a["regrade"]), []).append(Answer(a["text"], a["by"], a["at"]))
    return [
        Regrade(
            r["id"],
            r["student"],
            r["problem"],
            r["submission"],
            r["target"],
            r["reason"],
            r["asked"],
            tuple(answers.get(int(r["id"]), ())),
        )
        for r in rows
    ]


class Reviews:
    def __init__(self, database: Database) -> None:
        self.database = database

    # --- rubric items made on the page --------------------------------------------------------

    def items(self, problem: str) -> list[rubric.Item]:
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT id, points, description, grp FROM review_items WHERE problem = ? AND removed = 0 ORDER BY made",
                (problem,),
            ).fetchall()
        return [rubric.Item(r["id"], r["points"], r["description"], r["grp"]) for r in rows]

    def add_item(
        self, problem: str, points: float, description: str, by: str, now: float, group: str | None = None
    ) -> str:
        with self.database.transaction() as db:
            count = db.execute("SELECT COUNT(*) FROM review_items WHERE problem = ?", (problem,)).fetchone()[0]
            item_id = f"+{count + 1}"
            db.execute(
                "INSERT INTO review_items (problem, id, points, description, grp, made_by, made)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (problem, item_id, points, description, group, by, now),
            )
        return item_id

    def change_item(self, problem: str, item_id: str, points: float | None) -> bool:
        """A page-made item's new points (None: removed): every grade that has it changes."""
        with self.database.transaction() as db:
            if points is None:
                sql, args = "UPDATE review_items SET removed = 1 WHERE problem = ? AND id = ?", (problem, item_id)
                return db.execute(sql, args).rowcount > 0
            sql = "UPDATE review_items SET points = ? WHERE problem = ? AND id = ? AND removed = 0"
            return db.execute(sql, (points, problem, item_id)).rowcount > 0

    # --- grades -------------------------------------------------------------------------------

    def grade(self, student: str, problem: str) -> Marked | None:
        """The student's newest grade on a problem (of the newest submission graded)."""
        with self.database.connect() as db:
            row = db.execute(
                "SELECT * FROM review_grades WHERE student = ? AND problem = ? ORDER BY submission DESC LIMIT 1",
                (student, problem),
            ).fetchone()
        return _marked(row) if row is not None else None

    def grade_of(self, submission: int) -> Marked | None:
        """The grade made on this submission (None: not graded)."""
        with self.database.connect() as db:
            row = db.execute("SELECT * FROM review_grades WHERE submission = ?", (submission,)).fetchone()
        return _marked(row) if row is not None else None

    def grades(self) -> list[Marked]:
        """Every grade, each student's oldest submission first."""
        with self.database.connect() as db:
            return [_marked(r) for r in db.execute("SELECT * FROM review_grades ORDER BY submission")]

    def save_grade(
        self,
        student: str,
        problem: str,
        submission: int,
        grader: str,
        now: float,
        *,
        toggle: str | None = None,
        comment: str | None = None,
        done: bool | None = None,
        released: bool = False,
    ) -> Marked:
        """Change the grade of one submission: an item toggled, the general comment, done or not.
        A grade belongs to its submission: a newer one starts from the newest grade's items, not
        done, and the older grade stays on its own submission. A change to a `released` grade is
        logged (who, when, before and after), and so is a released grade that stops counting."""
        with self.database.transaction() as db:
            row = db.execute("SELECT * FROM review_grades WHERE submission = ?", (submission,)).fetchone()
            before = _marked(row) if row is not None else None
            newest = db.execute(
                "SELECT * FROM review_grades WHERE student = ? AND problem = ? ORDER BY submission DESC LIMIT 1",
                (student, problem),
            ).fetchone()
            start = _marked(newest) if newest is not None else None
            held = before or Marked(
                student, problem, submission, start.applied if start else frozenset(), "", False, grader, now
            )
            applied = held.applied
            if toggle is not None:
                applied = applied - {toggle} if toggle in applied else applied | {toggle}
            db.execute(
                "INSERT INTO review_grades (submission, student, problem, applied, comment, done, grader, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (submission) DO UPDATE SET"
                " applied = excluded.applied, comment = excluded.comment,"
                " done = excluded.done, grader = excluded.grader, updated = excluded.updated",
                (
                    submission,
                    student,
                    problem,
                    json.dumps(sorted(applied)),
                    held.comment if comment is None else comment,
                    int(held.done if done is None else done),
                    grader,
                    now,
                ),
            )
            after = _marked(db.execute("SELECT * FROM review_grades WHERE submission = ?", (submission,)).fetchone())
            if released and before is None and start is not None and start.submission < submission:
                why = f"stops counting: submission {submission} counts now and is graded"
                _log(db, start, _state(start), _state(start), grader, now, why)
            if released and _state(before) != _state(after):
                _log(db, after, _state(before), _state(after), grader, now, "")
        return after

    def log_change(self, marked: Marked, by: str, now: float, why: str) -> None:
        """A released grade changed by something other than its items (an item's points, say)."""
        with self.database.transaction() as db:
            _log(db, marked, _state(marked), _state(marked), by, now, why)

    def log_moved(self, before: Gradebook, after: Gradebook, moved: dict[str, str], by: str, now: float) -> None:
        """Log, for each grade of `moved` problems (problem -> what changed) whose counted score a
        change of the rubric moved, the score before and after: students see the new one at once."""
        for row in after.rows:
            for problem, what in moved.items():
                old, new = before.cell(row.student, problem), after.cell(row.student, problem)
                if old is None or new is None or old.score == new.score or new.submission is None:
                    continue
                marked = self.grade_of(new.submission)
                if marked is not None:
                    self.log_change(marked, by, now, f"{what}: score {_score(old.score)} -> {_score(new.score)}")

    def changes(self, student: str, problem: str) -> list[GradeChange]:
        """The log of changes to a released grade of one cell, oldest first (the teacher's)."""
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT * FROM review_grade_log WHERE student = ? AND problem = ? ORDER BY id", (student, problem)
            ).fetchall()
        return [
            GradeChange(
                r["student"],
                r["problem"],
                r["submission"],
                _items(r["before"]),
                _items(r["after"]),
                r["by"],
                r["at"],
                r["why"],
            )
            for r in rows
        ]

    # --- overrides ----------------------------------------------------------------------------

    def override(self, student: str, problem: str, score: float | None, reason: str, by: str, now: float) -> None:
        with self.database.transaction() as db:
            db.execute(
                "INSERT INTO review_overrides (student, problem, score, reason, by, at) VALUES (?, ?, ?, ?, ?, ?)",
                (student, problem, score, reason, by, now),
            )

    def overrides(self, student: str | None = None, problem: str | None = None) -> list[ScoreOverride]:
        """Every override, oldest first (the history); of one cell when both are given."""
        sql, args = "SELECT * FROM review_overrides", tuple[str, ...]()
        if student is not None and problem is not None:
            sql, args = sql + " WHERE student = ? AND problem = ?", (student, problem)
        with self.database.connect() as db:
            rows = db.execute(sql + " ORDER BY id", args).fetchall()
        return [ScoreOverride(r["student"], r["problem"], r["score"], r["reason"], r["by"], r["at"]) for r in rows]

    # --- comments -----------------------------------------------------------------------------

    def comment(
        self, submission: int, file: str, lines: tuple[int, int], text: str, item: str | None, author: str, now: float
    ) -> int:
        with self.database.transaction() as db:
            cursor = db.execute(
                "INSERT INTO review_comments (submission, file, first, last, text, item, author, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (submission, file, lines[0], lines[1], text, item, author, now),
            )
            return int(cursor.lastrowid or 0)

    def delete_comment(self, comment_id: int, submission: int, author: str | None = None) -> bool:
        """Delete a comment (`author` given: only if theirs)."""
        with self.database.transaction() as db:
            sql = "DELETE FROM review_comments WHERE id = ? AND submission = ?"
            args: tuple[object, ...] = (comment_id, submission)
            if author is not None:
                sql, args = sql + " AND author = ?", (*args, author)
            return db.execute(sql, args).rowcount > 0

    def comments(self, submission: int) -> list[LineComment]:
        with self.database.connect() as db:
            rows = db.execute(
                "SELECT * FROM review_comments WHERE submission = ? ORDER BY id", (submission,)
            ).fetchall()
        return [LineComment(*(r[k] for k in LineComment.__dataclass_fields__)) for r in rows]

    def save_text(self, grader: str, text: str) -> None:
        with self.database.transaction() as db:
            db.execute("INSERT OR IGNORE INTO review_saved (grader, text) VALUES (?, ?)", (grader, text))

    def saved(self, grader: str) -> list[str]:
        with self.database.connect() as db:
            rows = db.execute("SELECT text FROM review_saved WHERE grader = ? ORDER BY text", (grader,)).fetchall()
        return [str(r["text"]) for r in rows]

    # --- graders ------------------------------------------------------------------------------

    def dealt(self, problem: str) -> dict[str, str]:
        """Who grades whom on a problem: student -> grader."""
        with self.database.connect() as db:
            rows = db.execute("SELECT student, grader FROM review_graders WHERE problem = ?", (problem,)).fetchall()
        return {str(r["student"]): str(r["grader"]) for r in rows}

    def deal(self, problem: str, dealt: dict[str, str]) -> None:
        with self.database.transaction() as db:
            db.executemany(
                "INSERT OR IGNORE INTO review_graders (problem, student, grader) VALUES (?, ?, ?)",
                [(problem, s, g) for s, g in dealt.items()],
            )

    # --- release and regrades -----------------------------------------------------------------

    def release(self, assignment: str, by: str, now: float) -> bool:
        """Release an assignment's grades; False if they were already."""
        with self.database.transaction() as db:
            sql = "INSERT OR IGNORE INTO review_releases (assignment, released, by) VALUES (?, ?, ?)"
            return db.execute(sql, (assignment, now, by)).rowcount > 0

    def released(self) -> dict[str, float]:
        """Each released assignment and when."""
        with self.database.connect() as db:
            return {str(r["assignment"]): float(r["released"]) for r in db.execute("SELECT * FROM review_releases")}

    def ask_regrade(self, student: str, problem: str, submission: int, target: str, reason: str, now: float) -> int:
        with self.database.transaction() as db:
            cursor = db.execute(
                "INSERT INTO review_regrades (student, problem, submission, target, reason, asked)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (student, problem, submission, target, reason, now),
            )
            return int(cursor.lastrowid or 0)

    def answer_regrade(self, regrade_id: int, answer: str, by: str, now: float) -> bool:
        """Append an answer (who, when, what): an earlier answer stays, the history kept."""
        with self.database.transaction() as db:
            if db.execute("SELECT 1 FROM review_regrades WHERE id = ?", (regrade_id,)).fetchone() is None:
                return False
            sql = "INSERT INTO review_answers (regrade, text, by, at) VALUES (?, ?, ?, ?)"
            db.execute(sql, (regrade_id, answer, by, now))
            return True

    def regrades(self, student: str | None = None, problem: str | None = None) -> list[Regrade]:
        clauses: list[str] = []
        args: list[str] = []
        for column, value in (("student", student), ("problem", problem)):
            if value is not None:
                clauses.append(f"{column} = ?")
                args.append(value)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        with self.database.connect() as db:
            rows = db.execute(f"SELECT * FROM review_regrades{where} ORDER BY id", args).fetchall()
            return _regrades(db, rows)

    def regrade(self, regrade_id: int) -> Regrade | None:
        with self.database.connect() as db:
            row = db.execute("SELECT * FROM review_regrades WHERE id = ?", (regrade_id,)).fetchone()
            return _regrades(db, [row])[0] if row is not None else None

    # --- what the gradebook counts ------------------------------------------------------------

    def rubrics(self, course: Course) -> dict[str, rubric.Rubric]:
        """Each reviewed problem's rubric: course.yaml's items, then the grading page's."""
        return {
            p: a.review.rubric(p).with_items(self.items(p))
            for a in course.assignments
            if a.review is not None
            for p in a.problems
        }

    def counted(self, course: Course, every: bool) -> rubric.Manual:
        """What the gradebook counts by hand: `every` grade (the teacher's views and CSV), or
        those of released assignments (a student's own view, the LMS)."""
        if every:
            return self.manual(self.rubrics(course), None)
        out = self.released()
        problems = {p for a in course.assignments if a.id in out for p in a.problems}
        return self.manual(self.rubrics(course), problems)

    def mark(self) -> tuple[int, float]:
        """What changes when a counted hand grade may have: the LMS's passback plans anew then."""
        with self.database.connect() as db:
            row = db.execute(
                "SELECT (SELECT COUNT(*) FROM review_releases) + (SELECT COUNT(*) FROM review_overrides)"
                " + (SELECT COUNT(*) FROM review_items) AS n,"
                " COALESCE((SELECT MAX(updated) FROM review_grades), 0)"
                " + COALESCE((SELECT MAX(points) FROM review_items), 0)"
                " + COALESCE((SELECT SUM(removed) FROM review_items), 0) AS last"
            ).fetchone()
        return int(row["n"]), float(row["last"])

    def sections(self) -> dict[str, str]:
        """Each user's section (the roster's column), for dealing by section."""
        with self.database.connect() as db:
            return {str(r["id"]): str(r["section"]) for r in db.execute("SELECT id, section FROM users")}

    def manual(self, rubrics: dict[str, rubric.Rubric], released: set[str] | None) -> rubric.Manual:
        """The hand grades for the gradebook: every one (`released` None, the teacher's views),
        or only those of released problems (students, the LMS); overrides count at once."""
        grades: dict[tuple[str, str], rubric.Grade] = {}
        each: dict[tuple[str, str], dict[int, frozenset[str]]] = {}
        for marked in self.grades():  # oldest submission first: the newest grade stays in `grades`
            if released is None or marked.problem in released:
                key = (marked.student, marked.problem)
                grades[key] = rubric.Grade(marked.applied, None, marked.submission)
                each.setdefault(key, {})[marked.submission] = marked.applied
        newest = {(o.student, o.problem): o.score for o in self.overrides()}  # oldest first: the newest stays
        for key, score in newest.items():
            if score is not None:
                held = grades.get(key, rubric.Grade())
                grades[key] = rubric.Grade(held.applied, score, held.submission)
        return rubric.Manual(rubrics, grades, each)
