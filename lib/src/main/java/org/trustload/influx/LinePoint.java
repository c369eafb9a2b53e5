package org.trustload.influx;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One point of InfluxDB's line protocol (1.x, the protocol JMeter's InfluxDB Backend Listener writes):
 * {@code measurement,tag=value,… field=1.5,… timestamp}. Names and tag values are escaped as the protocol
 * says (comma, equals sign and space with a backslash; a line break, which it cannot carry, becomes a space);
 * a tag without a value is left out (InfluxDB refuses empty tag values), and so is a field that is not a
 * finite number. Every field is written as a float, as JMeter's listener writes its own, so a field's type
 * never changes between points.
 */
public final class LinePoint {
    private final String measurement;
    private final List<String[]> tags = new ArrayList<>();
    private final List<String[]> fields = new ArrayList<>();
    private final long epochMillis;

    /** A point of {@code measurement} at {@code epochMillis}. */
    public LinePoint(String measurement, long epochMillis) {
        this.measurement = Objects.requireNonNull(measurement);
        this.epochMillis = epochMillis;
    }

    /** Adds a tag; a null or blank value is left out. */
    public LinePoint tag(String key, String value) {
        if (value != null && !value.isBlank()) {
            tags.add(new String[] {key, value.strip()});
        }
        return this;
    }

    /** Adds a float field; NaN and infinities are left out. */
    public LinePoint field(String key, double value) {
        if (Double.isFinite(value)) {
            fields.add(new String[] {key, BigDecimal.valueOf(value).stripTrailingZeros().toPlainString()});
        }
        return this;
    }

    /** Whether the point has a field: a line without one is not valid line protocol. */
    public boolean hasFields() {
        return !fields.isEmpty();
    }

    /**
     * The line, without a line break; the timestamp in the unit {@code precision} names
     * ({@link InfluxWriter#precision}).
     */
    public String toLine(TimeUnit precision) {
        StringBuilder b = new StringBuilder(64 + 24 * (tags.size() + fields.size()));
        escape(b, measurement, false);
        for (String[] t : tags) {
            b.append(',');
            escape(b, t[0], true);
            b.append('=');
            escape(b, t[1], true);
        }
        char sep = ' ';
        for (String[] f : fields) {
            b.append(sep);
            escape(b, f[0], true);
            b.append('=').append(f[1]);
            sep = ',';
        }
        return b.append(' ').append(precision.convert(epochMillis, TimeUnit.MILLISECONDS)).toString();
    }

    /** Measurements escape commas and spaces; keys and tag values also equals signs. */
    private static void escape(StringBuilder b, String s, boolean equalsToo) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r') {
                c = ' ';
            }
            if (c == ',' || c == ' ' || (equalsToo && c == '=')) {
                b.append('\\');
            }
            b.append(c);
        }
    }

    @Override
    public String toString() {
        return toLine(TimeUnit.NANOSECONDS);
    }
}
