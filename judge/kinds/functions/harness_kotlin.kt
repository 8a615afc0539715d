// The judge's harness of a Kotlin function (Main.kt in the box): one call's arguments (JSON on
// stdin) in, the student's function called by reflection with Kotlin's own types (a method of
// class Solution, or a top-level function of solution.kt), and what came of it written after
// a mark as the last line of stdout (harness_python.py's protocol). A class problem's scenario
// makes the student's class and calls its methods in turn. The expected value is never here:
// the judge compares outside the sandbox.
import java.io.FileDescriptor
import java.io.FileOutputStream
import java.lang.reflect.Constructor
import java.lang.reflect.Executable
import java.lang.reflect.InvocationTargetException
import java.lang.reflect.Method
import java.lang.reflect.Modifier
import java.lang.reflect.ParameterizedType
import java.lang.reflect.Type
import java.lang.reflect.WildcardType

private class JudgeNumber(val digits: String)

private class JudgeUnserializable(what: String) : Exception(what)

private class JudgeReader(val text: String) {
    var at = 0

    fun skip() {
        while (text[at].isWhitespace()) at++
    }

    fun value(): Any? {
        skip()
        when (text[at]) {
            'n' -> { at += 4; return null }
            't' -> { at += 4; return true }
            'f' -> { at += 5; return false }
            '"' -> return string()
            '[' -> {
                val items = ArrayList<Any?>()
                at++; skip()
                if (text[at] == ']') { at++; return items }
                while (true) { items.add(value()); skip(); if (text[at++] == ']') return items }
            }
            '{' -> {
                val fields = LinkedHashMap<String, Any?>()
                at++; skip()
                if (text[at] == '}') { at++; return fields }
                while (true) {
                    skip(); val key = string(); skip(); at++
                    fields[key] = value(); skip()
                    if (text[at++] == '}') return fields
                }
            }
        }
        val start = at
        while (at < text.length && "+-.eE0123456789".indexOf(text[at]) >= 0) at++
        return JudgeNumber(text.substring(start, at))
    }

    fun string(): String {
        val out = StringBuilder()
        at++
        while (text[at] != '"') {
            val c = text[at++]
            if (c != '\\') { out.append(c); continue }
            when (val e = text[at++]) {
                'n' -> out.append('\n')
                't' -> out.append('\t')
                'r' -> out.append('\r')
                'b' -> out.append('\b')
                'f' -> out.append('\u000c')
                'u' -> { out.append(text.substring(at, at + 4).toInt(16).toChar()); at += 4 }
                else -> out.append(e)
            }
        }
        at++
        return out.toString()
    }
}

private fun judgeAs(value: Any?, type: Type): Any? {
    if (value == null) return null
    if (type is WildcardType) return judgeAs(value, type.upperBounds[0])
    if (type is ParameterizedType) {
        val raw = type.rawType as Class<*>
        val inner = type.actualTypeArguments
        if (Map::class.java.isAssignableFrom(raw)) {
            val out = LinkedHashMap<String, Any?>()
            @Suppress("UNCHECKED_CAST")
            for ((k, v) in value as Map<String, Any?>) out[k] = judgeAs(v, inner[1])
            return out
        }
        return (value as List<*>).map { judgeAs(it, inner[0]) }
    }
    val kind = type as Class<*>
    val digits = (value as? JudgeNumber)?.digits
    return when {
        kind == Int::class.javaPrimitiveType || kind == Int::class.javaObjectType -> digits!!.toInt()
        kind == Long::class.javaPrimitiveType || kind == Long::class.javaObjectType -> digits!!.toLong()
        kind == Double::class.javaPrimitiveType || kind == Double::class.javaObjectType -> digits!!.toDouble()
        kind == Boolean::class.javaPrimitiveType || kind == Boolean::class.javaObjectType -> value
        kind == String::class.java -> value
        kind.isArray -> {
            val items = value as List<*>
            val out = java.lang.reflect.Array.newInstance(kind.componentType, items.size)
            for (i in items.indices) java.lang.reflect.Array.set(out, i, judgeAs(items[i], kind.componentType))
            out
        }
        else -> throw IllegalArgumentException("no JSON type for a parameter of type " + kind.name)
    }
}

private fun judgeQuote(s: String): String {
    val out = StringBuilder("\"")
    for (c in s) {
        when {
            c == '"' -> out.append("\\\"")
            c == '\\' -> out.append("\\\\")
            c.toInt() < 32 -> out.append(String.format("\\u%04x", c.toInt()))
            else -> out.append(c)
        }
    }
    return out.append('"').toString()
}

private fun judgeDump(v: Any?, depth: Int): String {
    if (depth > 1000) throw JudgeUnserializable("a value nested too deep")
    return when (v) {
        null, is Unit -> "null"
        is Boolean -> v.toString()
        is Int, is Long, is Short, is Byte -> v.toString()
        is Double, is Float -> {
            val d = (v as Number).toDouble()
            if (d.isNaN() || d.isInfinite()) throw JudgeUnserializable("float (not finite)")
            d.toString()
        }
        is String -> judgeQuote(v)
        is Char -> judgeQuote(v.toString())
        is IntArray -> v.joinToString(",", "[", "]")
        is LongArray -> v.joinToString(",", "[", "]")
        is BooleanArray -> v.joinToString(",", "[", "]")
        is DoubleArray -> v.toList().joinToString(",", "[", "]") { judgeDump(it, depth + 1) }
        is Array<*> -> v.joinToString(",", "[", "]") { judgeDump(it, depth + 1) }
        is Map<*, *> -> v.entries.joinToString(",", "{", "}") { (k, x) ->
            if (k !is String) throw JudgeUnserializable("a map with keys of " + (k?.javaClass?.simpleName ?: "null"))
            judgeQuote(k) + ":" + judgeDump(x, depth + 1)
        }
        is Iterable<*> -> v.joinToString(",", "[", "]") { judgeDump(it, depth + 1) }
        else -> throw JudgeUnserializable(v.javaClass.simpleName)
    }
}

private val judgeErr = FileOutputStream(FileDescriptor.err) // taken before the student's code runs

private fun judgeRaised(error: Throwable): String {
    // The heap's limit (-Xmx) reached is the memory limit's verdict, not an exception the call
    // raised: the JVM's own last words on stderr, as a program's are (memory_marks).
    if (error is OutOfMemoryError) {
        try {
            judgeErr.write(("java.lang.OutOfMemoryError: " + error.message + "\n").toByteArray(Charsets.UTF_8))
        } catch (ignored: Exception) {
            // the exit says it all the same
        }
        Runtime.getRuntime().halt(3)
    }
    val message = (error.message ?: "").take(500)
    return "{\"raised\":" + judgeQuote(error.javaClass.simpleName) + ",\"message\":" + judgeQuote(message) + "}"
}

private var judgeMade: Any? = null // the object of a class's scenario

// What one call came to: its value, its exception, or a value of no JSON type.
private fun judgeOutcome(found: Executable, self: Any?, given: List<Any?>): String {
    val result: Any?
    try {
        val types = found.genericParameterTypes
        val values = Array(given.size) { judgeAs(given[it], types[it]) }
        found.isAccessible = true
        if (found is Constructor<*>) {
            judgeMade = found.newInstance(*values)
            return "{\"returned\":null}"
        }
        val method = found as Method
        result = method.invoke(if (Modifier.isStatic(method.modifiers)) null else self, *values)
        if (method.returnType == Void.TYPE) return "{\"returned\":null}"
    } catch (error: InvocationTargetException) {
        return judgeRaised(error.cause ?: error)
    } catch (error: Throwable) {
        return judgeRaised(error)
    }
    return try {
        "{\"returned\":" + judgeDump(result, 0) + "}"
    } catch (error: JudgeUnserializable) {
        "{\"unserializable\":" + judgeQuote(error.message ?: "") + "}"
    } catch (error: StackOverflowError) {
        "{\"unserializable\":\"a value nested too deep\"}"
    }
}

private fun judgeNamed(owner: Class<*>, name: String?, count: Int): Executable? {
    if (name == null) return owner.declaredConstructors.firstOrNull { it.parameterCount == count }
    return owner.declaredMethods.lastOrNull { it.name == name && it.parameterCount == count }
}

private fun judgeScenario(owner: Class<*>, steps: List<Any?>): String {
    val said = ArrayList<String>()
    for ((i, raw) in steps.withIndex()) {
        val step = raw as List<*>
        val given = step.subList(1, step.size)
        val found = judgeNamed(owner, if (i == 0) null else step[0] as String, given.size)
        said.add(
            found?.let { judgeOutcome(it, judgeMade, given) }
                ?: ("{\"raised\":\"NoSuchMethodException\",\"message\":" + judgeQuote("${step[0]} with ${given.size} parameter(s)") + "}")
        )
        if (judgeMade == null) break // the constructor raised: the scenario ends there
    }
    return "{\"steps\":[" + said.joinToString(",") + "]}"
}

private fun judgeReport(out: FileOutputStream, result: String): Nothing {
    System.out.flush()
    try {
        out.write(("\n\u001ejudge-result\u001e " + result + "\n").toByteArray(Charsets.UTF_8))
        out.flush()
    } catch (ignored: Exception) {
        // its stdout is the student's to break
    }
    Runtime.getRuntime().halt(0)
    throw IllegalStateException("halted")
}

private fun judgeClass(name: String): Class<*>? =
    try { Class.forName(name) } catch (error: ClassNotFoundException) { null }

fun main() {
    val out = FileOutputStream(FileDescriptor.out) // taken before the student's code runs
    val call = JudgeReader(System.`in`.readBytes().toString(Charsets.UTF_8)).value() as List<*>
    val asked = java.io.File("function.txt").readText().split("\n")
    val isClass = asked.size > 1 && asked[1].trim() == "class"
    val name = asked[0].trim()
    if (isClass) {
        val owner = judgeClass(name) ?: judgeReport(out, "{\"missing\":" + judgeQuote(name) + "}")
        judgeReport(out, judgeScenario(owner, call))
    }
    // A method of class Solution, or a top-level function of solution.kt (class SolutionKt).
    val found = listOfNotNull(judgeClass("Solution"), judgeClass("SolutionKt"))
        .mapNotNull { judgeNamed(it, name, call.size) }.firstOrNull()
        ?: judgeReport(out, "{\"missing\":" + judgeQuote(name) + "}")
    var self: Any? = null
    if (!Modifier.isStatic(found.modifiers)) {
        try {
            val made = found.declaringClass.getDeclaredConstructor()
            made.isAccessible = true
            self = made.newInstance()
        } catch (error: InvocationTargetException) {
            judgeReport(out, judgeRaised(error.cause ?: error))
        } catch (error: Throwable) {
            judgeReport(out, judgeRaised(error))
        }
    }
    judgeReport(out, judgeOutcome(found, self, call))
}
