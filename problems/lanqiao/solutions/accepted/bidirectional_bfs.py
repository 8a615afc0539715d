"""Lanqiao: bidirectional breadth-first search, one level at a time from whichever side
has the smaller frontier; the two searches meet in the middle. A parity test answers the
unreachable boards first (otherwise both sides would exhaust 181440 boards)."""
import sys

NEIGHBOURS = [[n for n in (i - 3, i + 3, i - 1 if i % 3 else -1, i + 1 if i % 3 < 2 else -1) if 0 <= n < 9]
              for i in range(9)]


def parity(board):
    tiles = [c for c in board if c != "."]
    return sum(a > b for i, a in enumerate(tiles) for b in tiles[i + 1:]) % 2


def expand(frontier):
    out = []
    for board in frontier:
        blank = board.index(".")
        for n in NEIGHBOURS[blank]:
            cells = list(board)
            cells[blank], cells[n] = cells[n], "."
            out.append("".join(cells))
    return out


def distance(start, target):
    if start == target:
        return 0
    if parity(start) != parity(target):
        return -1
    depth = [{start: 0}, {target: 0}]
    frontier = [[start], [target]]
    while frontier[0] and frontier[1]:
        side = 0 if len(frontier[0]) <= len(frontier[1]) else 1
        mine, other = depth[side], depth[1 - side]
        level = mine[frontier[side][0]] + 1
        fresh = []
        best = None
        for board in expand(frontier[side]):
            if board in mine:
                continue
            mine[board] = level
            fresh.append(board)
            if board in other:
                total = level + other[board]
                best = total if best is None else min(best, total)
        if best is not None:
            return best
        frontier[side] = fresh
    return -1


def main():
    start, target = sys.stdin.read().split()[:2]
    print(distance(start, target))


main()
