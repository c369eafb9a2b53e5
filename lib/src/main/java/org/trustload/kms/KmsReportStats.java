package org.trustload.kms;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
 * the final block, of the whole run) by the JMeter dashboard's method ({@link Percentiles}, as the run summary),
 * exactly, from a count per millisecond value: memory bounded by the distinct response times, not by the samples
 * (a buffer of every time grew the JMeter JVM's live heap by 15 MB an hour in a 30-minute KMS soak).
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
    /**
     * How many responses took each whole number of milliseconds (lock-free on the sample path once a value has
     * been seen); at most one entry per distinct time, however long the run.
     */
    private final Map<Integer, LongAdder> countsByMs = new ConcurrentHashMap<>();
    /** The counts of {@link #countsByMs} at the last period report (the reporter's, under its lock). */
    private final Map<Integer, Long> reportedByMs = new HashMap<>();

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
        Integer ms = (int) Math.min(Integer.MAX_VALUE, Math.max(0, elapsedMs));
        LongAdder count = countsByMs.get(ms);
        if (count == null) {
            count = countsByMs.computeIfAbsent(ms, k -> new LongAdder());
        }
        count.increment();
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

    /** How many distinct response times the report holds counts for (its memory; for tests). */
    synchronized int distinctTimes() {
        return Math.max(countsByMs.size(), reportedByMs.size());
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

    /**
     * The response times of the period since the last report ({@code period}), or of the whole run, as ascending
     * values and their counts; a response counted while we read is in this period or the next, never both.
     */
    private long[][] times(boolean period) {
        TreeMap<Integer, Long> counted = new TreeMap<>();
        countsByMs.forEach((ms, adder) -> {
            long now = adder.sum();
            long n = now;
            if (period) {
                Long before = reportedByMs.put(ms, now);
                n -= before == null ? 0 : before;
            }
            if (n > 0) {
                counted.put(ms, n);
            }
        });
        long[][] d = new long[2][counted.size()];
        int i = 0;
        for (Map.Entry<Integer, Long> e : counted.entrySet()) {
            d[0][i] = e.getKey();
            d[1][i++] = e.getValue();
        }
        return d;
    }

    /** P50/P90/P95/P99 as the JMeter dashboard computes them (commons-math3's LEGACY estimator, from counts). */
    private static String percentiles(long[][] counted, String over) {
        long n = 0;
        for (long c : counted[1]) {
            n += c;
        }
        if (n == 0) {
            return "P50: - ms\tP90: - ms\tP95: - ms\tP99: - ms\t(no responses, " + over + ")";
        }
        return String.format(Locale.ROOT, "P50: %.2f ms\tP90: %.2f ms\tP95: %.2f ms\tP99: %.2f ms\t(%d responses, %s)",
                p(counted, 50), p(counted, 90), p(counted, 95), p(counted, 99), n, over);
    }

    private static double p(long[][] counted, double p) {
        return Percentiles.ofCounts(counted[0], counted[1], p);
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
