package org.trustload.jvmstats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The time a process's threads spent runnable but waiting for a CPU (the run queue): the second field of each
 * {@code /proc/PID/task/TID/schedstat} (ns). The kernel keeps it per thread and drops it when the thread ends, so
 * one instance per process adds up what each thread gained between readings: the total only grows, and threads
 * that ended (a thread group's threads at the end of its step) keep what they waited until their last reading.
 * Divided by the operations of a window, it is the mean time an operation's thread waited for a CPU — the load
 * generator's own queueing inside a response time, when the process is JMeter ({@link #ofLoadGenerator}: without
 * the JIT compiler threads, whose waiting holds up no sample). Read by the harness for local processes and by
 * remote engines for themselves.
 */
public final class RunQueue {

    private final long pid;
    private final boolean skipCompilers;
    /** Each thread's last reading, ns; -1 for a thread left out. */
    private Map<String, Long> lastNs = new HashMap<>();
    private double totalNs;

    /** The run queue of every thread of process {@code pid}; call {@link #waitMs()} regularly (each reads them all). */
    public RunQueue(long pid) {
        this(pid, false);
    }

    private RunQueue(long pid, boolean skipCompilers) {
        this.pid = pid;
        this.skipCompilers = skipCompilers;
    }

    /**
     * The run queue of a JMeter JVM's threads but its JIT compiler threads ({@code C1 CompilerThread0}, ...): they
     * queue for a CPU in bursts at start-up, hold up no sample meanwhile, and would count as its queueing.
     */
    public static RunQueue ofLoadGenerator(long pid) {
        return new RunQueue(pid, true);
    }

    /**
     * Run-queue wait of the process's threads since the first reading's threads started, ms; NaN when {@code /proc}
     * does not tell.
     */
    public synchronized double waitMs() {
        Map<String, Long> now = new HashMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String tid = t.getFileName().toString();
                    Long before = lastNs.get(tid);
                    if (before == null && skipCompilers
                            && Files.readString(t.resolve("comm")).contains("CompilerThre")) {
                        before = -1L;
                    }
                    if (before != null && before < 0) {
                        now.put(tid, before);
                        continue;
                    }
                    String[] f = Files.readString(t.resolve("schedstat")).trim().split("\\s+");
                    long ns = Long.parseLong(f[1]);
                    now.put(tid, ns);
                    // a smaller value than before: the thread id was reused by a new thread
                    totalNs += before == null || ns < before ? ns : ns - before;
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        lastNs = now; // threads that ended keep their share in the total
        return totalNs / 1e6;
    }
}
