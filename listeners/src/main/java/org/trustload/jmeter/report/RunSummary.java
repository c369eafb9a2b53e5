package org.trustload.jmeter.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints the summary table of a finished run from the HTML dashboard's {@code statistics.json}
 * and, when given, the top error types of the results file (CSV or XML JTL).
 *
 * <p>Runs on JMeter's own class path (Jackson comes from JMeter's {@code lib/}):
 * {@code java -cp 'lib/*:lib/ext/*' org.trustload.jmeter.report.RunSummary report/statistics.json [results.jtl]}.
 * Exit status 1 when statistics.json is missing, empty or unreadable, 2 on bad usage.
 */
public final class RunSummary {

    static final String TOTAL = "Total";
    private static final int MAX_LABEL = 48;
    private static final int TOP_ERRORS = 10;
    private static final Pattern XML_SAMPLE = Pattern.compile("<(?:httpSample|sample)\\s[^>]*>");
    private static final Pattern XML_ATTR = Pattern.compile("\\s(s|rc|rm)=\"([^\"]*)\"");

    private RunSummary() {
    }

    /** One row of statistics.json. */
    record Row(String label, long samples, long errors, double errorPct, double mean, double min,
               double median, double p90, double p99, double max, double throughput) {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 1 || args.length > 2) {
            err.println("usage: RunSummary <report/statistics.json> [results.jtl]");
            return 2;
        }
        Path stats = Path.of(args[0]);
        List<Row> rows;
        try {
            rows = Files.isRegularFile(stats) ? readStatistics(stats) : List.of();
        } catch (IOException | RuntimeException e) {
            err.println("RunSummary: cannot read " + stats + ": " + e.getMessage());
            return 1;
        }
        if (rows.isEmpty()) {
            err.println("RunSummary: " + stats + " is missing or holds no samples: the run produced no results");
            return 1;
        }
        out.print(table(rows));
        if (args.length == 2) {
            try {
                out.print(errorTable(topErrors(Path.of(args[1]))));
            } catch (IOException e) {
                err.println("RunSummary: cannot read " + args[1] + ": " + e.getMessage());
            }
        }
        return 0;
    }

    /** Rows sorted by label, Total last. */
    static List<Row> readStatistics(Path file) throws IOException {
        if (Files.size(file) == 0) {
            return List.of();
        }
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        List<Row> rows = new ArrayList<>();
        Row total = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode n = e.getValue();
            Row r = new Row(e.getKey(), n.path("sampleCount").asLong(), n.path("errorCount").asLong(),
                    n.path("errorPct").asDouble(), n.path("meanResTime").asDouble(),
                    n.path("minResTime").asDouble(), n.path("medianResTime").asDouble(),
                    n.path("pct1ResTime").asDouble(), n.path("pct3ResTime").asDouble(),
                    n.path("maxResTime").asDouble(), n.path("throughput").asDouble());
            if (TOTAL.equals(e.getKey())) {
                total = r;
            } else {
                rows.add(r);
            }
        }
        rows.sort(Comparator.comparing(Row::label));
        if (total != null) {
            rows.add(total);
        }
        return rows.stream().allMatch(r -> r.samples() == 0) ? List.of() : rows;
    }

    static String table(List<Row> rows) {
        int w = Math.max(5, Math.min(MAX_LABEL, rows.stream().mapToInt(r -> r.label().length()).max().orElse(5)));
        String head = "%-" + w + "s %9s %8s %7s %8s %7s %8s %8s %8s %8s %12s%n";
        String line = "%-" + w + "s %9d %8d %6.2f%% %8.1f %7.0f %8.0f %8.0f %8.0f %8.0f %12.2f%n";
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, head, "Label", "Samples", "Errors", "Err%", "Avg ms",
                "Min ms", "Median", "p90 ms", "p99 ms", "Max ms", "Throughput/s"));
        sb.append("-".repeat(w + 97)).append(System.lineSeparator());
        for (Row r : rows) {
            if (TOTAL.equals(r.label()) && rows.size() > 1) {
                sb.append("-".repeat(w + 97)).append(System.lineSeparator());
            }
            sb.append(String.format(Locale.ROOT, line, fit(r.label(), w), r.samples(), r.errors(), r.errorPct(),
                    r.mean(), r.min(), r.median(), r.p90(), r.p99(), r.max(), r.throughput()));
        }
        return sb.toString();
    }

    private static String fit(String label, int w) {
        return label.length() <= w ? label : label.substring(0, w - 1) + "~";
    }

    /** Failed samples grouped by "responseCode responseMessage", most frequent first. */
    static List<Map.Entry<String, Long>> topErrors(Path jtl) throws IOException {
        Map<String, Long> counts = new HashMap<>();
        try (BufferedReader in = Files.newBufferedReader(jtl, StandardCharsets.UTF_8)) {
            String first = in.readLine();
            if (first == null) {
                return List.of();
            }
            if (first.startsWith("<")) {
                countXml(first, in, counts);
            } else {
                countCsv(first, in, counts);
            }
        }
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return sorted.subList(0, Math.min(TOP_ERRORS, sorted.size()));
    }

    private static void countCsv(String header, BufferedReader in, Map<String, Long> counts) throws IOException {
        List<String> names = parseCsv(header);
        int ok = names.indexOf("success");
        int rc = names.indexOf("responseCode");
        int rm = names.indexOf("responseMessage");
        if (ok < 0) {
            return; // no header line: cannot tell failures apart
        }
        String line;
        StringBuilder record = new StringBuilder();
        while ((line = in.readLine()) != null) {
            record.append(line);
            if (unbalancedQuotes(record)) { // a quoted field spanning lines
                record.append('\n');
                continue;
            }
            List<String> f = parseCsv(record.toString());
            record.setLength(0);
            if (f.size() > ok && "false".equals(f.get(ok))) {
                counts.merge(errorKey(get(f, rc), get(f, rm)), 1L, Long::sum);
            }
        }
    }

    private static void countXml(String first, BufferedReader in, Map<String, Long> counts) throws IOException {
        for (String line = first; line != null; line = in.readLine()) {
            Matcher m = XML_SAMPLE.matcher(line);
            while (m.find()) {
                Map<String, String> a = new LinkedHashMap<>();
                Matcher am = XML_ATTR.matcher(m.group());
                while (am.find()) {
                    a.put(am.group(1), am.group(2));
                }
                if ("false".equals(a.get("s"))) {
                    counts.merge(errorKey(a.getOrDefault("rc", ""), a.getOrDefault("rm", "")), 1L, Long::sum);
                }
            }
        }
    }

    private static String errorKey(String code, String message) {
        String key = (code + " " + message).strip().replaceAll("\\s+", " ");
        return key.isEmpty() ? "(no code)" : key;
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

    static String errorTable(List<Map.Entry<String, Long>> errors) {
        if (errors.isEmpty()) {
            return String.format("%nNo failed samples.%n");
        }
        long width = errors.stream().mapToLong(Map.Entry::getValue).max().orElse(0);
        int w = Math.max(5, Long.toString(width).length());
        StringBuilder sb = new StringBuilder(String.format("%nTop errors (response code and message):%n"));
        for (Map.Entry<String, Long> e : errors) {
            sb.append(String.format(Locale.ROOT, "%" + w + "d  %s%n", e.getValue(), e.getKey()));
        }
        return sb.toString();
    }
}
