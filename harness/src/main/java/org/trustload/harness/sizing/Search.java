package org.trustload.harness.sizing;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.JMeter;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.host.HostMonitor;
import org.trustload.harness.run.Environment;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.jmeter.slo.SloStop;
import org.trustload.slo.Objective;

/**
 * The phases of one {@code ./trustload size} search (ramp, refine, confirm, and warm-up runs while the server's
 * CPU per operation still falls), each a JMeter {@link Run} of a {@link SizingPlan}, and what they measured.
 */
public final class Search {
    /** Warm-up runs at most before the search goes on with a server still warming. */
    static final int MAX_WARM_RUNS = 3;

    private final Layout layout;
    private final JMeter jmeter;
    private final RunSpec o;
    private final Settings s;
    private final SizingPlan.Shape shape;
    private final Path sizing;
    private final Path dir;
    private final Lab lab;
    private final Engines engines;
    private final HostMonitor watcher;
    private final long deadline;
    private final PrintStream log;
    private final List<Step> steps = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private Optional<Step> confirmed = Optional.empty();
    private boolean plateau;
    /** Unjudged steps at the start load while the server warmed up, in order. */
    private final List<Step> warming = new ArrayList<>();
    /** The server's CPU ms per operation at those steps (and the first judged one, when it was checked). */
    private final List<Double> warmMsPerOp = new ArrayList<>();
    /** From the search's start to its first judged step's run, ms. */
    private long warmMs;
    /** Whether the server's CPU per operation settled before the first judged step. */
    private boolean warmSettled = true;
    /** Seconds a phase costs beyond its steps (JMeter start, plan load, setUp), measured on the first. */
    private long overheadMs = 10_000;
    /** Open model: the schedule's lead-in, longer than the test's start-up (measured after each phase). */
    private long leadInMs;

    /**
     * A search of plan {@code o} in {@code env} (its lab and engines serve every phase), writing the phases to
     * {@code dir} and the report to {@code dir/sizing}, until {@code deadline} (ms since the epoch).
     */
    public Search(JMeter jmeter, RunSpec o, Settings s, SizingPlan.Shape shape, Path dir, Environment env,
                  HostMonitor watcher, long deadline, PrintStream log) {
        this.layout = jmeter.layout();
        this.jmeter = jmeter;
        this.o = o;
        this.s = s;
        this.shape = shape;
        this.sizing = dir.resolve("sizing");
        this.dir = dir;
        this.lab = env.lab();
        this.engines = env.engines();
        this.watcher = watcher;
        this.deadline = deadline;
        this.log = log;
        boolean setUp = o.plan().threadGroups().stream().anyMatch(t -> t.kind().equals("SetupThreadGroup")
                && t.hasSampler());
        leadInMs = s.open() ? (setUp ? 15_000 : 5_000) : 0;
    }

    /** 0, or the exit status of a phase that could not execute. */
    public int run() throws IOException, InterruptedException {
        double level = s.startLoad();
        double max = s.maxLoadOrDefault();
        Step firstBad = null;
        double best = 0;
        int flat = 0;
        int ramp = 0;
        boolean done = false;
        // the next ramp run begins with one unjudged step at its first load: the server's and JMeter's JIT,
        // connection pools and caches warm up there, not in the first judged step
        boolean warmFirst = true;
        boolean warmChecked = false;
        long started = System.currentTimeMillis();
        while (!done) {
            int fit = (int) ((deadline - System.currentTimeMillis() - overheadMs) / s.stepMs());
            if (fit < 1 && ramp > 0) {
                notes.add("the ramp stopped at --max-time");
                break;
            }
            fit = Math.max(1, fit); // the first ramp always runs
            List<Double> loads = new ArrayList<>();
            for (double l = level; loads.size() < Math.min(fit, s.maxStepsPerRun()) && l <= max; l = s.next(l)) {
                loads.add(l);
            }
            if (loads.isEmpty()) {
                notes.add("the ramp reached --max-load " + fmt(max));
                break;
            }
            List<Step> got = new ArrayList<>();
            boolean first = warmFirst;
            if (first) {
                loads.add(0, loads.get(0));
            }
            String name = "ramp-" + (++ramp);
            int status = phase(name, loads, got, first ? 1 : 0);
            if (status != 0) {
                return status;
            }
            if (first) {
                Optional<Step> warm = got.stream().filter(st -> st.index() == 0).findFirst();
                Optional<Step> judged = got.stream().filter(st -> st.index() == 1).findFirst();
                got.removeIf(st -> st.index() == 0);
                loads.remove(0);
                warmFirst = false;
                if (!warmChecked) {
                    warmChecked = true;
                    int warmed = warmCheck(name, loads.get(0), warm, judged, started);
                    if (warmed > 0) {
                        return warmed;
                    }
                    if (warmed < 0) {
                        warmFirst = true; // the rerun's JMeter JVM is a new one
                        continue; // level unchanged: the ramp starts again at the start load
                    }
                } else {
                    notes.add(name + " began with one unjudged step at the start load: its JMeter JVM was a new"
                            + " one");
                }
            }
            for (Step st : got) {
                steps.add(st);
                if (!st.good()) {
                    firstBad = st;
                    done = true;
                    break;
                }
                if (st.achieved() > best * (1 + s.minGainPct() / 100)) {
                    best = st.achieved();
                    flat = 0;
                } else if (++flat >= s.plateau()) {
                    plateau = true;
                    notes.add(String.format(Locale.ROOT, "throughput stopped improving (less than %s%% for %d steps)",
                            fmt(s.minGainPct()), s.plateau()));
                    done = true;
                    break;
                }
            }
            if (!done && got.size() < loads.size()) {
                notes.add("a ramp run ended before its last step without breaking the objective");
                done = true;
            }
            level = s.next(loads.get(loads.size() - 1));
        }
        Step bad = firstBad;
        if (bad != null && s.refine() > 0) {
            Optional<Step> lastGood = steps.stream().filter(Step::good).filter(x -> x.offered() < bad.offered())
                    .max(Comparator.comparingDouble(Step::offered));
            if (lastGood.isPresent() && bad.offered() / lastGood.get().offered() > 1.1) {
                List<Double> loads = between(lastGood.get().offered(), bad.offered());
                int fit = (int) ((deadline - System.currentTimeMillis() - overheadMs) / s.stepMs());
                loads = loads.subList(0, Math.min(loads.size(), Math.max(0, fit)));
                if (!loads.isEmpty()) {
                    List<Step> got = new ArrayList<>();
                    int status = phase("refine", loads, got, 0);
                    if (status != 0) {
                        return status;
                    }
                    steps.addAll(got);
                } else {
                    notes.add("no time left to refine between the last good and the first bad step");
                }
            }
        }
        Optional<Step> top = steps.stream().filter(Step::good).max(Comparator.comparingDouble(Step::achieved));
        if (top.isPresent() && s.confirm()) {
            if (deadline - System.currentTimeMillis() - overheadMs >= 2 * s.stepMs()) {
                // in a warm JMeter JVM: one unjudged step at the same load first (a new JVM under-read a fast
                // slapd by 36% and ran at 99% of its CPU where the ramp's had run at 81%)
                List<Step> got = new ArrayList<>();
                double load = top.get().offered();
                int status = phase("confirm", List.of(load, load), got, 1);
                if (status != 0) {
                    return status;
                }
                confirmed = got.stream().filter(st -> st.index() == 1).findFirst();
                notes.add("the confirm run began with one unjudged step at the same load: its JMeter JVM was warm"
                        + " when the confirmed step was measured");
                if (confirmed.isPresent() && !confirmed.get().good()) {
                    notes.add("the confirm run of the best step broke the objective: " + String.join(", ",
                            confirmed.get().broken())
                            + (confirmed.get().stoppedBy().isEmpty() ? "" : " (" + confirmed.get().stoppedBy() + ")"));
                }
            } else {
                notes.add("no time left to confirm the best step (two steps: one to warm JMeter, one measured)");
            }
        }
        return 0;
    }

    /**
     * After {@link #run()}: the verdict and the report in {@code sizing/} (index.html, sizing.md, charts), its text
     * printed to {@code out}.
     */
    public Verdict report(ServerWatch sw, Instant started, PrintStream out) throws IOException {
        if (engines != null && engines.isRemote()) {
            notes.add("the load came from the engines " + String.join(", ", engines.hosts()) + " on other hosts, each"
                    + " step's load split across them; load CPU is the busiest engine's, read from the CPU readings its"
                    + " own samples carried (each engine's share: the Load generator lines of each run's summary.txt)");
        }
        int engineCount = Math.max(1, s.engines());
        Verdict v = Verdict.of(steps, confirmed, plateau, sw.sharedHost(), s.open(), engineCount, s.unit(),
                s.slo().toString(), sw.cpus());
        SizingReport.Info info = new SizingReport.Info(o.planId(), o.jmx().toString(),
                s.model().name().toLowerCase(Locale.ROOT), s.slo().toString(), s.unit(), sw.describe(), sw.cpus(),
                sw.sharedHost(), engineCount, s.stepMs(), s.warmupMs(), shape.samplersPerIteration(), uptime(),
                Duration.between(started, Instant.now()).toSeconds(), notes, String.join(" ",
                        o.maskedProperties().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
        int engineCpus = watcher.load().stream().mapToInt(HostMonitor.Series::cpus).max().orElse(0);
        ServiceDemand demand = ServiceDemand.of(steps, confirmed, v, s.open(), engineCount, engineCpus,
                new ServiceDemand.Warmup(warmMsPerOp, warming.size(), warmMs, warmSettled));
        out.print(SizingReport.write(sizing, info, steps, confirmed, v, demand));
        out.println("trustload: sizing report in " + sizing.resolve("index.html"));
        return v;
    }

    /** The machine's load average, for the report. */
    private static String uptime() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return "load average " + f[0] + " " + f[1] + " " + f[2] + " on " + Runtime.getRuntime()
                    .availableProcessors()
                    + " CPUs";
        } catch (IOException | RuntimeException e) {
            return "load average unknown";
        }
    }

    /**
     * The first ramp run's warm-up step against its first judged step at the same load: when the server's CPU per
     * operation fell by more than {@link ServiceDemand#SETTLE}, the server may still have been warming up (a JVM's
     * JIT). It is then warmed at the start load until that settles; when the first warming step shows it still
     * falling past the judged one, the ramp runs again from there. Returns 0 (the ramp's steps stand), -1 (run
     * the ramp again) or a phase's could-not-execute status.
     */
    private int warmCheck(String name, double load, Optional<Step> warm, Optional<Step> judged, long started)
            throws IOException, InterruptedException {
        warm.ifPresent(warming::add);
        warmSettled = true;
        double w0 = warm.map(Step::serverCpuMsPerOp).orElse(Double.NaN);
        double w1 = judged.map(Step::serverCpuMsPerOp).orElse(Double.NaN);
        warmMsPerOp.add(w0);
        warmMsPerOp.add(w1);
        warmMs = System.currentTimeMillis() - started;
        long settle = Math.round(100 * ServiceDemand.SETTLE);
        if (ServiceDemand.settled(w0, w1)) {
            notes.add(name + " began with one unjudged warm-up step at the start load (" + fmt(load) + ")"
                    + (Double.isNaN(w0) || Double.isNaN(w1) ? "" : String.format(Locale.ROOT, "; the server's CPU"
                    + " per operation there %s ms, at the first judged step %s ms: settled (within %d%%)",
                    Verdict.ms(w0), Verdict.ms(w1), settle)));
            return 0;
        }
        int before = warming.size();
        int status = warmUntilSettled(load);
        if (status != 0) {
            return status;
        }
        warmMs = System.currentTimeMillis() - started;
        boolean ran = warming.size() > before;
        boolean already = ran && ServiceDemand.settled(w1, warming.get(before).serverCpuMsPerOp());
        String fell = String.format(Locale.ROOT, "the server's CPU per operation at the start load (%s) went %s ms"
                + " (the first judged step's was the second)", fmt(load),
                String.join(" -> ", warmMsPerOp.stream().map(Verdict::ms).toList()));
        if (ran && !already) {
            notes.add(fell + String.format(Locale.ROOT, ": the server was still warming up; %s after %.0f s,"
                    + " and the ramp ran again from there", warmSettled ? "settled (within " + settle + "%)"
                    : "not settled (--max-time)", warmMs / 1000.0));
            return -1;
        }
        notes.add(fell + (already ? ": it had settled by the first judged step (the next step at the same load"
                + " cost as much), so the ramp's steps stand" : ": no time left to warm it further (--max-time);"
                + " the first judged steps' CPU per operation may include its warm-up"));
        return 0;
    }

    /**
     * Steps at {@code load}, unjudged, until the server's CPU per operation stops falling from one to the next
     * (within {@link ServiceDemand#SETTLE}), in runs of up to four steps, with at most half the time left.
     */
    private int warmUntilSettled(double load) throws IOException, InterruptedException {
        for (int run = 1; run <= MAX_WARM_RUNS; run++) {
            long left = deadline - System.currentTimeMillis();
            int n = (int) Math.min(Math.min(4, s.maxStepsPerRun()), (left / 2 - overheadMs) / s.stepMs());
            if (n < 1) {
                break;
            }
            List<Step> got = new ArrayList<>();
            int status = phase("warm-" + run, java.util.Collections.nCopies(n, load), got, n);
            if (status != 0) {
                return status;
            }
            for (Step st : got) {
                warming.add(st);
                double prev = warmMsPerOp.isEmpty() ? Double.NaN : warmMsPerOp.get(warmMsPerOp.size() - 1);
                warmMsPerOp.add(st.serverCpuMsPerOp());
                if (ServiceDemand.settled(prev, st.serverCpuMsPerOp())) {
                    warmSettled = true;
                    return 0;
                }
            }
        }
        warmSettled = false;
        return 0;
    }

    private List<Double> between(double good, double bad) {
        List<Double> out = new ArrayList<>();
        double r = bad / good;
        for (int i = 1; i <= s.refine(); i++) {
            double l = good * Math.pow(r, (double) i / (s.refine() + 1));
            l = !s.open() ? Math.round(l) : Settings.round3(l);
            if (l > good && l < bad && (out.isEmpty() || l > out.get(out.size() - 1))) {
                out.add(l);
            }
        }
        return out;
    }

    /**
     * One JMeter run of these steps, the first {@code unjudged} of them warm-ups (no SLO Stop); its steps go to
     * {@code got}. Returns 0 or a could-not-execute status.
     */
    private int phase(String name, List<Double> loads, List<Step> got, int unjudged)
            throws IOException, InterruptedException {
        Path jmx = sizing.resolve("plans").resolve(name + ".jmx");
        Objective listenerSlo = s.slo().withoutServerRules();
        SizingPlan.write(o.jmx(), jmx, s.model(), loads, Math.max(1, s.engines()), shape.groups(), s.stepMs(),
                s.warmupMs(), leadInMs,
                listenerSlo == null ? null : listenerSlo.toString(), s.guardErrorsPct(), unjudged);
        Path phaseDir = dir.resolve(name);
        RunSpec.Builder r = RunSpec.of(layout, o.planId() + " (size " + name + ")", jmx).args(o.jmeterArgs())
                .property("jmeter.save.saveservice.subresults", "false").dashboard(false).echo(false)
                .maxErrorPct(100).dir(phaseDir).rmiDir(o.rmiDir()).workDir(o.workDir()).noLab(true)
                .timeout(Duration.ofMillis(loads.size() * s.stepMs() + 300_000)).monitor(watcher);
        if (lab != null) {
            r.lab(lab);
        }
        if (engines != null) {
            r.engines(engines);
        } else {
            // the Open Model Thread Group leaves a non-daemon thread pool behind that keeps a standalone
            // JVM alive for a minute after the test: exit when the test ends (engines stay up)
            r.property("jmeterengine.force.system.exit", "true");
        }
        log.println("trustload: size " + name + ": " + (!s.open() ? "threads " : "arrivals/s ")
                + String.join(", ", loads.stream().map(Search::fmt).toList()) + " (" + fmt(s.stepMs() / 1000.0)
                        + " s each)");
        // the controller's command line names the phase's folder, the engines' their log folders in dir
        watcher.watchLoad(engines == null ? phaseDir.toString() : dir.toString());
        long t0 = System.currentTimeMillis();
        Run.Result res = Run.execute(jmeter, r, log);
        long took = System.currentTimeMillis() - t0;
        overheadMs = Math.max(5000, took - loads.size() * s.stepMs());
        if (s.open()) {
            startupMs(res.jmeterLog()).ifPresent(ms -> {
                if (ms + 1000 > leadInMs) {
                    notes.add(String.format(Locale.ROOT, "phase %s: the test's start-up (%.1f s) outlasted the"
                            + " schedule's lead-in (%.1f s): its first arrivals came in a burst (within the warm-up"
                            + " when it is longer)",
                            name, ms / 1000.0, leadInMs / 1000.0));
                }
                leadInMs = Math.max(3000, ms + 2000);
            });
        }
        String console = Files.exists(res.console()) ? Files.readString(res.console()) : "";
        String stopped = console.lines().filter(l -> l.contains(SloStop.BROKEN_LINE)).findFirst().orElse("");
        boolean measured0 = Files.exists(res.jtl()) && Files.size(res.jtl()) > 0;
        if (res.status() == ExitStatus.NOT_EXECUTED && !stopped.isEmpty() && measured0) {
            // stopped by the objective, then too slow to end (samples without a timeout): what it wrote counts
            notes.add("phase " + name + ": JMeter was stopped by the objective and then killed: " + res.message());
        } else if (res.status() == ExitStatus.NOT_EXECUTED || res.status() == ExitStatus.CONFIG_ERROR) {
            log.println("trustload: size " + name + " could not run: " + res.message());
            return res.status().code();
        }
        List<Step> measured = Steps.of(name, res.jtl(), loads, s.open()
                ? shape.samplersPerIteration() : Double.NaN, s.stepMs(), s.warmupMs(), s.slo(), watcher, stopped);
        for (Step st : measured) {
            boolean warmup = st.index() < unjudged;
            String broken = st.good() || warmup ? "" : "  BROKEN: " + String.join(", ", st.broken())
                    + (st.stoppedBy().isEmpty() ? "" : " (" + st.stoppedBy() + ")");
            log.println(String.format(Locale.ROOT, "trustload:   %s%s %s: %s %s/s, p50 %s ms, p99 %s ms,"
                    + " errors %.2f%%, load CPU %s%% (wait %s ms/op), server CPU %s%%%s", name,
                    warmup ? " warm-up (not judged)" : "", fmt(st.offered()), fmt(st.achieved()), s.unit(),
                    fmt(st.p50()), fmt(st.p99()), st.errorPct(), fmt(st.loadCpuPct()), fmt(st.loadWaitMsPerOp()),
                    fmt(st.serverCpuPct()), broken));
        }
        got.addAll(measured);
        if (measured.isEmpty()) {
            notes.add("phase " + name + " measured no step; see " + phaseDir.resolve("jmeter.log"));
        }
        return 0;
    }

    private static final java.util.regex.Pattern LOG_TIME = java.util.regex.Pattern.compile(
            "^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) ");

    /**
     * From JMeter's "Running the test!" (where an Open Model schedule's clock starts) to the first sizing
     * step group's start (after the elements' start-up and the setUp groups), ms; empty when the log does
     * not tell (engines log elsewhere).
     */
    static Optional<Long> startupMs(Path jmeterLog) {
        try {
            java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd"
                    + " HH:mm:ss,SSS");
            java.time.LocalDateTime running = null;
            for (String line : Files.readAllLines(jmeterLog)) {
                java.util.regex.Matcher m = LOG_TIME.matcher(line);
                if (!m.find()) {
                    continue;
                }
                if (line.contains("Running the test!")) {
                    running = java.time.LocalDateTime.parse(m.group(1), f);
                } else if (running != null && line.contains("Starting ThreadGroup:") && line.contains(" size-s")) {
                    return Optional.of(Duration.between(running, java.time.LocalDateTime.parse(m.group(1), f))
                            .toMillis());
                }
            }
        } catch (IOException | RuntimeException e) {
            // no log: keep the lead-in
        }
        return Optional.empty();
    }

    static String fmt(double d) {
        if (Double.isNaN(d)) {
            return "-";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e9) {
            return Long.toString((long) d);
        }
        return Math.abs(d) >= 100 ? String.format(Locale.ROOT, "%.0f", d) : String.format(Locale.ROOT, "%.2f", d);
    }
}
