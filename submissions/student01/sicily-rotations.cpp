// student01 - one BFS from the ordered board with the inverse turns, then look every case up.
#include <cstdio>
#include <cstring>
#include <vector>
static int weight[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
static int index_of(const int* b) {
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += b[j] < b[i];
        r += smaller * weight[i];
    }
    return r;
}
static signed char dist[362880];
struct Board { int c[9]; };
int main() {
    std::memset(dist, -1, sizeof dist);
    std::vector<Board> queue(1);
    for (int i = 0; i < 9; i++) queue[0].c[i] = i;
    dist[0] = 0;
    const int corner[4] = {0, 1, 3, 4};
    for (size_t h = 0; h < queue.size(); h++) {
        Board cur = queue[h];
        int d = dist[index_of(cur.c)];
        for (int k = 0; k < 4; k++) {
            Board n = cur;
            int p = corner[k];
            n.c[p] = cur.c[p + 1]; n.c[p + 1] = cur.c[p + 4]; n.c[p + 4] = cur.c[p + 3]; n.c[p + 3] = cur.c[p];
            int r = index_of(n.c);
            if (dist[r] < 0) { dist[r] = d + 1; queue.push_back(n); }
        }
    }
    int b[9];
    while (std::scanf("%d", &b[0]) == 1) {
        for (int i = 1; i < 9; i++) std::scanf("%d", &b[i]);
        for (int i = 0; i < 9; i++) b[i]--;
        std::printf("%d\n", dist[index_of(b)]);
    }
}
