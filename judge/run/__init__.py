"""Running programs: languages as data, builds, the sandbox and its cgroups, what a judge
holds while it runs (lifecycle), the checkers and the verdict of one run. Knows nothing of
problems: a program, its limits and its input in, a run's figures and verdict out."""
