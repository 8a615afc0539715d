// student03 - BFS from the goal over the whole space, then one lookup.
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder sb = new StringBuilder();
        String line;
        while ((line = r.readLine()) != null) for (String t : line.trim().split("\\s+")) sb.append(t);
        String start = sb.toString();
        String goal = "12345678x";
        HashMap<String, Integer> dist = new HashMap<>();
        ArrayDeque<String> q = new ArrayDeque<>();
        dist.put(goal, 0);
        q.add(goal);
        while (!q.isEmpty()) {
            String s = q.poll();
            int x = s.indexOf('x');
            int row = x / 3, col = x % 3;
            int[][] d = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
            for (int[] m : d) {
                int nr = row + m[0], nc = col + m[1];
                if (nr < 0 || nr > 2 || nc < 0 || nc > 2) continue;
                char[] c = s.toCharArray();
                c[x] = c[nr * 3 + nc];
                c[nr * 3 + nc] = 'x';
                String t = new String(c);
                if (!dist.containsKey(t)) { dist.put(t, dist.get(s) + 1); q.add(t); }
            }
        }
        System.out.println(dist.getOrDefault(start, -1));
    }
}
