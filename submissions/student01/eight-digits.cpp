// student01 - BFS over strings with an unordered_map of distances.
#include <iostream>
#include <queue>
#include <string>
#include <unordered_map>
using namespace std;

int main() {
    string start, tok;
    for (int i = 0; i < 9; i++) { cin >> tok; start += tok; }
    const string goal = "12345678x";
    unordered_map<string, int> dist;
    dist.reserve(400000);
    queue<string> q;
    q.push(start);
    dist[start] = 0;
    int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    while (!q.empty()) {
        string cur = q.front(); q.pop();
        int d = dist[cur];
        if (cur == goal) { cout << d << "\n"; return 0; }
        int x = cur.find('x');
        for (int k = 0; k < 4; k++) {
            int r = x / 3 + dr[k], c = x % 3 + dc[k];
            if (r < 0 || r >= 3 || c < 0 || c >= 3) continue;
            string next = cur;
            swap(next[x], next[r * 3 + c]);
            if (!dist.count(next)) { dist[next] = d + 1; q.push(next); }
        }
    }
    cout << -1 << "\n";
}
