// Lanqiao, too much memory: the board is read as a nine-digit number (the blank as 0)
// and used directly as the index of a distance array of a billion ints, 4 GB, set to -1.
#include <iostream>
#include <queue>
#include <string>
#include <vector>

int main() {
    std::string start, target;
    std::cin >> start >> target;
    auto number = [](const std::string& b) {
        int n = 0;
        for (char c : b) n = n * 10 + (c == '.' ? 0 : c - '0');
        return n;
    };
    std::vector<int> dist(1000000000, -1);
    std::queue<std::string> todo;
    dist[number(start)] = 0;
    todo.push(start);
    while (!todo.empty()) {
        std::string b = todo.front();
        todo.pop();
        if (b == target) break;
        int blank = static_cast<int>(b.find('.'));
        int r = blank / 3, c = blank % 3;
        const int moves[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
        for (const auto& m : moves) {
            if (m[0] < 0 || m[0] > 2 || m[1] < 0 || m[1] > 2) continue;
            std::string next = b;
            std::swap(next[blank], next[m[0] * 3 + m[1]]);
            if (dist[number(next)] >= 0) continue;
            dist[number(next)] = dist[number(b)] + 1;
            todo.push(next);
        }
    }
    std::cout << dist[number(target)] << '\n';
}
