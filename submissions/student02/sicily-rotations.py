# student02 - search every board once from the goal (turning back, counter-clockwise),
# then answer each case from the dictionary.
import sys
from collections import deque

def back(s, p):
    t = list(s)
    t[p], t[p + 1], t[p + 4], t[p + 3] = s[p + 1], s[p + 4], s[p + 3], s[p]
    return "".join(t)

goal = "123456789"
dist = {goal: 0}
queue = deque([goal])
while queue:
    s = queue.popleft()
    for p in (0, 1, 3, 4):
        t = back(s, p)
        if t not in dist:
            dist[t] = dist[s] + 1
            queue.append(t)
data = sys.stdin.read().split()
out = []
for i in range(0, len(data) - 8, 9):
    out.append(str(dist["".join(data[i:i + 9])]))
print("\n".join(out))
