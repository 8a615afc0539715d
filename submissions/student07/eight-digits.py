# student07 - moves the x one place left or right in the string, so at the edge of a
# row it wraps around to the row before or after.
import sys
from collections import deque

start = "".join(sys.stdin.read().split())
goal = "12345678x"
dist = {start: 0}
queue = deque([start])
while queue:
    cur = queue.popleft()
    if cur == goal:
        break
    x = cur.index("x")
    for n in (x - 3, x + 3, x - 1, x + 1):
        if 0 <= n < 9:
            s = list(cur)
            s[x], s[n] = s[n], s[x]
            nxt = "".join(s)
            if nxt not in dist:
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
print(dist.get(goal, -1))
