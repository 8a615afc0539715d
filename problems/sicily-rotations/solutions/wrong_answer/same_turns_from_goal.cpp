// Nine digits, wrong: the table is searched from the ordered frame with the clockwise turn
// itself, which gives the distance from the goal to a frame, not back; the two differ.
#include <array>
#include <iostream>
#include <unordered_map>
#include <vector>

using Frame = std::array<int, 9>;

static int number(const Frame& f) {
    int n = 0;
    for (int t : f) n = n * 10 + t;
    return n;
}

int main() {
    const int square[4][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
    Frame ordered{1, 2, 3, 4, 5, 6, 7, 8, 9};
    std::unordered_map<int, int> dist{{number(ordered), 0}};
    dist.reserve(1 << 19);
    std::vector<Frame> todo{ordered};
    for (std::size_t head = 0; head < todo.size(); ++head) {
        const Frame f = todo[head];
        const int d = dist[number(f)];
        for (const auto& q : square) {
            Frame next = f;
            next[q[1]] = f[q[0]];
            next[q[2]] = f[q[1]];
            next[q[3]] = f[q[2]];
            next[q[0]] = f[q[3]];
            if (dist.emplace(number(next), d + 1).second) todo.push_back(next);
        }
    }
    Frame f;
    while (std::cin >> f[0]) {
        for (int i = 1; i < 9; ++i) std::cin >> f[i];
        std::cout << dist[number(f)] << '\n';
    }
}
