def f(
  1 +
