// One program, every verdict: the first word of the input says what to do.
object Probe {
  def main(args: Array[String]): Unit = {
    val words = scala.io.Source.stdin.mkString.split("\\s+").filter(_.nonEmpty)
    words(0) match {
      case "add" => println(words(1).toLong + words(2).toLong)
      case "loop" => { var x = 0L; while (true) x += 1 }
      case "alloc" => {
        val blocks = Array.fill(words(1).toInt) { val block = new Array[Byte](1 << 20); java.util.Arrays.fill(block, 1.toByte); block }
        println(blocks.length)
      }
      case "crash" => throw new IllegalStateException("crash on purpose")
      case "peek" => print(scala.io.Source.fromFile(words(1)).mkString)
      case _ => ()
    }
  }
}
