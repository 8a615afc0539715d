# student02 - breadth-first search over tuples, deque as the queue.
from collections import deque

start = input().strip()
target = input().strip()
if start == target:
    print(0)
else:
    seen = {start: 0}
    queue = deque([start])
    answer = -1
    moves = {0: (1, 3), 1: (0, 2, 4), 2: (1, 5), 3: (0, 4, 6), 4: (1, 3, 5, 7),
             5: (2, 4, 8), 6: (3, 7), 7: (4, 6, 8), 8: (5, 7)}
    while queue and answer < 0:
        cur = queue.popleft()
        d = seen[cur]
        b = cur.index(".")
        for n in moves[b]:
            s = list(cur)
            s[b], s[n] = s[n], s[b]
            nxt = "".join(s)
            if nxt not in seen:
                seen[nxt] = d + 1
                if nxt == target:
                    answer = d + 1
                    break
                queue.append(nxt)
    print(answer)
