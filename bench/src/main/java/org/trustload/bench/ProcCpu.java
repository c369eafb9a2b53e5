package org.trustload.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/** CPU time of a process, or of some of its threads, from Linux's {@code /proc} (clock ticks of 10 ms). */
public final class ProcCpu {
    private static final long MS_PER_TICK = 10; // CLK_TCK 100

    private ProcCpu() {
    }

    /** This JVM's CPU time in ns (the JVM's own counter, finer than {@code /proc}'s ticks). */
    public static long selfNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** utime + stime of a process in ms, -1 once it is gone. */
    public static long processMs(long pid) {
        try {
            return ticksMs(Files.readString(Path.of("/proc/" + pid + "/stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** cutime + cstime of this JVM in ms: the CPU of its children once they exited and were reaped; -1 unknown. */
    public static long childrenMs() {
        try {
            String[] f = Files.readString(Path.of("/proc/self/stat")).replaceFirst("^.*\\) ", "").split(" ");
            return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * MS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * utime + stime (ms) of a process's threads whose name starts with {@code prefix} (Linux keeps the
     * first 15 characters of a thread's name); 0 when none.
     */
    public static long threadsMs(long pid, String prefix) {
        long[] sum = {0};
        return eachThread(pid, (task, stat) -> {
            if (comm(stat).startsWith(prefix)) {
                sum[0] += ticksMs(stat);
            }
        }) ? sum[0] : 0;
    }

    /** One thread's name (Linux keeps its first 15 characters) and CPU time. */
    public record ThreadCpu(String name, long nanos) {
    }

    /**
     * The CPU time of each live thread of a process by thread id: nanoseconds from {@code schedstat}
     * (10 ms ticks from {@code stat} where the kernel has no schedstat); empty once the process is gone.
     */
    public static Map<Long, ThreadCpu> threads(long pid) {
        Map<Long, ThreadCpu> m = new HashMap<>();
        boolean alive = eachThread(pid, (task, stat) -> {
            long ns;
            try {
                String sched = Files.readString(task.resolve("schedstat"));
                ns = Long.parseLong(sched.substring(0, sched.indexOf(' ')));
            } catch (IOException | RuntimeException noSchedstat) {
                ns = ticksMs(stat) * 1_000_000L;
            }
            m.put(Long.parseLong(task.getFileName().toString()), new ThreadCpu(comm(stat), ns));
        });
        return alive ? m : Map.of();
    }

    /** Visits every live thread of a process (one that ends meanwhile is skipped); false once the process is gone. */
    private static boolean eachThread(long pid, BiConsumer<Path, String> visitor) {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    visitor.accept(t, Files.readString(t.resolve("stat")));
                } catch (IOException | RuntimeException gone) {
                    // a thread that ended meanwhile
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String comm(String stat) {
        return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')); // the name: ( and ) may be in it
    }

    private static long ticksMs(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * MS_PER_TICK;
    }
}
