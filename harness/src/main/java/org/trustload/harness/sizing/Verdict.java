package org.trustload.harness.sizing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The verdict of a search: the capacity (the highest load that met the objective) and what limited it. A server
 * at its CPU limit whose throughput stopped growing is limited by its CPU; evidence that the load generator
 * limited the run must explain the response times (its CPU at its limit, arrivals behind a flat median, or a
 * run-queue wait that is a material share of the median — never a wait per CPU ms alone), and then no capacity
 * is reported; a machine whose other work took the CPUs is no verdict. The rules, their order and why:
 * docs/sizing.md#the-method.
 */
public record Verdict(Kind kind, Optional<Step> best, Optional<Step> knee, String limit, String sentence,
        int enginesNext) {

    /** CPU share of the load generator at which it is taken for the bottleneck. */
    public static final double CLIENT_CPU_PCT = 90;
    /** CPU share of the server at which it is called CPU-bound. */
    public static final double SERVER_CPU_PCT = 90;
    /**
     * Share of the median response time at which the load generator's run-queue wait per operation is its own
     * limit: below a fifth, taking all of it out of every response would move the response times less than one
     * refine step moves the load (2^(1/4) = 1.19), so it cannot move the knee by a step.
     */
    public static final double WAIT_SHARE = 0.20;
    /** Busy share of a machine shared by server and load generator at which the machine is the limit. */
    public static final double HOST_BUSY_PCT = 90;
    /** Throughput growth from the best step to the knee below which it stopped growing. */
    static final double FLAT_GAIN = 0.10;

    /** The outcome. */
    public enum Kind {
        /** A capacity, limited by the server. */
        SERVER,
        /** The load generator limited the run: no capacity. */
        CLIENT,
        /** The objective broke at the lowest load tried. */
        BELOW_START,
        /** No limit within the time or load bounds: at least the best load. */
        NOT_REACHED,
        /** This machine was busy with other work: neither side reached a limit of its own. */
        HOST_BUSY
    }

    /**
     * Judges the steps of a search.
     *
     * @param steps every step, all phases, in the order run
     * @param confirm the confirm run's step, if one ran
     * @param sharedHost whether server and load generator run on this machine
     * @param open the open model
     * @param unit what one operation is called ("samples", "searches")
     * @param serverCpus CPUs of the server, 0 unknown
     */
    public static Verdict of(List<Step> steps, Optional<Step> confirm, boolean plateau, boolean sharedHost,
            boolean open,
                             int engines, String unit, String slo, int serverCpus) {
        List<Step> measured = steps.stream().filter(s -> s.samples() > 0).toList();
        List<Step> good = measured.stream().filter(Step::good).toList();
        Optional<Step> firstBad = measured.stream().filter(s -> !s.good())
                .min(Comparator.comparingDouble(Step::offered));
        Optional<Step> best = good.stream().max(Comparator.comparingDouble(Step::achieved));
        // the confirm run's step stands for the best when it is lower, unless its own JMeter JVM was at its CPU
        // limit where the search's step at the same load was not: a new JVM still compiling on one CPU (EU DSS,
        // 2026-12-07: 97% against 60%) measured itself, not the server
        if (confirm.isPresent() && confirm.get().good() && best.isPresent()
                && confirm.get().offered() == best.get().offered()
                && !(clientCpu(confirm.get(), confirm.get()).isPresent()
                        && clientCpu(best.get(), best.get()).isEmpty())) {
            best = Optional.of(confirm.get().achieved() < best.get().achieved() ? confirm.get() : best.get());
        }
        String one = singular(unit);
        if (best.isEmpty()) {
            Step first = measured.isEmpty() ? null : measured.get(0);
            Optional<Verdict> busy = first == null ? Optional.empty() : hostBusy(first, first, sharedHost, one);
            if (busy.isPresent()) {
                return busy.get();
            }
            List<String> clientWhy = first == null ? List.of() : clientEvidence(first, first, open, sharedHost, one);
            if (!clientWhy.isEmpty()) {
                int next = Math.max(engines + 1, (int) Math.ceil(Math.max(1, engines) * Math.max(CLIENT_CPU_PCT,
                        Double.isNaN(first.loadCpuPct()) ? 0 : first.loadCpuPct()) / 60.0));
                return new Verdict(Kind.CLIENT, Optional.empty(), Optional.of(first), "the load generator: "
                        + String.join("; ", clientWhy),
                        String.format(Locale.ROOT, "Client-bound, no verdict: the load generator limited the run"
                                + " already at the lowest load (%s); what it measured is the load generator's limit,"
                                + " not the server's capacity: try %d engines on other machines (--remote HOST,...;"
                                + " docs/distributed.md), or --load-cpus.",
                                String.join("; ", clientWhy), next), next);
            }
            String why = first == null ? "no step measured anything" : String.join(", ", reasons(first));
            return new Verdict(Kind.BELOW_START, Optional.empty(), Optional.ofNullable(first),
                    "the objective broke at the lowest load",
                    "The objective " + slo + " broke already at the lowest load tried (" + why
                            + "): start lower (--start).", 0);
        }
        Step b = best.get();
        // the knee: where the search stopped climbing (first bad step above the best, or the plateau after it)
        Optional<Step> knee = firstBad.filter(s -> s.offered() > b.offered());
        if (knee.isEmpty() && plateau) {
            // the plateau's last step; the best itself when it is that step (throughput crept up, by less than
            // --min-gain a step, to the end)
            knee = measured.stream().filter(s -> s.offered() > b.offered())
                    .max(Comparator.comparingDouble(Step::offered)).or(() -> Optional.of(b));
        }
        if (knee.isEmpty()) {
            return new Verdict(Kind.NOT_REACHED, best, Optional.empty(), "no limit reached",
                    String.format(Locale.ROOT, "No limit reached: at least %s %s/s at %s (the search ran out of time or"
                            + " load bounds; raise --max-time or --max-load).", num(b.achieved()), unit, slo), 0);
        }
        Step k = knee.get();
        String sentence = sentence(b, slo, unit, serverCpus);
        if (clientCpu(b, k).isEmpty() && arrivalsBehind(b, k, open).isEmpty() && serverCpuFlat(b, k)) {
            // the server's CPU explains the throughput: the load generator's queueing does not change it
            return new Verdict(Kind.SERVER, best, knee, serverCpuLimit(b, k, serverCpus, unit), sentence, 0);
        }
        Optional<Verdict> hostBusy = hostBusy(b, k, sharedHost, one);
        if (hostBusy.isPresent()) {
            return new Verdict(Kind.HOST_BUSY, best, knee, hostBusy.get().limit(), hostBusy.get().sentence(), 0);
        }
        List<String> clientWhy = clientEvidence(b, k, open, sharedHost, one);
        if (!clientWhy.isEmpty()) {
            double cpu = Double.isNaN(k.loadCpuPct()) ? CLIENT_CPU_PCT : Math.max(k.loadCpuPct(), b.loadCpuPct());
            int next = Math.max(engines + 1, (int) Math.ceil(Math.max(1, engines) * cpu / 60.0));
            return new Verdict(Kind.CLIENT, best, knee, "the load generator: " + String.join("; ", clientWhy),
                    String.format(Locale.ROOT, "Client-bound, no verdict: the load generator limited the run (%s). %s"
                            + " %s/s at %s is the load generator's limit, not the server's capacity: try %d engines on"
                            + " other machines (--remote HOST,...; docs/distributed.md), or --load-cpus to keep it off"
                            + " the server's CPUs.",
                            String.join("; ", clientWhy), num(b.achieved()), unit, slo, next), next);
        }
        String limit;
        double server = cores(k.serverCpuMsPerOp(), k.achieved());
        double load = cores(k.loadCpuMsPerOp(), k.achieved());
        double busy = k.machinePct() / 100 * Runtime.getRuntime().availableProcessors();
        if (sharedHost && !Double.isNaN(k.machinePct()) && k.machinePct() >= HOST_BUSY_PCT
                && !(k.serverCpuPct() >= SERVER_CPU_PCT)
                && !Double.isNaN(server) && server + (Double.isNaN(load) ? 0 : load) >= 0.5 * busy) {
            limit = String.format(Locale.ROOT, "the server's CPU on a saturated shared machine (%.0f%% busy at the"
                    + " knee: the server %.2f CPUs, the load generator %.2f, other processes the"
                    + " rest)", k.machinePct(), server, load);
        } else if (serverCpuBound(b, k)) {
            limit = serverCpuLimit(b, k, serverCpus, unit);
        } else {
            List<String> r = reasons(k);
            limit = "the server" + (r.isEmpty() ? "" : " (" + String.join(", ", r) + ")")
                    + (Double.isNaN(k.serverCpuPct()) ? ", its CPU not watched"
                    : String.format(Locale.ROOT,
                            " with its CPU at %.0f%%: a limit other than CPU (threads, locks, I/O, throttling)",
                    k.serverCpuPct()));
        }
        return new Verdict(Kind.SERVER, best, knee, limit, sentence, 0);
    }

    /** The server at its CPU limit at the best step or the knee. */
    static boolean serverCpuBound(Step best, Step knee) {
        return knee.serverCpuPct() >= SERVER_CPU_PCT || best.serverCpuPct() >= SERVER_CPU_PCT;
    }

    /** The server at its CPU limit, and the knee's throughput within {@link #FLAT_GAIN} of the best step's. */
    static boolean serverCpuFlat(Step best, Step knee) {
        return serverCpuBound(best, knee) && knee.achieved() < best.achieved() * (1 + FLAT_GAIN);
    }

    private static String serverCpuLimit(Step b, Step k, int serverCpus, String unit) {
        String wait = Double.isNaN(k.loadWaitMsPerOp()) ? ""
                : "; the load generator's threads " + waited(k, singular(unit));
        return String.format(Locale.ROOT, "the server's CPU (%.0f%% of %s at the knee: %s %s/s there, %s at the best"
                + " step%s)", k.serverCpuPct(), cpus(serverCpus), num(k.achieved()), unit, num(b.achieved()), wait);
    }

    /**
     * No verdict when this machine was saturated mostly by other work at the knee and, the load generator below its
     * CPU limit, either its run-queue wait was a material share of the response times (they hold the others' CPU
     * time) or a local server was ready to run but waited for CPUs the others took: neither side reached a limit of
     * its own. A load generator at its own CPU limit is still the load generator's verdict.
     */
    static Optional<Verdict> hostBusy(Step best, Step knee, boolean sharedHost, String one) {
        if (!clientCpu(best, knee).isEmpty()) {
            return Optional.empty();
        }
        double busy = knee.machinePct() / 100 * Runtime.getRuntime().availableProcessors();
        double load = cores(knee.loadCpuMsPerOp(), knee.achieved());
        double server = sharedHost ? cores(knee.serverCpuMsPerOp(), knee.achieved()) : 0;
        String why;
        if (othersDominate(knee, sharedHost) && (waitMaterial(best) || waitMaterial(knee))) {
            Step s = waitMaterial(knee) ? knee : best;
            why = "the load generator's threads " + waited(s, one);
        } else if (serverShortOfCpu(knee, busy - nan0(load) - nan0(server))) {
            why = String.format(Locale.ROOT, "the server ran %.0f%% of its CPUs and was ready to run another %.0f%% of"
                    + " their time but waited for a CPU (its capacity here is the share other work left it)",
                    knee.serverCpuPct(), Math.min(100 - knee.serverCpuPct(), knee.serverWaitPct()));
        } else {
            return Optional.empty();
        }
        String serverCores = sharedHost && !Double.isNaN(server)
                ? String.format(Locale.ROOT, ", the server %.2f", server) : "";
        String limit = String.format(Locale.ROOT, "this machine was %.0f%% busy at the knee, mostly with other"
                + " processes (the load generator used %.2f CPUs%s of %.2f busy), and %s", knee.machinePct(),
                nan0(load), serverCores, busy, why);
        return Optional.of(new Verdict(Kind.HOST_BUSY, Optional.empty(), Optional.of(knee), limit,
                "No verdict: " + limit + "; neither the server nor the load generator reached a limit of its own."
                        + " Size on a quiet machine, or with the load generator elsewhere.", 0));
    }

    /**
     * A local server below its CPU limit that was ready to run for the rest of its CPUs' time but waited for a CPU,
     * while other processes used at least that much CPU ({@code othersCores}): its CPU went to them.
     */
    static boolean serverShortOfCpu(Step s, double othersCores) {
        if (Double.isNaN(s.serverWaitPct()) || Double.isNaN(s.serverCpuPct()) || s.serverCpuPct() >= SERVER_CPU_PCT
                || s.serverCpuPct() + s.serverWaitPct() < SERVER_CPU_PCT) {
            return false;
        }
        // the server's CPUs from what it used and its share of them, times the share it waited
        double waitedCores = cores(s.serverCpuMsPerOp(), s.achieved()) / Math.max(1e-9, s.serverCpuPct())
                * s.serverWaitPct();
        return !Double.isNaN(waitedCores) && othersCores >= waitedCores;
    }

    /**
     * This machine was saturated at the step, and not by the search's own processes (the load generator, a local
     * server).
     */
    static boolean othersDominate(Step s, boolean sharedHost) {
        if (Double.isNaN(s.machinePct()) || s.machinePct() < HOST_BUSY_PCT) {
            return false;
        }
        double busy = s.machinePct() / 100 * Runtime.getRuntime().availableProcessors();
        double load = cores(s.loadCpuMsPerOp(), s.achieved());
        double server = sharedHost ? cores(s.serverCpuMsPerOp(), s.achieved()) : 0;
        double ours = (Double.isNaN(load) ? 0 : load) + (Double.isNaN(server) ? 0 : server);
        return ours < 0.5 * busy;
    }

    /**
     * The median response time a step's run-queue wait is weighed against: p50, or the mean when JMeter's whole
     * milliseconds round the median below 1 ms; NaN when neither is above 0.
     */
    public static double reference(double p50, double mean) {
        double ref = p50 >= 1 || Double.isNaN(mean) ? p50 : mean;
        return ref > 0 ? ref : Double.NaN;
    }

    /** Whether a run-queue wait per operation is a material share ({@link #WAIT_SHARE}) of the response times. */
    public static boolean waitMaterial(double waitMsPerOp, double p50, double mean) {
        double ref = reference(p50, mean);
        return !Double.isNaN(waitMsPerOp) && !Double.isNaN(ref) && waitMsPerOp > 0 && waitMsPerOp >= WAIT_SHARE * ref;
    }

    static boolean waitMaterial(Step s) {
        return waitMaterial(s.loadWaitMsPerOp(), s.p50(), s.mean());
    }

    /** "waited for a CPU 0.82 ms per request against a median response time of 34 ms (2%; material from 20%)". */
    public static String waitFigures(double waitMsPerOp, double p50, double mean, String one) {
        double ref = reference(p50, mean);
        if (Double.isNaN(ref)) {
            return String.format(Locale.ROOT, "waited for a CPU %s ms per %s", ms(waitMsPerOp), one);
        }
        return String.format(Locale.ROOT, "waited for a CPU %s ms per %s against a %s response time of %s ms (%.0f%%;"
                + " material from %.0f%%)", ms(waitMsPerOp), one, ref == p50 ? "median" : "mean", num(ref),
                100 * waitMsPerOp / ref, 100 * WAIT_SHARE);
    }

    private static String waited(Step s, String one) {
        return waitFigures(s.loadWaitMsPerOp(), s.p50(), s.mean(), one);
    }

    private static double nan0(double d) {
        return Double.isNaN(d) ? 0 : d;
    }

    /** The load generator's busiest JVM at its CPU limit at the best step or the knee. */
    private static Optional<String> clientCpu(Step best, Step knee) {
        for (Step s : List.of(best, knee)) {
            if (!Double.isNaN(s.loadCpuPct()) && s.loadCpuPct() >= CLIENT_CPU_PCT) {
                return Optional.of(String.format(Locale.ROOT, "its JVM at %.0f%% of the CPUs it may use at %s",
                        s.loadCpuPct(), num(s.offered())));
            }
        }
        return Optional.empty();
    }

    /** Open model: arrivals fell behind the schedule while the median response time stayed flat. */
    private static Optional<String> arrivalsBehind(Step best, Step knee, boolean open) {
        if (open && !Double.isNaN(knee.offeredOps()) && knee.achieved() < 0.9 * knee.offeredOps()
                && knee.p50() <= Math.max(2, 1.5 * best.p50())) {
            return Optional.of(String.format(Locale.ROOT, "arrivals fell behind the schedule (%s of %s/s) while the"
                    + " median response time stayed at %s ms", num(knee.achieved()), num(knee.offeredOps()),
                    num(knee.p50())));
        }
        return Optional.empty();
    }

    /** The load generator's part in the limit, if any: only evidence that explains the response times. */
    static List<String> clientEvidence(Step best, Step knee, boolean open, boolean sharedHost, String one) {
        List<String> why = new ArrayList<>();
        clientCpu(best, knee).ifPresent(why::add);
        for (Step s : List.of(best, knee)) {
            if (waitMaterial(s)) {
                why.add(String.format(Locale.ROOT, "its threads %s at %s (the response times are its own queueing)",
                        waited(s, one), num(s.offered())));
                break;
            }
        }
        arrivalsBehind(best, knee, open).ifPresent(why::add);
        if (sharedHost && why.isEmpty() && !Double.isNaN(knee.machinePct()) && knee.machinePct() >= HOST_BUSY_PCT) {
            // one machine, saturated: the side that used more of it limited the other
            double load = cores(knee.loadCpuMsPerOp(), knee.achieved());
            double server = cores(knee.serverCpuMsPerOp(), knee.achieved());
            double busy = knee.machinePct() / 100 * Runtime.getRuntime().availableProcessors();
            // only when the search's own processes made the machine busy (not other work on it)
            if (!Double.isNaN(load) && (Double.isNaN(server) || load > server)
                    && load + (Double.isNaN(server) ? 0 : server) >= 0.5 * busy) {
                why.add(String.format(Locale.ROOT, "it shares this machine with the server, which was %.0f%% busy at"
                        + " the knee, and used more of it (%.2f CPUs) than the server (%s"
                        + " CPUs)", knee.machinePct(), load,
                        Double.isNaN(server) ? "?" : String.format(Locale.ROOT, "%.2f", server)));
            }
        }
        return why;
    }

    /** CPUs busy for {@code msPerOp} at {@code perSecond}. */
    static double cores(double msPerOp, double perSecond) {
        return Double.isNaN(msPerOp) ? Double.NaN : msPerOp * perSecond / 1000.0;
    }

    private static List<String> reasons(Step s) {
        List<String> r = new ArrayList<>(s.broken());
        if (!s.stoppedBy().isEmpty() && r.isEmpty()) {
            r.add(s.stoppedBy().replaceFirst("^.*?: ", ""));
        }
        return r;
    }

    /**
     * "12,400 searches/s at p99<=20ms with the server at 88% of 2 CPUs: ~0.14 ms CPU per search -> 1 CPU per 7,000
     * searches/s".
     */
    static String sentence(Step b, String slo, String unit, int serverCpus) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s %s/s at %s", num(b.achieved()), unit, slo));
        if (!Double.isNaN(b.serverCpuPct())) {
            s.append(String.format(Locale.ROOT, " with the server at %.0f%% of %s", b.serverCpuPct(),
                    cpus(serverCpus)));
            if (!Double.isNaN(b.serverCpuMsPerOp()) && b.serverCpuMsPerOp() > 0) {
                String one = singular(unit);
                s.append(String.format(Locale.ROOT, ": ~%s ms CPU per %s -> 1 CPU per %s %s/s",
                        ms(b.serverCpuMsPerOp()), one,
                        num(1000.0 / b.serverCpuMsPerOp()), unit));
            }
        }
        return s.append('.').toString();
    }

    /** {@code searches} -> {@code search}, {@code requests} -> {@code request}. */
    public static String singular(String unit) {
        if (unit.matches(".*(ch|sh|ss|x)es")) {
            return unit.substring(0, unit.length() - 2);
        }
        return unit.endsWith("s") ? unit.substring(0, unit.length() - 1) : unit;
    }

    static String cpus(int n) {
        return n <= 0 ? "its CPUs" : n == 1 ? "1 CPU" : n + " CPUs";
    }

    /** Three significant figures, thousands separated. */
    public static String num(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            double f = Math.pow(10, Math.floor(Math.log10(a)) - 2);
            return String.format(Locale.ROOT, "%,.0f", Math.round(v / f) * f);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    public static String ms(double v) {
        return v >= 1 ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
