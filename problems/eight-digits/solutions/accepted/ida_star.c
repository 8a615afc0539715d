/* Eight digits: iterative-deepening A* with the Manhattan distance of the tiles to their
 * goal cells. Each round is a depth-first search cut off where moves + estimate pass the
 * bound; the bound grows to the least value that was cut. An odd number of inversions
 * among the tiles means the goal is out of reach (a move keeps that parity). */
#include <stdio.h>
#include <stdlib.h>

static int board[9];
static int bound_next;

static int manhattan(void) {
    int sum = 0;
    for (int i = 0; i < 9; i++) {
        int t = board[i];
        if (t == 0) continue;
        sum += abs(i / 3 - (t - 1) / 3) + abs(i % 3 - (t - 1) % 3);
    }
    return sum;
}

/* 1 when the goal is reached within the bound; h is kept up to date move by move. */
static int search(int blank, int g, int h, int bound, int previous) {
    if (g + h > bound) {
        if (g + h < bound_next) bound_next = g + h;
        return 0;
    }
    if (h == 0) return 1;
    static const int step[4] = {-3, 3, -1, 1};
    for (int k = 0; k < 4; k++) {
        int n = blank + step[k];
        if (n < 0 || n > 8 || n == previous) continue;
        if ((k == 2 && blank % 3 == 0) || (k == 3 && blank % 3 == 2)) continue;
        int t = board[n], home = t - 1;
        int before = abs(n / 3 - home / 3) + abs(n % 3 - home % 3);
        int after = abs(blank / 3 - home / 3) + abs(blank % 3 - home % 3);
        board[blank] = t;
        board[n] = 0;
        int found = search(n, g + 1, h - before + after, bound, blank);
        board[n] = t;
        board[blank] = 0;
        if (found) return 1;
    }
    return 0;
}

int main(void) {
    char token[8];
    int blank = 0, inversions = 0;
    for (int i = 0; i < 9; i++) {
        if (scanf("%7s", token) != 1) return 1;
        board[i] = token[0] == 'x' ? 0 : token[0] - '0';
        if (board[i] == 0) blank = i;
    }
    for (int i = 0; i < 9; i++)
        for (int j = i + 1; j < 9; j++)
            if (board[i] && board[j] && board[j] < board[i]) inversions++;
    if (inversions % 2) {
        printf("-1\n");
        return 0;
    }
    int h = manhattan();
    for (int bound = h;; bound = bound_next) {
        bound_next = 1 << 30;
        if (search(blank, 0, h, bound, -1)) {
            printf("%d\n", bound);
            return 0;
        }
    }
}
