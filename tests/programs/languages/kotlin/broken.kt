fun main() { val x: Int = "text" }
