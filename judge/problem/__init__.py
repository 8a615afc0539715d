"""Problems as data: the spec and its YAML positions, finding problems, the tests on disk (read,
never made: that is judge.author's), the statement and its samples, the built-in checkers, and
the three puzzles' exact solvers, generators and tables."""
