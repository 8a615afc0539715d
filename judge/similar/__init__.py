"""`judge similar`: fingerprints of source code (pure), the pairs of a class scored (score) and
their page (report)."""
