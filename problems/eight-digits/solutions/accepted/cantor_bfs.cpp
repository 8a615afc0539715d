// Eight digits: breadth-first search from the given grid, boards numbered by their rank
// among the 9! orderings (Cantor expansion) so that "seen" is one vector of bytes.
#include <array>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace {

using Board = std::array<int, 9>;
constexpr int kFact[9] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};

int rank_of(const Board& b) {
    int r = 0;
    for (int i = 0; i < 9; ++i) {
        int smaller = 0;
        for (int j = i + 1; j < 9; ++j) smaller += b[j] < b[i];
        r += smaller * kFact[8 - i];
    }
    return r;
}

}  // namespace

int main() {
    Board start{};
    for (int& cell : start) {
        std::string token;
        if (!(std::cin >> token)) return 1;
        cell = token == "x" ? 9 : token[0] - '0';
    }
    const Board goal{1, 2, 3, 4, 5, 6, 7, 8, 9};
    const int goal_rank = rank_of(goal);
    std::vector<char> seen(362880, 0);
    std::vector<std::pair<Board, int>> queue{{start, 0}};
    seen[rank_of(start)] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const Board b = queue[head].first;
        const int d = queue[head].second;
        if (rank_of(b) == goal_rank) {
            std::cout << d << '\n';
            return 0;
        }
        int blank = 0;
        while (b[blank] != 9) ++blank;
        const int r = blank / 3, c = blank % 3;
        const int moves[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
        for (const auto& m : moves) {
            if (m[0] < 0 || m[0] > 2 || m[1] < 0 || m[1] > 2) continue;
            Board next = b;
            std::swap(next[blank], next[m[0] * 3 + m[1]]);
            const int id = rank_of(next);
            if (seen[id]) continue;
            seen[id] = 1;
            queue.push_back({next, d + 1});
        }
    }
    std::cout << -1 << '\n';
}
