package org.trustload.harness.sizing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * What one operation costs, read from a search's steps: the server's CPU ms per operation at low load and at the
 * knee, the load generator's CPU ms per operation, the server's GC per operation, each with its spread over the
 * judged steps; how long the server took to warm up; the open model's bracket. {@code ./trustload plan} reads it
 * from {@code sizing.json}; the arithmetic it feeds is in docs/capacity-planning.md.
 *
 * @param serverLow the server's CPU ms per operation at the lowest judged step
 * @param serverKnee the same at the knee (the best step when there is no knee)
 * @param client the load generator's CPU ms per operation at the best step (all its JVMs over all operations: what
 *               an engine spends per operation it sends)
 * @param serverGc the server's GC ms per operation at the best step
 * @param gcsPerThousand the server's collections per 1,000 operations at the best step; NaN unknown
 * @param engines load-generator JVMs that offered the load
 * @param engineCpus CPUs each of them could use (the most of any); 0 unknown
 * @param capacity operations/s at the objective (the verdict's best step); NaN without one
 */
public record ServiceDemand(Figure serverLow, Figure serverKnee, Figure client, Figure serverGc, double gcsPerThousand,
                            int engines, int engineCpus, double capacity, Warmup warmup, Optional<Bracket> bracket) {

    /** A fall of CPU per operation from one step to the next at one load beyond which the server is still warming. */
    public static final double SETTLE = 0.10;

    /**
     * A figure and its spread.
     *
     * @param value the figure at the step it names; NaN unknown
     * @param phase that step's phase, and {@code load} its offered load
     * @param min the least over the judged steps
     * @param max the most over the judged steps
     * @param steps how many judged steps had it
     */
    public record Figure(double value, String phase, double load, double min, double max, int steps) {

        static Figure none() {
            return new Figure(Double.NaN, "", Double.NaN, Double.NaN, Double.NaN, 0);
        }

        public boolean known() {
            return !Double.isNaN(value);
        }
    }

    /**
     * The server's warm-up before the first judged step.
     *
     * @param msPerOp its CPU ms per operation at the start load, step by step (the last: the first judged step when
     *                it settled at once)
     * @param steps unjudged steps it took
     * @param ms wall time from the search's start to its first judged run
     * @param settled whether the CPU per operation stopped falling before the search went on
     */
    public record Warmup(List<Double> msPerOp, int steps, long ms, boolean settled) {

        /** The warm-up in words: "51.00 -> 33.00 -> 12.10 ms at the start load; 5 unjudged steps ... settled". */
        public String text() {
            List<String> v = msPerOp.stream().filter(d -> !Double.isNaN(d)).map(Verdict::ms).toList();
            return String.format(Locale.ROOT, "%s%d unjudged step%s before the first judged one (%.0f s): %s",
                    v.isEmpty() ? ""
                    : String.join(" -> ", v) + " ms at the start load; ", steps, steps == 1 ? "" : "s", ms / 1000.0,
                    v.size() < 2 ? "the server's CPU not watched"
                    : settled ? "settled (within " + Math.round(100 * SETTLE) + "% from one step to the next)"
                    : "still falling when the search went on");
        }
    }

    /**
     * Open model: the highest arrival rate that met the objective and the lowest above it that broke it.
     *
     * @param metOps operations/s offered at the met rate (arrivals times samples per arrival)
     */
    public record Bracket(double met, double metOps, double broke, double brokeOps) {

        /** "met at 200/s (400 requests/s), broke at 283/s (566 requests/s)". */
        public String text(String unit) {
            return "met at " + rate(met, metOps, unit) + (Double.isNaN(broke) ? ", broke at no rate tried"
                    : ", broke at " + rate(broke, brokeOps, unit));
        }

        private static String rate(double arrivals, double ops, String unit) {
            return Verdict.num(arrivals) + " arrivals/s" + (Double.isNaN(ops) || ops == arrivals ? ""
                    : " (" + Verdict.num(ops) + " " + unit + "/s)");
        }
    }

    /** Whether CPU per operation {@code cur} at the same load as {@code prev} has stopped falling (unknown: yes). */
    public static boolean settled(double prev, double cur) {
        return Double.isNaN(prev) || Double.isNaN(cur) || prev <= 0 || cur >= prev * (1 - SETTLE);
    }

    /**
     * @param steps the judged steps of every phase (warm-ups left out)
     * @param engineCpus CPUs each load-generator JVM could use, 0 unknown
     */
    public static ServiceDemand of(List<Step> steps, Optional<Step> confirm, Verdict v, boolean open, int engines,
                                   int engineCpus, Warmup warmup) {
        List<Step> judged = new ArrayList<>(steps.stream().filter(s -> s.samples() > 0 && s.good()).toList());
        confirm.filter(c -> c.samples() > 0 && c.good()).ifPresent(judged::add);
        List<Step> withKnee = new ArrayList<>(judged);
        v.knee().filter(k -> !withKnee.contains(k)).ifPresent(withKnee::add);
        Optional<Step> low = judged.stream().min(Comparator.comparingDouble(Step::offered));
        Optional<Step> knee = v.knee().or(v::best);
        Optional<Step> best = v.best();
        Figure serverLow = figure(low, withKnee, Step::serverCpuMsPerOp);
        Figure serverKnee = figure(knee, withKnee, Step::serverCpuMsPerOp);
        Figure client = figure(best, judged, Step::loadCpuMsPerOp);
        Figure gc = figure(best, judged, ServiceDemand::gcMsPerOp);
        double gcs = best.filter(b -> b.serverGcs() >= 0 && b.samples() > 0)
                .map(b -> 1000.0 * b.serverGcs() / b.samples()).orElse(Double.NaN);
        double capacity = v.kind() == Verdict.Kind.SERVER ? best.map(Step::achieved).orElse(Double.NaN) : Double.NaN;
        return new ServiceDemand(serverLow, serverKnee, client, gc, gcs, engines, engineCpus, capacity, warmup,
                open ? bracket(steps, best) : Optional.empty());
    }

    /** The open model's bracket: the best step's rate and the first broken rate above it. */
    static Optional<Bracket> bracket(List<Step> steps, Optional<Step> best) {
        if (best.isEmpty()) {
            return Optional.empty();
        }
        Step b = best.get();
        Optional<Step> broke = steps.stream().filter(s -> s.samples() > 0 && !s.good() && s.offered() > b.offered())
                .min(Comparator.comparingDouble(Step::offered));
        return Optional.of(new Bracket(b.offered(), b.offeredOps(), broke.map(Step::offered).orElse(Double.NaN),
                broke.map(Step::offeredOps).orElse(Double.NaN)));
    }

    static double gcMsPerOp(Step s) {
        return s.serverGcs() < 0 || s.samples() == 0 ? Double.NaN : s.serverGcMs() / s.samples();
    }

    private static Figure figure(Optional<Step> at, List<Step> over, ToDoubleFunction<Step> f) {
        if (at.isEmpty()) {
            return Figure.none();
        }
        double min = Double.NaN;
        double max = Double.NaN;
        int n = 0;
        for (Step s : over) {
            double d = f.applyAsDouble(s);
            if (!Double.isNaN(d)) {
                min = n == 0 ? d : Math.min(min, d);
                max = n == 0 ? d : Math.max(max, d);
                n++;
            }
        }
        return new Figure(f.applyAsDouble(at.get()), at.get().phase(), at.get().offered(), min, max, n);
    }

    private static String load(double l) {
        return l == Math.rint(l) && Math.abs(l) < 1e9 ? Long.toString((long) l) : Verdict.num(l);
    }

    /** The "Service demand" section of sizing.md. */
    public String markdown(String unit, String model) {
        String one = Verdict.singular(unit);
        String loadUnit = model.equals("closed") ? " threads" : " arrivals/s";
        StringBuilder sb = new StringBuilder("## Service demand\n\nWhat one " + one
                + " costs, as `./trustload plan` reads it"
                + " (the same figures in `sizing.json` beside this file; docs/capacity-planning.md). Spread: the least"
                + " and"
                + " the most over the judged steps (those that met the objective, and the knee for the server).\n\n"
                + "| figure | value | spread | measured at |\n|---|---|---|---|\n");
        row(sb, "server CPU per " + one + ", low load", serverLow, " ms", loadUnit);
        row(sb, "server CPU per " + one + ", at the knee", serverKnee, " ms", loadUnit);
        row(sb, "load generator CPU per " + one + " (" + (engines <= 1 ? "1 JMeter JVM" : engines + " JVMs")
                + (engineCpus > 0 ? " of " + (engineCpus == 1 ? "1 CPU" : engineCpus + " CPUs") : "") + ")", client,
                " ms", loadUnit);
        row(sb, "server GC per " + one + (Double.isNaN(gcsPerThousand) ? "" : String.format(Locale.ROOT,
                " (%s collections per 1,000)", Verdict.num(gcsPerThousand))), serverGc, " ms", loadUnit);
        sb.append("| capacity | ").append(Double.isNaN(capacity) ? "none (no server verdict)" : Verdict.num(capacity)
                + " "
                + unit + "/s").append(" | | the verdict's best step |\n");
        sb.append("| server warm-up | ").append(warmup.text()).append(" | | the start load |\n");
        bracket.ifPresent(b -> sb.append("| open model | ").append(b.text(unit)).append(" | | |\n"));
        return sb.append('\n').toString();
    }

    private static void row(StringBuilder sb, String name, Figure f, String suffix, String loadUnit) {
        sb.append("| ").append(name).append(" | ").append(f.known() ? Verdict.ms(f.value()) + suffix
                : "-").append(" | ")
                .append(f.steps() > 1 ? Verdict.ms(f.min()) + "–" + Verdict.ms(f.max()) + suffix + " (" + f.steps()
                + " steps)"
                        : f.steps() == 1 ? "one step" : "-")
                .append(" | ").append(f.known() ? f.phase() + " at " + load(f.load()) + loadUnit : "-").append(" |\n");
    }
}
