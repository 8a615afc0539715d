// Lanqiao, too slow: the boards already seen are kept in a vector and searched one by
// one, so every new board costs a scan of all the others (quadratic in the boards seen).
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

int main() {
    std::string start, target;
    std::cin >> start >> target;
    std::vector<std::string> seen{start};
    std::vector<int> depth{0};
    for (std::size_t head = 0; head < seen.size(); ++head) {
        std::string b = seen[head];
        if (b == target) {
            std::cout << depth[head] << '\n';
            return 0;
        }
        int blank = static_cast<int>(b.find('.'));
        int r = blank / 3, c = blank % 3;
        const int moves[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
        for (const auto& m : moves) {
            if (m[0] < 0 || m[0] > 2 || m[1] < 0 || m[1] > 2) continue;
            std::string next = b;
            std::swap(next[blank], next[m[0] * 3 + m[1]]);
            if (std::find(seen.begin(), seen.end(), next) != seen.end()) continue;
            seen.push_back(next);
            depth.push_back(depth[head] + 1);
        }
    }
    std::cout << -1 << '\n';
}
