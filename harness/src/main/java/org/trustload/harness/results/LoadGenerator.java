package org.trustload.harness.results;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.trustload.harness.sizing.Verdict;
import org.trustload.harness.host.HostMonitor;

/**
 * What the load generator used over a run, for every summary: each JMeter JVM the {@link HostMonitor} saw (controller,
 * engines; remote engines' readings from their samples), its CPU share, GC and run-queue wait, and the machine's busy
 * share. It warns by the rule {@code ./trustload size} applies ({@link Verdict}): the figures may be the load
 * generator's limit when the busiest JVM is at {@link Verdict#CLIENT_CPU_PCT}% or its wait per sample is a material
 * share ({@link Verdict#WAIT_SHARE}) of the median response time.
 *
 * @param jvms the JMeter JVMs measured over the window, busiest first
 * @param machineBusyPct this machine's busy share over the window (every process), NaN unknown
 * @param fromMs start of the window (the first sample's start)
 * @param toMs end of the window (the last sample's end)
 * @param wholeLife the samples spanned less than {@link #MIN_WINDOW_MS}: the JVMs were measured over their whole
 *        life (start-up and report included)
 * @param samples top-level samples in the window (warm-up included), 0 unknown
 * @param p50Ms their median response time (Total's), NaN unknown
 * @param meanMs their mean response time, NaN unknown
 */
public record LoadGenerator(List<Jvm> jvms, double machineBusyPct, long fromMs, long toMs, boolean wholeLife,
                            long samples, double p50Ms, double meanMs) {

    /** Windows shorter than this tell little of a JVM's CPU share (readings come once a second). */
    static final long MIN_WINDOW_MS = 2000;

    /**
     * One JMeter JVM over the window.
     *
     * @param cpuPct CPU as a share of {@code cpus}, percent
     * @param gcMs GC time (ms) over the window, NaN when its hsperfdata was not readable
     * @param gcPct that GC time as a share of the window, percent
     * @param waitMs ms its threads were ready to run but waited for a CPU over the window, NaN unknown
     */
    public record Jvm(String name, int cpus, double cpuPct, double gcMs, double gcPct, double waitMs) {
    }

    /**
     * The JVMs {@code watcher} saw over [from, to], clamped to their readings; over their whole life when the
     * samples spanned less than {@link #MIN_WINDOW_MS}.
     */
    public static LoadGenerator of(HostMonitor watcher, long from, long to, long samples, double p50Ms, double meanMs) {
        boolean whole = to - from < MIN_WINDOW_MS;
        List<Jvm> jvms = new ArrayList<>();
        long a0 = whole ? Long.MAX_VALUE : from;
        long b0 = whole ? Long.MIN_VALUE : to;
        // this machine's busy share: over the local JVMs' window (remote engines run elsewhere)
        long m0 = whole ? Long.MAX_VALUE : from;
        long m1 = whole ? Long.MIN_VALUE : to;
        boolean local = false;
        for (HostMonitor.Series s : watcher.load()) {
            long a = whole ? s.firstReading() : Math.max(from, s.firstReading());
            long b = whole ? s.lastReading() : Math.min(to, s.lastReading());
            if (b - a < 1000) {
                continue;
            }
            double cpu = s.cpuMs(a, b);
            if (Double.isNaN(cpu)) {
                continue;
            }
            double wait = s.waitMs(a, b);
            double gc = s.gcMs(a, b);
            jvms.add(new Jvm(s.name(), s.cpus(), 100.0 * cpu / ((b - a) * (double) s.cpus()), gc, 100.0 * gc / (b - a),
                    wait));
            a0 = whole ? Math.min(a0, a) : Math.max(a0, a);
            b0 = whole ? Math.max(b0, b) : Math.min(b0, b);
            if (!s.remote()) {
                local = true;
                m0 = whole ? Math.min(m0, a) : Math.max(m0, a);
                m1 = whole ? Math.max(m1, b) : Math.min(m1, b);
            }
        }
        jvms.sort(Comparator.comparingDouble(Jvm::cpuPct).reversed());
        return new LoadGenerator(List.copyOf(jvms), local ? watcher.machineBusyPct(m0, m1) : Double.NaN,
                whole && !jvms.isEmpty() ? a0 : from, whole && !jvms.isEmpty() ? b0 : to, whole, samples, p50Ms,
                meanMs);
    }

    /** The JVMs' run-queue wait per sample, ms: the mean time a sample's thread waited for a CPU; NaN unknown. */
    public double waitMsPerSample() {
        double wait = 0;
        boolean known = false;
        for (Jvm j : jvms) {
            if (!Double.isNaN(j.waitMs())) {
                wait += j.waitMs();
                known = true;
            }
        }
        return known && samples > 0 ? wait / samples : Double.NaN;
    }

    private boolean cpuLimit() {
        return !jvms.isEmpty() && jvms.get(0).cpuPct() >= Verdict.CLIENT_CPU_PCT;
    }

    /** Whether the load generator may have been the run's limit: its busiest JVM at its CPUs, or a material wait. */
    public boolean saturated() {
        return cpuLimit() || Verdict.waitMaterial(waitMsPerSample(), p50Ms, meanMs);
    }

    /** The lines of the summary (at most {@value Summary#WIDTH} columns each). */
    public String text() {
        StringBuilder sb = new StringBuilder(System.lineSeparator());
        long seconds = Math.max(0, toMs - fromMs) / 1000;
        if (jvms.isEmpty()) {
            SummaryText.wrap(sb, "Load generator: not measured (no JMeter JVM was seen for a second or more).");
            return sb.toString();
        }
        Jvm top = jvms.get(0);
        String who = jvms.size() == 1 ? "JMeter (" + top.name() + ")"
                : "the busiest of " + jvms.size() + " JMeter JVMs (" + top.name() + ")";
        double wait = waitMsPerSample();
        String waited = Double.isNaN(wait) || Double.isNaN(Verdict.reference(p50Ms, meanMs))
                ? "its threads' wait for a CPU (unknown)"
                : (jvms.size() == 1 ? "its threads " : "their threads ")
                        + Verdict.waitFigures(wait, p50Ms, meanMs, "sample");
        SummaryText.wrap(sb, String.format(Locale.ROOT, "Load generator: %s used %.0f%% of the %d CPU%s it may use over"
                + " %s; GC %s; %s; this machine was %s busy.", who, top.cpuPct(), top.cpus(),
                top.cpus() == 1 ? "" : "s", wholeLife ? "its whole life (" + SummaryText.hms(seconds) + ", start-up and"
                        + " report included: the samples spanned under"
                        + " " + MIN_WINDOW_MS / 1000 + " s)" : "the " + SummaryText.hms(seconds) + " of samples",
                                gc(top),
                waited,
                Double.isNaN(machineBusyPct) ? "(unknown)" : String.format(Locale.ROOT, "%.0f%%", machineBusyPct)));
        for (Jvm j : jvms.subList(1, jvms.size())) {
            SummaryText.wrap(sb, String.format(Locale.ROOT, "  %s: %.0f%% of %d CPU%s, GC %s", j.name(), j.cpuPct(),
                    j.cpus(),
                    j.cpus() == 1 ? "" : "s", gc(j)));
        }
        if (saturated()) {
            String why = cpuLimit()
                    ? String.format(Locale.ROOT, "JMeter used %.0f%% of its CPUs", top.cpuPct())
                    : String.format(Locale.ROOT, "JMeter's threads waited for a CPU a material share of the response"
                            + " times (%.0f%%)", 100 * wait / Verdict.reference(p50Ms, meanMs));
            SummaryText.wrap(sb, "Warning: " + why + ": the figures above may be the load generator's limit, not the"
                    + " server's (docs/results.md#is-the-figure-the-servers).");
        }
        return sb.toString();
    }

    private static String gc(Jvm j) {
        return Double.isNaN(j.gcMs()) ? "(unknown)" : String.format(Locale.ROOT, "%.2f s (%.1f%% of the time)",
                j.gcMs() / 1000, j.gcPct());
    }
}
