// student05 - precompute from the goal, but turning clockwise as in the statement:
// the search runs backwards, so these are the wrong turns.
#include <cstdio>
#include <cstring>
#include <vector>
#include <array>
using namespace std;

static const int W[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
static signed char dist[362880];

int index_of(const array<int, 9>& b) {
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int s = 0;
        for (int j = i + 1; j < 9; j++) s += b[j] < b[i];
        r += s * W[i];
    }
    return r;
}

int main() {
    memset(dist, -1, sizeof dist);
    vector<array<int, 9>> q;
    q.push_back({0, 1, 2, 3, 4, 5, 6, 7, 8});
    dist[0] = 0;
    int corner[4] = {0, 1, 3, 4};
    for (size_t h = 0; h < q.size(); h++) {
        array<int, 9> s = q[h];
        int d = dist[index_of(s)];
        for (int p : corner) {
            array<int, 9> t = s;
            t[p] = s[p + 3]; t[p + 1] = s[p]; t[p + 4] = s[p + 1]; t[p + 3] = s[p + 4];
            int r = index_of(t);
            if (dist[r] < 0) { dist[r] = d + 1; q.push_back(t); }
        }
    }
    array<int, 9> b;
    while (scanf("%d", &b[0]) == 1) {
        for (int i = 1; i < 9; i++) scanf("%d", &b[i]);
        for (int& v : b) v--;
        printf("%d\n", dist[index_of(b)]);
    }
}
