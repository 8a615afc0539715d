"""Problems as data: the spec and its YAML positions, finding problems, the test data and
its validation, a problem's parts (reference, generators, validators, built in or programs),
the solutions' expected verdicts, and the three puzzles' exact solvers, generators and tables."""
