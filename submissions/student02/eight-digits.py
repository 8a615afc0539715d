# student02 - the same search as for lanqiao, towards 12345678x.
import sys
from collections import deque

start = "".join(sys.stdin.read().split())
goal = "12345678x"
neighbours = [(1, 3), (0, 2, 4), (1, 5), (0, 4, 6), (1, 3, 5, 7), (2, 4, 8), (3, 7), (4, 6, 8), (5, 7)]
dist = {start: 0}
queue = deque([start])
while queue:
    cur = queue.popleft()
    if cur == goal:
        break
    x = cur.index("x")
    for n in neighbours[x]:
        s = list(cur)
        s[x], s[n] = s[n], s[x]
        nxt = "".join(s)
        if nxt not in dist:
            dist[nxt] = dist[cur] + 1
            queue.append(nxt)
print(dist.get(goal, -1))
