package org.trustload.harness.sizing;

import java.util.List;
import org.trustload.slo.Objective;

/**
 * What one load step measured, over its steady window (the warm-up at its start left out).
 *
 * @param phase the search phase ({@code ramp-1}, {@code refine}, {@code confirm})
 * @param offered the load asked for: threads (closed model) or arrivals/s (open model), all engines together
 * @param offeredOps operations/s asked for (open model: arrivals/s times samples per arrival); NaN closed
 * @param achieved top-level samples per second
 * @param samples top-level samples in the window
 * @param errors failed ones
 * @param p50 percentiles of their response times, ms (the dashboard's method)
 * @param loadCpuPct the busiest load-generator JVM's CPU, % of the CPUs it may use; NaN unknown
 * @param loadCpuMsPerOp load-generator CPU per sample, ms
 * @param loadWaitMsPerOp the load generator's run-queue wait per sample, ms: the time its threads were ready to
 *                        run but waited for a CPU, over the samples (by Little's law the mean such wait inside
 *                        one response time, when its threads wait only while sampling); NaN unknown
 * @param serverCpuPct the server's CPU, % of its CPUs; NaN when not watched
 * @param serverWaitPct the server's run-queue wait, % of its CPUs' time (a local server); NaN unknown
 * @param serverCpuMsPerOp the server's CPU per sample, ms
 * @param serverGcs collections during the window (-1 unknown); serverGcMs their time
 * @param machinePct this machine's busy CPU, %
 * @param broken the SLO rules the window broke (empty: it met the objective)
 * @param stoppedBy the SLO Stop line when the phase stopped during this step, else empty
 */
public record Step(String phase, int index, double offered, double offeredOps, double windowSeconds, double achieved,
                   long samples, long errors, double mean, double p50, double p90, double p95, double p99, double max,
                   double loadCpuPct, double loadCpuMsPerOp, double loadWaitMsPerOp, double serverCpuPct,
                   double serverWaitPct, double serverCpuMsPerOp, long serverGcs, double serverGcMs, double machinePct,
                   List<String> broken, String stoppedBy) {

    public double errorPct() {
        return samples == 0 ? 0 : 100.0 * errors / samples;
    }

    /** Met the objective (and measured something). */
    public boolean good() {
        return samples > 0 && broken.isEmpty() && stoppedBy.isEmpty();
    }

    /** The step as {@link Objective.Measured} values (percentiles as computed). */
    static Objective.Measured measured(long samples, long errors, double[] sortedMs, double serverCpuPct) {
        org.trustload.common.Percentiles pct = org.trustload.common.Percentiles.of(sortedMs);
        double sum = 0;
        for (double d : sortedMs) {
            sum += d;
        }
        double mean = sortedMs.length == 0 ? Double.NaN : sum / sortedMs.length;
        return new Objective.Measured() {
            @Override
            public long samples() {
                return samples;
            }

            @Override
            public long errors() {
                return errors;
            }

            @Override
            public double percentile(double p) {
                return pct.get(p);
            }

            @Override
            public double mean() {
                return mean;
            }

            @Override
            public double max() {
                return pct.max();
            }

            @Override
            public double serverCpuPct() {
                return serverCpuPct;
            }
        };
    }
}
