// One program, every verdict: the first word of the input says what to do.
import java.nio.file.*;
import java.util.*;

public class Probe {
    public static void main(String[] args) throws Exception {
        Scanner in = new Scanner(System.in);
        String mode = in.next();
        if (mode.equals("add")) System.out.println(in.nextLong() + in.nextLong());
        else if (mode.equals("loop")) { long x = 0; while (true) x++; }
        else if (mode.equals("alloc")) { int n = in.nextInt(); byte[][] blocks = new byte[n][]; for (int i = 0; i < n; i++) { blocks[i] = new byte[1 << 20]; Arrays.fill(blocks[i], (byte) 1); } System.out.println(blocks.length); }
        else if (mode.equals("crash")) throw new IllegalStateException("crash on purpose");
        else if (mode.equals("peek")) System.out.print(Files.readString(Path.of(in.next())));
    }
}
