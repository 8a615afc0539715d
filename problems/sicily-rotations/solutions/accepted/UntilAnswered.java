// Nine digits: read every case first, then run one breadth-first search from the ordered
// frame (counter-clockwise turns, frames indexed by rank) only until every asked frame has
// its distance; a file of easy cases stops long before all 9! frames are seen.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.StreamTokenizer;
import java.util.ArrayList;
import java.util.Arrays;

public class UntilAnswered {
    static final int[] FACT = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};
    static final int[][] SQUARE = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};

    static int rank(int[] b) {
        int r = 0;
        for (int i = 0; i < 9; i++) {
            int smaller = 0;
            for (int j = i + 1; j < 9; j++) if (b[j] < b[i]) smaller++;
            r += smaller * FACT[8 - i];
        }
        return r;
    }

    static void unrank(int r, int[] out) {
        boolean[] used = new boolean[9];
        for (int i = 0; i < 9; i++) {
            int k = r / FACT[8 - i];
            r %= FACT[8 - i];
            for (int v = 0; v < 9; v++) {
                if (used[v]) continue;
                if (k-- == 0) { out[i] = v; used[v] = true; break; }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        StreamTokenizer in = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        ArrayList<Integer> asked = new ArrayList<>();
        int[] frame = new int[9];
        outer:
        while (true) {
            for (int i = 0; i < 9; i++) {
                if (in.nextToken() == StreamTokenizer.TT_EOF) break outer;
                frame[i] = (int) in.nval - 1;
            }
            asked.add(rank(frame));
        }
        byte[] dist = new byte[362880];
        Arrays.fill(dist, (byte) -1);
        boolean[] wanted = new boolean[362880];
        int open = 0;
        for (int r : asked) if (!wanted[r]) { wanted[r] = true; open++; }
        int[] queue = new int[362880];
        int head = 0, tail = 0;
        int start = rank(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8});
        dist[start] = 0;
        queue[tail++] = start;
        if (wanted[start]) open--;
        int[] b = new int[9];
        while (head < tail && open > 0) {
            int r = queue[head++];
            unrank(r, b);
            for (int[] q : SQUARE) {
                int t = b[q[0]];
                b[q[0]] = b[q[1]]; b[q[1]] = b[q[2]]; b[q[2]] = b[q[3]]; b[q[3]] = t;
                int next = rank(b);
                if (dist[next] < 0) {
                    dist[next] = (byte) (dist[r] + 1);
                    queue[tail++] = next;
                    if (wanted[next]) open--;
                }
                t = b[q[3]];
                b[q[3]] = b[q[2]]; b[q[2]] = b[q[1]]; b[q[1]] = b[q[0]]; b[q[0]] = t;
            }
        }
        StringBuilder out = new StringBuilder();
        for (int r : asked) out.append(dist[r]).append('\n');
        System.out.print(out);
    }
}
