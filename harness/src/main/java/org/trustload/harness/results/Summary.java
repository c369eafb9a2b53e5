package org.trustload.harness.results;

import org.trustload.common.Percentiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statistics of a results file counted the way JMeter's summariser counts (Total + {@link #warmUp()} = its
 * count), with warm-up rows ({@link #isWarmUp}), sub-results and Transaction Controller rows set apart; sub-results
 * are known from the {@value Jtl#EVENT_COLUMN} column ({@link #exact()}), else inferred from their names; percentiles
 * by the dashboard's method ({@link Percentiles}). The model only: {@link SummaryText} renders it. The rules and why:
 * docs/harness.md#the-summary.
 */
public final class Summary {

    /** The response code of a sample that reports a configuration error (the elements' contract). */
    public static final String CONFIG_ERROR_CODE = "configError";
    /** The percentiles the table shows (the dashboard's default three, and the median). */
    public static final double[] PERCENTILES = {50, 90, 95, 99};
    /** Rows with fewer samples show neither percentiles nor a rate: a handful of values tells no distribution. */
    public static final int MIN_SAMPLES_FOR_STATS = 5;
    /** The summary's width in columns: wider detail stays in report/statistics.json. */
    public static final int WIDTH = 120;
    /** The warm-up naming rule (see the class comment). */
    static final Pattern WARM_UP = Pattern.compile("(?i)^warm[-_ ]?up");
    private static final String TRANSACTION_PREFIX = "Number of samples in transaction";
    private static final Pattern TRANSACTION_COUNT = Pattern.compile(
            "Number of samples in transaction : (\\d+)(?:, number of failing samples : (\\d+))?");
    private static final int TOP_ERRORS = 10;
    /**
     * Sample events remembered in exact mode: far more than rows of other threads between a sample and its sub-results.
     */
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
        /** Total only: each sample's end and failure, for {@link Summary#steady(long)}. */
        private long[] ends;
        private BitSet failed;
        private Percentiles percentiles;
        /** The steady window only: its longest outage in ms ({@link Outages}); NaN for other stats. */
        private double outageMs = Double.NaN;

        Stats(String label, Kind kind) {
            this.label = label;
            this.kind = kind;
        }

        private Stats keepingEnds() {
            ends = new long[16];
            failed = new BitSet();
            return this;
        }

        void add(Jtl.Sample s) {
            add(s.timeStamp(), s.elapsed(), s.success());
        }

        private void add(long start, long elapsed, boolean ok) {
            if (count == times.length) {
                times = Arrays.copyOf(times, times.length * 2);
            }
            if (ends != null) {
                if (count == ends.length) {
                    ends = Arrays.copyOf(ends, ends.length * 2);
                }
                ends[(int) count] = start + elapsed;
                if (!ok) {
                    failed.set((int) count);
                }
            }
            times[(int) count++] = elapsed;
            sum += elapsed;
            percentiles = null;
            if (!ok) {
                errors++;
            }
            first = Math.min(first, start);
            last = Math.max(last, start + elapsed);
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

        /**
         * The p-th percentile (0 &lt; p &le; 100) of the response times by the dashboard's method; NaN without rows.
         */
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

        /** These rows as an {@code Objective} judges them (no server CPU: only {@code size} watches the server). */
        public org.trustload.slo.Objective.Measured measured() {
            Stats s = this;
            return new org.trustload.slo.Objective.Measured() {
                @Override
                public long samples() {
                    return s.count;
                }

                @Override
                public long errors() {
                    return s.errors;
                }

                @Override
                public double percentile(double p) {
                    return s.count == 0 ? Double.NaN : s.percentile(p);
                }

                @Override
                public double mean() {
                    return s.count == 0 ? Double.NaN : s.mean();
                }

                @Override
                public double max() {
                    return s.count == 0 ? Double.NaN : s.max();
                }

                @Override
                public double serverCpuPct() {
                    return Double.NaN;
                }

                @Override
                public double outageMs() {
                    return s.outageMs;
                }
            };
        }
    }

    /** JMeter's summariser's final line ({@code summary = N in HH:MM:SS = R/s ... Err: E}). */
    public record Summariser(long count, long seconds, double rate, long errors) { }

    /**
     * Failed top-level samples that differ only in per-sample values.
     *
     * @param key response code and message with values that vary per sample (times, serials, long numbers,
     *        hex strings, UUIDs) written as {@code <time>}, {@code <n>}, {@code <hex>}, {@code <uuid>}
     * @param example the first such failure as it was written
     */
    public record ErrorGroup(String key, long count, String example) { }

    /** The rows of one part of the run: what Total counts, or the warm-up. */
    static final class Block {
        final Map<String, Stats> samples = new LinkedHashMap<>();
        /** Sub-result stats per parent label (a sample's, or a transaction's in parent mode). */
        final Map<String, Map<String, Stats>> subResults = new LinkedHashMap<>();
        final Map<String, Stats> transactions = new LinkedHashMap<>();
        /** Per transaction label: the samples it timed and the failing ones among them, summed over its rows. */
        final Map<String, long[]> timed = new HashMap<>();
        final Stats total;
        final Map<String, ErrorGroup> errors = new HashMap<>();
        long subResultRows;
        long transactionRows;

        Block(Stats total) {
            this.total = total;
        }

        List<ErrorGroup> topErrors() {
            List<ErrorGroup> sorted = new ArrayList<>(errors.values());
            sorted.sort(Comparator.comparingLong(ErrorGroup::count).reversed().thenComparing(ErrorGroup::key));
            return sorted.subList(0, Math.min(TOP_ERRORS, sorted.size()));
        }
    }

    final Block main = new Block(new Stats("Total", Kind.SAMPLE).keepingEnds());
    final Block warmUp = new Block(new Stats("Warm-up", Kind.SAMPLE));
    private final Map<String, Stats> threadGroups = new LinkedHashMap<>();
    private final Map<String, Set<String>> threadsOfGroup = new LinkedHashMap<>();
    private final Set<String> threadNames = new LinkedHashSet<>();
    /** Top-level samples (warm-up included) by thread name: what each distributed engine sent. */
    private final Map<String, Long> topLevelOfThread = new HashMap<>();
    private final Map<String, ThreadState> threads = new HashMap<>();
    /** Exact mode: the first row of each recent sample event (thread name + event column), its parent for the rest. */
    private final Map<String, Jtl.Sample> eventFirstRow = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Jtl.Sample> eldest) {
            return size() > RECENT_EVENTS;
        }
    };
    final Outages outages = new Outages();
    private boolean exact = true;
    private long configErrors;
    private long rows;

    /** Where a thread is in its rows: its last top-level row (or transaction row). */
    private static final class ThreadState {
        Jtl.Sample top;
        boolean transaction;
    }

    private Summary() {
    }

    /** Reads {@code jtl} (CSV). */
    public static Summary of(Path jtl) throws IOException {
        Summary s = new Summary();
        Jtl.forEach(jtl, s::add);
        return s;
    }

    /** Whether a row with this label, written by this thread, is warm-up (see the class comment). */
    public static boolean isWarmUp(String label, String threadName) {
        return WARM_UP.matcher(label).lookingAt() || WARM_UP.matcher(threadGroupOf(threadName)).lookingAt();
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
            Block b = blockOf(parent);
            b.subResults.computeIfAbsent(parent.label(), l -> new LinkedHashMap<>())
                    .computeIfAbsent(row.label(), l -> new Stats(l, Kind.SUB_RESULT)).add(row);
            b.subResultRows++;
            return;
        }
        t.top = row;
        t.transaction = row.responseMessage().startsWith(TRANSACTION_PREFIX);
        Block b = blockOf(row);
        if (t.transaction) {
            b.transactions.computeIfAbsent(row.label(), l -> new Stats(l, Kind.TRANSACTION)).add(row);
            b.transactionRows++;
            Matcher m = TRANSACTION_COUNT.matcher(row.responseMessage());
            if (m.lookingAt()) {
                long[] timed = b.timed.computeIfAbsent(row.label(), l -> new long[2]);
                timed[0] += Long.parseLong(m.group(1));
                timed[1] += m.group(2) == null ? 0 : Long.parseLong(m.group(2));
            }
            return;
        }
        b.samples.computeIfAbsent(row.label(), l -> new Stats(l, Kind.SAMPLE)).add(row);
        b.total.add(row);
        if (b == main) {
            outages.add(row.label(), row.timeStamp(), row.elapsed(), row.success(), row.success() ? null
                    : errorText(row));
        }
        topLevelOfThread.merge(row.threadName(), 1L, Long::sum);
        String group = threadGroupOf(row.threadName());
        threadGroups.computeIfAbsent(group, g -> new Stats(g, Kind.SAMPLE)).add(row);
        threadsOfGroup.computeIfAbsent(group, g -> new LinkedHashSet<>()).add(row.threadName());
        if (!row.success()) {
            String example = errorText(row);
            b.errors.merge(errorKey(example), new ErrorGroup(errorKey(example), 1, example),
                    (x, y) -> new ErrorGroup(x.key(), x.count() + 1, x.example()));
        }
    }

    private Block blockOf(Jtl.Sample row) {
        return isWarmUp(row.label(), row.threadName()) ? warmUp : main;
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
                && (label.charAt(parent.length()) == ' ' || SUB_RESULT_NAME.matcher(label.substring(parent.length()))
                        .matches());
        return named && row.timeStamp() >= t.top.timeStamp() - 1 && row.end() <= t.top.end() + 1;
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
            Map.entry(Pattern.compile("\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}"
                    + "-[0-9a-fA-F]{12}\\b"), "<uuid>"),
            Map.entry(Pattern.compile("\\b\\d{4}-\\d{2}-\\d{2}(?:[T"
                    + " ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?"), "<time>"),
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
    public static String errorKey(String text) {
        String key = text;
        for (Map.Entry<Pattern, String> v : VARYING) {
            key = v.getKey().matcher(key).replaceAll(v.getValue());
        }
        return key;
    }

    /** Top-level samples that are not warm-up: the summariser's count less {@link #warmUp()}'s. */
    public Stats total() {
        return main.total;
    }

    /** Top-level warm-up samples (see the class comment); in no Total. */
    public Stats warmUp() {
        return warmUp.total;
    }

    /** Top-level samples by label (warm-up left out), in the order they first appear (the order the plan ran them). */
    public Map<String, Stats> samples() {
        return main.samples;
    }

    /** Top-level warm-up samples by label, in the order they first appear. */
    public Map<String, Stats> warmUpSamples() {
        return warmUp.samples;
    }

    /**
     * Sub-results by parent label (a sample's, or a parent-mode transaction's), then by their own label; warm-up left
     * out.
     */
    public Map<String, Map<String, Stats>> subResults() {
        return main.subResults;
    }

    /** The warm-up's sub-results, as {@link #subResults()}. */
    public Map<String, Map<String, Stats>> warmUpSubResults() {
        return warmUp.subResults;
    }

    /** Transaction Controller rows by label (not in Total; warm-up transactions left out). */
    public Map<String, Stats> transactions() {
        return main.transactions;
    }

    /** Warm-up Transaction Controller rows by label. */
    public Map<String, Stats> warmUpTransactions() {
        return warmUp.transactions;
    }

    /**
     * The samples a transaction timed, summed over its rows (from "Number of samples in transaction : N"),
     * warm-up or not; -1 when its rows do not say.
     */
    public long samplesTimedBy(String transaction) {
        long[] t = main.timed.getOrDefault(transaction, warmUp.timed.get(transaction));
        return t == null ? -1 : t[0];
    }

    /**
     * Top-level samples (warm-up included) of the thread group {@code name} (of every engine); empty stats when it
     * wrote none.
     */
    public Stats threadGroup(String name) {
        return threadGroups.getOrDefault(name, new Stats(name, Kind.SAMPLE));
    }

    /** The distinct threads of the thread group {@code name} that wrote a top-level sample (of every engine). */
    public int threadsRan(String name) {
        return threadsOfGroup.getOrDefault(name, Set.of()).size();
    }

    /**
     * Total's samples (warm-up left out) that ended more than {@code skipMs} after Total's first sample
     * started: the run's steady window when {@code skipMs} is its ramp-up. Its {@link Stats#measured()} gives the
     * longest outage that ended in that window ({@link Outages}).
     */
    public Stats steady(long skipMs) {
        Stats all = main.total;
        Stats out = new Stats("steady", Kind.SAMPLE);
        long from = all.count == 0 ? 0 : all.first + Math.max(0, skipMs);
        for (int i = 0; i < all.count; i++) {
            if (skipMs <= 0 || all.ends[i] > from) {
                out.add(all.ends[i] - all.times[i], all.times[i], !all.failed.get(i));
            }
        }
        out.outageMs = outages.longestMsEndingAfter(skipMs <= 0 ? Long.MIN_VALUE : from);
        return out;
    }

    /** The outages of Total's labels (warm-up left out): {@link Outages}. */
    public Outages outages() {
        return outages;
    }

    /** Whether sub-results were known from the {@value Jtl#EVENT_COLUMN} column rather than inferred from names. */
    public boolean exact() {
        return exact;
    }

    /** Every row of the file, sub-results, transactions and warm-up included (what the dashboard counts). */
    public long rows() {
        return rows;
    }

    /** Rows (at any level) with response code {@value #CONFIG_ERROR_CODE}. */
    public long configErrors() {
        return configErrors;
    }

    /** Failed samples of Total grouped by code and message without per-sample values, most frequent first. */
    public List<ErrorGroup> topErrors() {
        return main.topErrors();
    }

    /** Failed warm-up samples, grouped as {@link #topErrors()}. */
    public List<ErrorGroup> warmUpErrors() {
        return warmUp.topErrors();
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

    /**
     * Top-level samples (warm-up included) of the distributed engine {@code host}: its threads' names start {@code
     * host-}.
     */
    public long samplesOfEngine(String host) {
        return topLevelOfThread.entrySet().stream().filter(e -> e.getKey().startsWith(host + "-"))
                .mapToLong(Map.Entry::getValue).sum();
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

    /** {@link SummaryText#table}. */
    public String table(Optional<Summariser> summariser) {
        return new SummaryText(this).table(summariser);
    }

    public String errorTable() { // SummaryText#errorTable
        return new SummaryText(this).errorTable();
    }
}
