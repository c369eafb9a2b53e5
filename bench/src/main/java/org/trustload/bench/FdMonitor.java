package org.trustload.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Polls {@code /proc/<pid>/fd} of a process (slapd) every {@code periodMs} and keeps the peak. */
final class FdMonitor implements AutoCloseable {
    private final long pid;
    private final long periodMs;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int peak;

    private FdMonitor(long pid, long periodMs) {
        this.pid = pid;
        this.periodMs = periodMs;
        this.peak = count(pid);
        this.thread = new Thread(this::loop, "fd-monitor-" + pid);
        this.thread.setDaemon(true);
    }

    static FdMonitor start(long pid, long periodMs) {
        FdMonitor m = new FdMonitor(pid, periodMs);
        m.thread.start();
        return m;
    }

    /** Descriptors the process holds now; -1 when it is gone. */
    static int count(long pid) {
        int n = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path ignored : ds) {
                n++;
            }
            return n;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private void loop() {
        while (running) {
            int n = count(pid);
            if (n > peak) {
                peak = n;
            }
            try {
                Thread.sleep(periodMs);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    int peak() {
        return peak;
    }

    /** Stops polling (one last look first) and returns the peak. */
    int stop() {
        int n = count(pid);
        if (n > peak) {
            peak = n;
        }
        running = false;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return peak;
    }

    @Override
    public void close() {
        stop();
    }
}
