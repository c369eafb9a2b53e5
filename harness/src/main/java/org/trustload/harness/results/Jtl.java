package org.trustload.harness.results;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.trustload.jmeter.results.SampleEventMarker;

/**
 * Reads a JMeter results file in CSV: a header naming the columns, one row per sample result (sub-results and
 * Transaction Controller results included; {@link Summary} tells them apart, by the {@value #EVENT_COLUMN} column
 * the harness's runs add).
 */
public final class Jtl {

    /**
     * The {@code sample_variables} column the harness adds: per thread, a number that changes with every
     * sample event JMeter notifies and is the same on a sample's row and its sub-results' rows
     * ({@link SampleEventMarker} fills it).
     */
    public static final String EVENT_COLUMN = SampleEventMarker.VARIABLE;

    /**
     * One row.
     *
     * @param timeStamp start time in ms since the epoch (JMeter's {@code sampleresult.timestamp.start=true})
     * @param elapsed ms
     * @param bytes response size (0 when the file has no bytes column)
     * @param event the {@value #EVENT_COLUMN} column: equal on the rows of one sample event; empty when the
     *        file has no such column
     */
    public record Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
                         String threadName, boolean success, String failureMessage, long bytes, String event) {

        public long end() {
            return timeStamp + elapsed;
        }
    }

    /**
     * Count, errors and span of a subset of rows.
     *
     * @param samples rows that {@code counted} accepts
     * @param errors failed rows within the span
     * @param firstStart first start of the rows {@code inSpan} accepts
     * @param lastEnd last end of those rows
     */
    public record Stats(int samples, int errors, long firstStart, long lastEnd) {

        public long spanMs() {
            return lastEnd - firstStart;
        }
    }

    private Jtl() {
    }

    /**
     * Counts the rows {@code counted} accepts, and the errors and time span of those {@code inSpan} accepts (benches).
     */
    public static Stats stats(List<Sample> samples, java.util.function.Predicate<Sample> counted,
                              java.util.function.Predicate<Sample> inSpan) {
        int n = 0;
        int errors = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Sample s : samples) {
            if (inSpan.test(s)) {
                first = Math.min(first, s.timeStamp());
                last = Math.max(last, s.end());
                if (!s.success()) {
                    errors++;
                }
            }
            if (counted.test(s)) {
                n++;
            }
        }
        return new Stats(n, errors, first, last);
    }

    /** Every row of {@code file}. */
    public static List<Sample> read(Path file) throws IOException {
        List<Sample> out = new ArrayList<>();
        forEach(file, out::add);
        return out;
    }

    /** Streams the rows of {@code file}; a file without a CSV header (e.g. XML) is an error. */
    public static void forEach(Path file, Consumer<Sample> each) throws IOException {
        forEach(file, "", (s, v) -> each.accept(s));
    }

    /**
     * Streams the rows of {@code file} with the value of one more column, {@code column} (a
     * {@code sample_variables} name; empty when the file has no such column).
     */
    public static void forEach(Path file, String column, java.util.function.BiConsumer<Sample,
            String> each) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null) {
                return;
            }
            if (header.startsWith("<")) {
                throw new IOException(file
                        + " is XML: the harness reads CSV results (jmeter.save.saveservice.output_format=csv)");
            }
            List<String> names = parseCsv(header);
            int ts = names.indexOf("timeStamp");
            int el = names.indexOf("elapsed");
            int lb = names.indexOf("label");
            int rc = names.indexOf("responseCode");
            int rm = names.indexOf("responseMessage");
            int tn = names.indexOf("threadName");
            int ok = names.indexOf("success");
            int fm = names.indexOf("failureMessage");
            int by = names.indexOf("bytes");
            int ev = names.indexOf(EVENT_COLUMN);
            int extra = column.isEmpty() ? -1 : names.indexOf(column);
            if (ts < 0 || lb < 0 || ok < 0) {
                throw new IOException(file + " has no CSV header with timeStamp, label and success");
            }
            StringBuilder record = new StringBuilder();
            for (String line; (line = in.readLine()) != null; ) {
                record.append(line);
                if (unbalancedQuotes(record)) { // a quoted field spanning lines
                    record.append('\n');
                    continue;
                }
                List<String> f = parseCsv(record.toString());
                record.setLength(0);
                if (f.size() <= Math.max(ts, Math.max(lb, ok))) {
                    continue;
                }
                each.accept(new Sample(number(get(f, ts)), number(get(f, el)), get(f, lb), get(f, rc), get(f, rm),
                        get(f, tn), "true".equals(get(f, ok)), get(f, fm), number(get(f, by)), get(f, ev)), get(f,
                                extra));
            }
        }
    }

    private static long number(String s) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String get(List<String> f, int i) {
        return i >= 0 && i < f.size() ? f.get(i) : "";
    }

    private static boolean unbalancedQuotes(CharSequence s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '"') {
                n++;
            }
        }
        return n % 2 != 0;
    }

    /** JMeter's CSV: comma separated, fields with commas, quotes or newlines quoted, quotes doubled. */
    static List<String> parseCsv(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
