// Memory limit: keeps every block it allocates.
#include <vector>
#include <cstring>
int main() { std::vector<char*> keep; for (;;) { char* p = new char[1 << 20]; std::memset(p, 1, 1 << 20); keep.push_back(p); } }
