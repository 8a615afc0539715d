"""The `judge` console script.

`judge solve PROBLEM [FILE]` in its plain form goes straight to `judge.author.solving`, skipping
the import of click and rich (about 0.1 s here), because it is the command scripts call
in loops. Every other form, `judge solve --help` included, goes through the click CLI.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    args = sys.argv[1:]
    if len(args) in (2, 3) and args[0] == "solve" and not any(a.startswith("-") for a in args[1:]):
        from judge.author import solving
        from judge.paths import PROBLEMS_ENV

        problems = os.environ.get(PROBLEMS_ENV) or "problems"
        sys.exit(solving.main(args[1], args[2] if len(args) == 3 else None, problems))
    from judge.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
