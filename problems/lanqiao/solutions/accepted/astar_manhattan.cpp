// Lanqiao: A* towards the target with the Manhattan distance of the tiles as estimate (it
// never overestimates, so the first time the target leaves the queue its cost is least).
// A parity test answers the unreachable half at once instead of exhausting it.
#include <array>
#include <cstdlib>
#include <iostream>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

int inversions(const std::string& b) {
    int count = 0;
    for (int i = 0; i < 9; ++i)
        for (int j = i + 1; j < 9; ++j)
            if (b[i] != '.' && b[j] != '.' && b[j] < b[i]) ++count;
    return count;
}

}  // namespace

int main() {
    std::string start, target;
    if (!(std::cin >> start >> target)) return 1;
    if (inversions(start) % 2 != inversions(target) % 2) {
        std::cout << -1 << '\n';
        return 0;
    }
    std::array<int, 128> home{};
    for (int i = 0; i < 9; ++i) home[static_cast<unsigned char>(target[i])] = i;
    auto estimate = [&](const std::string& b) {
        int sum = 0;
        for (int i = 0; i < 9; ++i) {
            if (b[i] == '.') continue;
            int h = home[static_cast<unsigned char>(b[i])];
            sum += std::abs(i / 3 - h / 3) + std::abs(i % 3 - h % 3);
        }
        return sum;
    };
    using Item = std::pair<int, std::string>;  // (cost + estimate, board)
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    std::unordered_map<std::string, int> cost;
    cost[start] = 0;
    open.push({estimate(start), start});
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    while (!open.empty()) {
        auto [f, board] = open.top();
        open.pop();
        int g = cost[board];
        if (f > g + estimate(board)) continue;  // a stale entry: a cheaper way was found later
        if (board == target) {
            std::cout << g << '\n';
            return 0;
        }
        int blank = static_cast<int>(board.find('.'));
        for (int k = 0; k < 4; ++k) {
            int r = blank / 3 + dr[k], c = blank % 3 + dc[k];
            if (r < 0 || r > 2 || c < 0 || c > 2) continue;
            std::string next = board;
            std::swap(next[blank], next[r * 3 + c]);
            auto it = cost.find(next);
            if (it != cost.end() && it->second <= g + 1) continue;
            cost[next] = g + 1;
            open.push({g + 1 + estimate(next), next});
        }
    }
    std::cout << -1 << '\n';
    return 0;
}
