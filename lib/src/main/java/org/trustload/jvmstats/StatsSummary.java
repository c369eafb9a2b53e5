package org.trustload.jvmstats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * The end-of-test table of one watched target: CPU time before and after (ms and HH:MM:SS, because
 * {@code ps} prints HH:MM:SS and reports have mistaken it for ms), CPU used and per request, young and
 * full GC counts and average pause times, and the {@code jstat -gc} columns before and after.
 *
 * @param target   what was watched ({@link StatsSource#describe()})
 * @param first    the first snapshot of the test (null if the target could never be read)
 * @param last     the last snapshot read (null likewise)
 * @param requests real samples seen while watching (transaction-controller rows and setUp/tearDown samples excluded)
 * @param note     why polling stopped early or was skipped (target gone, not this engine's job), or empty
 * @param ownCpuMs CPU the watcher's own polls used inside the watched process (watching itself), ms,
 *                 left out of CPU per request; NaN when the watcher runs elsewhere
 */
public record StatsSummary(String target, StatsSnapshot first, StatsSnapshot last, long requests,
        String note, double ownCpuMs) {

    /** A summary of a target the watcher does not run in. */
    public StatsSummary(String target, StatsSnapshot first, StatsSnapshot last, long requests, String note) {
        this(target, first, last, requests, note, Double.NaN);
    }

    /** CPU used between the first and the last snapshot, ms; NaN if unknown. */
    public double cpuUsedMs() {
        return first == null || last == null ? Double.NaN : last.cpuMs() - first.cpuMs();
    }

    /** CPU used per real request, ms, without the watcher's own polls; NaN without requests. */
    public double cpuPerRequestMs() {
        double used = Double.isNaN(ownCpuMs) ? cpuUsedMs() : Math.max(0, cpuUsedMs() - ownCpuMs);
        return requests > 0 ? used / requests : Double.NaN;
    }

    public long youngGcs() {
        return delta(first == null ? -1 : first.youngGcCount(), last == null ? -1 : last.youngGcCount());
    }

    public long fullGcs() {
        return delta(first == null ? -1 : first.fullGcCount(), last == null ? -1 : last.fullGcCount());
    }

    public double youngGcTimeMs() {
        return first == null || last == null ? Double.NaN : last.youngGcTimeMs() - first.youngGcTimeMs();
    }

    public double fullGcTimeMs() {
        return first == null || last == null ? Double.NaN : last.fullGcTimeMs() - first.fullGcTimeMs();
    }

    /** Average young pause in ms over the test; NaN when there were none. */
    public double youngGcAvgMs() {
        long n = youngGcs();
        return n > 0 ? youngGcTimeMs() / n : Double.NaN;
    }

    public double fullGcAvgMs() {
        long n = fullGcs();
        return n > 0 ? fullGcTimeMs() / n : Double.NaN;
    }

    private static long delta(long a, long b) {
        return a < 0 || b < 0 ? -1 : b - a;
    }

    /** {@code ps}-style CPU time: hours (not wrapped at 24), minutes, seconds, truncated to the second. */
    public static String hhmmss(double ms) {
        if (Double.isNaN(ms)) {
            return "-";
        }
        long s = (long) Math.floor(ms / 1000);
        String sign = s < 0 ? "-" : "";
        s = Math.abs(s);
        return String.format(Locale.ROOT, "%s%02d:%02d:%02d", sign, s / 3600, s / 60 % 60, s % 60);
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String ms3(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String count(long v) {
        return v < 0 ? "-" : Long.toString(v);
    }

    /** The human-readable table. */
    public String toText() {
        StringBuilder s = new StringBuilder();
        s.append("JVM Stats summary: ").append(target).append('\n');
        if (!note.isEmpty()) {
            s.append("note: ").append(note).append('\n');
        }
        double c0 = first == null ? Double.NaN : first.cpuMs();
        double c1 = last == null ? Double.NaN : last.cpuMs();
        row(s, "CPU time at start", ms(c0) + " ms (" + hhmmss(c0) + ")");
        row(s, "CPU time at end", ms(c1) + " ms (" + hhmmss(c1) + ")");
        row(s, "CPU used", ms(cpuUsedMs()) + " ms (" + hhmmss(cpuUsedMs()) + ")");
        if (!Double.isNaN(ownCpuMs)) {
            row(s, "JVM Stats polls", ms(ownCpuMs) + " ms of it (left out of CPU per request)");
        }
        row(s, "requests", Long.toString(requests) + " (transaction-controller rows, setUp and tearDown excluded)");
        row(s, "CPU per request", ms3(cpuPerRequestMs()) + " ms");
        row(s, "young GCs", count(youngGcs()) + ", " + ms(youngGcTimeMs()) + " ms, avg " + ms3(youngGcAvgMs()) + " ms");
        row(s, "full GCs", count(fullGcs()) + ", " + ms(fullGcTimeMs()) + " ms, avg " + ms3(fullGcAvgMs()) + " ms");
        if (first != null && last != null && first.jstat() != null && last.jstat() != null) {
            s.append("\njstat -gc (KB, counts, seconds):\n");
            StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "%-7s", ""));
            StringBuilder a = new StringBuilder(String.format(Locale.ROOT, "%-7s", "before"));
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-7s", "after"));
            for (String c : JstatGc.COLUMNS) {
                String va = first.jstat().format(c);
                String vb = last.jstat().format(c);
                int w = Math.max(c.length(), Math.max(va.length(), vb.length())) + 1;
                h.append(String.format(Locale.ROOT, "%" + w + "s", c));
                a.append(String.format(Locale.ROOT, "%" + w + "s", va));
                b.append(String.format(Locale.ROOT, "%" + w + "s", vb));
            }
            s.append(h).append('\n').append(a).append('\n').append(b).append('\n');
        } else {
            s.append("\njstat -gc columns: not available from this source\n");
        }
        return s.toString();
    }

    private static void row(StringBuilder s, String k, String v) {
        s.append(String.format(Locale.ROOT, "%-18s %s%n", k, v));
    }

    /** The same figures as JSON (numbers as numbers, unknown as null). */
    public String toJson() {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode o = m.createObjectNode();
        o.put("target", target);
        o.put("note", note);
        double c0 = first == null ? Double.NaN : first.cpuMs();
        double c1 = last == null ? Double.NaN : last.cpuMs();
        num(o, "cpuStartMs", c0);
        o.put("cpuStartHms", hhmmss(c0));
        num(o, "cpuEndMs", c1);
        o.put("cpuEndHms", hhmmss(c1));
        num(o, "cpuUsedMs", cpuUsedMs());
        o.put("cpuUsedHms", hhmmss(cpuUsedMs()));
        num(o, "ownCpuMs", ownCpuMs);
        o.put("requests", requests);
        num(o, "cpuPerRequestMs", cpuPerRequestMs());
        cnt(o, "youngGcCount", youngGcs());
        num(o, "youngGcTimeMs", youngGcTimeMs());
        num(o, "youngGcAvgMs", youngGcAvgMs());
        cnt(o, "fullGcCount", fullGcs());
        num(o, "fullGcTimeMs", fullGcTimeMs());
        num(o, "fullGcAvgMs", fullGcAvgMs());
        jstat(o, "jstatBefore", first);
        jstat(o, "jstatAfter", last);
        try {
            return m.writeValueAsString(o) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void num(ObjectNode o, String k, double v) {
        if (Double.isNaN(v)) {
            o.putNull(k);
        } else {
            o.put(k, Math.round(v * 1000) / 1000.0);
        }
    }

    private static void cnt(ObjectNode o, String k, long v) {
        if (v < 0) {
            o.putNull(k);
        } else {
            o.put(k, v);
        }
    }

    private static void jstat(ObjectNode o, String k, StatsSnapshot s) {
        if (s == null || s.jstat() == null) {
            o.putNull(k);
            return;
        }
        ObjectNode j = o.putObject(k);
        for (String c : JstatGc.COLUMNS) {
            num(j, c, s.jstat().get(c));
        }
    }
}
