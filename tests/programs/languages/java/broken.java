public class Broken { void f() { int x = "text"; } }
