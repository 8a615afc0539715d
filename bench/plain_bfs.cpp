// Baselines for `make bench`: a plain C++ BFS, one full search per run, then lookups.
//   plain_bfs rotations  < cases   Sicily rotations: search all 9! boards from the goal
//                                  with counter-clockwise turns; one answer per case.
//   plain_bfs sliding    < case    eight digits: search the 181440 boards reachable from
//                                  1 2 3 4 5 6 7 8 x; answer one case.
//   plain_bfs sliding9             the same search from each of the nine canonical goals
//                                  (tiles 1..8 in order, the blank on cell 0..8), which is
//                                  what lanqiao's nine tables hold; prints a checksum.
#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

using Board = std::array<unsigned char, 9>;

static int fact[10];
static signed char dist[362880];

static int cantor(const Board& a) {
    int r = 0;
    for (int i = 0; i < 8; i++) {
        int c = 0;
        for (int j = i + 1; j < 9; j++) c += a[j] < a[i];
        r += c * fact[8 - i];
    }
    return r;
}

// Breadth-first from `goal`; `expand(board, out)` writes the neighbours, returns how many.
template <class Expand>
static void search(const Board& goal, size_t reserve, Expand expand) {
    std::memset(dist, -1, sizeof dist);
    std::vector<Board> queue;
    queue.reserve(reserve);
    queue.push_back(goal);
    dist[cantor(goal)] = 0;
    Board next[4];
    for (size_t head = 0; head < queue.size(); head++) {
        const Board cur = queue[head];
        const int d = dist[cantor(cur)];
        const int n = expand(cur, next);
        for (int k = 0; k < n; k++) {
            const int r = cantor(next[k]);
            if (dist[r] < 0) {
                dist[r] = d + 1;
                queue.push_back(next[k]);
            }
        }
    }
}

static int rotations_main() {
    search({0, 1, 2, 3, 4, 5, 6, 7, 8}, 362880, [](const Board& cur, Board* out) {
        const int corner[4] = {0, 1, 3, 4};
        for (int k = 0; k < 4; k++) {
            const int p = corner[k];
            out[k] = cur;
            // Counter-clockwise: the search runs from the goal back to the cases.
            out[k][p] = cur[p + 1];
            out[k][p + 1] = cur[p + 4];
            out[k][p + 4] = cur[p + 3];
            out[k][p + 3] = cur[p];
        }
        return 4;
    });
    int v[9];
    while (std::scanf("%d", &v[0]) == 1) {
        Board b;
        for (int i = 1; i < 9; i++) std::scanf("%d", &v[i]);
        for (int i = 0; i < 9; i++) b[i] = (unsigned char)(v[i] - 1);
        std::printf("%d\n", dist[cantor(b)]);
    }
    return 0;
}

static int slide(const Board& cur, Board* out) {
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int blank = 0, n = 0;
    while (cur[blank] != 0) blank++;
    for (int k = 0; k < 4; k++) {
        const int r = blank / 3 + dr[k], c = blank % 3 + dc[k];
        if (r < 0 || r > 2 || c < 0 || c > 2) continue;
        out[n] = cur;
        out[n][blank] = cur[r * 3 + c];
        out[n][r * 3 + c] = 0;
        n++;
    }
    return n;
}

static int sliding9_main() {
    long checksum = 0;
    for (int blank = 0; blank < 9; blank++) {
        Board goal;
        for (int cell = 0, tile = 1; cell < 9; cell++) goal[cell] = cell == blank ? 0 : tile++;
        search(goal, 181440, slide);
        for (int r = 0; r < 362880; r++) checksum += dist[r];
    }
    std::printf("%ld\n", checksum);
    return 0;
}

static int sliding_main() {
    search({1, 2, 3, 4, 5, 6, 7, 8, 0}, 181440, slide);
    char tok[8];
    Board b;
    for (int i = 0; i < 9; i++) {
        if (std::scanf("%7s", tok) != 1) return 1;
        b[i] = tok[0] == 'x' ? 0 : (unsigned char)(tok[0] - '0');
    }
    std::printf("%d\n", dist[cantor(b)]);
    return 0;
}

int main(int argc, char** argv) {
    fact[0] = 1;
    for (int i = 1; i < 10; i++) fact[i] = fact[i - 1] * i;
    if (argc == 2 && std::strcmp(argv[1], "rotations") == 0) return rotations_main();
    if (argc == 2 && std::strcmp(argv[1], "sliding") == 0) return sliding_main();
    if (argc == 2 && std::strcmp(argv[1], "sliding9") == 0) return sliding9_main();
    std::fprintf(stderr, "usage: plain_bfs rotations|sliding|sliding9 < input\n");
    return 2;
}
