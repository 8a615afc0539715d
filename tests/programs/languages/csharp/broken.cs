class Broken { static void Main() { int x = "text"; } }
