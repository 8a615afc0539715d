/* student04 - BFS with a hand-written queue of packed boards and a Cantor-indexed table. */
#include <stdio.h>
#include <string.h>

static const int fact[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
static signed char dist[362880];
static char queue[181440][9];

static int code(const char *s) {
    int c = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += s[j] < s[i];
        c += smaller * fact[i];
    }
    return c;
}

int main(void) {
    char start[9], tok[8];
    for (int i = 0; i < 9; i++) {
        if (scanf("%7s", tok) != 1) return 0;
        start[i] = tok[0] == 'x' ? '9' : tok[0];   /* the blank sorts last, like the goal's */
    }
    const char goal[9] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    memset(dist, -1, sizeof dist);
    int head = 0, tail = 0;
    memcpy(queue[tail++], start, 9);
    dist[code(start)] = 0;
    while (head < tail) {
        char *s = queue[head++];
        int d = dist[code(s)];
        if (memcmp(s, goal, 9) == 0) { printf("%d\n", d); return 0; }
        int x = 0;
        while (s[x] != '9') x++;
        int moves[4] = {x - 3, x + 3, x % 3 ? x - 1 : -1, x % 3 < 2 ? x + 1 : -1};
        for (int k = 0; k < 4; k++) {
            int n = moves[k];
            if (n < 0 || n > 8) continue;
            char t[9];
            memcpy(t, s, 9);
            t[x] = t[n];
            t[n] = '9';
            int c = code(t);
            if (dist[c] < 0) { dist[c] = (signed char)(d + 1); memcpy(queue[tail++], t, 9); }
        }
    }
    printf("-1\n");
    return 0;
}
