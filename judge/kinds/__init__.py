"""Kinds of problem: what differs between a problem read on stdin and written on stdout, an
interactive one, and the kinds to come. Each kind is one module
(a package for a larger one) with one `Kind`, and kinds.table lists them; nothing else asks
which kind a problem is, it asks its kind. Kept empty so a kind's helper process starts light."""
