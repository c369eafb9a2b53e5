package org.trustload.harness;

import org.trustload.common.Percentiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statistics of a results file counted the way JMeter's summariser counts: Total holds the
 * top-level samples only (one per sample event JMeter notified, Transaction Controller results left
 * out, as the summariser leaves them out by default). A sample's sub-results are shown beneath it and
 * never added to Total; a Transaction Controller's row (response message "Number of samples in
 * transaction ...") is shown above the samples it timed and never added either.
 *
 * <p>Which rows are sub-results is read from the file, not guessed: JMeter's CSV links no row to its
 * parent, so the runs the harness starts add the column {@value Jtl#EVENT_COLUMN} ({@link #exact()}),
 * equal on a sample's row and the rows of its sub-results and different for the thread's next sample.
 * A file without it (written by another tool) falls back to names: a row right after a sample of its
 * thread whose label is that sample's label plus {@code -N} (JMeter's sub-result naming) or plus a space
 * and a step name (TrustLoad's), within the sample's time span.
 *
 * <p>Percentiles are the JMeter dashboard's ({@link Percentiles}) over every value of a label. Throughput
 * of Total is the summariser's final figure when its line is given (it divides by wall-clock time since
 * the test started, not by the span of the samples).
 *
 * <p>API for other harness commands (e.g. sizing steps): {@link #of(Path)}, then {@link #total()},
 * {@link #samples()} by label, {@link Stats#percentile(double)}, {@link #threadGroup(String)} and
 * {@link #topErrors()}.
 */
public final class Summary {

    /** The response code of a sample that reports a configuration error (the elements' contract). */
    public static final String CONFIG_ERROR_CODE = "configError";
    /** The percentiles the table shows (the dashboard's default three, and the median). */
    public static final double[] PERCENTILES = {50, 90, 95, 99};
    private static final String TRANSACTION_PREFIX = "Number of samples in transaction";
    private static final Pattern TRANSACTION_COUNT = Pattern.compile("Number of samples in transaction : (\\d+)");
    private static final int TOP_ERRORS = 10;
    /** Recent top-level rows kept per thread to name a transaction's children. */
    private static final int RECENT = 1000;
    /** Sample events remembered in exact mode: far more than rows of other threads between a sample and its sub-results. */
    private static final int RECENT_EVENTS = 100_000;
    private static final Pattern SUMMARISER = Pattern.compile(
            "summary ([=+])\\s+(\\d+) in (\\d+):(\\d\\d):(\\d\\d) =\\s+([\\d.]+)/s.*?Err:\\s+(\\d+)");
    private static final Pattern ENGINE_PREFIX = Pattern.compile("^\\d{1,3}(?:\\.\\d{1,3}){3}:\\d+-");
    /** JMeter names a thread {@code "<group> <g>-<n>"}. */
    private static final Pattern THREAD_NAME = Pattern.compile("^(.*) \\d+-\\d+$");
    private static final Pattern SUB_RESULT_NAME = Pattern.compile("-\\d+(?:-\\d+)*");

    /** What a row is in the summary. */
    public enum Kind { SAMPLE, SUB_RESULT, TRANSACTION }

    /** Counts and response times of one label of one kind (or of Total, or of a thread group). */
    public static final class Stats {
        private final String label;
        private final Kind kind;
        private long count;
        private long errors;
        private long sum;
        private long first = Long.MAX_VALUE;
        private long last = Long.MIN_VALUE;
        private long[] times = new long[16];
        private Percentiles percentiles;

        Stats(String label, Kind kind) {
            this.label = label;
            this.kind = kind;
        }

        void add(Jtl.Sample s) {
            if (count == times.length) {
                times = Arrays.copyOf(times, times.length * 2);
            }
            times[(int) count++] = s.elapsed();
            sum += s.elapsed();
            percentiles = null;
            if (!s.success()) {
                errors++;
            }
            first = Math.min(first, s.timeStamp());
            last = Math.max(last, s.end());
        }

        public String label() {
            return label;
        }

        public Kind kind() {
            return kind;
        }

        public long count() {
            return count;
        }

        public long errors() {
            return errors;
        }

        public double errorPct() {
            return count == 0 ? 0 : 100.0 * errors / count;
        }

        /** Samples per second over the span from the first start to the last end of these rows. */
        public double throughput() {
            return count == 0 || last <= first ? 0 : count * 1000.0 / (last - first);
        }

        /** ms from the first start to the last end; 0 without rows. */
        public long spanMs() {
            return count == 0 ? 0 : last - first;
        }

        /** Start of the first row (ms since the epoch); {@code Long.MAX_VALUE} without rows. */
        public long firstStart() {
            return first;
        }

        /** End of the last row (ms since the epoch); {@code Long.MIN_VALUE} without rows. */
        public long lastEnd() {
            return last;
        }

        /** Mean response time in ms; 0 without rows. */
        public double mean() {
            return count == 0 ? 0 : (double) sum / count;
        }

        /** Smallest response time in ms; 0 without rows. */
        public long min() {
            return count == 0 ? 0 : (long) percentiles().min();
        }

        /** Largest response time in ms; 0 without rows. */
        public long max() {
            return count == 0 ? 0 : (long) percentiles().max();
        }

        /** The p-th percentile (0 &lt; p &le; 100) of the response times by the dashboard's method; NaN without rows. */
        public double percentile(double p) {
            return percentiles().get(p);
        }

        /** The response times, ready for more percentiles ({@link Percentiles}). */
        public Percentiles percentiles() {
            if (percentiles == null) {
                percentiles = Percentiles.of(times, (int) count);
            }
            return percentiles;
        }
    }

    /** JMeter's summariser's final line ({@code summary = N in HH:MM:SS = R/s ... Err: E}). */
    public record Summariser(long count, long seconds, double rate, long errors) {
    }

    /**
     * Failed top-level samples that differ only in per-sample values.
     *
     * @param key response code and message with values that vary per sample (times, serials, long numbers,
     *        hex strings, UUIDs) written as {@code <time>}, {@code <n>}, {@code <hex>}, {@code <uuid>}
     * @param example the first such failure as it was written
     */
    public record ErrorGroup(String key, long count, String example) {
    }

    private final Map<String, Stats> samples = new LinkedHashMap<>();
    /** Sub-result stats per parent label (a sample's, or a transaction's in parent mode). */
    private final Map<String, Map<String, Stats>> subResults = new LinkedHashMap<>();
    /** Transaction stats, and the labels of the samples each one timed. */
    private final Map<String, Stats> transactions = new LinkedHashMap<>();
    private final Map<String, Set<String>> transactionChildren = new LinkedHashMap<>();
    private final Set<String> inTransaction = new LinkedHashSet<>();
    private final Stats total = new Stats("Total", Kind.SAMPLE);
    private final Map<String, Stats> threadGroups = new LinkedHashMap<>();
    private final Map<String, ErrorGroup> errors = new HashMap<>();
    private final Set<String> threadNames = new LinkedHashSet<>();
    private final Map<String, ThreadState> threads = new HashMap<>();
    /** Exact mode: the first row of each recent sample event (thread name + event column), its parent for the rest. */
    private final Map<String, Jtl.Sample> eventFirstRow = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Jtl.Sample> eldest) {
            return size() > RECENT_EVENTS;
        }
    };
    private boolean exact = true;
    private long configErrors;
    private long rows;

    /** Where a thread is in its rows: its last top-level row (or transaction row) and its recent samples. */
    private static final class ThreadState {
        Jtl.Sample top;
        boolean transaction;
        final Deque<Jtl.Sample> recent = new ArrayDeque<>();
    }

    private Summary() {
    }

    /** Reads {@code jtl} (CSV). */
    public static Summary of(Path jtl) throws IOException {
        Summary s = new Summary();
        Jtl.forEach(jtl, s::add);
        return s;
    }

    private void add(Jtl.Sample row) {
        if (rows++ == 0) {
            exact = !row.event().isEmpty();
        }
        threadNames.add(row.threadName());
        if (CONFIG_ERROR_CODE.equals(row.responseCode())) {
            configErrors++;
        }
        ThreadState t = threads.computeIfAbsent(row.threadName(), n -> new ThreadState());
        Jtl.Sample parent = parentOf(row, t);
        if (parent != null) {
            subResults.computeIfAbsent(parent.label(), l -> new LinkedHashMap<>())
                    .computeIfAbsent(row.label(), l -> new Stats(l, Kind.SUB_RESULT)).add(row);
            return;
        }
        t.top = row;
        t.transaction = row.responseMessage().startsWith(TRANSACTION_PREFIX);
        if (t.transaction) {
            transactions.computeIfAbsent(row.label(), l -> new Stats(l, Kind.TRANSACTION)).add(row);
            nameChildren(row, t);
            return;
        }
        t.recent.addLast(row);
        if (t.recent.size() > RECENT) {
            t.recent.removeFirst();
        }
        samples.computeIfAbsent(row.label(), l -> new Stats(l, Kind.SAMPLE)).add(row);
        total.add(row);
        threadGroups.computeIfAbsent(threadGroupOf(row.threadName()), g -> new Stats(g, Kind.SAMPLE)).add(row);
        if (!row.success()) {
            String example = errorText(row);
            errors.merge(errorKey(example), new ErrorGroup(errorKey(example), 1, example),
                    (a, b) -> new ErrorGroup(a.key(), a.count() + 1, a.example()));
        }
    }

    /**
     * The first row of the sample event {@code row} belongs to, when it is not that first row itself: the
     * row of the same thread with the same {@value Jtl#EVENT_COLUMN}; without that column, the thread's last
     * top-level row when {@code row} carries JMeter's or TrustLoad's sub-result naming within its span (1 ms
     * of slack: JMeter's per-result clocks differ by a millisecond).
     */
    private Jtl.Sample parentOf(Jtl.Sample row, ThreadState t) {
        if (exact) {
            // "null": an event JMeter built without variables (e.g. distributed Statistical mode): each row its own
            if (row.event().isEmpty() || row.event().equals("null")) {
                return null;
            }
            String key = row.threadName() + '\u0000' + row.event();
            Jtl.Sample first = eventFirstRow.get(key);
            if (first == null) {
                eventFirstRow.put(key, row);
            }
            return first;
        }
        return t.top != null && sameEvent(row, t) ? t.top : null;
    }

    /** Without the event column: JMeter's or TrustLoad's sub-result naming within the parent's span. */
    private static boolean sameEvent(Jtl.Sample row, ThreadState t) {
        if (t.transaction) {
            return false;
        }
        String parent = t.top.label();
        String label = row.label();
        boolean named = label.length() > parent.length() && label.startsWith(parent)
                && (label.charAt(parent.length()) == ' ' || SUB_RESULT_NAME.matcher(label.substring(parent.length())).matches());
        return named && row.timeStamp() >= t.top.timeStamp() - 1 && row.end() <= t.top.end() + 1;
    }

    /**
     * A transaction row in non-parent mode follows the samples it timed: its message says how many
     * ("Number of samples in transaction : N"), the last N top-level rows of the thread.
     */
    private void nameChildren(Jtl.Sample row, ThreadState t) {
        Matcher m = TRANSACTION_COUNT.matcher(row.responseMessage());
        int n = m.lookingAt() ? (int) Math.min(Integer.parseInt(m.group(1)), t.recent.size()) : 0;
        Set<String> children = transactionChildren.computeIfAbsent(row.label(), l -> new LinkedHashSet<>());
        List<Jtl.Sample> recent = new ArrayList<>(t.recent);
        for (Jtl.Sample c : recent.subList(recent.size() - n, recent.size())) {
            if (!inTransaction.contains(c.label())) {
                children.add(c.label());
                inTransaction.add(c.label());
            }
        }
        t.recent.clear();
    }

    /** The thread group a JMeter thread name belongs to (engine prefix and thread numbers removed). */
    static String threadGroupOf(String threadName) {
        String local = ENGINE_PREFIX.matcher(threadName).replaceFirst("");
        Matcher m = THREAD_NAME.matcher(local);
        return m.matches() ? m.group(1) : local;
    }

    private static String errorText(Jtl.Sample row) {
        String text = (row.responseCode() + " " + row.responseMessage()).strip().replaceAll("\\s+", " ");
        if (!row.failureMessage().isBlank()) {
            text += " [assertion: " + row.failureMessage().strip().replaceAll("\\s+", " ") + "]";
        }
        return text.isEmpty() ? "(no code)" : text;
    }

    /** Per-sample values a message may carry, most specific first, and what stands for them in a group's key. */
    private static final List<Map.Entry<Pattern, String>> VARYING = List.of(
            Map.entry(Pattern.compile("\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b"), "<uuid>"),
            Map.entry(Pattern.compile("\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?"), "<time>"),
            Map.entry(Pattern.compile("\\b\\d{1,2}:\\d{2}:\\d{2}(?:[.,]\\d+)?\\b"), "<time>"),
            Map.entry(Pattern.compile("\\b\\d{12,14}(?:\\.\\d+)?Z\\b"), "<time>"),
            Map.entry(Pattern.compile("\\b0x[0-9a-fA-F]+\\b"), "<hex>"),
            Map.entry(Pattern.compile("\\b[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5,}\\b"), "<hex>"),
            Map.entry(Pattern.compile("\\b(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\\d)[0-9a-fA-F]{8,}\\b"), "<hex>"),
            Map.entry(Pattern.compile("\\b\\d+(?:\\.\\d+)?( ?(?:ms|s|µs|us|ns))\\b"), "<n>$1"),
            Map.entry(Pattern.compile("\\b\\d{5,}\\b"), "<n>"));

    /**
     * The grouping key of a failure: its text with per-sample values (timestamps, UUIDs, hex strings and
     * serials, durations, numbers of five digits or more) replaced, so one cause is one row. Short numbers
     * stay: HTTP statuses, ports and result codes tell causes apart.
     */
    static String errorKey(String text) {
        String key = text;
        for (Map.Entry<Pattern, String> v : VARYING) {
            key = v.getKey().matcher(key).replaceAll(v.getValue());
        }
        return key;
    }

    /** Top-level samples: the summariser's count. */
    public Stats total() {
        return total;
    }

    /** Top-level samples by label, in the order they first appear. */
    public Map<String, Stats> samples() {
        return samples;
    }

    /** Sub-results by parent label (a sample's, or a parent-mode transaction's), then by their own label. */
    public Map<String, Map<String, Stats>> subResults() {
        return subResults;
    }

    /** Transaction Controller rows by label (not in Total). */
    public Map<String, Stats> transactions() {
        return transactions;
    }

    /** Top-level samples of the thread group {@code name} (of every engine); empty stats when it wrote none. */
    public Stats threadGroup(String name) {
        return threadGroups.getOrDefault(name, new Stats(name, Kind.SAMPLE));
    }

    /** Whether sub-results were known from the {@value Jtl#EVENT_COLUMN} column rather than inferred from names. */
    public boolean exact() {
        return exact;
    }

    /** Every row of the file, sub-results and transactions included (what the dashboard counts). */
    public long rows() {
        return rows;
    }

    /** Rows (at any level) with response code {@value #CONFIG_ERROR_CODE}. */
    public long configErrors() {
        return configErrors;
    }

    /** Failed top-level samples grouped by code and message without per-sample values, most frequent first. */
    public List<ErrorGroup> topErrors() {
        List<ErrorGroup> sorted = new ArrayList<>(errors.values());
        sorted.sort(Comparator.comparingLong(ErrorGroup::count).reversed().thenComparing(ErrorGroup::key));
        return sorted.subList(0, Math.min(TOP_ERRORS, sorted.size()));
    }

    /**
     * Whether a thread of the thread group {@code name} wrote a row. JMeter names threads
     * {@code "<group> <g>-<n>"}, prefixed with {@code "<host>:<port>-"} in distributed mode.
     */
    public boolean hasThreadsOf(String group) {
        for (String t : threadNames) {
            String local = ENGINE_PREFIX.matcher(t).replaceFirst("");
            if (local.startsWith(group + " ")) {
                return true;
            }
        }
        return false;
    }

    /** Whether any row came from the engine {@code host} ({@code 127.0.0.1:port}). */
    public boolean hasThreadsOfEngine(String host) {
        return threadNames.stream().anyMatch(t -> t.startsWith(host + "-"));
    }

    /** The summariser's final figures in a console or jmeter.log text; empty when it printed none. */
    public static Optional<Summariser> summariser(String text) {
        Summariser total = null;
        Summariser onlyDelta = null;
        int deltas = 0;
        Matcher m = SUMMARISER.matcher(text);
        while (m.find()) {
            Summariser s = new Summariser(Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3)) * 3600 + Long.parseLong(m.group(4)) * 60 + Long.parseLong(m.group(5)),
                    Double.parseDouble(m.group(6)), Long.parseLong(m.group(7)));
            if (m.group(1).equals("=")) {
                total = s;
            } else {
                onlyDelta = s;
                deltas++;
            }
        }
        // with a single interval the summariser prints only its "+" line
        return Optional.ofNullable(total != null ? total : deltas == 1 ? onlyDelta : null);
    }

    /**
     * The table: top-level labels sorted, each followed by its sub-results (indented); transactions
     * above the samples they timed; Total counts top-level samples, with the summariser's throughput
     * when given.
     */
    public String table(Optional<Summariser> summariser) {
        List<String[]> lines = new ArrayList<>();
        Set<String> shown = new LinkedHashSet<>();
        for (Stats t : sorted(transactions.values())) {
            addWithSubResults(lines, t, "", "transaction (not in Total): ");
            for (String child : transactionChildren.getOrDefault(t.label(), Set.of())) {
                Stats s = samples.get(child);
                if (s != null && shown.add(child)) {
                    addWithSubResults(lines, s, "  ", "");
                }
            }
        }
        for (Stats s : sorted(samples.values())) {
            if (shown.add(s.label())) {
                addWithSubResults(lines, s, "", "");
            }
        }
        double rate = summariser.map(Summariser::rate).orElse(total.throughput());
        String[] totalCells = cells(total, "Total", rate);
        String[] head = {"Label", "Samples", "Errors", "Err%", "Avg ms", "Min ms", "p50 ms", "p90 ms", "p95 ms", "p99 ms",
            "Max ms", "Throughput/s"};
        int w = Math.max(5, lines.stream().mapToInt(c -> c[0].length()).max().orElse(5));
        String fmt = "%-" + w + "s %9s %8s %7s %9s %7s %9s %9s %9s %9s %8s %12s%n";
        String rule = "-".repeat(w + 111) + System.lineSeparator();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, fmt, (Object[]) head)).append(rule);
        for (String[] c : lines) {
            sb.append(String.format(Locale.ROOT, fmt, (Object[]) c));
        }
        sb.append(rule).append(String.format(Locale.ROOT, fmt, (Object[]) totalCells));
        long nested = rows - total.count();
        if (nested > 0) {
            sb.append(String.format(Locale.ROOT, "(Total: %d top-level samples; the %d sub-result and transaction rows above are"
                    + " shown beneath their parent and not added in; the results file has %d rows.)%n", total.count(), nested, rows));
        }
        sb.append(String.format(Locale.ROOT, "(Percentiles: the JMeter dashboard's method over every sample of a label;"
                + " sub-results %s.)%n", exact ? "known from the " + Jtl.EVENT_COLUMN + " column"
                : "inferred from their names (the file has no " + Jtl.EVENT_COLUMN + " column)"));
        summariser.ifPresent(s -> {
            if (s.count() != total.count()) {
                sb.append(String.format(Locale.ROOT, "Note: JMeter's summariser counted %d samples, the results file %d top-level"
                        + " samples (%s).%n", s.count(), total.count(), exact
                        ? "a sample listener filter, results saved elsewhere, or samplers reporting several samples per result?"
                        : "sub-results could only be inferred from their names"));
            }
        });
        return sb.toString();
    }

    private void addWithSubResults(List<String[]> lines, Stats s, String indent, String prefix) {
        lines.add(cells(s, indent + prefix + s.label(), Double.NaN));
        for (Stats sub : subResults.getOrDefault(s.label(), Map.of()).values()) {
            lines.add(cells(sub, indent + "  - " + sub.label(), Double.NaN));
        }
    }

    private static List<Stats> sorted(Collection<Stats> stats) {
        return stats.stream().sorted(Comparator.comparing(Stats::label)).toList();
    }

    private static String[] cells(Stats s, String label, double rate) {
        String[] c = new String[12];
        c[0] = label;
        c[1] = Long.toString(s.count());
        c[2] = Long.toString(s.errors());
        c[3] = String.format(Locale.ROOT, "%.2f%%", s.errorPct());
        c[4] = String.format(Locale.ROOT, "%.2f", s.mean());
        c[5] = Long.toString(s.min());
        for (int i = 0; i < PERCENTILES.length; i++) {
            c[6 + i] = s.count() == 0 ? "-" : ms(s.percentile(PERCENTILES[i]));
        }
        c[10] = Long.toString(s.max());
        c[11] = String.format(Locale.ROOT, "%.2f", Double.isNaN(rate) ? s.throughput() : rate);
        return c;
    }

    /** A percentile as the dashboard shows it: two decimals (whole milliseconds interpolate, e.g. 10.99). */
    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** The top errors, one line each, untruncated, with one full example where the grouping hid values. */
    public String errorTable() {
        List<ErrorGroup> top = topErrors();
        if (top.isEmpty()) {
            return String.format("%nNo failed samples.%n");
        }
        int w = Math.max(5, Long.toString(top.get(0).count()).length());
        StringBuilder sb = new StringBuilder(String.format("%nTop errors of the %d top-level samples (response code, message;"
                + " values that vary per sample shown as <time>, <n>, <hex>, <uuid>):%n", total.count()));
        for (ErrorGroup e : top) {
            sb.append(String.format(Locale.ROOT, "%" + w + "d  %s%n", e.count(), e.key()));
            if (!e.example().equals(e.key())) {
                sb.append(" ".repeat(w)).append("  e.g. ").append(e.example()).append(System.lineSeparator());
            }
        }
        return sb.toString();
    }

    /** The JVM Stats listener's summary files ({@code jvm-stats-summary*}) in {@code dir}, printed as they are. */
    public static String jvmStats(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("jvm-stats-summary")
                    && p.getFileName().toString().endsWith(".txt")).sorted().toList()) {
                sb.append(String.format("%nJVM Stats summary (%s):%n", f.getFileName()));
                sb.append(Files.readString(f).stripTrailing()).append(System.lineSeparator());
            }
        }
        return sb.toString();
    }
}
