# student08 - a plain BFS: a list as the queue and a list of visited boards.
# Right answers, but far too slow when the target is 20 or more moves away.
start = list(input().strip())
target = list(input().strip())
queue = [(start, 0)]
visited = [start]
answer = -1
while queue:
    cur, d = queue.pop(0)
    if cur == target:
        answer = d
        break
    b = cur.index(".")
    r, c = divmod(b, 3)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < 3 and 0 <= nc < 3:
            n = nr * 3 + nc
            nxt = list(cur)
            nxt[b], nxt[n] = nxt[n], nxt[b]
            if nxt not in visited:
                visited.append(nxt)
                queue.append((nxt, d + 1))
print(answer)
