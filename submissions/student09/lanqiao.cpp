// student09 - marks visited boards in an array indexed by the board read as a
// nine-digit number (the blank as 0): simple, but it needs a gigabyte.
#include <cstdio>
#include <cstring>
#include <queue>
#include <string>
#include <iostream>
using namespace std;

static unsigned char seen[900000000];

int value(const string& s) {
    int v = 0;
    for (char ch : s) v = v * 10 + (ch == '.' ? 0 : ch - '0');
    return v;
}

int main() {
    string a, b;
    cin >> a >> b;
    memset(seen, 0xff, sizeof seen);
    queue<pair<string, int>> q;
    q.push({a, 0});
    seen[value(a)] = 0;
    while (!q.empty()) {
        auto [s, d] = q.front();
        q.pop();
        if (s == b) { printf("%d\n", d); return 0; }
        int x = s.find('.');
        int moves[4] = {x - 3, x + 3, x % 3 ? x - 1 : -1, x % 3 < 2 ? x + 1 : -1};
        for (int n : moves) {
            if (n < 0 || n > 8) continue;
            string t = s;
            swap(t[x], t[n]);
            if (seen[value(t)] == 0xff) { seen[value(t)] = 1; q.push({t, d + 1}); }
        }
    }
    printf("-1\n");
}
