/* student13 - table of distances from the goal, built with the inverse turns.
 * A board is stored by its rank among the 9! orderings (factorial number system). */
#include <stdio.h>
#include <string.h>

#define BOARDS 362880

static signed char dist[BOARDS];
static int queue[BOARDS];

static int rank_of(const int *b) {
    static const int fact[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++)
            if (b[j] < b[i]) smaller++;
        r += smaller * fact[i];
    }
    return r;
}

static void board_of(int r, int *b) {
    static const int fact[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
    int used[10] = {0};
    for (int i = 0; i < 9; i++) {
        int k = r / fact[i];
        r %= fact[i];
        for (int v = 1; v <= 9; v++) {
            if (!used[v] && k-- == 0) {
                b[i] = v;
                used[v] = 1;
                break;
            }
        }
    }
}

int main(void) {
    /* cells of each square, in clockwise order from its top-left corner */
    static const int square[4][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
    int goal[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    memset(dist, -1, sizeof dist);
    int head = 0, tail = 0;
    int start = rank_of(goal);
    dist[start] = 0;
    queue[tail++] = start;
    while (head < tail) {
        int cur = queue[head++], b[9], n[9];
        board_of(cur, b);
        for (int s = 0; s < 4; s++) {
            memcpy(n, b, sizeof b);
            /* turning back (counter-clockwise): each cell takes the tile of the next one */
            for (int k = 0; k < 4; k++) n[square[s][k]] = b[square[s][(k + 1) % 4]];
            int r = rank_of(n);
            if (dist[r] < 0) {
                dist[r] = dist[cur] + 1;
                queue[tail++] = r;
            }
        }
    }
    int b[9];
    while (1) {
        for (int i = 0; i < 9; i++)
            if (scanf("%d", &b[i]) != 1) return 0;
        printf("%d\n", dist[rank_of(b)]);
    }
}
