// Eight digits: bidirectional breadth-first search between the grid and the goal, a level
// at a time from the smaller frontier. Boards are packed as base-9 ints (blank = 0).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.StringTokenizer;

public class Bidirectional {
    static final int[] POW = new int[9];
    static {
        POW[8] = 1;
        for (int i = 7; i >= 0; i--) POW[i] = POW[i + 1] * 9;
    }

    static int digit(int board, int cell) { return board / POW[cell] % 9; }

    static int blankOf(int board) {
        for (int i = 0; i < 9; i++) if (digit(board, i) == 0) return i;
        throw new IllegalStateException();
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        for (String line; (line = in.readLine()) != null; ) all.append(line).append(' ');
        StringTokenizer tok = new StringTokenizer(all.toString());
        int start = 0, inversions = 0;
        int[] tiles = new int[9];
        for (int i = 0; i < 9; i++) {
            String t = tok.nextToken();
            tiles[i] = t.equals("x") ? 0 : Integer.parseInt(t);
            start += tiles[i] * POW[i];
        }
        for (int i = 0; i < 9; i++)
            for (int j = i + 1; j < 9; j++)
                if (tiles[i] > 0 && tiles[j] > 0 && tiles[j] < tiles[i]) inversions++;
        if (inversions % 2 == 1) { System.out.println(-1); return; }
        int goal = 0;
        for (int i = 0; i < 8; i++) goal += (i + 1) * POW[i];
        System.out.println(meet(start, goal));
    }

    static int meet(int start, int goal) {
        if (start == goal) return 0;
        ArrayList<HashMap<Integer, Integer>> depth = new ArrayList<>();
        ArrayList<ArrayList<Integer>> frontier = new ArrayList<>();
        for (int b : new int[] {start, goal}) {
            HashMap<Integer, Integer> d = new HashMap<>();
            d.put(b, 0);
            depth.add(d);
            ArrayList<Integer> f = new ArrayList<>();
            f.add(b);
            frontier.add(f);
        }
        while (!frontier.get(0).isEmpty() && !frontier.get(1).isEmpty()) {
            int side = frontier.get(0).size() <= frontier.get(1).size() ? 0 : 1;
            HashMap<Integer, Integer> mine = depth.get(side), other = depth.get(1 - side);
            int level = mine.get(frontier.get(side).get(0)) + 1;
            ArrayList<Integer> fresh = new ArrayList<>();
            int best = Integer.MAX_VALUE;
            for (int b : frontier.get(side)) {
                int blank = blankOf(b);
                int[] moves = {blank - 3, blank + 3, blank % 3 > 0 ? blank - 1 : -1, blank % 3 < 2 ? blank + 1 : -1};
                for (int n : moves) {
                    if (n < 0 || n > 8) continue;
                    int tile = digit(b, n);
                    int next = b - tile * POW[n] + tile * POW[blank];
                    if (mine.containsKey(next)) continue;
                    mine.put(next, level);
                    fresh.add(next);
                    Integer there = other.get(next);
                    if (there != null) best = Math.min(best, level + there);
                }
            }
            if (best != Integer.MAX_VALUE) return best;
            frontier.set(side, fresh);
        }
        return -1;
    }
}
