"""The interactive kind: kind.py (the row; the two programs are piped to each other by
judge.run.exchange), rules.py (the verdict of an interaction, pure)."""
