package org.trustload.jvmstats;

import java.io.Serializable;

/**
 * The counters of one target at one instant. Unknown values are {@code NaN} (or {@code -1} for
 * counts): not every source sees everything (a plain process has no GC; JMX has no jstat columns).
 * Immutable and serializable (it travels in JMeter's distributed mode).
 */
public final class StatsSnapshot implements Serializable {

    private static final long serialVersionUID = 1L;

    private final long epochMillis;
    private final double cpuMs;
    private final double heapUsedBytes;
    private final double heapCommittedBytes;
    private final long youngGcCount;
    private final double youngGcTimeMs;
    private final long fullGcCount;
    private final double fullGcTimeMs;
    private final long concurrentGcCount;
    private final double concurrentGcTimeMs;
    private final long rssBytes;
    private final long threads;
    private final long openFiles;
    private final int cpuCount;
    private final JstatGc jstat;

    private StatsSnapshot(Builder b) {
        epochMillis = b.epochMillis;
        cpuMs = b.cpuMs;
        heapUsedBytes = b.heapUsedBytes;
        heapCommittedBytes = b.heapCommittedBytes;
        youngGcCount = b.youngGcCount;
        youngGcTimeMs = b.youngGcTimeMs;
        fullGcCount = b.fullGcCount;
        fullGcTimeMs = b.fullGcTimeMs;
        concurrentGcCount = b.concurrentGcCount;
        concurrentGcTimeMs = b.concurrentGcTimeMs;
        rssBytes = b.rssBytes;
        threads = b.threads;
        openFiles = b.openFiles;
        cpuCount = b.cpuCount;
        jstat = b.jstat;
    }

    public static Builder builder(long epochMillis) {
        return new Builder(epochMillis);
    }

    /** When the counters were read (wall clock, ms since the epoch). */
    public long epochMillis() {
        return epochMillis;
    }

    /** Process CPU time (user + system) since the process started, in ms; NaN if unknown. */
    public double cpuMs() {
        return cpuMs;
    }

    public double heapUsedBytes() {
        return heapUsedBytes;
    }

    public double heapCommittedBytes() {
        return heapCommittedBytes;
    }

    /** Young (minor) collections; -1 if unknown. */
    public long youngGcCount() {
        return youngGcCount;
    }

    public double youngGcTimeMs() {
        return youngGcTimeMs;
    }

    /** Full (old generation) collections; -1 if unknown. */
    public long fullGcCount() {
        return fullGcCount;
    }

    public double fullGcTimeMs() {
        return fullGcTimeMs;
    }

    /** Concurrent collector pauses (jstat's CGC: G1 remark and cleanup); -1 if the collector has none. */
    public long concurrentGcCount() {
        return concurrentGcCount;
    }

    public double concurrentGcTimeMs() {
        return concurrentGcTimeMs;
    }

    /** All GC pause time (jstat's GCT) in ms; NaN if unknown. */
    public double gcTimeMs() {
        if (Double.isNaN(youngGcTimeMs) && Double.isNaN(fullGcTimeMs)) {
            return Double.NaN;
        }
        return nz(youngGcTimeMs) + nz(fullGcTimeMs) + nz(concurrentGcTimeMs);
    }

    /** All collections counted (young + full + concurrent); -1 if unknown. */
    public long gcCount() {
        if (youngGcCount < 0 && fullGcCount < 0) {
            return -1;
        }
        return Math.max(0, youngGcCount) + Math.max(0, fullGcCount) + Math.max(0, concurrentGcCount);
    }

    /** Resident set size in bytes; -1 if unknown. */
    public long rssBytes() {
        return rssBytes;
    }

    /** Live threads of the process (OS threads for a process, Java threads over JMX); -1 if unknown. */
    public long threads() {
        return threads;
    }

    /** Open file descriptors; -1 if unknown. */
    public long openFiles() {
        return openFiles;
    }

    /**
     * CPUs the CPU time is spread over when the source knows it (a host's CPU count from node_exporter);
     * -1 if unknown.
     */
    public int cpuCount() {
        return cpuCount;
    }

    /** The {@code jstat -gc} columns, or null when the source cannot see them (JMX, plain process). */
    public JstatGc jstat() {
        return jstat;
    }

    private static double nz(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    @Override
    public String toString() {
        return "StatsSnapshot[t=" + epochMillis + ", cpuMs=" + cpuMs + ", heapUsed=" + heapUsedBytes
                + ", ygc=" + youngGcCount + "/" + youngGcTimeMs + "ms, fgc=" + fullGcCount + "/" + fullGcTimeMs
                + "ms, cgc=" + concurrentGcCount + "/" + concurrentGcTimeMs + "ms, rss=" + rssBytes
                + ", threads=" + threads + ", fds=" + openFiles + ", jstat=" + jstat + "]";
    }

    /** Builds a snapshot; every field not set stays unknown. */
    public static final class Builder {
        private final long epochMillis;
        private double cpuMs = Double.NaN;
        private double heapUsedBytes = Double.NaN;
        private double heapCommittedBytes = Double.NaN;
        private long youngGcCount = -1;
        private double youngGcTimeMs = Double.NaN;
        private long fullGcCount = -1;
        private double fullGcTimeMs = Double.NaN;
        private long concurrentGcCount = -1;
        private double concurrentGcTimeMs = Double.NaN;
        private long rssBytes = -1;
        private long threads = -1;
        private long openFiles = -1;
        private int cpuCount = -1;
        private JstatGc jstat;

        private Builder(long epochMillis) {
            this.epochMillis = epochMillis;
        }

        public Builder cpuMs(double v) {
            cpuMs = v;
            return this;
        }

        public Builder heap(double used, double committed) {
            heapUsedBytes = used;
            heapCommittedBytes = committed;
            return this;
        }

        public Builder youngGc(long count, double timeMs) {
            youngGcCount = count;
            youngGcTimeMs = timeMs;
            return this;
        }

        public Builder fullGc(long count, double timeMs) {
            fullGcCount = count;
            fullGcTimeMs = timeMs;
            return this;
        }

        public Builder concurrentGc(long count, double timeMs) {
            concurrentGcCount = count;
            concurrentGcTimeMs = timeMs;
            return this;
        }

        public Builder process(long rss, long threadCount, long fds) {
            rssBytes = rss;
            threads = threadCount;
            openFiles = fds;
            return this;
        }

        public Builder cpuCount(int cpus) {
            cpuCount = cpus;
            return this;
        }

        public Builder threads(long threadCount) {
            threads = threadCount;
            return this;
        }

        /** Sets the jstat columns and the GC and heap figures derived from them. */
        public Builder jstat(JstatGc j) {
            jstat = j;
            if (j != null) {
                youngGc((long) j.get("YGC"), j.get("YGCT") * 1000);
                fullGc((long) j.get("FGC"), j.get("FGCT") * 1000);
                double cgc = j.get("CGC");
                concurrentGc(Double.isNaN(cgc) ? -1 : (long) cgc, j.get("CGCT") * 1000);
                heap(j.heapUsedBytes(), j.heapCommittedBytes());
            }
            return this;
        }

        public StatsSnapshot build() {
            return new StatsSnapshot(this);
        }
    }
}
