/* Eight digits, too much memory: the grid, read as the number 123456789 with 9 for the
 * blank, indexes a distance table of a billion bytes, cleared with memset before the search.
 * @EXPECTED: MLE or RE
 * (Under a memory cgroup the memset is stopped: MLE. In the fallback sandbox, an address
 * space limit refuses the 1 GB static array at exec time, and the program dies as an RE.) */
#include <stdio.h>
#include <string.h>

static signed char dist[1000000000];
static int queue[362880];

static int cell(int board, int i) {
    static const int pow10[9] = {100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1};
    return board / pow10[i] % 10;
}

static int swapped(int board, int a, int b) {
    static const int pow10[9] = {100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1};
    int x = cell(board, a), y = cell(board, b);
    return board + (y - x) * pow10[a] + (x - y) * pow10[b];
}

int main(void) {
    char token[8];
    int start = 0;
    for (int i = 0; i < 9; i++) {
        if (scanf("%7s", token) != 1) return 1;
        start = start * 10 + (token[0] == 'x' ? 9 : token[0] - '0');
    }
    memset(dist, -1, sizeof dist);
    int head = 0, tail = 0;
    dist[start] = 0;
    queue[tail++] = start;
    while (head < tail) {
        int b = queue[head++];
        if (b == 123456789) break;
        int blank = 0;
        while (cell(b, blank) != 9) blank++;
        int moves[4] = {blank - 3, blank + 3, blank % 3 ? blank - 1 : -1, blank % 3 < 2 ? blank + 1 : -1};
        for (int k = 0; k < 4; k++) {
            if (moves[k] < 0 || moves[k] > 8) continue;
            int next = swapped(b, blank, moves[k]);
            if (dist[next] >= 0) continue;
            dist[next] = (signed char)(dist[b] + 1);
            queue[tail++] = next;
        }
    }
    printf("%d\n", dist[123456789]);
    return 0;
}
