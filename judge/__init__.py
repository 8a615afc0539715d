"""The judge: an online-judge style grading harness."""

__version__ = "0.1.0"
