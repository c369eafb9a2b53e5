package org.trustload.jvmstats;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.remote.JMXServiceURL;

/**
 * A local JVM by PID. Reads its hsperfdata file, so the GC and memory figures are exactly the
 * counters {@code jstat -gc} prints, and CPU, RSS, threads and open files from {@code /proc}. When
 * the JVM writes no hsperfdata (started with {@code -XX:-UsePerfData}, or in another /tmp), it falls
 * back to the attach API: starts the target's local JMX agent (bounded by the connect timeout, since
 * attaching to a starved JVM can hang) and reads the MXBeans; {@link #describe()} says which.
 */
public final class JvmPidSource implements StatsSource {

    private final ProcStats proc;
    private final Path perfFile;
    private final JmxSource jmx;

    public JvmPidSource(SourceConfig config) throws StatsException {
        long pid = config.pid();
        proc = new ProcStats(pid);
        Path f = null;
        String why;
        try {
            f = PerfData.fileOf(pid);
            if (f != null) {
                PerfData.read(f).jstatGc();
            }
            why = f == null ? "no hsperfdata file for pid " + pid + " in /tmp/hsperfdata_*" : null;
        } catch (IOException e) {
            why = "hsperfdata " + f + " unreadable: " + e.getMessage();
            f = null;
        }
        perfFile = f;
        jmx = f == null ? attach(pid, config, why) : null;
    }

    private static JmxSource attach(long pid, SourceConfig config, String why) throws StatsException {
        if (pid == ProcessHandle.current().pid()) {
            throw new StatsException(why + "; use source 'self' for this JVM", false);
        }
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "trustload-attach " + pid);
            t.setDaemon(true);
            return t;
        });
        try {
            Future<String> f = ex.submit(() -> {
                com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(pid));
                try {
                    return vm.startLocalManagementAgent();
                } finally {
                    vm.detach();
                }
            });
            String url = f.get(config.connectTimeoutMs(), TimeUnit.MILLISECONDS);
            return new JmxSource(new JMXServiceURL(url), config);
        } catch (TimeoutException e) {
            throw new StatsException(why + "; attach to pid " + pid + " timed out after "
                    + config.connectTimeoutMs() + " ms", false, e);
        } catch (ExecutionException e) {
            throw new StatsException(why + "; attach to pid " + pid + " failed: " + e.getCause(), false, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StatsException(why + "; attach interrupted", false, e);
        } catch (IOException | LinkageError e) {
            // LinkageError: a JRE without the jdk.attach module
            throw new StatsException(why + "; attach to pid " + pid + " unavailable: " + e, false, e);
        } finally {
            ex.shutdownNow();
        }
    }

    @Override
    public StatsSnapshot poll() throws StatsException {
        if (jmx != null) {
            StatsSnapshot viaJmx = jmx.poll();
            StatsSnapshot.Builder b = StatsSnapshot.builder(viaJmx.epochMillis())
                    .heap(viaJmx.heapUsedBytes(), viaJmx.heapCommittedBytes())
                    .youngGc(viaJmx.youngGcCount(), viaJmx.youngGcTimeMs())
                    .fullGc(viaJmx.fullGcCount(), viaJmx.fullGcTimeMs())
                    .concurrentGc(viaJmx.concurrentGcCount(), viaJmx.concurrentGcTimeMs());
            proc.fill(b, true);
            return b.build();
        }
        StatsSnapshot.Builder b = StatsSnapshot.builder(System.currentTimeMillis());
        try {
            b.jstat(PerfData.read(perfFile).jstatGc());
        } catch (NoSuchFileException e) {
            throw new StatsException("JVM " + proc.pid() + " has exited (" + perfFile + " removed)", true, e);
        } catch (IOException e) {
            throw new StatsException("cannot read " + perfFile + ": " + e.getMessage(), !proc.alive(), e);
        }
        proc.fill(b, true);
        return b.build();
    }

    @Override
    public String describe() {
        return "JVM pid " + proc.pid()
                + (jmx != null ? " (attach + JMX: " + jmx.describe() + ")" : " (hsperfdata " + perfFile + ")");
    }

    /** True when the JVM's counters come from its hsperfdata file, i.e. exactly jstat's. */
    public boolean usesPerfData() {
        return jmx == null;
    }

    @Override
    public void close() {
        if (jmx != null) {
            jmx.close();
        }
    }

    /** Factory for {@code jvm-pid}. */
    public static final class Factory implements StatsSourceFactory {
        @Override
        public String name() {
            return "jvm-pid";
        }

        @Override
        public StatsSource open(SourceConfig config) throws StatsException {
            return new JvmPidSource(config);
        }
    }
}
