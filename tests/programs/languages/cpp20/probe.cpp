// C++20 only: std::span and designated initialisers; every verdict by the first word.
#include <fstream>
#include <iostream>
#include <span>
#include <string>
#include <vector>
struct Pair { long long a, b; };
int main() {
    std::string mode;
    std::cin >> mode;
    if (mode == "add") { Pair p{.a = 0, .b = 0}; std::cin >> p.a >> p.b; std::cout << p.a + p.b << "\n"; }
    else if (mode == "loop") { volatile unsigned long x = 0; for (;;) x++; }
    else if (mode == "alloc") { long n; std::cin >> n; std::vector<char> v(n << 20, 1); std::span<char> s(v); std::cout << int(s[n]) << "\n"; }
    else if (mode == "crash") { std::vector<int> v; return v.at(3); }
    else if (mode == "peek") { std::string path; std::cin >> path; std::ifstream f(path); if (!f) return 4; std::cout << f.rdbuf(); }
}
