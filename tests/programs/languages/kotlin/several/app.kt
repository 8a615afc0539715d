fun main() { val (a, b) = readLine()!!.split(" ").map { it.toInt() }; println(add(a, b)) }
