/* Nine digits, too slow: a fresh breadth-first search for every case, from its frame until
 * the ordered one appears. Fine for a few cases; a file of thousands runs out of time. */
#include <stdio.h>
#include <string.h>

#define STATES 362880

static const int FACT[9] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};
static const int SQUARE[4][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
static signed char dist[STATES];
static int queue[STATES][9];

static int rank_of(const int *b) {
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += b[j] < b[i];
        r += smaller * FACT[8 - i];
    }
    return r;
}

static int steps(const int *start) {
    memset(dist, -1, sizeof dist);
    int head = 0, tail = 0;
    memcpy(queue[tail++], start, sizeof queue[0]);
    dist[rank_of(start)] = 0;
    while (head < tail) {
        int *b = queue[head++];
        int d = dist[rank_of(b)];
        if (rank_of(b) == 0) return d; /* rank 0 is the ordered frame */
        for (int s = 0; s < 4; s++) {
            const int *q = SQUARE[s];
            int next[9];
            memcpy(next, b, sizeof next);
            next[q[1]] = b[q[0]]; next[q[2]] = b[q[1]]; next[q[3]] = b[q[2]]; next[q[0]] = b[q[3]];
            int r = rank_of(next);
            if (dist[r] >= 0) continue;
            dist[r] = (signed char)(d + 1);
            memcpy(queue[tail++], next, sizeof next);
        }
    }
    return -1;
}

int main(void) {
    int frame[9];
    while (scanf("%d", &frame[0]) == 1) {
        for (int i = 1; i < 9; i++) scanf("%d", &frame[i]);
        printf("%d\n", steps(frame));
    }
    return 0;
}
