// Lanqiao, crashes: the queue is an array of 100000 boards with no check, but a search
// can enqueue up to 181440 of them, so deep or unreachable cases run off its end.
import java.util.HashSet;
import java.util.Scanner;

public class FixedQueue {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String start = in.next(), target = in.next();
        String[] queue = new String[100000];
        int[] depth = new int[100000];
        HashSet<String> seen = new HashSet<>();
        int head = 0, tail = 0;
        queue[tail] = start;
        depth[tail++] = 0;
        seen.add(start);
        while (head < tail) {
            String b = queue[head];
            int d = depth[head++];
            if (b.equals(target)) {
                System.out.println(d);
                return;
            }
            int blank = b.indexOf('.');
            int[] moves = {blank - 3, blank + 3, blank % 3 > 0 ? blank - 1 : -1, blank % 3 < 2 ? blank + 1 : -1};
            for (int n : moves) {
                if (n < 0 || n > 8) continue;
                char[] c = b.toCharArray();
                c[blank] = c[n];
                c[n] = '.';
                String next = new String(c);
                if (seen.add(next)) {
                    queue[tail] = next;
                    depth[tail++] = d + 1;
                }
            }
        }
        System.out.println(-1);
    }
}
