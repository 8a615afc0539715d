"""Grading: a submission over a problem's cases (runner, on local or remote engines), a class
(grading), the records on disk (results), what a reader may see of them (feedback), and the
reports. `judge verify`, which grades a problem's own solutions, is the author's (judge.author)."""
