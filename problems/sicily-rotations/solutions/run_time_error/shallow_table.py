"""Nine digits, crashes: the table is built only ten turns deep (the author guessed no
frame needs more), so a deeper frame is missing and the lookup raises KeyError."""
import sys

SQUARES = ((0, 1, 4, 3), (1, 2, 5, 4), (3, 4, 7, 6), (4, 5, 8, 7))


def back(frame, q):
    cells = list(frame)
    cells[q[0]], cells[q[1]], cells[q[2]], cells[q[3]] = frame[q[1]], frame[q[2]], frame[q[3]], frame[q[0]]
    return tuple(cells)


dist = {tuple(range(1, 10)): 0}
level = [tuple(range(1, 10))]
for depth in range(1, 11):
    fresh = []
    for frame in level:
        for q in SQUARES:
            nxt = back(frame, q)
            if nxt not in dist:
                dist[nxt] = depth
                fresh.append(nxt)
    level = fresh

numbers = list(map(int, sys.stdin.read().split()))
for i in range(0, len(numbers) - 8, 9):
    print(dist[tuple(numbers[i:i + 9])])
