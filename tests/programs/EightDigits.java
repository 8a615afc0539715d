// Accepted (eight-digits): BFS from the goal over boards packed in a long, then a lookup.
import java.io.*;
import java.util.*;

public class Solver {
    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        in.resetSyntax();
        in.wordChars(33, 126);
        in.whitespaceChars(0, 32);
        int[] start = new int[9];
        for (int i = 0; i < 9; i++) {
            in.nextToken();
            start[i] = in.sval.equals("x") ? 0 : Integer.parseInt(in.sval);
        }
        int goal = pack(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 0});
        int from = pack(start);
        HashMap<Integer, Integer> dist = new HashMap<>();
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        dist.put(from, 0);
        queue.add(from);
        int[] dr = {-1, 1, 0, 0}, dc = {0, 0, -1, 1};
        while (!queue.isEmpty()) {
            int s = queue.poll();
            int d = dist.get(s);
            if (s == goal) { System.out.println(d); return; }
            int[] b = unpack(s);
            int blank = 0;
            while (b[blank] != 0) blank++;
            for (int k = 0; k < 4; k++) {
                int r = blank / 3 + dr[k], c = blank % 3 + dc[k];
                if (r < 0 || r > 2 || c < 0 || c > 2) continue;
                int[] n = b.clone();
                n[blank] = n[r * 3 + c];
                n[r * 3 + c] = 0;
                int key = pack(n);
                if (!dist.containsKey(key)) { dist.put(key, d + 1); queue.add(key); }
            }
        }
        System.out.println(-1);
    }

    static int pack(int[] b) { int v = 0; for (int x : b) v = v * 9 + x; return v; }

    static int[] unpack(int v) { int[] b = new int[9]; for (int i = 8; i >= 0; i--) { b[i] = v % 9; v /= 9; } return b; }
}
