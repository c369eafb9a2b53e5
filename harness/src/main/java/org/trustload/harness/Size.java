package org.trustload.harness;

import org.trustload.harness.results.SummaryText;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.cli.Commands;
import org.trustload.harness.cli.Parsed;
import org.trustload.harness.run.Environment;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.trustload.harness.sizing.ServiceDemand;
import org.trustload.harness.sizing.SizingPlan;
import org.trustload.harness.sizing.SizingReport;
import org.trustload.harness.sizing.Step;
import org.trustload.harness.sizing.Steps;
import org.trustload.harness.sizing.Verdict;
import org.trustload.harness.host.HostMonitor;
import org.trustload.jmeter.slo.SloStop;
import org.trustload.jvmstats.SourceConfig;
import org.trustload.jvmstats.StatsException;
import org.trustload.jvmstats.StatsSnapshot;
import org.trustload.jvmstats.StatsSource;
import org.trustload.jvmstats.StatsSources;
import org.trustload.slo.Objective;

/**
 * {@code ./trustload size PLAN --slo RULES}: searches the load at which a plan's server stops meeting a
 * service-level objective, in the manner of SLAMD's optimizing jobs but as a search, not a sweep:
 * <ol>
 *   <li><b>ramp</b>: load steps growing by {@code --factor} from {@code --start}, several per JMeter run
 *       ({@link SizingPlan}), until a step breaks the objective or throughput stops improving for
 *       {@code --plateau} steps (an SLO Stop listener ends a run as soon as the objective broke);</li>
 *   <li><b>refine</b>: steps between the last good and the first bad load, in one run;</li>
 *   <li><b>confirm</b>: the best step again;</li>
 * </ol>
 * all within {@code --max-time}. Each step is measured over its steady window ({@link Steps}): offered
 * and achieved throughput, percentiles by the dashboard's method, errors, the load generator's CPU and
 * the server's CPU per operation and GC ({@link HostMonitor}). The {@link Verdict} names what limited the
 * run; a client-bound number is never reported as capacity. Writes {@code sizing/} (index.html,
 * sizing.md, charts) beside the phases' results. Exit status: 0 a capacity, 6 client-bound, 7 no
 * verdict, 2 and 3 as {@code run}.
 */
public final class Size {

    /** The search's settings. */
    static final class Settings {
        Objective slo;
        SizingPlan.Model model = SizingPlan.Model.CLOSED;
        double start = Double.NaN;
        double factor = 2;
        double maxLoad = Double.NaN;
        long stepMs = 30_000;
        long warmupMs = 10_000;
        long maxTimeMs = 15 * 60_000;
        int plateau = 2;
        double minGainPct = 5;
        int refine = 3;
        boolean confirm = true;
        int maxStepsPerRun = 6;
        String server;
        int serverCpus;
        String loadCpus;
        String unit = "requests";
        int engines;
        List<String> remote = List.of();
        String controller;
        boolean noLab;
        final List<String> jmeterArgs = new ArrayList<>();

        double startLoad() {
            if (!Double.isNaN(start)) {
                return start;
            }
            return model == SizingPlan.Model.CLOSED ? Math.max(1, engines) : 10;
        }

        double maxLoadOrDefault() {
            return !Double.isNaN(maxLoad) ? maxLoad : model == SizingPlan.Model.CLOSED ? 2000 : 100_000;
        }

        /** The next load after {@code l}. */
        double next(double l) {
            double n = l * factor;
            return model == SizingPlan.Model.CLOSED ? Math.max(l + 1, Math.round(n)) : round3(n);
        }

        double guardErrorsPct() {
            double budget = slo.errorBudgetPct();
            return Math.min(100, Math.max(10, Double.isNaN(budget) ? 10 : 10 * budget));
        }
    }

    private Size() {
    }

    /** The search's options, as {@link Commands} declares them, and the checks across them. */
    static Settings parse(List<String> args) throws HarnessException {
        Parsed p = Commands.get("size").orElseThrow().parse(args);
        Settings s = new Settings();
        s.slo = Objective.parse(p.string("slo"));
        s.model = p.string("model").equals("open") ? SizingPlan.Model.OPEN : SizingPlan.Model.CLOSED;
        s.start = p.number("start", Double.NaN);
        s.factor = p.number("factor", s.factor);
        s.maxLoad = p.number("max-load", Double.NaN);
        s.stepMs = p.millis("step-time", s.stepMs);
        s.warmupMs = p.millis("warmup", s.warmupMs);
        s.maxTimeMs = p.millis("max-time", s.maxTimeMs);
        s.plateau = p.integer("plateau");
        s.minGainPct = p.number("min-gain", s.minGainPct);
        s.refine = p.integer("refine");
        s.confirm = !p.flag("no-confirm");
        s.maxStepsPerRun = p.integer("steps-per-run");
        s.server = p.string("server");
        s.serverCpus = p.given("server-cpus") ? p.integer("server-cpus") : 0;
        s.loadCpus = p.string("load-cpus");
        s.unit = p.given("unit") ? p.string("unit") : s.unit;
        s.engines = p.given("engines") ? p.integer("engines") : 0;
        s.remote = p.given("remote") ? Engines.parseHosts(p.string("remote")) : List.of();
        s.controller = p.value("controller", v -> v.strip().replace("[", "").replace("]", ""));
        s.noLab = p.flag("no-lab");
        s.jmeterArgs.addAll(p.jmeterArgs());
        if (!s.remote.isEmpty()) {
            s.engines = s.remote.size(); // each step's load is split across them
        }
        if (s.warmupMs >= s.stepMs) {
            throw HarnessException.usage("--warmup must be shorter than --step-time");
        }
        boolean cpuRule = s.slo.rules().stream().anyMatch(r -> r.kind() == Objective.Kind.SERVER_CPU);
        if (cpuRule && s.server == null && s.noLab) {
            throw HarnessException.usage("server.cpu needs a watched server: --server KIND:TARGET (or the lab)");
        }
        return s;
    }

    /** {@code 30}, {@code 30s}, {@code 500ms}, {@code 5m}, {@code 1h}, in ms (also plan's workload files). */
    public static long duration(String v, String name) throws HarnessException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|m|min|h)?").matcher(v.strip());
        if (!m.matches()) {
            throw HarnessException.usage(name + " takes a duration such as 30s, 5m or 500ms, not '" + v + "'");
        }
        double d = Double.parseDouble(m.group(1));
        String u = m.group(2) == null ? "s" : m.group(2);
        return Math.round(switch (u) {
            case "ms" -> d;
            case "m", "min" -> d * 60_000;
            case "h" -> d * 3_600_000;
            default -> d * 1000;
        });
    }

    private static double round3(double d) {
        if (d <= 0) {
            return d;
        }
        double f = Math.pow(10, Math.floor(Math.log10(d)) - 2);
        return Math.round(d / f) * f;
    }

    /** Runs the search for plan {@code o} (resolved by Main) with the size options {@code args}. */
    static int run(Layout layout, RunSpec.Builder o, List<String> args, PrintStream out, PrintStream err)
            throws IOException, InterruptedException, HarnessException {
        return run(JMeter.fromEnvironment(layout), o, args, out, err);
    }

    /**
     * The search as the launcher runs it, for tests: {@code o} may carry a running lab ({@link RunSpec.Builder#lab}),
     * which every phase then uses and whose JVM is the watched server.
     *
     * @return the exit status (a usage error is printed to {@code err} and returned as 1)
     */
    public static int run(JMeter jmeter, RunSpec.Builder o, List<String> args, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        try {
            return search(jmeter, o, args, out, err);
        } catch (HarnessException e) {
            err.println("trustload: " + e.getMessage());
            return e.status().code();
        }
    }

    private static int search(JMeter jmeter, RunSpec.Builder o, List<String> args, PrintStream out, PrintStream err)
            throws IOException, InterruptedException, HarnessException {
        Layout layout = jmeter.layout();
        Settings s = parse(args);
        RunSpec spec = o.args(s.jmeterArgs).noLab(s.noLab).engines(s.remote.isEmpty() ? s.engines : 0).remote(s.remote)
                .controller(s.controller).build();
        SizingPlan.init(layout.jmeterHome());
        Instant started = Instant.now();
        long deadline = System.currentTimeMillis() + s.maxTimeMs;
        Path dir = spec.dir() != null ? spec.dir() : spec.resultsRoot().resolve(spec.planId()).resolve("size-" + Run.STAMP.format(started));
        Files.createDirectories(dir);
        Path sizing = dir.resolve("sizing");
        Files.createDirectories(sizing.resolve("plans"));
        Map<String, Long> threads = new LinkedHashMap<>();
        for (PlanFile.ThreadGroup tg : spec.plan().threadGroups()) {
            tg.threads(spec.properties()).ifPresent(t -> threads.put(tg.name(), t));
        }
        SizingPlan.Shape shape = SizingPlan.shape(spec.jmx(), threads, spec.properties());
        Environment env;
        try {
            // the lab and the engines serve every phase of the search
            env = Environment.open(jmeter, spec, dir, "the search", err);
        } catch (HarnessException e) {
            err.println("trustload: " + e.getMessage());
            return ExitStatus.NOT_EXECUTED.code();
        }
        Lab lab = env.lab();
        Engines engines = env.engines();
        HostMonitor watcher = null;
        try {
            ServerWatch sw = serverWatch(s, lab);
            if (engines != null && engines.isRemote() && sw.sharedHost) {
                // the load is offered from other hosts: this machine holds the server (and the controller) only
                sw = new ServerWatch(sw.source, sw.cpus, false, sw.pid, sw.error);
            }
            if (sw.error != null) {
                err.println("trustload: " + sw.error);
                return ExitStatus.USAGE.code();
            }
            watcher = new HostMonitor(sw.source, sw.cpus, sw.pid, s.loadCpus);
            err.println("trustload: size " + spec.planId() + ", " + s.model.name().toLowerCase(Locale.ROOT) + " model, objective "
                    + s.slo + ", steps of " + s.stepMs / 1000.0 + " s (" + s.warmupMs / 1000.0 + " s warm-up), at most "
                    + SummaryText.hms(s.maxTimeMs / 1000) + "; server: " + (sw.source == null ? "not watched" : sw.source.describe()));
            Search search = new Search(layout, jmeter, spec, s, shape, sizing, dir, lab, engines, watcher, deadline, err);
            int status = search.run();
            if (status != 0) {
                return status;
            }
            if (engines != null && engines.isRemote()) {
                search.notes.add("the load came from the engines " + String.join(", ", engines.hosts()) + " on other hosts, each step's"
                        + " load split across them; load CPU is the busiest engine's, read from the CPU readings its own samples"
                        + " carried (each engine's share: the Load generator lines of each run's summary.txt)");
            }
            Verdict v = Verdict.of(search.steps, search.confirmed, search.plateau, sw.sharedHost, s.model == SizingPlan.Model.OPEN,
                    Math.max(1, s.engines), s.unit, s.slo.toString(), sw.cpus);
            SizingReport.Info info = new SizingReport.Info(spec.planId(), spec.jmx().toString(), s.model.name().toLowerCase(Locale.ROOT),
                    s.slo.toString(), s.unit, sw.source == null ? "not watched" : sw.source.describe(), sw.cpus, sw.sharedHost,
                    Math.max(1, s.engines), s.stepMs, s.warmupMs, shape.samplersPerIteration(), uptime(),
                    Duration.between(started, Instant.now()).toSeconds(), search.notes, String.join(" ",
                            spec.maskedProperties().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
            int engineCpus = watcher.load().stream().mapToInt(HostMonitor.Series::cpus).max().orElse(0);
            ServiceDemand demand = ServiceDemand.of(search.steps, search.confirmed, v, s.model == SizingPlan.Model.OPEN,
                    Math.max(1, s.engines), engineCpus, new ServiceDemand.Warmup(search.warmMsPerOp,
                            search.warming.size(), search.warmMs, search.warmSettled));
            String text = SizingReport.write(sizing, info, search.steps, search.confirmed, v, demand);
            out.print(text);
            out.println("trustload: sizing report in " + sizing.resolve("index.html"));
            return switch (v.kind()) {
                case SERVER -> ExitStatus.OK.code();
                case CLIENT -> ExitStatus.CLIENT_BOUND.code();
                default -> ExitStatus.NO_VERDICT.code();
            };
        } finally {
            if (watcher != null) {
                watcher.close();
            }
            env.close();
        }
    }

    /** The machine's load average, for the report. */
    static String uptime() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return "load average " + f[0] + " " + f[1] + " " + f[2] + " on " + Runtime.getRuntime().availableProcessors() + " CPUs";
        } catch (IOException | RuntimeException e) {
            return "load average unknown";
        }
    }

    /**
     * The watched server: its source, its CPUs, whether it shares this machine with the load generator, its local
     * process (0: none) whose run-queue wait the watcher reads.
     */
    private record ServerWatch(StatsSource source, int cpus, boolean sharedHost, long pid, String error) {
    }

    private static ServerWatch serverWatch(Settings s, Lab lab) {
        String kind;
        String target;
        if (s.server != null) {
            int colon = s.server.indexOf(':');
            if (colon <= 0) {
                return new ServerWatch(null, 0, false, 0, "--server takes KIND:TARGET ("
                        + String.join(", ", StatsSources.names())
                        + "), e.g. jvm-pid:1234 or prometheus:http://host:9100/metrics");
            }
            kind = s.server.substring(0, colon);
            target = s.server.substring(colon + 1);
        } else if (lab != null) {
            Optional<ProcessHandle> p = ProcessHandle.current().descendants()
                    .filter(h -> h.info().commandLine().orElse("").contains(lab.properties().toString())).findFirst();
            if (p.isEmpty()) {
                return new ServerWatch(null, 0, true, 0, null);
            }
            kind = "jvm-pid";
            target = Long.toString(p.get().pid());
        } else {
            return new ServerWatch(null, 0, false, 0, null);
        }
        try {
            StatsSource src = StatsSources.open(kind, SourceConfig.of(target));
            StatsSnapshot first = src.poll();
            int cpus = s.serverCpus;
            boolean local = kind.equals("jvm-pid") || kind.equals("process");
            if (cpus <= 0) {
                cpus = first.cpuCount() > 0 ? first.cpuCount()
                        : local ? HostMonitor.allowedCpus(Long.parseLong(target.strip())) : Runtime.getRuntime().availableProcessors();
            }
            boolean shared = local || loopback(target);
            long pid = local && target.strip().matches("[0-9]+") ? Long.parseLong(target.strip()) : 0;
            return new ServerWatch(src, cpus, shared, pid, null);
        } catch (StatsException | RuntimeException e) {
            return new ServerWatch(null, 0, false, 0, "cannot watch the server (" + kind + " '" + target + "'): "
                    + e.getMessage());
        }
    }

    private static boolean loopback(String target) {
        try {
            String host = target.contains("://") ? URI.create(target).getHost() : target.split(":")[0];
            return host != null && (host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1"));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Warm-up runs at most before the search goes on with a server still warming. */
    static final int MAX_WARM_RUNS = 3;

    /** The phases of one search, and what they measured. */
    static final class Search {
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
        final List<Step> steps = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        Optional<Step> confirmed = Optional.empty();
        boolean plateau;
        /** Unjudged steps at the start load while the server warmed up, in order. */
        final List<Step> warming = new ArrayList<>();
        /** The server's CPU ms per operation at those steps (and the first judged one, when it was checked). */
        final List<Double> warmMsPerOp = new ArrayList<>();
        /** From the search's start to its first judged step's run, ms. */
        long warmMs;
        /** Whether the server's CPU per operation settled before the first judged step. */
        boolean warmSettled = true;
        /** Seconds a phase costs beyond its steps (JMeter start, plan load, setUp), measured on the first. */
        private long overheadMs = 10_000;
        /** Open model: the schedule's lead-in, longer than the test's start-up (measured after each phase). */
        private long leadInMs;

        Search(Layout layout, JMeter jmeter, RunSpec o, Settings s, SizingPlan.Shape shape, Path sizing, Path dir, Lab lab,
               Engines engines, HostMonitor watcher, long deadline, PrintStream log) {
            this.layout = layout;
            this.jmeter = jmeter;
            this.o = o;
            this.s = s;
            this.shape = shape;
            this.sizing = sizing;
            this.dir = dir;
            this.lab = lab;
            this.engines = engines;
            this.watcher = watcher;
            this.deadline = deadline;
            this.log = log;
            boolean setUp = o.plan().threadGroups().stream().anyMatch(t -> t.kind().equals("SetupThreadGroup") && t.hasSampler());
            leadInMs = s.model == SizingPlan.Model.OPEN ? (setUp ? 15_000 : 5_000) : 0;
        }

        /** 0, or the exit status of a phase that could not execute. */
        int run() throws IOException, InterruptedException {
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
                int fit = (int) ((deadline - System.currentTimeMillis() - overheadMs) / s.stepMs);
                if (fit < 1 && ramp > 0) {
                    notes.add("the ramp stopped at --max-time");
                    break;
                }
                fit = Math.max(1, fit); // the first ramp always runs
                List<Double> loads = new ArrayList<>();
                for (double l = level; loads.size() < Math.min(fit, s.maxStepsPerRun) && l <= max; l = s.next(l)) {
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
                    if (st.achieved() > best * (1 + s.minGainPct / 100)) {
                        best = st.achieved();
                        flat = 0;
                    } else if (++flat >= s.plateau) {
                        plateau = true;
                        notes.add(String.format(Locale.ROOT, "throughput stopped improving (less than %s%% for %d steps)",
                                fmt(s.minGainPct), s.plateau));
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
            if (bad != null && s.refine > 0) {
                Optional<Step> lastGood = steps.stream().filter(Step::good).filter(x -> x.offered() < bad.offered())
                        .max(Comparator.comparingDouble(Step::offered));
                if (lastGood.isPresent() && bad.offered() / lastGood.get().offered() > 1.1) {
                    List<Double> loads = between(lastGood.get().offered(), bad.offered());
                    int fit = (int) ((deadline - System.currentTimeMillis() - overheadMs) / s.stepMs);
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
            if (top.isPresent() && s.confirm) {
                if (deadline - System.currentTimeMillis() - overheadMs >= 2 * s.stepMs) {
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
                        notes.add("the confirm run of the best step broke the objective: " + String.join(", ", confirmed.get().broken())
                                + (confirmed.get().stoppedBy().isEmpty() ? "" : " (" + confirmed.get().stoppedBy() + ")"));
                    }
                } else {
                    notes.add("no time left to confirm the best step (two steps: one to warm JMeter, one measured)");
                }
            }
            return 0;
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
                int n = (int) Math.min(Math.min(4, s.maxStepsPerRun), (left / 2 - overheadMs) / s.stepMs);
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
            for (int i = 1; i <= s.refine; i++) {
                double l = good * Math.pow(r, (double) i / (s.refine + 1));
                l = s.model == SizingPlan.Model.CLOSED ? Math.round(l) : round3(l);
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
            Objective listenerSlo = s.slo.withoutServerRules();
            SizingPlan.write(o.jmx(), jmx, s.model, loads, Math.max(1, s.engines), shape.groups(), s.stepMs, s.warmupMs, leadInMs,
                    listenerSlo == null ? null : listenerSlo.toString(), s.guardErrorsPct(), unjudged);
            Path phaseDir = dir.resolve(name);
            RunSpec.Builder r = RunSpec.of(layout, o.planId() + " (size " + name + ")", jmx).args(o.jmeterArgs())
                    .property("jmeter.save.saveservice.subresults", "false").dashboard(false).echo(false)
                    .maxErrorPct(100).dir(phaseDir).rmiDir(o.rmiDir()).workDir(o.workDir()).noLab(true)
                    .timeout(Duration.ofMillis(loads.size() * s.stepMs + 300_000)).monitor(watcher);
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
            log.println("trustload: size " + name + ": " + (s.model == SizingPlan.Model.CLOSED ? "threads " : "arrivals/s ")
                    + String.join(", ", loads.stream().map(Size::fmt).toList()) + " (" + fmt(s.stepMs / 1000.0) + " s each)");
            // the controller's command line names the phase's folder, the engines' their log folders in dir
            watcher.watchLoad(engines == null ? phaseDir.toString() : dir.toString());
            long t0 = System.currentTimeMillis();
            Run.Result res = Run.execute(jmeter, r, log);
            long took = System.currentTimeMillis() - t0;
            overheadMs = Math.max(5000, took - loads.size() * s.stepMs);
            if (s.model == SizingPlan.Model.OPEN) {
                startupMs(res.jmeterLog()).ifPresent(ms -> {
                    if (ms + 1000 > leadInMs) {
                        notes.add(String.format(Locale.ROOT, "phase %s: the test's start-up (%.1f s) outlasted the schedule's"
                                + " lead-in (%.1f s): its first arrivals came in a burst (within the warm-up when it is longer)",
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
            List<Step> measured = Steps.of(name, res.jtl(), loads, s.model == SizingPlan.Model.OPEN
                    ? shape.samplersPerIteration() : Double.NaN, s.stepMs, s.warmupMs, s.slo, watcher, stopped);
            for (Step st : measured) {
                boolean warmup = st.index() < unjudged;
                String broken = st.good() || warmup ? "" : "  BROKEN: " + String.join(", ", st.broken())
                        + (st.stoppedBy().isEmpty() ? "" : " (" + st.stoppedBy() + ")");
                log.println(String.format(Locale.ROOT, "trustload:   %s%s %s: %s %s/s, p50 %s ms, p99 %s ms,"
                        + " errors %.2f%%, load CPU %s%% (wait %s ms/op), server CPU %s%%%s", name,
                        warmup ? " warm-up (not judged)" : "", fmt(st.offered()), fmt(st.achieved()), s.unit,
                        fmt(st.p50()), fmt(st.p99()), st.errorPct(), fmt(st.loadCpuPct()), fmt(st.loadWaitMsPerOp()),
                        fmt(st.serverCpuPct()), broken));
            }
            got.addAll(measured);
            if (measured.isEmpty()) {
                notes.add("phase " + name + " measured no step; see " + phaseDir.resolve("jmeter.log"));
            }
            return 0;
        }
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
            java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
            java.time.LocalDateTime running = null;
            for (String line : Files.readAllLines(jmeterLog)) {
                java.util.regex.Matcher m = LOG_TIME.matcher(line);
                if (!m.find()) {
                    continue;
                }
                if (line.contains("Running the test!")) {
                    running = java.time.LocalDateTime.parse(m.group(1), f);
                } else if (running != null && line.contains("Starting ThreadGroup:") && line.contains(" size-s")) {
                    return Optional.of(Duration.between(running, java.time.LocalDateTime.parse(m.group(1), f)).toMillis());
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
