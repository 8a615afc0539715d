// student01 - BFS from the start, states numbered by their Cantor expansion.
#include <cstdio>
#include <cstring>
#include <string>
#include <queue>
#include <iostream>
using namespace std;

static const int FACT[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
static signed char dist[362880];

int cantor(const string& s) {
    int code = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) if (s[j] < s[i]) smaller++;
        code += smaller * FACT[i];
    }
    return code;
}

int main() {
    string start, target;
    cin >> start >> target;
    memset(dist, -1, sizeof dist);
    queue<string> q;
    q.push(start);
    dist[cantor(start)] = 0;
    int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    while (!q.empty()) {
        string cur = q.front();
        q.pop();
        int d = dist[cantor(cur)];
        if (cur == target) { printf("%d\n", d); return 0; }
        int blank = cur.find('.');
        for (int k = 0; k < 4; k++) {
            int r = blank / 3 + dr[k], c = blank % 3 + dc[k];
            if (r < 0 || r > 2 || c < 0 || c > 2) continue;
            string next = cur;
            swap(next[blank], next[r * 3 + c]);
            int code = cantor(next);
            if (dist[code] < 0) { dist[code] = d + 1; q.push(next); }
        }
    }
    printf("-1\n");
    return 0;
}
