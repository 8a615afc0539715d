"""Fresh inputs of a problem made of programs: its own generators, run with explain's seeds.

Every group with a `generate` command is run again with seeds of explain's own (the
`{seed}` of the command), so the inputs follow the problem's own idea of a case, at each
of the sizes its groups ask for. Inputs the validators refuse are dropped. What is left is
ordered by size in bytes, smallest first: the size arguments of the generators (`--max-n
8`, `--max-n 100`, ...) show in the inputs' length.
"""

from __future__ import annotations

import hashlib

from judge.author import parts
from judge.errors import JudgeError
from judge.explain.space import Listed
from judge.problem.spec import Problem, split_generate
from judge.run import programs
from judge.run.programs import Task

PER_GROUP = 12  # fresh inputs made per generated group
_SALT = "judge-explain-1"


def explain_seed(group: str) -> int:
    """The seed explain gives a group's generator: its own, unrelated to the group's."""
    digest = hashlib.sha256(f"{_SALT} {group}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def program_space(problem: Problem, jobs: int) -> Listed:
    """The fresh inputs, smallest first (the reference answers them in the workers)."""
    own = parts.load(problem, None, jobs)
    tasks: list[Task] = []
    groups: list[int] = []
    for index, group in enumerate(problem.spec.groups):
        if group.generate is None:
            continue
        built = own.generator(split_generate(group.generate)[0])
        for case in range(1, PER_GROUP + 1):
            args = parts.generate_args(group.generate, explain_seed(group.name), case)
            tasks.append(Task(built, args, None, own.limits.sandbox_limits(built)))
            groups.append(index)
    if not tasks:
        raise JudgeError(
            f"{problem.spec_path}: no group has a `generate` command, so judge explain cannot make fresh inputs"
        )
    made: list[tuple[str, tuple[str, ...]]] = []
    for index, result in zip(groups, programs.run_all(tasks, jobs), strict=True):
        if programs.failure(result) or not result.stdout:
            continue  # a generator that fails on one seed still gives the others
        try:
            text = result.stdout.decode("utf-8")
        except UnicodeDecodeError:
            continue
        made.append((text, problem.spec.groups[index].validator_args))
    issues = parts.check_inputs(own, made)
    valid = [text for (text, _), found in zip(made, issues, strict=True) if not found]
    unique = list(dict.fromkeys(valid))
    unique.sort(key=len)  # a stable sort: among equal sizes, the generators' order
    return Listed(tuple(unique))
