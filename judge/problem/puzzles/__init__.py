"""Pure solvers for the bundled 3x3 puzzles: permutation ranking, table builders, lookups.

Nothing in this package touches the disk or the terminal; caching lives in `judge.problem.tables`.
"""
