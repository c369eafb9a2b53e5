package org.trustload.jvmstats;

import java.util.Locale;

/**
 * Sorts the JMX garbage-collector beans into jstat's young / full / concurrent columns by name.
 * JMX cannot see everything jstat sees: G1's remark and cleanup pauses (jstat's CGC) have a bean
 * only from JDK 20 ("G1 Concurrent GC"); ZGC and Shenandoah report cycles, not pauses.
 */
final class GcNames {

    private GcNames() {
    }

    enum Kind { YOUNG, FULL, CONCURRENT }

    static Kind kind(String beanName) {
        String n = beanName.toLowerCase(Locale.ROOT);
        if (n.contains("concurrent gc") || n.contains("cycles")) {
            return Kind.CONCURRENT;
        }
        if (n.contains("old") || n.contains("marksweep") || n.contains("major")) {
            return Kind.FULL;
        }
        return Kind.YOUNG; // Copy, PS Scavenge, ParNew, G1 Young Generation, ZGC/Shenandoah Pauses
    }

    /** Sums of counts and times per kind. */
    static final class Totals {
        private final long[] count = new long[3];
        private final double[] timeMs = new double[3];
        private final boolean[] seen = new boolean[3];

        void add(String name, long c, long ms) {
            int k = kind(name).ordinal();
            seen[k] = true;
            count[k] += Math.max(0, c);
            timeMs[k] += Math.max(0, ms);
        }

        void fill(StatsSnapshot.Builder b) {
            b.youngGc(seen[0] ? count[0] : -1, seen[0] ? timeMs[0] : Double.NaN);
            b.fullGc(seen[1] ? count[1] : 0, seen[1] ? timeMs[1] : 0);
            b.concurrentGc(seen[2] ? count[2] : -1, seen[2] ? timeMs[2] : Double.NaN);
        }
    }
}
