"""Who the roster's ids are: names, emails and sections, from class.csv or an LMS. Shown to
the teacher and teaching assistants (and in their CSV exports), never to other students."""

from __future__ import annotations

from dataclasses import dataclass

from judge.course.gradebook import Named
from judge.web.state.database import Database


@dataclass(frozen=True)
class Person:
    id: str
    role: str
    name: str = ""
    email: str = ""
    section: str = ""

    @property
    def label(self) -> str:
        """The name with the id ("Ada Lovelace (ada)"), or the id alone when no name is known."""
        return f"{self.name} ({self.id})" if self.name else self.id


class People(Database):
    def set_details(self, user_id: str, name: str = "", email: str = "", section: str = "") -> None:
        """A user's name, email and section; an empty value keeps what is known (a class.csv
        without an email column does not erase the LMS's)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE users SET name = CASE WHEN ? = '' THEN name ELSE ? END,"
                " email = CASE WHEN ? = '' THEN email ELSE ? END,"
                " section = CASE WHEN ? = '' THEN section ELSE ? END WHERE id = ?",
                (name, name, email, email, section, section, user_id),
            )

    def people(self) -> dict[str, Person]:
        """Every user by id, with what is known of them: class.csv's name and email, else the
        one an LMS gave at a launch or in its class list."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT id, role, section,"
                " CASE WHEN name != '' THEN name ELSE COALESCE((SELECT p.name FROM lti_people p"
                "  WHERE p.user = users.id AND p.name != '' LIMIT 1), '') END AS name,"
                " CASE WHEN email != '' THEN email ELSE COALESCE((SELECT p.email FROM lti_people p"
                "  WHERE p.user = users.id AND p.email != '' LIMIT 1), '') END AS email"
                " FROM users ORDER BY id"
            ).fetchall()
        return {r["id"]: Person(r["id"], r["role"], r["name"], r["email"], r["section"]) for r in rows}

    def names(self) -> dict[str, Named]:
        """What the teacher's CSV exports say of each id."""
        return {i: Named(p.name, p.email, p.section) for i, p in self.people().items()}
