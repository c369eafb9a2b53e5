package org.trustload.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Follows the CPU time (user + system, {@code /proc/<pid>/stat}) of a process over wall-clock time,
 * so the CPU spent between two instants seen elsewhere (a JTL's first and last sample) can be read
 * back, interpolated between polls. The pid may be given late (a JMeter child, once it started).
 */
final class CpuMonitor implements AutoCloseable {

    private record Point(long epochMs, double cpuMs) {
    }

    private final LongSupplier pid;
    private final long periodMs;
    private final List<Point> points = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    private CpuMonitor(LongSupplier pid, long periodMs) {
        this.pid = pid;
        this.periodMs = periodMs;
        this.thread = new Thread(this::loop, "cpu-monitor");
        this.thread.setDaemon(true);
    }

    /** Polls every {@code periodMs}; {@code pid} returns -1 until the process is known. */
    static CpuMonitor start(LongSupplier pid, long periodMs) {
        CpuMonitor m = new CpuMonitor(pid, periodMs);
        m.thread.start();
        return m;
    }

    /** CPU milliseconds (user + system) the process used so far; NaN when it is gone or unknown. */
    static double cpuMs(long pid) {
        if (pid <= 0) {
            return Double.NaN;
        }
        long ms = ProcCpu.processMs(pid);
        return ms < 0 ? Double.NaN : ms;
    }

    private void loop() {
        while (running) {
            poll();
            try {
                Thread.sleep(periodMs);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void poll() {
        double c = cpuMs(pid.getAsLong());
        if (!Double.isNaN(c)) {
            synchronized (points) {
                points.add(new Point(System.currentTimeMillis(), c));
            }
        }
    }

    /** CPU ms used between two epoch-ms instants (linear between polls); NaN when not covered. */
    double cpuMsBetween(long fromMs, long toMs) {
        double a = at(fromMs);
        double b = at(toMs);
        return b - a;
    }

    private double at(long t) {
        synchronized (points) {
            if (points.isEmpty() || t < points.get(0).epochMs() || t > points.get(points.size() - 1).epochMs()) {
                return Double.NaN;
            }
            for (int i = 1; i < points.size(); i++) {
                Point p = points.get(i);
                if (p.epochMs() >= t) {
                    Point o = points.get(i - 1);
                    long span = p.epochMs() - o.epochMs();
                    return span == 0 ? p.cpuMs() : o.cpuMs() + (p.cpuMs() - o.cpuMs()) * (t - o.epochMs()) / span;
                }
            }
            return points.get(points.size() - 1).cpuMs();
        }
    }

    /** Stops polling after one last poll. */
    @Override
    public void close() {
        poll();
        running = false;
        thread.interrupt();
    }
}
