package org.trustload.common;

import java.util.Arrays;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

/**
 * The one percentile method of TrustLoad: the JMeter dashboard's own. The dashboard
 * ({@code statistics.json}, its "Statistics" table) computes percentiles with commons-math3's
 * {@link Percentile} and its {@code LEGACY} estimation type (JMeter's property
 * {@code backend_metrics_percentile_estimator}, default {@code LEGACY}); this class calls the same
 * library with the same estimator, over <em>every</em> value given. The dashboard keeps only the last
 * {@code jmeter.reportgenerator.statistic_window} values of a label (default 20,000); runs started by the
 * harness set that window to {@link #DASHBOARD_WINDOW_PROPERTY_VALUE} (unlimited) so both agree on any run.
 *
 * <p>Response times are whole milliseconds; the result is a double because the estimator interpolates
 * (p99 of {@code 1..10, 11} can be 10.99). One class for every percentile TrustLoad prints: the run summary
 * and {@code size} (the harness jar carries this class), the KMS Periodic Report, the SLO Stop listener, the
 * benches. commons-math3 3.6.1 is JMeter's own; the harness jar carries it too.
 */
public final class Percentiles {

    /** The JMeter property that bounds the dashboard's percentile window. */
    public static final String DASHBOARD_WINDOW_PROPERTY = "jmeter.reportgenerator.statistic_window";
    /** Its value for an unbounded window (commons-math3's {@code DescriptiveStatistics.INFINITE_WINDOW}). */
    public static final String DASHBOARD_WINDOW_PROPERTY_VALUE = "-1";

    private final double[] sorted;

    private Percentiles(double[] sorted) {
        this.sorted = sorted;
    }

    /** The percentiles of these values (copied; the array is not changed). */
    public static Percentiles of(long[] values, int count) {
        double[] d = new double[count];
        for (int i = 0; i < count; i++) {
            d[i] = values[i];
        }
        Arrays.sort(d);
        return new Percentiles(d);
    }

    /** The percentiles of these values (copied; the array is not changed). */
    public static Percentiles of(double[] values) {
        double[] d = values.clone();
        Arrays.sort(d);
        return new Percentiles(d);
    }

    /**
     * The median of {@code values} (NaN ignored) by the same method: for the benches' medians over rounds
     * (the middle value, or the mean of the two middle ones). NaN when no value is left.
     */
    public static double median(java.util.Collection<Double> values) {
        return of(values.stream().filter(d -> d != null && !d.isNaN()).mapToDouble(Double::doubleValue).toArray())
                .get(50);
    }

    /**
     * The percentiles of values already sorted in ascending order (not copied: the caller must not change the
     * array afterwards) — for callers that keep a sorted copy anyway.
     */
    public static Percentiles ofSorted(double[] sorted) {
        return new Percentiles(sorted);
    }

    /**
     * The p-th percentile, 0 &lt; p &le; 100, of values given as a count per distinct value, by the same estimator
     * ({@code LEGACY}: position p(n+1)/100 between the order statistics, as {@link #get}) — for a distribution kept
     * as counts so that its memory does not grow with the number of values. NaN when there are no values.
     *
     * @param values the distinct values, ascending
     * @param counts how many times each occurs (same length, each &ge; 1)
     */
    public static double ofCounts(long[] values, long[] counts, double p) {
        long[] upTo = new long[counts.length];
        long n = 0;
        for (int i = 0; i < counts.length; i++) {
            n += counts[i];
            upTo[i] = n;
        }
        if (n == 0) {
            return Double.NaN;
        }
        double q = p / 100;
        double pos = q == 1 ? n : q * (n + 1);
        if (pos < 1) {
            return values[0];
        }
        if (pos >= n) {
            return values[values.length - 1];
        }
        double fpos = Math.floor(pos);
        long index = (long) fpos;
        double lower = nth(values, upTo, index - 1);
        double upper = nth(values, upTo, index);
        return lower + (pos - fpos) * (upper - lower);
    }

    /** The k-th smallest value (from 0) of a counted distribution; {@code upTo} is its running total of counts. */
    private static long nth(long[] values, long[] upTo, long k) {
        int i = Arrays.binarySearch(upTo, k + 1);
        return values[i >= 0 ? i : -i - 1];
    }

    /** How many values. */
    public int count() {
        return sorted.length;
    }

    /**
     * The p-th percentile, 0 &lt; p &le; 100, as the dashboard computes it; NaN when there are no values.
     * (p = 0 is not a percentile for the estimator: use {@link #min()}.)
     */
    public double get(double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        Percentile estimator = new Percentile().withEstimationType(Percentile.EstimationType.LEGACY);
        estimator.setData(sorted);
        return estimator.evaluate(p);
    }

    /** The smallest value; NaN when there are none. */
    public double min() {
        return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    /** The largest value; NaN when there are none. */
    public double max() {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }
}
