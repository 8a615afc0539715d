// my own solution: breadth first search, permutations indexed by rank
#include <cstdio>
#include <cstring>
#include <string>
#include <queue>
#include <iostream>
using namespace std;

static const int F[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
static signed char seen[362880];

int rankOf(const string& str) {
    int idx = 0;
    for (int u = 0; u < 9; u++) {
        int less = 0;
        for (int v = u + 1; v < 9; v++) if (str[v] < str[u]) less++;
        idx += less * F[u];
    }
    return idx;
}

int main() {
    string src, dst;
    cin >> src >> dst;
    memset(seen, -1, sizeof seen);
    queue<string> todo;
    todo.push(src);
    seen[rankOf(src)] = 0;
    int dy[4] = {-1, 1, 0, 0}, dx[4] = {0, 0, -1, 1};
    while (!todo.empty()) {
        string now = todo.front();
        todo.pop();
        int steps = seen[rankOf(now)];
        if (now == dst) { printf("%d\n", steps); return 0; }
        int hole = now.find('.');
        for (int m = 0; m < 4; m++) {
            int row = hole / 3 + dy[m], col = hole % 3 + dx[m];
            if (row < 0 || row > 2 || col < 0 || col > 2) continue;
            string nb = now;
            swap(nb[hole], nb[row * 3 + col]);
            int key = rankOf(nb);
            if (seen[key] < 0) { seen[key] = steps + 1; todo.push(nb); }
        }
    }
    printf("-1\n");
    return 0;
}
