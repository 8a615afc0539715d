"""course.yaml taken without a restart: the server looks at the file's modification time and
size at most once a second (on a request), and reads it again when either changed. A new file
that does not load leaves the old course in force, and the teacher's dashboard says why in one
line naming the file and line; the next good save takes effect and the line goes."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge.course.spec import Course
from judge.errors import JudgeError


@dataclass(frozen=True)
class Stamp:
    """What tells a saved file from the one read: (modification time in ns, size); None: absent."""

    seen: tuple[int, int] | None

    @classmethod
    def of(cls, path: Path | None) -> Stamp:
        if path is None:
            return cls(None)
        try:
            found = path.stat()
        except OSError:
            return cls(None)
        return cls((found.st_mtime_ns, found.st_size))


class CourseWatch:
    """The course in force, read again by `load` when `path` changes; `every_s` apart at most."""

    def __init__(
        self,
        load: Callable[[], Course],
        path: Path | None,
        every_s: float = 1.0,
        ticks: Callable[[], float] = time.monotonic,
        changed: Callable[[Course, Course], None] | None = None,
    ) -> None:
        self.load = load
        self.changed = changed  # told (old, new) when a changed file is taken
        self.path = path
        self.every_s = every_s
        self.ticks = ticks
        self.stamp = Stamp.of(path)
        self.course = load()  # at start a broken file stops the server, as it always has
        self.error = ""  # why the newest saved file is not the one in force ("" when it is)
        self.reloads = 0  # how many times a changed file was taken
        self.checked = ticks()
        self.lock = threading.Lock()

    def current(self) -> Course:
        now = self.ticks()
        if now - self.checked < self.every_s:
            return self.course
        with self.lock:  # one request reads the new file; the others keep using the old until then
            if now - self.checked >= self.every_s:
                self.checked = now
                stamp = Stamp.of(self.path)
                if stamp != self.stamp:
                    self.stamp = stamp
                    self._reload()
        return self.course

    def _reload(self) -> None:
        try:
            course = self.load()
        except JudgeError as error:
            self.error = f"{error} (the course as it was before this change is still in force)"
            return
        old, self.course, self.error = self.course, course, ""
        self.reloads += 1
        if self.changed is not None:
            self.changed(old, course)
