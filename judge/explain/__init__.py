"""`judge explain`: a failing input the student may see, found by search, with its optimal moves.

The path of the data: `space` (the puzzle's inputs, smallest first; pure) -> `search` (runs
the program on them in the sandbox, shrinks a failing batch) -> `render` (text and HTML).
"""
