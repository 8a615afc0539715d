// Nine digits, too much memory: the frame read as the number 123456789 indexes a vector of
// a billion ints (4 GB), all set to -1 before the search starts.
#include <iostream>
#include <vector>

int main() {
    std::vector<int> dist(1000000000, -1);
    const int square[4][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
    auto number = [](const int* f) {
        int n = 0;
        for (int i = 0; i < 9; ++i) n = n * 10 + f[i];
        return n;
    };
    std::vector<std::vector<int>> queue{{1, 2, 3, 4, 5, 6, 7, 8, 9}};
    dist[123456789] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        std::vector<int> f = queue[head];
        for (const auto& q : square) {
            std::vector<int> next = f;
            next[q[0]] = f[q[1]];
            next[q[1]] = f[q[2]];
            next[q[2]] = f[q[3]];
            next[q[3]] = f[q[0]];
            if (dist[number(next.data())] >= 0) continue;
            dist[number(next.data())] = dist[number(f.data())] + 1;
            queue.push_back(next);
        }
    }
    int f[9];
    while (std::cin >> f[0]) {
        for (int i = 1; i < 9; ++i) std::cin >> f[i];
        std::cout << dist[number(f)] << '\n';
    }
}
