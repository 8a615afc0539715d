/* student11 - correct, but left a debugging print of every board the search visits. */
#include <stdio.h>
#include <string.h>

static const int fact[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
static signed char dist[362880];
static int queue[362880][9];

static int code(const int *b) {
    int c = 0;
    for (int i = 0; i < 9; i++) {
        int s = 0;
        for (int j = i + 1; j < 9; j++) s += b[j] < b[i];
        c += s * fact[i];
    }
    return c;
}

int main(void) {
    memset(dist, -1, sizeof dist);
    int head = 0, tail = 1;
    for (int i = 0; i < 9; i++) queue[0][i] = i;
    dist[0] = 0;
    const int corner[4] = {0, 1, 3, 4};
    while (head < tail) {
        int *s = queue[head++];
        int d = dist[code(s)];
        printf("visit %d %d %d %d %d %d %d %d %d at %d\n", s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], d);
        for (int k = 0; k < 4; k++) {
            int p = corner[k], t[9];
            memcpy(t, s, sizeof t);
            t[p] = s[p + 1]; t[p + 1] = s[p + 4]; t[p + 4] = s[p + 3]; t[p + 3] = s[p];
            int c = code(t);
            if (dist[c] < 0) { dist[c] = (signed char)(d + 1); memcpy(queue[tail++], t, sizeof t); }
        }
    }
    int b[9];
    while (scanf("%d", &b[0]) == 1) {
        for (int i = 1; i < 9; i++) scanf("%d", &b[i]);
        for (int i = 0; i < 9; i++) b[i]--;
        printf("%d\n", dist[code(b)]);
    }
    return 0;
}
