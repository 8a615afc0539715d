// student10 - a queue in a fixed array of 100000 boards: enough for the samples,
// not for a search that has to visit all 181440 reachable boards.
import java.util.*;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 9; i++) sb.append(in.next());
        String start = sb.toString(), goal = "12345678x";
        String[] queue = new String[100000];
        int[] depth = new int[100000];
        HashSet<String> seen = new HashSet<>();
        int head = 0, tail = 0;
        queue[tail] = start; depth[tail++] = 0; seen.add(start);
        while (head < tail) {
            String s = queue[head];
            int d = depth[head++];
            if (s.equals(goal)) { System.out.println(d); return; }
            int x = s.indexOf('x');
            int[] moves = {x - 3, x + 3, x % 3 > 0 ? x - 1 : -1, x % 3 < 2 ? x + 1 : -1};
            for (int n : moves) {
                if (n < 0 || n > 8) continue;
                char[] c = s.toCharArray();
                c[x] = c[n]; c[n] = 'x';
                String t = new String(c);
                if (seen.add(t)) { queue[tail] = t; depth[tail++] = d + 1; }
            }
        }
        System.out.println(-1);
    }
}
