/* Eight digits, wrong: the solvability test counts inversions with the blank as a 9, so
 * with the blank on an odd cell it calls solvable grids unsolvable and prints -1. */
#include <stdio.h>
#include <string.h>

static const int FACT[9] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};
static char seen[362880];
static int queue[362880][10];

static int rank_of(const int *b) {
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += b[j] < b[i];
        r += smaller * FACT[8 - i];
    }
    return r;
}

int main(void) {
    int b[9], inversions = 0;
    char token[8];
    for (int i = 0; i < 9; i++) {
        if (scanf("%7s", token) != 1) return 1;
        b[i] = token[0] == 'x' ? 9 : token[0] - '0';
    }
    for (int i = 0; i < 9; i++)
        for (int j = i + 1; j < 9; j++) inversions += b[j] < b[i];
    if (inversions % 2) {
        printf("-1\n");
        return 0;
    }
    const int goal[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    int target = rank_of(goal), head = 0, tail = 0;
    memcpy(queue[tail], b, sizeof b);
    queue[tail++][9] = 0;
    seen[rank_of(b)] = 1;
    while (head < tail) {
        int *cur = queue[head++];
        if (rank_of(cur) == target) {
            printf("%d\n", cur[9]);
            return 0;
        }
        int blank = 0;
        while (cur[blank] != 9) blank++;
        int moves[4] = {blank - 3, blank + 3, blank % 3 ? blank - 1 : -1, blank % 3 < 2 ? blank + 1 : -1};
        for (int k = 0; k < 4; k++) {
            int n = moves[k];
            if (n < 0 || n > 8) continue;
            int next[10];
            memcpy(next, cur, sizeof next);
            next[blank] = next[n];
            next[n] = 9;
            next[9] = cur[9] + 1;
            int id = rank_of(next);
            if (seen[id]) continue;
            seen[id] = 1;
            memcpy(queue[tail++], next, sizeof next);
        }
    }
    printf("-1\n");
    return 0;
}
