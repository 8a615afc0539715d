"""The interactive kind: kind.py (the row), exchange.py (the two programs piped to each other,
and its helper process), rules.py (the verdict of an interaction, pure)."""
