"""The tests kind: a student submits test cases for another problem, graded by the known bugs they catch."""
