"""Eight digits: A* search with the Manhattan distance as the estimate. Boards are
strings; an odd count of inversions among the tiles means the goal cannot be reached."""
import heapq
import sys

GOAL = "12345678x"
NEIGHBOURS = [[n for n in (i - 3, i + 3, i - 1 if i % 3 else -1, i + 1 if i % 3 < 2 else -1) if 0 <= n < 9]
              for i in range(9)]
# DISTANCE[tile][cell]: how far a tile sits from its goal cell.
DISTANCE = {str(t): [abs(c // 3 - (t - 1) // 3) + abs(c % 3 - (t - 1) % 3) for c in range(9)] for t in range(1, 9)}


def estimate(board):
    return sum(DISTANCE[t][i] for i, t in enumerate(board) if t != "x")


def solve(board):
    tiles = [t for t in board if t != "x"]
    if sum(a > b for i, a in enumerate(tiles) for b in tiles[i + 1:]) % 2:
        return -1
    best = {board: 0}
    heap = [(estimate(board), 0, board)]
    while heap:
        f, g, b = heapq.heappop(heap)
        if b == GOAL:
            return g
        if g > best[b]:
            continue  # stale: reached more cheaply since
        blank = b.index("x")
        h = f - g
        for n in NEIGHBOURS[blank]:
            t = b[n]
            cells = list(b)
            cells[blank], cells[n] = t, "x"
            nxt = "".join(cells)
            if best.get(nxt, 99) <= g + 1:
                continue
            best[nxt] = g + 1
            # Only the moved tile changes the estimate.
            nh = h - DISTANCE[t][n] + DISTANCE[t][blank]
            heapq.heappush(heap, (g + 1 + nh, g + 1, nxt))
    return -1


print(solve("".join(sys.stdin.read().split())))
