package org.trustload.kms;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.trustload.common.Percentiles;

/**
 * The counters and lines of the reference KMS benchmark's periodic report (Alibaba Cloud's KMS
 * instance benchmark tool), computed correctly: a real minimum (the reference never updates its
 * minimum from 0), errors classified by category code instead of message text. Thread-safe; one
 * instance per report. Max/Min/Avg time cost are over the whole run, like the reference; TPS is the
 * responses of the last period divided by its length, AvgTPS the responses since the start divided
 * by the elapsed time. A line the reference lacks gives P50/P90/P95/P99 of the period's responses (and, in
 * the final block, of the whole run) by the JMeter dashboard's method ({@link Percentiles}, as the run summary).
 */
public final class KmsReportStats {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    private final LongAdder responses = new LongAdder();
    private final LongAdder periodResponses = new LongAdder();
    private final LongAdder timeSum = new LongAdder();
    private final LongAdder clientErrors = new LongAdder();
    private final LongAdder limitErrors = new LongAdder();
    private final LongAdder timeoutErrors = new LongAdder();
    private final Map<String, LongAdder> byCode = new ConcurrentHashMap<>();
    /**
     * Lock-free: a lock taken by every sample of every thread was contended (JFR JavaMonitorEnter) with
     * 32 threads on 2 cores, its holder pre-empted while the others spun.
     */
    private final LongAccumulator maxMs = new LongAccumulator(Math::max, Long.MIN_VALUE);
    private final LongAccumulator minMs = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final long startNanos;
    private long lastReportNanos;
    private int reports;
    /** Every response time, each sampling thread appending to its own buffer (no lock on the sample path). */
    private final Queue<Times> buffers = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Times> mine = ThreadLocal.withInitial(() -> {
        Times t = new Times();
        buffers.add(t);
        return t;
    });

    /**
     * One thread's response times. Only its thread appends; the reporter reads up to the published size:
     * the values, and an array that grew, are written before the volatile size that covers them.
     */
    private static final class Times {
        private volatile int[] values = new int[256];
        private volatile int size;
        /** Values before this index were in an earlier period (the reporter's, under its lock). */
        private int periodStart;

        void add(long ms) {
            int[] a = values;
            int n = size;
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
                values = a;
            }
            a[n] = (int) Math.min(Integer.MAX_VALUE, Math.max(0, ms));
            size = n + 1;
        }
    }

    /** Starts the clock now. */
    public KmsReportStats() {
        startNanos = System.nanoTime();
        lastReportNanos = startNanos;
    }

    /**
     * Counts one response.
     *
     * @param elapsedMs the sample's time
     * @param code its response code: {@code 200}/{@code OK} (or empty) for success, else a category code
     */
    public void add(long elapsedMs, boolean success, String code) {
        // min and max first: a report that counts this response also sees its time
        maxMs.accumulate(elapsedMs);
        minMs.accumulate(elapsedMs);
        timeSum.add(elapsedMs);
        mine.get().add(elapsedMs);
        responses.increment();
        periodResponses.increment();
        if (!success) {
            String c = code == null || code.isEmpty() ? "-" : code;
            byCode.computeIfAbsent(c, k -> new LongAdder()).increment();
            if (KmsException.Category.TIMEOUT.code().equals(c)) {
                timeoutErrors.increment();
            } else if (KmsException.Category.LIMIT_EXCEEDED.code().equals(c)) {
                limitErrors.increment();
            } else {
                // the reference's ClientErrorCount is "every other error"; the final block breaks it down
                clientErrors.increment();
            }
        }
    }

    public long responses() {
        return responses.sum();
    }

    /**
     * The period line block; resets the period counter.
     *
     * @param requests requests started so far (sent, answered or not); pass {@link #responses()} when unknown
     */
    public synchronized String periodReport(long requests) {
        long now = System.nanoTime();
        reports++;
        String head = String.format(Locale.ROOT, "----------------- Time_%d: [%s]--------------", reports,
                LocalDateTime.now().format(STAMP));
        String body = detail(requests, periodResponses.sumThenReset(), now - lastReportNanos, now);
        lastReportNanos = now;
        return head + "\n" + body + "\n" + percentiles(times(true), "this period");
    }

    /** The final statistics block: the detail lines over the whole run, then errors by response code. */
    public synchronized String finalReport(long requests) {
        long now = System.nanoTime();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "----------------- Statistics: [%s]--------------",
                LocalDateTime.now().format(STAMP)))
                .append('\n').append(detail(requests, periodResponses.sumThenReset(), now - lastReportNanos, now))
                .append('\n').append(percentiles(times(false), "whole run"));
        sb.append(String.format(Locale.ROOT, "%nDuration: %.1f s\tErrors by response code:",
                (now - startNanos) / 1e9));
        Map<String, LongAdder> sorted = new TreeMap<>(byCode);
        if (sorted.isEmpty()) {
            sb.append(" none");
        }
        sorted.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v.sum()));
        return sb.toString();
    }

    /** The response times of the period since the last report ({@code period}), or of the whole run; sorted. */
    private double[] times(boolean period) {
        int total = 0;
        int[][] parts = new int[buffers.size() + 16][];
        int[] from = new int[parts.length];
        int[] to = new int[parts.length];
        int k = 0;
        for (Times t : buffers) {
            if (k == parts.length) {
                break; // a thread that started while we read: counted next time
            }
            int n = t.size;
            parts[k] = t.values;
            from[k] = period ? t.periodStart : 0;
            to[k] = n;
            if (period) {
                t.periodStart = n;
            }
            total += to[k] - from[k];
            k++;
        }
        double[] d = new double[total];
        int i = 0;
        for (int j = 0; j < k; j++) {
            for (int x = from[j]; x < to[j]; x++) {
                d[i++] = parts[j][x];
            }
        }
        Arrays.sort(d);
        return d;
    }

    /** P50/P90/P95/P99 as the JMeter dashboard computes them (commons-math3, LEGACY estimator). */
    private static String percentiles(double[] sorted, String over) {
        if (sorted.length == 0) {
            return "P50: - ms\tP90: - ms\tP95: - ms\tP99: - ms\t(no responses, " + over + ")";
        }
        Percentiles p = Percentiles.ofSorted(sorted);
        return String.format(Locale.ROOT, "P50: %.2f ms\tP90: %.2f ms\tP95: %.2f ms\tP99: %.2f ms\t(%d responses, %s)",
                p.get(50), p.get(90), p.get(95), p.get(99), sorted.length, over);
    }

    private String detail(long requests, long periodCount, long periodNanos, long now) {
        long n = responses.sum();
        double periodS = Math.max(periodNanos, 1) / 1e9;
        double totalS = Math.max(now - startNanos, 1) / 1e9;
        long max = n == 0 ? 0 : maxMs.get();
        long min = n == 0 ? 0 : minMs.get();
        long avg = n == 0 ? 0 : Math.round((double) timeSum.sum() / n);
        return String.format(Locale.ROOT,
                "[Benchmark-Detail]\tRequestCount: %d\tResponseCount: %d\tTPS: %d\tAvgTPS: %d%n"
                        + "MaxOnceTimeCost: %d ms\tMinOnceTimeCost: %d ms\tAvgOnceTimeCost: %d ms%n"
                        + "ClientErrorCount: %d\tLimitExceededErrorCount: %d\tTimeoutErrorCount: %d",
                Math.max(requests, n), n, Math.round(periodCount / periodS), Math.round(n / totalS), max, min, avg,
                clientErrors.sum(), limitErrors.sum(), timeoutErrors.sum());
    }
}
