package org.trustload.jvmstats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Prometheus text exposition format (version 0.0.4, what node_exporter and the JMX exporter
 * agent serve by default): one sample a line, {@code name{label="value",...} value [timestamp]}, with
 * {@code #} comment lines. Only the samples are kept; HELP and TYPE lines are skipped.
 *
 * <p>Written here because the Prometheus Java client on Maven Central only <em>writes</em> the formats
 * (its {@code prometheus-metrics-exposition-textformats} module has writers, no parser), and the line
 * format is small and stable.
 */
public final class PrometheusText {

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {

        public String label(String key) {
            return labels.getOrDefault(key, "");
        }
    }

    private PrometheusText() {
    }

    /** Every sample of {@code text}; a malformed line is an error naming it. */
    public static List<Sample> parse(String text) throws StatsException {
        List<Sample> out = new ArrayList<>();
        int lineNo = 0;
        for (String raw : text.split("\n")) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                out.add(line(line));
            } catch (RuntimeException e) {
                throw new StatsException("not the Prometheus text format at line " + lineNo + ": '"
                        + (line.length() > 120 ? line.substring(0, 120) + "..." : line) + "'", false);
            }
        }
        return out;
    }

    private static Sample line(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ' && line.charAt(i) != '\t') {
            i++;
        }
        String name = line.substring(0, i);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no metric name");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels);
        }
        String[] rest = line.substring(i).strip().split("[ \t]+");
        return new Sample(name, labels, value(rest[0]));
    }

    /** Reads {@code key="value",...}} from {@code i}; returns the index after the closing brace. */
    private static int labels(String line, int i, Map<String, String> labels) {
        while (true) {
            while (line.charAt(i) == ' ' || line.charAt(i) == ',') {
                i++;
            }
            if (line.charAt(i) == '}') {
                return i + 1;
            }
            int eq = line.indexOf('=', i);
            String key = line.substring(i, eq).strip();
            i = eq + 1;
            if (line.charAt(i) != '"') {
                throw new IllegalArgumentException("label value not quoted");
            }
            StringBuilder v = new StringBuilder();
            for (i++; line.charAt(i) != '"'; i++) {
                char c = line.charAt(i);
                if (c == '\\') {
                    char n = line.charAt(++i);
                    v.append(n == 'n' ? '\n' : n);
                } else {
                    v.append(c);
                }
            }
            labels.put(key, v.toString());
            i++;
        }
    }

    private static double value(String s) {
        return switch (s) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(s);
        };
    }
}
