// Baseline for `make bench`: a plain C++ BFS from the eight-digits goal over the
// 181440 reachable boards, one full search per run, then one lookup.
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
    queue.reserve(181440);
    queue.push_back({1, 2, 3, 4, 5, 6, 7, 8, 0});
    dist[cantor(queue[0].data())] = 0;
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (size_t head = 0; head < queue.size(); head++) {
        const auto cur = queue[head];
        const int d = dist[cantor(cur.data())];
        int blank = 0;
        while (cur[blank] != 0) blank++;
        for (int k = 0; k < 4; k++) {
            const int r = blank / 3 + dr[k], c = blank % 3 + dc[k];
            if (r < 0 || r > 2 || c < 0 || c > 2) continue;
            auto nxt = cur;
            nxt[blank] = cur[r * 3 + c];
            nxt[r * 3 + c] = 0;
            const int id = cantor(nxt.data());
            if (dist[id] < 0) {
                dist[id] = d + 1;
                queue.push_back(nxt);
            }
        }
    }
    char tok[8];
    unsigned char b[9];
    for (int i = 0; i < 9; i++) {
        if (std::scanf("%7s", tok) != 1) return 1;
        b[i] = tok[0] == 'x' ? 0 : (unsigned char)(tok[0] - '0');
    }
    std::printf("%d\n", dist[cantor(b)]);
    return 0;
}
