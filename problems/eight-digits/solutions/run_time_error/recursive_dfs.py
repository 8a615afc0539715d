"""Eight digits, crashes: a recursive depth-first search that keeps the least depth seen
per grid. Its recursion goes thousands of calls deep, past Python's default limit of 1000,
and the RecursionError ends the program."""
import sys

best = {}


def dfs(board, depth):
    if best.get(board, 1 << 30) <= depth:
        return
    best[board] = depth
    if board == "12345678x":
        return
    blank = board.index("x")
    for n in (blank - 3, blank + 3, blank - 1 if blank % 3 else -1, blank + 1 if blank % 3 < 2 else -1):
        if 0 <= n < 9:
            cells = list(board)
            cells[blank], cells[n] = cells[n], "x"
            dfs("".join(cells), depth + 1)


dfs("".join(sys.stdin.read().split()), 0)
print(best.get("12345678x", -1))
