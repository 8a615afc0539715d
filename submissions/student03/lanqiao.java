// student03 - BFS with a HashMap of distances; states as strings.
import java.util.*;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String start = in.next(), target = in.next();
        Map<String, Integer> dist = new HashMap<>();
        ArrayDeque<String> queue = new ArrayDeque<>();
        dist.put(start, 0);
        queue.add(start);
        int[][] adj = {{1, 3}, {0, 2, 4}, {1, 5}, {0, 4, 6}, {1, 3, 5, 7}, {2, 4, 8}, {3, 7}, {4, 6, 8}, {5, 7}};
        while (!queue.isEmpty()) {
            String cur = queue.poll();
            int d = dist.get(cur);
            if (cur.equals(target)) { System.out.println(d); return; }
            int b = cur.indexOf('.');
            for (int n : adj[b]) {
                char[] c = cur.toCharArray();
                c[b] = c[n];
                c[n] = '.';
                String next = new String(c);
                if (!dist.containsKey(next)) { dist.put(next, d + 1); queue.add(next); }
            }
        }
        System.out.println(-1);
    }
}
