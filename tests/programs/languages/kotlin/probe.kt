// One program, every verdict: the first word of the input says what to do.
import java.io.File

fun main() {
    val words = generateSequence(::readLine).joinToString(" ").split(Regex("\\s+")).filter { it.isNotEmpty() }
    when (words[0]) {
        "add" -> println(words[1].toLong() + words[2].toLong())
        "loop" -> { var x = 0L; while (true) x++ }
        "alloc" -> { val blocks = Array(words[1].toInt()) { ByteArray(1 shl 20) { 1 } }; println(blocks.size) }
        "crash" -> throw IllegalStateException("crash on purpose")
        "peek" -> print(File(words[1]).readText())
    }
}
