/* Lanqiao: breadth-first search from the start; a board is marked seen through its rank
 * among the 9! orderings (Cantor expansion), so the visited set is a plain byte array. */
#include <stdio.h>
#include <string.h>

#define STATES 362880

static const int FACT[9] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};
static char seen[STATES];
static char queue_board[STATES][9];
static int queue_depth[STATES];

static int rank_of(const char *b) {
    int rank = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += b[j] < b[i];
        rank += smaller * FACT[8 - i];
    }
    return rank;
}

int main(void) {
    char start[16], target[16];
    if (scanf("%15s %15s", start, target) != 2) return 1;
    int goal = rank_of(target);
    int head = 0, tail = 0;
    memcpy(queue_board[tail], start, 9);
    queue_depth[tail++] = 0;
    seen[rank_of(start)] = 1;
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    while (head < tail) {
        char *b = queue_board[head];
        int d = queue_depth[head++];
        if (rank_of(b) == goal) { printf("%d\n", d); return 0; }
        int blank = (int)(strchr(b, '.') - b);
        int r = blank / 3, c = blank % 3;
        for (int k = 0; k < 4; k++) {
            int nr = r + dr[k], nc = c + dc[k];
            if (nr < 0 || nr > 2 || nc < 0 || nc > 2) continue;
            char next[9];
            memcpy(next, b, 9);
            next[blank] = next[nr * 3 + nc];
            next[nr * 3 + nc] = '.';
            int id = rank_of(next);
            if (seen[id]) continue;
            seen[id] = 1;
            memcpy(queue_board[tail], next, 9);
            queue_depth[tail++] = d + 1;
        }
    }
    printf("-1\n");
    return 0;
}
