// student03 - precompute all 9! boards with an int array indexed by the packed board.
import java.io.*;
import java.util.*;

public class Main {
    static int[] fact = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};

    static int code(int[] b) {
        int c = 0;
        for (int i = 0; i < 9; i++) {
            int smaller = 0;
            for (int j = i + 1; j < 9; j++) if (b[j] < b[i]) smaller++;
            c += smaller * fact[i];
        }
        return c;
    }

    public static void main(String[] args) throws IOException {
        byte[] dist = new byte[362880];
        Arrays.fill(dist, (byte) -1);
        int[][] queue = new int[362880][];
        int head = 0, tail = 0;
        int[] goal = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        queue[tail++] = goal;
        dist[code(goal)] = 0;
        int[] corners = {0, 1, 3, 4};
        while (head < tail) {
            int[] s = queue[head++];
            int d = dist[code(s)];
            for (int p : corners) {
                int[] t = s.clone();
                t[p] = s[p + 1]; t[p + 1] = s[p + 4]; t[p + 4] = s[p + 3]; t[p + 3] = s[p];
                int c = code(t);
                if (dist[c] < 0) { dist[c] = (byte) (d + 1); queue[tail++] = t; }
            }
        }
        StreamTokenizer in = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        StringBuilder out = new StringBuilder();
        int[] b = new int[9];
        while (in.nextToken() != StreamTokenizer.TT_EOF) {
            b[0] = (int) in.nval;
            for (int i = 1; i < 9; i++) { in.nextToken(); b[i] = (int) in.nval; }
            out.append(dist[code(b)]).append('\n');
        }
        System.out.print(out);
    }
}
