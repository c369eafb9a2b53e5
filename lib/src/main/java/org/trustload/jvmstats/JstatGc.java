package org.trustload.jvmstats;

import java.io.Serializable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The columns {@code jstat -gc} prints, with its units: capacities and usages in KB, counts, times in
 * seconds. A column the JVM does not have (e.g. CGC without a concurrent collector) is {@code NaN}
 * and prints as {@code -}, like jstat.
 */
public final class JstatGc implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The column names in jstat's order. */
    public static final List<String> COLUMNS = List.of("S0C", "S1C", "S0U", "S1U", "EC", "EU", "OC", "OU",
            "MC", "MU", "CCSC", "CCSU", "YGC", "YGCT", "FGC", "FGCT", "CGC", "CGCT", "GCT");

    private final double[] values;

    /** @param values one per {@link #COLUMNS} entry, {@code NaN} where absent */
    public JstatGc(double[] values) {
        if (values.length != COLUMNS.size()) {
            throw new IllegalArgumentException("expected " + COLUMNS.size() + " values, got " + values.length);
        }
        this.values = values.clone();
    }

    /** A column's value, {@code NaN} when absent. */
    public double get(String column) {
        int i = COLUMNS.indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException("no jstat -gc column " + column);
        }
        return values[i];
    }

    /**
     * A column as jstat formats it: KB with one decimal, counts as integers, seconds with three. jstat
     * formats with {@code java.text.DecimalFormat} ("0.0", "0.000"), which rounds half to even: 155,904 bytes
     * are 152.25 KB and print as 152.2, where {@code String.format} would print 152.3.
     */
    public String format(String column) {
        double v = get(column);
        if (Double.isNaN(v)) {
            return "-";
        }
        if (column.endsWith("T")) {
            return decimal("0.000", v);
        }
        if (column.endsWith("GC")) {
            return String.format(Locale.ROOT, "%d", (long) v);
        }
        return decimal("0.0", v);
    }

    private static String decimal(String pattern, double v) {
        java.text.DecimalFormat f = new java.text.DecimalFormat(pattern,
                java.text.DecimalFormatSymbols.getInstance(Locale.ROOT));
        f.setRoundingMode(java.math.RoundingMode.HALF_EVEN);
        return f.format(v);
    }

    /** Column name to formatted value, in jstat's order. */
    public Map<String, String> formatted() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String c : COLUMNS) {
            m.put(c, format(c));
        }
        return m;
    }

    /** Heap in use (survivors + eden + old) in bytes. */
    public double heapUsedBytes() {
        return (nz(get("S0U")) + nz(get("S1U")) + nz(get("EU")) + nz(get("OU"))) * 1024;
    }

    /** Heap committed (survivors + eden + old capacities) in bytes. */
    public double heapCommittedBytes() {
        return (nz(get("S0C")) + nz(get("S1C")) + nz(get("EC")) + nz(get("OC"))) * 1024;
    }

    private static double nz(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JstatGc j && Arrays.equals(values, j.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return formatted().toString();
    }
}
