package org.trustload.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A process's CPU split by thread over a window: snapshots of {@link ProcCpu#threads} taken while it runs,
 * read back for any window between them (each thread's CPU interpolated at the window's ends; a thread not
 * yet started counts 0, one that ended its last value). Threads are grouped by name with their numbers
 * replaced by {@code N} ({@code measure 1-2} → {@code measure N-N}, {@code GC Thread#1} → {@code GC Thread#N}).
 */
public final class ThreadCpuTrace {
    private final long pid;
    private final List<Long> times = new ArrayList<>();
    private final List<Map<Long, ProcCpu.ThreadCpu>> snapshots = new ArrayList<>();

    public ThreadCpuTrace(long pid) {
        this.pid = pid;
    }

    /** Takes a snapshot now (wall clock ms). */
    public void snapshot() {
        Map<Long, ProcCpu.ThreadCpu> m = ProcCpu.threads(pid);
        if (!m.isEmpty()) {
            times.add(System.currentTimeMillis());
            snapshots.add(m);
        }
    }

    /** The group a thread name belongs to: its digits replaced by N. */
    public static String group(String threadName) {
        return threadName.replaceAll("[0-9]+", "N");
    }

    /** CPU ms by thread group between two wall-clock times (ms) inside the traced span. */
    public Map<String, Double> msByGroup(long from, long to) {
        Map<Long, String> names = new HashMap<>();
        snapshots.forEach(s -> s.forEach((tid, c) -> names.put(tid, c.name())));
        Map<String, Double> out = new TreeMap<>();
        for (var e : names.entrySet()) {
            double d = (at(e.getKey(), to) - at(e.getKey(), from)) / 1e6;
            if (d > 0) {
                out.merge(group(e.getValue()), d, Double::sum);
            }
        }
        return out;
    }

    /** A thread's CPU ns at wall time t. */
    private double at(long tid, long t) {
        double prevV = 0;
        long prevT = Long.MIN_VALUE;
        for (int i = 0; i < times.size(); i++) {
            ProcCpu.ThreadCpu c = snapshots.get(i).get(tid);
            long ti = times.get(i);
            if (c == null) {
                if (prevT != Long.MIN_VALUE && ti >= t) {
                    return prevV; // ended before t
                }
                continue;
            }
            if (ti >= t) {
                if (prevT == Long.MIN_VALUE) {
                    // first seen at or after t: it started between the previous snapshot and now
                    return i == 0 ? c.nanos() : 0;
                }
                return prevV + (c.nanos() - prevV) * (double) (t - prevT) / Math.max(1, ti - prevT);
            }
            prevV = c.nanos();
            prevT = ti;
        }
        return prevV;
    }

    /** CPU ms by thread group between two snapshots of one process (no interpolation). */
    public static Map<String, Double> msByGroup(Map<Long, ProcCpu.ThreadCpu> before,
            Map<Long, ProcCpu.ThreadCpu> after) {
        Map<String, Double> out = new TreeMap<>();
        for (var e : after.entrySet()) {
            ProcCpu.ThreadCpu b = before.get(e.getKey());
            double d = (e.getValue().nanos() - (b == null ? 0 : b.nanos())) / 1e6;
            if (d > 0) {
                out.merge(group(e.getValue().name()), d, Double::sum);
            }
        }
        return out;
    }
}
