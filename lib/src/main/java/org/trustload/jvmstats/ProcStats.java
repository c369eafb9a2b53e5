package org.trustload.jvmstats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * CPU time, resident memory, thread count and open files of a local process from {@code /proc}
 * (CPU through {@link ProcessHandle}, which reads the same {@code /proc/<pid>/stat} with the right
 * clock tick). Remembers the process start time, so a recycled PID counts as gone.
 */
final class ProcStats {

    private final long pid;
    private final ProcessHandle handle;
    private final Instant start;

    ProcStats(long pid) throws StatsException {
        this.pid = pid;
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty() || !h.get().isAlive()) {
            throw new StatsException("no process with pid " + pid, true);
        }
        handle = h.get();
        start = handle.info().startInstant().orElse(null);
    }

    long pid() {
        return pid;
    }

    boolean alive() {
        if (!handle.isAlive()) {
            return false;
        }
        Instant now = ProcessHandle.of(pid).flatMap(p -> p.info().startInstant()).orElse(null);
        return start == null || start.equals(now);
    }

    /** Fills CPU, RSS, threads and open files; throws "gone" when the process has exited. */
    void fill(StatsSnapshot.Builder b, boolean withCpu) throws StatsException {
        if (!alive()) {
            throw new StatsException("process " + pid + " has exited", true);
        }
        try {
            long rss = -1;
            long threads = -1;
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = kbField(line) * 1024;
                } else if (line.startsWith("Threads:")) {
                    threads = kbField(line);
                }
            }
            b.process(rss, threads, openFiles());
            if (withCpu) {
                Optional<Duration> cpu = ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration());
                b.cpuMs(cpu.map(d -> d.toNanos() / 1e6).orElse(Double.NaN));
            }
        } catch (NoSuchFileException e) {
            throw new StatsException("process " + pid + " has exited", true, e);
        } catch (IOException | UncheckedIOException e) {
            if (!alive()) {
                throw new StatsException("process " + pid + " has exited", true, e);
            }
            throw new StatsException("cannot read /proc/" + pid + ": " + e.getMessage(), false, e);
        }
    }

    private long openFiles() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        } catch (java.nio.file.AccessDeniedException e) {
            return -1; // another user's process: the rest of /proc is still readable
        }
    }

    private static long kbField(String line) {
        List<String> parts = List.of(line.trim().split("\\s+"));
        return Long.parseLong(parts.get(1));
    }
}
