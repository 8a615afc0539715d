#include "add.hpp"
long add(long a, long b) { return a + b; }
