# student13 - table of distances from the goal, built with the inverse turns.
import sys
from collections import deque

def turn_back(board, top_left):
    b = list(board)
    a, c, d, e = top_left, top_left + 1, top_left + 4, top_left + 3
    b[a], b[c], b[d], b[e] = board[c], board[d], board[e], board[a]
    return tuple(b)

goal = tuple(range(1, 10))
distance = {goal: 0}
frontier = deque([goal])
while frontier:
    board = frontier.popleft()
    for corner in (0, 1, 3, 4):
        nxt = turn_back(board, corner)
        if nxt not in distance:
            distance[nxt] = distance[board] + 1
            frontier.append(nxt)
numbers = list(map(int, sys.stdin.read().split()))
for i in range(0, len(numbers) - 8, 9):
    print(distance[tuple(numbers[i:i + 9])])
