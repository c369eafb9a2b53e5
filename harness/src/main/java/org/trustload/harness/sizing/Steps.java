package org.trustload.harness.sizing;

import org.trustload.harness.host.HostMonitor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.trustload.harness.results.Jtl;
import org.trustload.common.Percentiles;
import org.trustload.slo.Objective;

/**
 * Cuts a phase's results into its load steps (by the thread names {@link SizingPlan} gave them) and
 * measures each over its steady window: from its first sample plus the warm-up to the step's end (its
 * first sample plus the step's length, or its last answer when the run stopped early), counting the
 * samples that ended in it. Only top-level rows count (the sizing runs save no sub-results; transaction rows are left
 * out).
 */
public final class Steps {

    private static final String TRANSACTION_PREFIX = "Number of samples in transaction";

    private Steps() {
    }

    /** One step's rows. */
    private static final class Rows {
        final List<Jtl.Sample> rows = new ArrayList<>();
        long first = Long.MAX_VALUE;
    }

    /**
     * @param offered each step's load, by index
     * @param opsPerUnit operations per unit of offered load (open model: samples per arrival), NaN closed
     * @param stoppedLine the SLO Stop line of the phase's console, or empty
     */
    public static List<Step> of(String phase, Path jtl, List<Double> offered, double opsPerUnit, long stepMs,
            long warmupMs,
                                Objective slo, HostMonitor watcher, String stoppedLine) throws IOException {
        Map<Integer, Rows> byStep = new TreeMap<>();
        // samples that ended once SLO Stop stopped the run were interrupted by it: they tell nothing of the server
        java.util.regex.Matcher at = java.util.regex.Pattern.compile(" at (\\d{13})$").matcher(stoppedLine.strip());
        long stopAt = at.find() ? Long.parseLong(at.group(1)) : Long.MAX_VALUE;
        Jtl.forEach(jtl, s -> {
            int i = SizingPlan.step(s.threadName());
            if (i < 0 || s.responseMessage().startsWith(TRANSACTION_PREFIX) || s.end() >= stopAt) {
                return;
            }
            Rows r = byStep.computeIfAbsent(i, k -> new Rows());
            r.rows.add(s);
            r.first = Math.min(r.first, s.timeStamp());
        });
        List<Step> out = new ArrayList<>();
        int lastIndex = byStep.isEmpty() ? -1 : ((TreeMap<Integer, Rows>) byStep).lastKey();
        for (Map.Entry<Integer, Rows> e : byStep.entrySet()) {
            int i = e.getKey();
            if (i >= offered.size()) {
                continue;
            }
            // per engine (distributed mode): each counts its steps from its own start, seconds apart on a busy machine
            Map<String, Rows> byEngine = new TreeMap<>();
            for (Jtl.Sample s : e.getValue().rows) {
                Rows r = byEngine.computeIfAbsent(engine(s.threadName()), k -> new Rows());
                r.rows.add(s);
                r.first = Math.min(r.first, s.timeStamp());
            }
            List<Jtl.Sample> window = new ArrayList<>();
            long from = Long.MAX_VALUE;
            long to = Long.MIN_VALUE;
            double rate = 0;
            for (Rows r : byEngine.values()) {
                // the steady window: from the warm-up's end to the step's end (or its last answer, when the run
                // stopped early); the samples that ended in it, so slow answers count where they were given
                long lastEnd = r.rows.stream().mapToLong(Jtl.Sample::end).max().orElse(r.first);
                long a = r.first + warmupMs;
                long b = Math.min(r.first + stepMs, lastEnd);
                List<Jtl.Sample> w = new ArrayList<>();
                for (Jtl.Sample s : r.rows) {
                    if (s.end() > a && s.end() <= b) {
                        w.add(s);
                    }
                }
                if (w.isEmpty() || b - a < 200) {
                    // no answer within the steady part (answers slower than a step, or a run cut short): all of it
                    w = r.rows;
                    a = r.first;
                    b = Math.max(lastEnd, a + 1);
                }
                window.addAll(w);
                rate += w.size() * 1000.0 / (b - a);
                from = Math.min(from, a);
                to = Math.max(to, b);
            }
            out.add(step(phase, i, offered.get(i), opsPerUnit, window, from, to, rate, slo, watcher,
                    i == lastIndex ? stoppedLine : ""));
        }
        return out;
    }

    /** The engine prefix of a thread name ({@code 127.0.0.1:1234-}), empty for a standalone run. */
    static String engine(String threadName) {
        int at = threadName.indexOf("size-s");
        return at <= 0 ? "" : threadName.substring(0, at);
    }

    private static Step step(String phase, int i, double offered, double opsPerUnit, List<Jtl.Sample> window, long from,
                             long to, double achieved, Objective slo, HostMonitor watcher, String stopped) {
        long errors = window.stream().filter(s -> !s.success()).count();
        double[] ms = new double[window.size()];
        for (int k = 0; k < ms.length; k++) {
            ms[k] = window.get(k).elapsed();
        }
        Arrays.sort(ms);
        Percentiles p = Percentiles.of(ms);
        double seconds = (to - from) / 1000.0;
        long n = window.size();
        double loadPct = Double.NaN;
        double loadMs = 0;
        double waitMs = 0;
        boolean loadKnown = false;
        boolean waitKnown = false;
        for (HostMonitor.Series s : watcher.load()) {
            HostMonitor.Usage u = s.usage(from, to);
            double used = u == null ? Double.NaN : u.cpuMs();
            if (!Double.isNaN(used)) {
                loadKnown = true;
                loadMs += used;
                double w = u.waitMs();
                if (!Double.isNaN(w)) {
                    waitKnown = true;
                    waitMs += w;
                }
                double pct = 100.0 * used / ((to - from) * (double) s.cpus());
                loadPct = Double.isNaN(loadPct) ? pct : Math.max(loadPct, pct);
            }
        }
        double serverPct = Double.NaN;
        double serverWaitPct = Double.NaN;
        double serverMsPerOp = Double.NaN;
        long gcs = -1;
        double gcMs = Double.NaN;
        HostMonitor.Series server = watcher.server();
        if (server != null) {
            HostMonitor.Usage u = server.usage(from, to);
            double used = u == null ? Double.NaN : u.cpuMs();
            if (!Double.isNaN(used)) {
                serverPct = 100.0 * used / ((to - from) * (double) server.cpus());
                serverMsPerOp = n == 0 ? Double.NaN : used / n;
                serverWaitPct = 100.0 * u.waitMs() / ((to - from) * (double) server.cpus());
            }
            HostMonitor.Point[] span = server.span(from, to);
            if (span != null && span[0].gcCount() >= 0) {
                gcs = span[1].gcCount() - span[0].gcCount();
                gcMs = span[1].gcMs() - span[0].gcMs();
            }
        }
        Objective.Measured m = Step.measured(n, errors, ms, serverPct);
        List<String> broken = slo.broken(m);
        double mean = m.mean();
        return new Step(phase, i, offered, Double.isNaN(opsPerUnit) ? Double.NaN : offered * opsPerUnit, seconds,
                achieved, n,
                errors, mean, p.get(50), p.get(90), p.get(95), p.get(99), p.max(), loadPct,
                loadKnown && n > 0 ? loadMs / n : Double.NaN, waitKnown && n > 0 ? waitMs / n : Double.NaN, serverPct,
                serverWaitPct, serverMsPerOp, gcs, gcMs, watcher.machineBusyPct(from, to), broken, stopped);
    }
}
