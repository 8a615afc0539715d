"""The function kind: kind.py (the row), types.py (signatures and JSON types, pure;
the values themselves are judge.run.values), harness_python.py (what runs in the sandbox)."""
