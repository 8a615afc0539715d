// Lanqiao: BFS from the start; each board numbered by its rank among all orderings.
import java.util.*;

public class Lanqiao {
    static final int[] FACT = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
    static byte[] dist = new byte[362880];

    static int cantor(String s) {
        int code = 0;
        for (int i = 0; i < 9; i++) {
            int smaller = 0;
            for (int j = i + 1; j < 9; j++) if (s.charAt(j) < s.charAt(i)) smaller++;
            code += smaller * FACT[i];
        }
        return code;
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String start = in.next(), target = in.next();
        Arrays.fill(dist, (byte) -1);
        ArrayDeque<String> q = new ArrayDeque<>();
        q.add(start);
        dist[cantor(start)] = 0;
        int[] dr = {-1, 1, 0, 0}, dc = {0, 0, -1, 1};
        while (!q.isEmpty()) {
            String cur = q.poll();
            int d = dist[cantor(cur)];
            if (cur.equals(target)) { System.out.println(d); return; }
            int blank = cur.indexOf('.');
            for (int k = 0; k < 4; k++) {
                int r = blank / 3 + dr[k], c = blank % 3 + dc[k];
                if (r < 0 || r > 2 || c < 0 || c > 2) continue;
                char[] next = cur.toCharArray();
                char t = next[blank]; next[blank] = next[r * 3 + c]; next[r * 3 + c] = t;
                String n = new String(next);
                int code = cantor(n);
                if (dist[code] < 0) { dist[code] = (byte) (d + 1); q.add(n); }
            }
        }
        System.out.println(-1);
    }
}
