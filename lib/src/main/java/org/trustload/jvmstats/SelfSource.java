package org.trustload.jvmstats;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;

/**
 * This JVM: CPU, heap and GC from the platform MXBeans, plus the {@code jstat -gc} columns from its
 * own hsperfdata file when the JVM writes one (it does unless started with {@code -XX:-UsePerfData}),
 * and RSS, threads and open files from {@code /proc/self}.
 */
public final class SelfSource implements StatsSource {

    private final ProcStats proc;
    private final Path perfFile;

    public SelfSource() throws StatsException {
        long pid = ProcessHandle.current().pid();
        proc = new ProcStats(pid);
        Path f;
        try {
            f = PerfData.fileOf(pid);
        } catch (IOException e) {
            f = null;
        }
        perfFile = f;
    }

    @Override
    public StatsSnapshot poll() throws StatsException {
        StatsSnapshot.Builder b = StatsSnapshot.builder(System.currentTimeMillis());
        proc.fill(b, false);
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            b.cpuMs(os.getProcessCpuTime() / 1e6);
        }
        JstatGc jstat = null;
        if (perfFile != null) {
            try {
                jstat = PerfData.read(perfFile).jstatGc();
            } catch (IOException e) {
                jstat = null; // fall back to the MXBeans below
            }
        }
        if (jstat != null) {
            b.jstat(jstat);
        } else {
            GcNames.Totals t = new GcNames.Totals();
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                t.add(gc.getName(), gc.getCollectionCount(), gc.getCollectionTime());
            }
            t.fill(b);
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            b.heap(heap.getUsed(), heap.getCommitted());
        }
        return b.build();
    }

    @Override
    public String describe() {
        return "this JVM (pid " + proc.pid() + (perfFile != null ? ", MXBeans + hsperfdata)" : ", MXBeans)");
    }

    @Override
    public boolean isLocalToLoadGenerator() {
        return true;
    }

    @Override
    public void close() {
        // nothing held open
    }

    /** Factory for {@code self}. */
    public static final class Factory implements StatsSourceFactory {
        @Override
        public String name() {
            return "self";
        }

        @Override
        public StatsSource open(SourceConfig config) throws StatsException {
            return new SelfSource();
        }
    }
}
