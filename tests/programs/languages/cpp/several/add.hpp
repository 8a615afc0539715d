#pragma once
long add(long a, long b);
