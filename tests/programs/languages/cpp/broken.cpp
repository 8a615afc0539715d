int main() { undeclared_name(); }
