/* Nine digits: one breadth-first search from the ordered frame over all 9! frames, using
 * the reverse (counter-clockwise) turns, fills a table of distances indexed by each frame's
 * rank (Cantor expansion). Every case is then a lookup. */
#include <stdio.h>

#define STATES 362880

static const int FACT[9] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};
static signed char dist[STATES];
static int queue[STATES];
/* The four squares by their top-left cell, clockwise: top-left, top-right, bottom-right, bottom-left. */
static const int SQUARE[4][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};

static int rank_of(const int *b) {
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += b[j] < b[i];
        r += smaller * FACT[8 - i];
    }
    return r;
}

static void unrank(int r, int *b) {
    int used[9] = {0};
    for (int i = 0; i < 9; i++) {
        int k = r / FACT[8 - i];
        r %= FACT[8 - i];
        for (int v = 0; v < 9; v++) {
            if (used[v]) continue;
            if (k-- == 0) { b[i] = v; used[v] = 1; break; }
        }
    }
}

int main(void) {
    for (int i = 0; i < STATES; i++) dist[i] = -1;
    int ordered[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    int head = 0, tail = 0, b[9];
    dist[rank_of(ordered)] = 0;
    queue[tail++] = rank_of(ordered);
    while (head < tail) {
        int r = queue[head++];
        unrank(r, b);
        for (int s = 0; s < 4; s++) {
            const int *q = SQUARE[s];
            /* Counter-clockwise: each cell takes the tile of the next cell clockwise. */
            int t = b[q[0]];
            b[q[0]] = b[q[1]]; b[q[1]] = b[q[2]]; b[q[2]] = b[q[3]]; b[q[3]] = t;
            int next = rank_of(b);
            if (dist[next] < 0) {
                dist[next] = (signed char)(dist[r] + 1);
                queue[tail++] = next;
            }
            t = b[q[3]];
            b[q[3]] = b[q[2]]; b[q[2]] = b[q[1]]; b[q[1]] = b[q[0]]; b[q[0]] = t;
        }
    }
    int frame[9];
    while (1) {
        for (int i = 0; i < 9; i++) {
            if (scanf("%d", &frame[i]) != 1) return 0;
            frame[i]--;
        }
        printf("%d\n", dist[rank_of(frame)]);
    }
}
