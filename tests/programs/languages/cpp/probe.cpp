// One program, every verdict: the first word of the input says what to do.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>
int main() {
    std::string mode;
    std::cin >> mode;
    if (mode == "add") { long long a, b; std::cin >> a >> b; std::cout << a + b << "\n"; }
    else if (mode == "loop") { volatile unsigned long x = 0; for (;;) x++; }
    else if (mode == "alloc") { long n; std::cin >> n; std::vector<char> v(n << 20, 1); std::cout << int(v[n]) << "\n"; }
    else if (mode == "crash") { std::vector<int> v; return v.at(3); }
    else if (mode == "peek") { std::string path; std::cin >> path; std::ifstream f(path); if (!f) return 4; std::cout << f.rdbuf(); }
}
