// Nine digits: frames are packed four bits a tile into one 64-bit key, and one breadth-first
// search from the ordered frame with counter-clockwise turns stores every distance in an
// open-addressing hash table (a million slots for the 9! frames); each case is one lookup.
#include <cstdint>
#include <iostream>
#include <vector>

namespace {

constexpr int kSquare[4][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
constexpr std::size_t kSlots = std::size_t{1} << 20;

int tile(std::uint64_t key, int cell) { return static_cast<int>((key >> (4 * cell)) & 15); }

std::uint64_t with(std::uint64_t key, int cell, int value) {
    return (key & ~(std::uint64_t{15} << (4 * cell))) | (std::uint64_t(value) << (4 * cell));
}

std::uint64_t turn_back(std::uint64_t key, const int* q) {
    const int first = tile(key, q[0]);
    key = with(key, q[0], tile(key, q[1]));
    key = with(key, q[1], tile(key, q[2]));
    key = with(key, q[2], tile(key, q[3]));
    return with(key, q[3], first);
}

class Table {
  public:
    Table() : keys_(kSlots, 0), dist_(kSlots, -1) {}

    // The slot of a key: where it is, or the empty slot where it belongs (key 0 is no frame).
    std::size_t slot(std::uint64_t key) const {
        std::size_t i = (key * 0x9E3779B97F4A7C15ull) >> 44;
        while (keys_[i] != 0 && keys_[i] != key) i = (i + 1) & (kSlots - 1);
        return i;
    }
    bool insert(std::uint64_t key, int d) {
        const std::size_t i = slot(key);
        if (keys_[i] == key) return false;
        keys_[i] = key;
        dist_[i] = static_cast<signed char>(d);
        return true;
    }
    int get(std::uint64_t key) const { return dist_[slot(key)]; }

  private:
    std::vector<std::uint64_t> keys_;
    std::vector<signed char> dist_;
};

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    std::uint64_t ordered = 0;
    for (int cell = 0; cell < 9; ++cell) ordered = with(ordered, cell, cell + 1);
    Table table;
    table.insert(ordered, 0);
    std::vector<std::uint64_t> queue{ordered};
    std::vector<signed char> depth{0};
    queue.reserve(362880);
    depth.reserve(362880);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        for (const auto& q : kSquare) {
            const std::uint64_t next = turn_back(queue[head], q);
            if (table.insert(next, depth[head] + 1)) {
                queue.push_back(next);
                depth.push_back(static_cast<signed char>(depth[head] + 1));
            }
        }
    }
    int value;
    while (std::cin >> value) {
        std::uint64_t key = with(0, 0, value);
        for (int cell = 1; cell < 9; ++cell) {
            std::cin >> value;
            key = with(key, cell, value);
        }
        std::cout << table.get(key) << '\n';
    }
}
