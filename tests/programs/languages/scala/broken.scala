object Broken { def main(args: Array[String]): Unit = { val x: Int = "text" } }
