object Adder { def add(a: Int, b: Int) = a + b }
