package org.trustload.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of a process, or of some of its threads, from Linux's {@code /proc} (clock ticks of 10 ms). */
public final class ProcCpu {
    private static final long MS_PER_TICK = 10; // CLK_TCK 100

    private ProcCpu() {
    }

    /** utime + stime of a process in ms, -1 once it is gone. */
    public static long processMs(long pid) {
        try {
            return ticksMs(Files.readString(Path.of("/proc/" + pid + "/stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * utime + stime (ms) of a process's threads whose name starts with {@code prefix} (Linux keeps the
     * first 15 characters of a thread's name); 0 when none.
     */
    public static long threadsMs(long pid, String prefix) {
        long sum = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (comm.startsWith(prefix)) {
                        sum += ticksMs(stat);
                    }
                } catch (IOException | RuntimeException gone) {
                    // a thread that ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return sum;
    }

    private static long ticksMs(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * MS_PER_TICK;
    }
}
