# Wrong answer: reads only the first case of the file.
from collections import deque


def rotate_ccw(s, p):
    s = list(s)
    a, b, c, d = s[p], s[p + 1], s[p + 4], s[p + 3]
    s[p], s[p + 1], s[p + 4], s[p + 3] = b, c, d, a
    return tuple(s)


goal = tuple(range(1, 10))
dist = {goal: 0}
queue = deque([goal])
while queue:
    s = queue.popleft()
    for p in (0, 1, 3, 4):
        n = rotate_ccw(s, p)
        if n not in dist:
            dist[n] = dist[s] + 1
            queue.append(n)
print(dist[tuple(map(int, input().split()))])
