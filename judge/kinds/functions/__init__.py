"""The function kind: kind.py (the row), types.py (signatures and JSON types, pure), values.py
(returned values against answers, pure), harness_python.py (what runs in the sandbox)."""
