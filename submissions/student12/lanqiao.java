// student12 - does not compile: an int compared with a String, and a missing semicolon.
import java.util.*;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String start = in.next(), target = in.next();
        int steps = 0
        if (steps == target) System.out.println(steps);
    }
}
