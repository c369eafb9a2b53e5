package org.trustload.harness.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.trustload.harness.results.Summary.Block;
import org.trustload.harness.results.Summary.ErrorGroup;
import org.trustload.harness.results.Summary.Stats;
import org.trustload.harness.results.Summary.Summariser;

/**
 * The summary as text: the table of one {@link Summary} at most {@value Summary#WIDTH} columns wide, its errors, notes.
 */
public final class SummaryText {

    private static final int WIDTH = Summary.WIDTH;
    private static final int MIN_SAMPLES_FOR_STATS = Summary.MIN_SAMPLES_FOR_STATS;
    private final Block main;
    private final Block warmUp;
    private final Outages outages;
    private final boolean exact;
    private final long rows;

    SummaryText(Summary summary) {
        this.main = summary.main;
        this.warmUp = summary.warmUp;
        this.outages = summary.outages;
        this.exact = summary.exact();
        this.rows = summary.rows();
    }

    // --- the table ---

    /** A column: its heading and width (the heading right-aligned, a space before it included). */
    private record Column(String head, int width) {
    }

    private static final List<Column> SAMPLE_COLUMNS = List.of(new Column("Samples", 8), new Column("Errors", 7),
            new Column("Err%", 8), new Column("Avg ms", 9), new Column("p50 ms", 9), new Column("p90 ms", 9),
            new Column("p95 ms", 9), new Column("p99 ms", 9), new Column("Max ms", 8), new Column("Rate/s", 9));
    private static final List<Column> TRANSACTION_COLUMNS = List.of(new Column("Count", 7), new Column("Errors", 7),
            new Column("Avg ms", 10), new Column("p90 ms", 9), new Column("p99 ms", 9), new Column("Max ms", 8),
            new Column("Samples in it", 14), new Column("ms per sample", 14));

    /**
     * The table, at most {@value #WIDTH} columns: the samples in Total in the order the plan ran them (first
     * seen in the results file), each followed by its sub-results (indented: part of the row above, never
     * added in); Total; the transactions; the warm-up; then what Total counts and how it relates to JMeter's
     * summariser's count ({@code summariser = Total + warm-up}).
     */
    String table(Optional<Summariser> summariser) {
        StringBuilder sb = new StringBuilder();
        int labelWidth = WIDTH - width(SAMPLE_COLUMNS);
        String rule = "-".repeat(WIDTH) + System.lineSeparator();
        boolean warm = warmUp.total.count() > 0 || !warmUp.transactions.isEmpty();
        boolean warmInside = warmUp.total.count() > 0 && main.total.count() > 0
                && warmUp.total.firstStart() < main.total.lastEnd() && warmUp.total.lastEnd() > main.total.firstStart();
        line(sb, warm ? "Samples (in Total)" : "Label", SAMPLE_COLUMNS, labelWidth, SAMPLE_COLUMNS.stream()
                .map(Column::head).toList());
        sb.append(rule);
        sampleRows(sb, main, labelWidth);
        sb.append(rule);
        double totalRate = warm ? (warmInside ? Double.NaN : main.total.throughput())
                : summariser.map(Summariser::rate).orElse(main.total.throughput());
        line(sb, "Total", SAMPLE_COLUMNS, labelWidth, sampleCells(main.total, totalRate, true));
        if (!main.transactions.isEmpty() || !warmUp.transactions.isEmpty()) {
            int w = WIDTH - width(TRANSACTION_COLUMNS);
            sb.append(System.lineSeparator());
            line(sb, "Transactions (not in Total)", TRANSACTION_COLUMNS, w, TRANSACTION_COLUMNS.stream()
                    .map(Column::head).toList());
            sb.append(rule);
            transactionRows(sb, main, w);
            transactionRows(sb, warmUp, w);
        }
        if (warmUp.total.count() > 0) {
            sb.append(System.lineSeparator());
            line(sb, "Warm-up (not in Total)", SAMPLE_COLUMNS, labelWidth, SAMPLE_COLUMNS.stream().map(Column::head)
                    .toList());
            sb.append(rule);
            sampleRows(sb, warmUp, labelWidth);
            sb.append(rule);
            line(sb, "Warm-up total", SAMPLE_COLUMNS, labelWidth, sampleCells(warmUp.total, warmUp.total.throughput(),
                    true));
        }
        sb.append(System.lineSeparator());
        footnotes(sb, summariser, warm, warmInside);
        return sb.toString();
    }

    private void footnotes(StringBuilder sb, Optional<Summariser> summariser, boolean warm, boolean warmInside) {
        long total = main.total.count();
        long warmSamples = warmUp.total.count();
        StringBuilder t = new StringBuilder("Total: " + total + " top-level samples");
        if (summariser.isPresent()) {
            long s = summariser.get().count();
            t.append(warm ? " = JMeter's summariser's " + s + " less the " + warmSamples + " warm-up samples"
                    : " = JMeter's summariser's count");
            if (s != total + warmSamples) {
                t.append(String.format(Locale.ROOT, " - but the summariser counted %d, not %d (%s)", s, total
                        + warmSamples, exact
                        ? "a sample listener filter, results saved elsewhere, or samplers reporting several samples"
                                + " per result?"
                        : "sub-results could only be inferred from their names"));
            }
        } else if (warm) {
            t.append(" (the " + warmSamples + " warm-up samples left out)");
        }
        t.append('.');
        if (warm) {
            t.append(" Warm-up: labels or thread groups whose name begins with \"warm-up\".");
        }
        wrap(sb, t.toString());
        List<String> notAdded = new ArrayList<>();
        count(notAdded, main.subResultRows + warmUp.subResultRows, "sub-result row", "indented beneath their samples");
        count(notAdded, main.transactionRows, "transaction row", null);
        count(notAdded, warmUp.transactionRows, "warm-up transaction row", null);
        if (!notAdded.isEmpty()) {
            wrap(sb, "Not added to any total: " + String.join(", ", notAdded) + "; results.jtl has " + rows + " rows ("
                    + total + (warm ? " + " + warmSamples + " warm-up" : "") + " samples and these).");
        }
        wrap(sb, "Percentiles: the JMeter dashboard's method over every sample of a label; sub-results "
                + (exact ? "known from the " + Jtl.EVENT_COLUMN + " column" : "inferred from their names (no "
                        + Jtl.EVENT_COLUMN
                + " column)") + ". Rows of fewer than " + MIN_SAMPLES_FOR_STATS
                        + " samples show no percentiles and no rate (-).");
        wrap(sb, "Rate/s: a row's samples over their span; Total's "
                + (!warm ? (summariser.isPresent() ? "is JMeter's summariser's (over the time since the test started)."
                        : "over the span of its samples.")
                        : warmInside ? "is not given, as the warm-up ran between its samples (see each row's)."
                        : "over the span of its samples (the warm-up left out)."));
        if (!main.transactions.isEmpty() || !warmUp.transactions.isEmpty()) {
            wrap(sb, "Transactions: a Transaction Controller's time for the samples it timed (\"Samples in it\"); ms"
                    + " per sample = its time / those samples, e.g. per iteration when it times a loop of one"
                    + " request.");
        }
    }

    private static void count(List<String> out, long n, String what, String where) {
        if (n > 0) {
            out.add(n + " " + what + (n == 1 ? "" : "s") + (where == null ? "" : " (" + where + ")"));
        }
    }

    private void sampleRows(StringBuilder sb, Block b, int labelWidth) {
        for (Stats s : b.samples.values()) {
            line(sb, s.label(), SAMPLE_COLUMNS, labelWidth, sampleCells(s, Double.NaN, false));
            for (Stats sub : b.subResults.getOrDefault(s.label(), Map.of()).values()) {
                line(sb, "  - " + sub.label(), SAMPLE_COLUMNS, labelWidth, sampleCells(sub, Double.NaN, false));
            }
        }
    }

    private void transactionRows(StringBuilder sb, Block b, int labelWidth) {
        for (Stats t : b.transactions.values()) {
            long[] timed = b.timed.get(t.label());
            List<String> c = new ArrayList<>();
            c.add(Long.toString(t.count()));
            c.add(Long.toString(t.errors()));
            c.add(ms(t.mean()));
            boolean many = t.count() >= MIN_SAMPLES_FOR_STATS;
            c.add(many ? ms(t.percentile(90)) : "-");
            c.add(many ? ms(t.percentile(99)) : "-");
            c.add(Long.toString(t.max()));
            if (timed == null || timed[0] == 0) {
                c.add("-");
                c.add("-");
            } else {
                double each = (double) timed[0] / t.count();
                c.add(each == Math.rint(each) ? Long.toString((long) each) : String.format(Locale.ROOT, "%.1f", each));
                c.add(String.format(Locale.ROOT, "%.3f", t.mean() * t.count() / timed[0]));
            }
            line(sb, t.label(), TRANSACTION_COLUMNS, labelWidth, c);
            for (Stats sub : b.subResults.getOrDefault(t.label(), Map.of()).values()) {
                List<String> sc = new ArrayList<>(List.of(Long.toString(sub.count()), Long.toString(sub.errors()),
                        ms(sub.mean()),
                        sub.count() >= MIN_SAMPLES_FOR_STATS ? ms(sub.percentile(90)) : "-",
                        sub.count() >= MIN_SAMPLES_FOR_STATS ? ms(sub.percentile(99)) : "-", Long.toString(sub.max()),
                                "", ""));
                line(sb, "  - " + sub.label(), TRANSACTION_COLUMNS, labelWidth, sc);
            }
        }
    }

    private static List<String> sampleCells(Stats s, double rate, boolean total) {
        boolean many = s.count() >= MIN_SAMPLES_FOR_STATS;
        List<String> c = new ArrayList<>();
        c.add(Long.toString(s.count()));
        c.add(Long.toString(s.errors()));
        c.add(String.format(Locale.ROOT, "%.2f%%", s.errorPct()));
        c.add(s.count() == 0 ? "-" : ms(s.mean()));
        for (double p : Summary.PERCENTILES) {
            c.add(many ? ms(s.percentile(p)) : "-");
        }
        c.add(s.count() == 0 ? "-" : Long.toString(s.max()));
        double r = total ? rate : s.throughput();
        c.add(!many || Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2f", r));
        return c;
    }

    /**
     * One line: the label left-aligned in {@code labelWidth} (a longer one gets a line of its own), the cells
     * right-aligned.
     */
    private static void line(StringBuilder sb, String label, List<Column> columns, int labelWidth, List<String> cells) {
        if (label.length() > labelWidth) {
            sb.append(label).append(System.lineSeparator());
            label = "";
        }
        StringBuilder l = new StringBuilder(String.format(Locale.ROOT, "%-" + labelWidth + "s", label));
        for (int i = 0; i < columns.size(); i++) {
            l.append(String.format(Locale.ROOT, "%" + columns.get(i).width() + "s", cells.get(i)));
        }
        sb.append(l.toString().stripTrailing()).append(System.lineSeparator());
    }

    private static int width(List<Column> columns) {
        return columns.stream().mapToInt(Column::width).sum();
    }

    /**
     * {@code text} folded at blanks into lines of at most {@value #WIDTH} columns, the lines after the first indented.
     */
    /** {@code HH:MM:SS}. */
    public static String hms(long seconds) {
        return String.format(Locale.ROOT, "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    public static void wrap(StringBuilder sb, String text) {
        String indent = "";
        String rest = text;
        while (indent.length() + rest.length() > WIDTH) {
            int room = WIDTH - indent.length();
            int cut = rest.lastIndexOf(' ', room);
            if (cut <= 0) {
                break;
            }
            sb.append(indent).append(rest, 0, cut).append(System.lineSeparator());
            rest = rest.substring(cut + 1);
            indent = "  ";
        }
        sb.append(indent).append(rest).append(System.lineSeparator());
    }

    /**
     * A time as the dashboard shows it: two decimals (whole milliseconds interpolate, e.g. 10.99); none from 100 s on.
     */
    private static String ms(double v) {
        return String.format(Locale.ROOT, v >= 100_000 ? "%.0f" : "%.2f", v);
    }

    /**
     * The top errors, one line each, untruncated, with one full example where the grouping hid values; then the
     * outages, when the run had any ({@link Outages#text()}).
     */
    String errorTable() {
        List<ErrorGroup> top = main.topErrors();
        StringBuilder sb = new StringBuilder();
        if (top.isEmpty()) {
            sb.append(String.format("%nNo failed samples in Total.%n"));
        } else {
            sb.append(String.format("%nTop errors of the %d samples in Total (response code, message; values that vary"
                    + " per sample shown as <time>, <n>, <hex>, <uuid>):%n", main.total.count()));
            errorLines(sb, top);
        }
        List<ErrorGroup> warm = warmUp.topErrors();
        if (!warm.isEmpty()) {
            sb.append(String.format("Warm-up: %d of its %d samples failed (not in Total):%n", warmUp.total.errors(),
                    warmUp.total.count()));
            errorLines(sb, warm.subList(0, Math.min(3, warm.size())));
        }
        sb.append(outages.text());
        return sb.toString();
    }

    private static void errorLines(StringBuilder sb, List<ErrorGroup> groups) {
        int w = Math.max(5, Long.toString(groups.get(0).count()).length());
        for (ErrorGroup e : groups) {
            sb.append(String.format(Locale.ROOT, "%" + w + "d  %s%n", e.count(), e.key()));
            if (!e.example().equals(e.key())) {
                sb.append(" ".repeat(w)).append("  e.g. ").append(e.example()).append(System.lineSeparator());
            }
        }
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
