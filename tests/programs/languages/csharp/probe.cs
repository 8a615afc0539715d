// One program, every verdict: the first word of the input says what to do.
using System;
using System.IO;

class Probe {
    static void Main() {
        var words = Console.In.ReadToEnd().Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
        if (words[0] == "add") Console.WriteLine(long.Parse(words[1]) + long.Parse(words[2]));
        else if (words[0] == "loop") { long x = 0; while (true) x++; }
        else if (words[0] == "alloc") { int n = int.Parse(words[1]); var blocks = new byte[n][]; for (int i = 0; i < n; i++) { blocks[i] = new byte[1 << 20]; for (int j = 0; j < blocks[i].Length; j += 4096) blocks[i][j] = 1; } Console.WriteLine(blocks.Length); }
        else if (words[0] == "crash") throw new InvalidOperationException("crash on purpose");
        else if (words[0] == "peek") Console.Write(File.ReadAllText(words[1]));
    }
}
