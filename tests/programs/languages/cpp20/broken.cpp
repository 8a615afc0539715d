int main() { auto [a, b] = 1; }
