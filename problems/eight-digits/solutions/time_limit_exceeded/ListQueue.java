// Eight digits, too slow: the queue is an ArrayList emptied with remove(0) and the boards
// seen are an ArrayList searched with contains(), both linear, so hard grids never end.
import java.util.ArrayList;
import java.util.Scanner;

public class ListQueue {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        StringBuilder start = new StringBuilder();
        for (int i = 0; i < 9; i++) start.append(in.next());
        ArrayList<String> queue = new ArrayList<>();
        ArrayList<Integer> depth = new ArrayList<>();
        ArrayList<String> seen = new ArrayList<>();
        queue.add(start.toString());
        depth.add(0);
        seen.add(start.toString());
        while (!queue.isEmpty()) {
            String b = queue.remove(0);
            int d = depth.remove(0);
            if (b.equals("12345678x")) {
                System.out.println(d);
                return;
            }
            int blank = b.indexOf('x');
            int[] moves = {blank - 3, blank + 3, blank % 3 > 0 ? blank - 1 : -1, blank % 3 < 2 ? blank + 1 : -1};
            for (int n : moves) {
                if (n < 0 || n > 8) continue;
                char[] c = b.toCharArray();
                c[blank] = c[n];
                c[n] = 'x';
                String next = new String(c);
                if (!seen.contains(next)) {
                    seen.add(next);
                    queue.add(next);
                    depth.add(d + 1);
                }
            }
        }
        System.out.println(-1);
    }
}
