add(A, B, C) :- C is A + B.
