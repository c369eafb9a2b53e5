package org.trustload.kms;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters and lines of the reference KMS benchmark's periodic report (Alibaba Cloud's KMS
 * instance benchmark tool), computed correctly: a real minimum (the reference never updates its
 * minimum from 0), errors classified by category code instead of message text. Thread-safe; one
 * instance per report. Max/Min/Avg time cost are over the whole run, like the reference; TPS is the
 * responses of the last period divided by its length, AvgTPS the responses since the start divided
 * by the elapsed time.
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
        return head + "\n" + body;
    }

    /** The final statistics block: the detail lines over the whole run, then errors by response code. */
    public synchronized String finalReport(long requests) {
        long now = System.nanoTime();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "----------------- Statistics: [%s]--------------", LocalDateTime.now().format(STAMP)))
                .append('\n').append(detail(requests, periodResponses.sumThenReset(), now - lastReportNanos, now));
        sb.append(String.format(Locale.ROOT, "%nDuration: %.1f s\tErrors by response code:",
                (now - startNanos) / 1e9));
        Map<String, LongAdder> sorted = new TreeMap<>(byCode);
        if (sorted.isEmpty()) {
            sb.append(" none");
        }
        sorted.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v.sum()));
        return sb.toString();
    }

    private String detail(long requests, long periodCount, long periodNanos, long now) {
        long n = responses.sum();
        double periodS = Math.max(periodNanos, 1) / 1e9;
        double totalS = Math.max(now - startNanos, 1) / 1e9;
        long max = n == 0 ? 0 : maxMs.get();
        long min = n == 0 ? 0 : minMs.get();
        long avg = n == 0 ? 0 : Math.round((double) timeSum.sum() / n);
        return String.format(Locale.ROOT, "[Benchmark-Detail]\tRequestCount: %d\tResponseCount: %d\tTPS: %d\tAvgTPS: %d%n"
                        + "MaxOnceTimeCost: %d ms\tMinOnceTimeCost: %d ms\tAvgOnceTimeCost: %d ms%n"
                        + "ClientErrorCount: %d\tLimitExceededErrorCount: %d\tTimeoutErrorCount: %d",
                Math.max(requests, n), n, Math.round(periodCount / periodS), Math.round(n / totalS), max, min, avg,
                clientErrors.sum(), limitErrors.sum(), timeoutErrors.sum());
    }
}
