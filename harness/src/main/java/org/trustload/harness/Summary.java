package org.trustload.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
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
 * top-level samples only. A sample's sub-results (rows written right after their parent, on the same
 * thread, within its time span) are shown beneath it and never added to Total; a Transaction
 * Controller's own row (response message "Number of samples in transaction ...", which the summariser
 * ignores by default) is shown above the samples it timed and never added either. Throughput of Total
 * is the summariser's final figure when its line is given (it divides by wall-clock time since the
 * test started, not by the span of the samples).
 */
public final class Summary {

    /** The response code of a sample that reports a configuration error (the elements' contract). */
    public static final String CONFIG_ERROR_CODE = "configError";
    private static final String TRANSACTION_PREFIX = "Number of samples in transaction";
    private static final int TOP_ERRORS = 10;
    private static final Pattern SUMMARISER = Pattern.compile(
            "summary ([=+])\\s+(\\d+) in (\\d+):(\\d\\d):(\\d\\d) =\\s+([\\d.]+)/s.*?Err:\\s+(\\d+)");
    private static final Pattern ENGINE_PREFIX = Pattern.compile("^\\d{1,3}(?:\\.\\d{1,3}){3}:\\d+-");

    /** What a row is in the summary. */
    public enum Kind { SAMPLE, SUB_RESULT, TRANSACTION }

    /** Counts and response times of one label of one kind. */
    public static final class Stats {
        private final String label;
        private final Kind kind;
        private long count;
        private long errors;
        private long first = Long.MAX_VALUE;
        private long last = Long.MIN_VALUE;
        private long[] times = new long[16];

        Stats(String label, Kind kind) {
            this.label = label;
            this.kind = kind;
        }

        void add(Jtl.Sample s) {
            if (count == times.length) {
                times = Arrays.copyOf(times, times.length * 2);
            }
            times[(int) count++] = s.elapsed();
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

        /** Samples per second over the span from the first start to the last end of this label. */
        public double throughput() {
            return count == 0 || last <= first ? 0 : count * 1000.0 / (last - first);
        }

        long spanMs() {
            return count == 0 ? 0 : last - first;
        }

        public double mean() {
            long sum = 0;
            for (int i = 0; i < count; i++) {
                sum += times[i];
            }
            return count == 0 ? 0 : (double) sum / count;
        }

        long percentile(double p) {
            if (count == 0) {
                return 0;
            }
            long[] sorted = Arrays.copyOf(times, (int) count);
            Arrays.sort(sorted);
            int i = (int) Math.ceil(p / 100.0 * count) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }
    }

    /** JMeter's summariser's final line ({@code summary = N in HH:MM:SS = R/s ... Err: E}). */
    public record Summariser(long count, long seconds, double rate, long errors) {
    }

    private final Map<String, Stats> samples = new LinkedHashMap<>();
    /** Sub-result stats per parent label. */
    private final Map<String, Map<String, Stats>> subResults = new LinkedHashMap<>();
    /** Transaction stats, and the labels of the samples each one timed. */
    private final Map<String, Stats> transactions = new LinkedHashMap<>();
    private final Map<String, Set<String>> transactionChildren = new LinkedHashMap<>();
    private final Set<String> inTransaction = new LinkedHashSet<>();
    private final Stats total = new Stats("Total", Kind.SAMPLE);
    private final Map<String, Long> errors = new HashMap<>();
    private final Set<String> threadNames = new LinkedHashSet<>();
    private long configErrors;
    private long rows;

    private Summary() {
    }

    /** Reads {@code jtl} (CSV). */
    public static Summary of(Path jtl) throws IOException {
        Summary s = new Summary();
        Map<String, Jtl.Sample> lastTop = new HashMap<>();
        Map<String, List<Jtl.Sample>> sinceTransaction = new HashMap<>();
        Jtl.forEach(jtl, row -> s.add(row, lastTop, sinceTransaction));
        return s;
    }

    private void add(Jtl.Sample row, Map<String, Jtl.Sample> lastTop, Map<String, List<Jtl.Sample>> sinceTransaction) {
        rows++;
        threadNames.add(row.threadName());
        if (CONFIG_ERROR_CODE.equals(row.responseCode())) {
            configErrors++;
        }
        if (row.responseMessage().startsWith(TRANSACTION_PREFIX)) {
            transactions.computeIfAbsent(row.label(), l -> new Stats(l, Kind.TRANSACTION)).add(row);
            Set<String> children = transactionChildren.computeIfAbsent(row.label(), l -> new LinkedHashSet<>());
            for (Jtl.Sample c : sinceTransaction.getOrDefault(row.threadName(), List.of())) {
                if (c.timeStamp() >= row.timeStamp() && !inTransaction.contains(c.label())) {
                    children.add(c.label());
                    inTransaction.add(c.label());
                }
            }
            sinceTransaction.remove(row.threadName());
            lastTop.remove(row.threadName());
            return;
        }
        Jtl.Sample parent = lastTop.get(row.threadName());
        if (parent != null && isSubResult(row, parent)) {
            subResults.computeIfAbsent(parent.label(), l -> new LinkedHashMap<>())
                    .computeIfAbsent(row.label(), l -> new Stats(l, Kind.SUB_RESULT)).add(row);
            return;
        }
        lastTop.put(row.threadName(), row);
        List<Jtl.Sample> recent = sinceTransaction.computeIfAbsent(row.threadName(), t -> new ArrayList<>());
        if (recent.size() < 1000) {
            recent.add(row);
        }
        samples.computeIfAbsent(row.label(), l -> new Stats(l, Kind.SAMPLE)).add(row);
        total.add(row);
        if (!row.success()) {
            errors.merge(errorKey(row), 1L, Long::sum);
        }
    }

    /**
     * A sub-result is written right after its parent on the parent's thread and lies within the
     * parent's time span; the next sample of that thread starts when the parent ends at the earliest,
     * so it only qualifies if it is the parent's label with a suffix (JMeter's {@code parent-N}
     * naming or the element's own step names) or lies strictly inside.
     */
    private static boolean isSubResult(Jtl.Sample row, Jtl.Sample parent) {
        boolean within = row.timeStamp() >= parent.timeStamp() && row.end() <= parent.end();
        if (!within) {
            return false;
        }
        boolean named = row.label().startsWith(parent.label()) && !row.label().equals(parent.label());
        return named || row.timeStamp() < parent.end();
    }

    private static String errorKey(Jtl.Sample row) {
        String key = (row.responseCode() + " " + row.responseMessage()).strip().replaceAll("\\s+", " ");
        if (!row.failureMessage().isBlank()) {
            key += " [assertion: " + row.failureMessage().strip().replaceAll("\\s+", " ") + "]";
        }
        return key.isEmpty() ? "(no code)" : key;
    }

    /** Top-level samples: the summariser's count. */
    public Stats total() {
        return total;
    }

    public Map<String, Stats> samples() {
        return samples;
    }

    public Map<String, Map<String, Stats>> subResults() {
        return subResults;
    }

    public Map<String, Stats> transactions() {
        return transactions;
    }

    /** Every row of the file, sub-results and transactions included (what the dashboard counts). */
    public long rows() {
        return rows;
    }

    /** Rows (at any level) with response code {@value #CONFIG_ERROR_CODE}. */
    public long configErrors() {
        return configErrors;
    }

    /** Failed top-level samples by "code message", most frequent first. */
    public List<Map.Entry<String, Long>> topErrors() {
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(errors.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
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
            lines.add(cells(t, "", "transaction (not in Total): " + t.label(), Double.NaN));
            for (String child : transactionChildren.getOrDefault(t.label(), Set.of())) {
                Stats s = samples.get(child);
                if (s != null && shown.add(child)) {
                    addWithSubResults(lines, s, "  ");
                }
            }
        }
        for (Stats s : sorted(samples.values())) {
            if (shown.add(s.label())) {
                addWithSubResults(lines, s, "");
            }
        }
        double rate = summariser.map(Summariser::rate).orElse(total.throughput());
        String[] totalCells = cells(total, "", "Total", rate);
        String[] head = {"Label", "Samples", "Errors", "Err%", "Avg ms", "Min ms", "Median", "p90 ms", "p99 ms", "Max ms",
            "Throughput/s"};
        int w = Math.max(5, lines.stream().mapToInt(c -> c[0].length()).max().orElse(5));
        String fmt = "%-" + w + "s %9s %8s %7s %8s %7s %8s %8s %8s %8s %12s%n";
        String rule = "-".repeat(w + 97) + System.lineSeparator();
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
        summariser.ifPresent(s -> {
            if (s.count() != total.count()) {
                sb.append(String.format(Locale.ROOT, "Note: JMeter's summariser counted %d samples, the results file %d top-level"
                        + " samples (a sample listener filter, or results saved elsewhere?).%n", s.count(), total.count()));
            }
        });
        return sb.toString();
    }

    private void addWithSubResults(List<String[]> lines, Stats s, String indent) {
        lines.add(cells(s, indent, s.label(), Double.NaN));
        for (Stats sub : subResults.getOrDefault(s.label(), Map.of()).values()) {
            lines.add(cells(sub, indent + "  - ", sub.label(), Double.NaN));
        }
    }

    private static List<Stats> sorted(java.util.Collection<Stats> stats) {
        return stats.stream().sorted(Comparator.comparing(Stats::label)).toList();
    }

    private static String[] cells(Stats s, String indent, String label, double rate) {
        return new String[] {indent + label, Long.toString(s.count()), Long.toString(s.errors()),
            String.format(Locale.ROOT, "%.2f%%", s.errorPct()), String.format(Locale.ROOT, "%.1f", s.mean()),
            Long.toString(s.percentile(0)), Long.toString(s.percentile(50)), Long.toString(s.percentile(90)),
            Long.toString(s.percentile(99)), Long.toString(s.percentile(100)),
            String.format(Locale.ROOT, "%.2f", Double.isNaN(rate) ? s.throughput() : rate)};
    }

    /** The top errors, one line each, untruncated. */
    public String errorTable() {
        List<Map.Entry<String, Long>> top = topErrors();
        if (top.isEmpty()) {
            return String.format("%nNo failed samples.%n");
        }
        int w = Math.max(5, Long.toString(top.get(0).getValue()).length());
        StringBuilder sb = new StringBuilder(String.format("%nTop errors of the %d top-level samples (response code, message):%n",
                total.count()));
        for (Map.Entry<String, Long> e : top) {
            sb.append(String.format(Locale.ROOT, "%" + w + "d  %s%n", e.getValue(), e.getKey()));
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
