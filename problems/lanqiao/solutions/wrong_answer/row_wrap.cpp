// Lanqiao, wrong: the blank moves to index-1 and index+1 without checking the row, so it
// "wraps" from the end of one row to the start of the next and finds paths too short.
#include <iostream>
#include <queue>
#include <string>
#include <unordered_map>

int main() {
    std::string start, target;
    std::cin >> start >> target;
    std::unordered_map<std::string, int> dist{{start, 0}};
    std::queue<std::string> todo;
    todo.push(start);
    while (!todo.empty()) {
        std::string b = todo.front();
        todo.pop();
        if (b == target) {
            std::cout << dist[b] << '\n';
            return 0;
        }
        int blank = static_cast<int>(b.find('.'));
        for (int n : {blank - 3, blank + 3, blank - 1, blank + 1}) {
            if (n < 0 || n > 8) continue;
            std::string next = b;
            std::swap(next[blank], next[n]);
            if (dist.count(next)) continue;
            dist[next] = dist[b] + 1;
            todo.push(next);
        }
    }
    std::cout << -1 << '\n';
}
