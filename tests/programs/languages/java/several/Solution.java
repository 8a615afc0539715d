import java.util.Scanner;
public class Solution { public static void main(String[] x) { Scanner s = new Scanner(System.in); System.out.println(Adder.add(s.nextInt(), s.nextInt())); } }
