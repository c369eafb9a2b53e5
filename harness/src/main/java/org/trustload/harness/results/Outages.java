package org.trustload.harness.results;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The outages of a run, per label: stretches in which every sample of a label failed, from when the label was last
 * seen working to its first success after, judged in the order the samples ended; a stretch shorter than
 * {@link #MIN_MS} is an error burst, not an outage. What is left out stays in the error counts. The rules:
 * docs/reliability.md#what-a-run-tells-you-about-an-outage.
 */
public final class Outages {

    /** The shortest window called an outage: below it, failures are errors among successes. */
    public static final long MIN_MS = 1000;

    /**
     * One outage of one label.
     *
     * @param from the window's start (ms since the epoch): the later of the first failure's start and the last
     *        success's end before it
     * @param firstFailure the start of the first failed sample
     * @param lastFailure the end of the last failed sample
     * @param recovered the end of the first success after it; -1 when the run ended before one
     * @param failed the samples that failed in it
     * @param example the first failure's response code and message
     */
    public record Outage(String label, long from, long firstFailure, long lastFailure, long recovered, long failed,
                         String example) {

        /** Whether a success followed before the run ended. */
        public boolean isRecovered() {
            return recovered >= 0;
        }

        /** The window in ms: to the recovery, or to the last failure when none came. */
        public long durationMs() {
            return (isRecovered() ? recovered : lastFailure) - from;
        }

        /** ms from the last failure's end to the first success's end; -1 when not recovered. */
        public long recoveryAfterLastFailureMs() {
            return isRecovered() ? Math.max(0, recovered - lastFailure) : -1;
        }
    }

    /** A label's samples: start, end, success and the failure text, in the order they were added. */
    private static final class Rows {
        long[] starts = new long[16];
        long[] ends = new long[16];
        boolean[] ok = new boolean[16];
        String[] failures = new String[16];
        int n;

        void add(long start, long end, boolean success, String failure) {
            if (n == starts.length) {
                int m = n * 2;
                starts = Arrays.copyOf(starts, m);
                ends = Arrays.copyOf(ends, m);
                ok = Arrays.copyOf(ok, m);
                failures = Arrays.copyOf(failures, m);
            }
            starts[n] = start;
            ends[n] = end;
            ok[n] = success;
            // only the failures' texts are kept (one string per failed sample; successes keep none)
            failures[n] = success ? null : failure;
            n++;
        }
    }

    private final Map<String, Rows> labels = new LinkedHashMap<>();
    private List<Outage> computed;

    /** Adds one top-level sample of {@code label}; {@code failure} is its code and message (ignored on success). */
    public void add(String label, long start, long elapsed, boolean success, String failure) {
        labels.computeIfAbsent(label, l -> new Rows()).add(start, start + elapsed, success, failure);
        computed = null;
    }

    /** Every outage, per label in the order the labels first appeared, each label's in time order. */
    public List<Outage> all() {
        if (computed == null) {
            List<Outage> out = new ArrayList<>();
            labels.forEach((label, rows) -> out.addAll(of(label, rows)));
            computed = List.copyOf(out);
        }
        return computed;
    }

    /** The longest outage (recovered or not); empty when there was none. */
    public Optional<Outage> longest() {
        return all().stream().max(Comparator.comparingLong(Outage::durationMs));
    }

    /** The longest outage's window in ms; 0 when there was none (what {@code --slo outage<=T} judges). */
    public long longestMs() {
        return longest().map(Outage::durationMs).orElse(0L);
    }

    /** The longest window among the outages that ended (recovered, or last failed) after {@code after}; 0 without. */
    public long longestMsEndingAfter(long after) {
        return all().stream().filter(o -> (o.isRecovered() ? o.recovered() : o.lastFailure()) > after)
                .mapToLong(Outage::durationMs).max().orElse(0L);
    }

    private static List<Outage> of(String label, Rows r) {
        Integer[] order = new Integer[r.n];
        for (int i = 0; i < r.n; i++) {
            order[i] = i;
        }
        // by end, then by start, then as written: a stable order for samples ending in one millisecond
        Arrays.sort(order, Comparator.<Integer>comparingLong(i -> r.ends[i]).thenComparingLong(i -> r.starts[i]));
        List<Outage> out = new ArrayList<>();
        long lastSuccessEnd = Long.MIN_VALUE;
        int first = -1;
        long from = 0;
        long lastFailure = 0;
        long failed = 0;
        for (int i : order) {
            if (!r.ok[i]) {
                if (first < 0) {
                    first = i;
                    from = Math.max(r.starts[i], lastSuccessEnd);
                    failed = 0;
                }
                failed++;
                lastFailure = Math.max(lastFailure, r.ends[i]);
            } else {
                if (first >= 0 && r.ends[i] - from >= MIN_MS) {
                    out.add(new Outage(label, from, r.starts[first], lastFailure, r.ends[i], failed,
                            r.failures[first]));
                }
                first = -1;
                lastFailure = 0;
                lastSuccessEnd = r.ends[i];
            }
        }
        if (first >= 0 && lastFailure - from >= MIN_MS) {
            out.add(new Outage(label, from, r.starts[first], lastFailure, -1, failed, r.failures[first]));
        }
        return out;
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /**
     * The summary's block: one line per outage (label, window, failed samples, recovery), or nothing when the run
     * had none. Lines fit {@link Summary#WIDTH}.
     */
    public String text() {
        List<Outage> all = all();
        if (all.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(System.lineSeparator());
        SummaryText.wrap(sb, "Outages (every sample of a label failing for " + MIN_MS / 1000
                + " s or more; times UTC, from the"
                + " label last seen working or its first failure's start, to its first success after):");
        for (Outage o : all) {
            String head = String.format(Locale.ROOT, "  %s: %s to %s, %s, %d failed sample%s", o.label(),
                    TIME.format(Instant.ofEpochMilli(o.from())),
                    o.isRecovered() ? TIME.format(Instant.ofEpochMilli(o.recovered())) : "the end of the run",
                    seconds(o.durationMs()), o.failed(), o.failed() == 1 ? "" : "s");
            String tail = String.format(Locale.ROOT, "; first failure %s, last failure %s, %s",
                    TIME.format(Instant.ofEpochMilli(o.firstFailure())),
                            TIME.format(Instant.ofEpochMilli(o.lastFailure())),
                    o.isRecovered() ? "first success " + seconds(o.recoveryAfterLastFailureMs())
                            + " after the last failure"
                            : "NOT RECOVERED by the end of the run");
            SummaryText.wrap(sb, head + tail + (o.example() == null || o.example().isEmpty() ? "" : " (" + o.example()
                    + ")"));
        }
        return sb.toString();
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.2f s", ms / 1000.0);
    }
}
