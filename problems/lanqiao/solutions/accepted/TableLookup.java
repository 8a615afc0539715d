// Lanqiao: build the whole distance table from the target once (every board the target
// can reach, indexed by its rank among the 9! orderings), then look the start up in it.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.Arrays;
import java.util.StringTokenizer;

public class TableLookup {
    static final int[] FACT = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};

    static int rank(byte[] b) {
        int r = 0;
        for (int i = 0; i < 9; i++) {
            int smaller = 0;
            for (int j = i + 1; j < 9; j++) if (b[j] < b[i]) smaller++;
            r += smaller * FACT[8 - i];
        }
        return r;
    }

    static void unrank(int r, byte[] out) {
        boolean[] used = new boolean[9];
        for (int i = 0; i < 9; i++) {
            int k = r / FACT[8 - i];
            r %= FACT[8 - i];
            for (int v = 0; v < 9; v++) {
                if (used[v]) continue;
                if (k-- == 0) { out[i] = (byte) v; used[v] = true; break; }
            }
        }
    }

    static byte[] parse(String s) {
        byte[] b = new byte[9];
        for (int i = 0; i < 9; i++) b[i] = (byte) (s.charAt(i) == '.' ? 0 : s.charAt(i) - '0');
        return b;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        for (String line; (line = in.readLine()) != null; ) all.append(line).append(' ');
        StringTokenizer tok = new StringTokenizer(all.toString());
        byte[] start = parse(tok.nextToken());
        byte[] target = parse(tok.nextToken());
        byte[] dist = new byte[362880];
        Arrays.fill(dist, (byte) -1);
        int[] queue = new int[181440];
        int head = 0, tail = 0;
        int first = rank(target);
        dist[first] = 0;
        queue[tail++] = first;
        byte[] b = new byte[9];
        while (head < tail) {
            int r = queue[head++];
            unrank(r, b);
            int blank = 0;
            while (b[blank] != 0) blank++;
            int[] moves = {blank - 3, blank + 3, blank % 3 > 0 ? blank - 1 : -1, blank % 3 < 2 ? blank + 1 : -1};
            for (int n : moves) {
                if (n < 0 || n > 8) continue;
                b[blank] = b[n];
                b[n] = 0;
                int next = rank(b);
                if (dist[next] < 0) {
                    dist[next] = (byte) (dist[r] + 1);
                    queue[tail++] = next;
                }
                b[n] = b[blank];
                b[blank] = 0;
            }
        }
        System.out.println(dist[rank(start)]);
    }
}
