"""The unit-test kind: a teacher's pytest and unittest files judge a student's module."""
