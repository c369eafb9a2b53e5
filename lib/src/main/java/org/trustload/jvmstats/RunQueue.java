package org.trustload.jvmstats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The time a process's threads spent runnable but waiting for a CPU (the run queue): the second field of each
 * {@code /proc/PID/task/TID/schedstat} (ns), summed over its threads. A load generator whose threads wait for a
 * CPU as long as they run measures its own queueing, not the server's. Read by the harness for local JMeter
 * JVMs and by remote engines for themselves.
 */
public final class RunQueue {

    private RunQueue() {
    }

    /** Run-queue wait of process {@code pid} since it started, ms; NaN when {@code /proc} does not tell. */
    public static double waitMs(long pid) {
        double ns = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String[] f = Files.readString(t.resolve("schedstat")).trim().split("\\s+");
                    ns += Long.parseLong(f[1]);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return ns / 1e6;
    }
}
