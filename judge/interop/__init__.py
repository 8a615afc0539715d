"""The judge and the ICPC/Kattis problem package format: unpack (safely), import, export."""
