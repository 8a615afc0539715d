"""Nine digits: breadth-first search from the ordered frame a whole level at a time, with
sets of tuples; a counter-clockwise turn is one itemgetter call, which keeps the 9! frames
within the time limit in Python. Every case is then a dictionary lookup."""
import sys
from operator import itemgetter

SQUARES = ((0, 1, 4, 3), (1, 2, 5, 4), (3, 4, 7, 6), (4, 5, 8, 7))


def back_turn(square):
    # The frame after a counter-clockwise turn: each cell takes the tile of the cell after it.
    order = list(range(9))
    for i, cell in enumerate(square):
        order[cell] = square[(i + 1) % 4]
    return itemgetter(*order)


def table():
    turns = [back_turn(s) for s in SQUARES]
    ordered = tuple(range(1, 10))
    dist = {ordered: 0}
    level, depth = [ordered], 0
    while level:
        depth += 1
        fresh = {t(frame) for frame in level for t in turns}
        fresh.difference_update(dist)
        dist.update(dict.fromkeys(fresh, depth))
        level = fresh
    return dist


def main():
    numbers = list(map(int, sys.stdin.buffer.read().split()))
    dist = table()
    out = [str(dist[tuple(numbers[i:i + 9])]) for i in range(0, len(numbers) - 8, 9)]
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
