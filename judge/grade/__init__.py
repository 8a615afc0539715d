"""Grading: a submission over a problem's cases (runner, on local or remote engines), a class
(grading), the records on disk (results), what a reader may see of them (feedback), the
reports, and verify (the problem's own solutions get their expected verdicts)."""
