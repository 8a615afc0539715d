// Baseline for `make bench`: a plain C++ BFS over all 9! boards, one full search per run,
// then one table lookup per test case (the Sicily rotations problem).
#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

static int fact[10];

static int cantor(const unsigned char* a) {
    int r = 0;
    for (int i = 0; i < 8; i++) {
        int c = 0;
        for (int j = i + 1; j < 9; j++) c += a[j] < a[i];
        r += c * fact[8 - i];
    }
    return r;
}

static signed char dist[362880];

int main() {
    fact[0] = 1;
    for (int i = 1; i < 10; i++) fact[i] = fact[i - 1] * i;
    std::memset(dist, -1, sizeof dist);
    std::vector<std::array<unsigned char, 9>> queue;
    queue.reserve(362880);
    queue.push_back({0, 1, 2, 3, 4, 5, 6, 7, 8});
    dist[0] = 0;
    const int corner[4] = {0, 1, 3, 4};
    for (size_t head = 0; head < queue.size(); head++) {
        const auto cur = queue[head];
        const int d = dist[cantor(cur.data())];
        for (int k = 0; k < 4; k++) {
            auto nxt = cur;
            const int p = corner[k];
            // Counter-clockwise: the search runs from the goal back to the cases.
            nxt[p] = cur[p + 1];
            nxt[p + 1] = cur[p + 4];
            nxt[p + 4] = cur[p + 3];
            nxt[p + 3] = cur[p];
            const int r = cantor(nxt.data());
            if (dist[r] < 0) {
                dist[r] = d + 1;
                queue.push_back(nxt);
            }
        }
    }
    int v[9];
    while (std::scanf("%d", &v[0]) == 1) {
        unsigned char b[9];
        for (int i = 1; i < 9; i++) std::scanf("%d", &v[i]);
        for (int i = 0; i < 9; i++) b[i] = (unsigned char)(v[i] - 1);
        std::printf("%d\n", dist[cantor(b)]);
    }
    return 0;
}
