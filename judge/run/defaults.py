"""The limits of a compilation unless a problem says otherwise: problem.yaml's
limits.compile_time_s and compile_memory_mib, `judge run`'s options and the build all start
from these. No imports: the command line reads them when it starts."""

COMPILE_TIME_S: float = 10  # an int literal keeps problem.schema.json as it was ("default": 10)
COMPILE_MEMORY_MIB = 1024
