"""Gradescope: the autograder zip (build), what it runs on a submission (autograde) and the
results.json it writes (report)."""
