// Compilation error: a missing semicolon.
public class Main { public static void main(String[] a) { int x = 1 System.out.println(x); } }
