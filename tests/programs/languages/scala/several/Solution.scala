object Solution { def main(args: Array[String]): Unit = { val v = scala.io.StdIn.readLine().split(" ").map(_.toInt); println(Adder.add(v(0), v(1))) } }
