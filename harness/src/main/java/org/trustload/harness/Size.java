package org.trustload.harness;

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
import org.trustload.harness.sizing.Watcher;
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
 * the server's CPU per operation and GC ({@link Watcher}). The {@link Verdict} names what limited the
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

    static Settings parse(List<String> args) throws HarnessException {
        Settings s = new Settings();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = a.contains("=") && a.startsWith("--") ? a.substring(0, a.indexOf('=')) : a;
            java.util.function.Supplier<String> value = null;
            int[] idx = {i};
            if (a.startsWith("--") && a.contains("=")) {
                String v = a.substring(a.indexOf('=') + 1);
                value = () -> v;
            } else if (a.startsWith("--")) {
                value = () -> {
                    idx[0]++;
                    return idx[0] < args.size() ? args.get(idx[0]) : null;
                };
            }
            switch (name) {
                case "--slo" -> s.slo = objective(need(value, name));
                case "--model" -> {
                    String m = need(value, name);
                    if (!m.equals("open") && !m.equals("closed")) {
                        throw HarnessException.usage("--model is open or closed, not '" + m + "'");
                    }
                    s.model = m.equals("open") ? SizingPlan.Model.OPEN : SizingPlan.Model.CLOSED;
                }
                case "--start" -> s.start = positive(need(value, name), name);
                case "--factor" -> {
                    s.factor = positive(need(value, name), name);
                    if (s.factor <= 1.05) {
                        throw HarnessException.usage("--factor must be above 1.05");
                    }
                }
                case "--max-load" -> s.maxLoad = positive(need(value, name), name);
                case "--step-time" -> s.stepMs = duration(need(value, name), name);
                case "--warmup" -> s.warmupMs = duration(need(value, name), name);
                case "--max-time" -> s.maxTimeMs = duration(need(value, name), name);
                case "--plateau" -> s.plateau = (int) positive(need(value, name), name);
                case "--min-gain" -> s.minGainPct = positive(need(value, name).replace("%", ""), name);
                case "--refine" -> s.refine = (int) Math.max(0, number(need(value, name), name));
                case "--no-confirm" -> s.confirm = false;
                case "--steps-per-run" -> s.maxStepsPerRun = (int) positive(need(value, name), name);
                case "--server" -> s.server = need(value, name);
                case "--server-cpus" -> s.serverCpus = (int) positive(need(value, name), name);
                case "--load-cpus" -> {
                    s.loadCpus = need(value, name);
                    if (!s.loadCpus.matches("[0-9,\\-]+")) {
                        throw HarnessException.usage("--load-cpus takes a CPU list such as 0 or 0-1,3, not '" + s.loadCpus + "'");
                    }
                }
                case "--unit" -> s.unit = need(value, name);
                case "--engines" -> {
                    s.engines = (int) positive(need(value, name), name);
                    if (s.engines > 16) {
                        throw HarnessException.usage("--engines takes a number from 1 to 16");
                    }
                }
                case "--remote" -> s.remote = Engines.parseHosts(need(value, name));
                case "--controller" -> s.controller = Main.controllerAddress(need(value, name));
                case "--no-lab" -> s.noLab = true;
                case "-q" -> {
                    if (i + 1 >= args.size()) {
                        throw HarnessException.usage("-q needs a readable properties file");
                    }
                    Path f = Path.of(args.get(++i));
                    if (!Files.isReadable(f) || Files.isDirectory(f)) {
                        throw HarnessException.usage("-q needs a readable properties file, not '" + f + "'");
                    }
                    s.jmeterArgs.addAll(List.of("-q", f.toAbsolutePath().normalize().toString()));
                }
                default -> {
                    if (a.startsWith("-J") && a.indexOf('=') > 2) {
                        s.jmeterArgs.add(a);
                    } else {
                        throw HarnessException.usage("unexpected argument '" + a + "' for size (see ./trustload help)");
                    }
                }
            }
            i = Math.max(i, idx[0]);
        }
        if (s.slo == null) {
            throw HarnessException.usage("size needs --slo, e.g. --slo 'p99<=500ms,errors<=1%'");
        }
        if (!s.remote.isEmpty()) {
            if (s.engines > 0) {
                throw HarnessException.usage("--engines N starts engines on this machine, --remote uses engines on others: one or the other");
            }
            s.engines = s.remote.size(); // each step's load is split across them
        } else if (s.controller != null) {
            throw HarnessException.usage("--controller goes with --remote");
        }
        if (s.warmupMs >= s.stepMs) {
            throw HarnessException.usage("--warmup must be shorter than --step-time");
        }
        if (s.stepMs < 1000) {
            throw HarnessException.usage("--step-time must be at least 1 s");
        }
        if (s.slo.rules().stream().anyMatch(r -> r.kind() == Objective.Kind.OUTAGE)) {
            throw HarnessException.usage("outage is judged over a whole run (./trustload run --slo),"
                    + " not per load step");
        }
        boolean cpuRule = s.slo.rules().stream().anyMatch(r -> r.kind() == Objective.Kind.SERVER_CPU);
        if (cpuRule && s.server == null && s.noLab) {
            throw HarnessException.usage("server.cpu needs a watched server: --server KIND:TARGET (or the lab)");
        }
        return s;
    }

    private static String need(java.util.function.Supplier<String> v, String name) throws HarnessException {
        String s = v == null ? null : v.get();
        if (s == null || s.isBlank()) {
            throw HarnessException.usage(name + " needs a value");
        }
        return s;
    }

    private static Objective objective(String text) throws HarnessException {
        try {
            return Objective.parse(text);
        } catch (IllegalArgumentException e) {
            throw HarnessException.usage("--slo: " + e.getMessage());
        }
    }

    private static double number(String v, String name) throws HarnessException {
        try {
            return Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            throw HarnessException.usage(name + " takes a number, not '" + v + "'");
        }
    }

    private static double positive(String v, String name) throws HarnessException {
        double d = number(v, name);
        if (!(d > 0)) {
            throw HarnessException.usage(name + " must be above 0, not '" + v + "'");
        }
        return d;
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
    static int run(Layout layout, Run.Options o, List<String> args, PrintStream out, PrintStream err)
            throws IOException, InterruptedException, HarnessException {
        return run(JMeter.fromEnvironment(layout), o, args, out, err);
    }

    /**
     * The search as the launcher runs it, for tests: {@code o} may carry a running lab ({@link Run.Options#lab}),
     * which every phase then uses and whose JVM is the watched server.
     *
     * @return the exit status (a usage error is printed to {@code err} and returned as 1)
     */
    public static int run(JMeter jmeter, Run.Options o, List<String> args, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        try {
            return search(jmeter, o, args, out, err);
        } catch (HarnessException e) {
            err.println("trustload: " + e.getMessage());
            return e.status().code();
        }
    }

    private static int search(JMeter jmeter, Run.Options o, List<String> args, PrintStream out, PrintStream err)
            throws IOException, InterruptedException, HarnessException {
        Layout layout = jmeter.layout();
        Settings s = parse(args);
        o.args(s.jmeterArgs).noLab(s.noLab);
        SizingPlan.init(layout.jmeterHome());
        Instant started = Instant.now();
        long deadline = System.currentTimeMillis() + s.maxTimeMs;
        Path dir = o.dir != null ? o.dir : o.resultsRoot.resolve(o.planId).resolve("size-" + Run.STAMP.format(started));
        Files.createDirectories(dir);
        Path sizing = dir.resolve("sizing");
        Files.createDirectories(sizing.resolve("plans"));
        Map<String, Long> threads = new LinkedHashMap<>();
        Map<String, String> props = o.userProperties(false);
        for (PlanFile.ThreadGroup tg : PlanFile.threadGroups(o.jmx)) {
            tg.threads(props).ifPresent(t -> threads.put(tg.name(), t));
        }
        SizingPlan.Shape shape = SizingPlan.shape(o.jmx, threads);
        Lab lab = o.sharedLab;
        Engines engines = null;
        Watcher watcher = null;
        Preflight.Result checked = null;
        Path labDir = Layout.privateTempDir("trustload-lab");
        try {
            List<String> labArgs = new ArrayList<>(o.labArgs);
            if (!s.remote.isEmpty()) {
                err.println("trustload: checking the remote engines " + String.join(",", s.remote));
                Engines.Probe probe = Engines.probe(s.remote, o.rmiDir);
                if (!probe.problems().isEmpty()) {
                    err.println("trustload: " + Run.problems("the remote engines cannot run the search", probe.problems().entrySet()
                            .stream().map(e -> "engine " + e.getKey() + ": " + e.getValue()).toList()));
                    return ExitStatus.NOT_EXECUTED.code();
                }
                if (s.controller == null && !probe.differing().isEmpty()) {
                    err.println("trustload: the engines reach this host at different addresses (" + probe.differing()
                            + "): JMeter announces one; give it with --controller ADDRESS");
                    return ExitStatus.NOT_EXECUTED.code();
                }
                engines = Engines.remote(s.remote, o.rmiDir, s.controller != null ? s.controller : probe.controller().orElseThrow());
                labArgs.addAll(List.of("--bind", engines.rmiHost()));
            }
            if (o.useLab(err)) {
                String services = String.join(",", o.services);
                err.println("trustload: starting lab services '" + services + "' for the whole search (log: " + dir.resolve("lab.log") + ")");
                try {
                    lab = Lab.start(layout, services, labDir.resolve("lab.properties"), dir.resolve("lab.log"), labArgs, o.labTimeout);
                } catch (HarnessException e) {
                    err.println("trustload: " + e.getMessage());
                    return ExitStatus.NOT_EXECUTED.code();
                }
            }
            if (engines != null) {
                Map<String, String> checkProps = new LinkedHashMap<>();
                if (lab != null) {
                    checkProps.putAll(Run.load(lab.properties()));
                }
                checkProps.putAll(o.userProperties(false));
                // the sizing plans are the plan reshaped: the same elements, so the same data files
                checked = Preflight.check(jmeter, engines, o.jmx, checkProps, dir.resolve("preflight"), o.engineTimeout, err);
                if (!checked.ok()) {
                    err.println("trustload: " + Run.problems("the remote engines cannot run the search (checked before it started;"
                            + " see " + dir.resolve("preflight") + ")", checked.problems()));
                    return ExitStatus.NOT_EXECUTED.code();
                }
            } else if (s.engines > 0) {
                err.println("trustload: starting " + s.engines + " JMeter engines for the whole search");
                try {
                    engines = Engines.start(jmeter, s.engines, dir, o.rmiDir, o.workDir, o.engineTimeout, err);
                } catch (HarnessException e) {
                    err.println("trustload: " + e.getMessage());
                    return ExitStatus.NOT_EXECUTED.code();
                }
            }
            ServerWatch sw = serverWatch(s, lab);
            if (engines != null && engines.isRemote() && sw.sharedHost) {
                // the load is offered from other hosts: this machine holds the server (and the controller) only
                sw = new ServerWatch(sw.source, sw.cpus, false, sw.pid, sw.error);
            }
            if (sw.error != null) {
                err.println("trustload: " + sw.error);
                return ExitStatus.USAGE.code();
            }
            watcher = new Watcher(sw.source, sw.cpus, sw.pid, s.loadCpus);
            err.println("trustload: size " + o.planId + ", " + s.model.name().toLowerCase(Locale.ROOT) + " model, objective "
                    + s.slo + ", steps of " + s.stepMs / 1000.0 + " s (" + s.warmupMs / 1000.0 + " s warm-up), at most "
                    + Run.hms(s.maxTimeMs / 1000) + "; server: " + (sw.source == null ? "not watched" : sw.source.describe()));
            Search search = new Search(layout, jmeter, o, s, shape, sizing, dir, lab, engines, watcher, deadline, err);
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
            SizingReport.Info info = new SizingReport.Info(o.planId, o.jmx.toString(), s.model.name().toLowerCase(Locale.ROOT),
                    s.slo.toString(), s.unit, sw.source == null ? "not watched" : sw.source.describe(), sw.cpus, sw.sharedHost,
                    Math.max(1, s.engines), s.stepMs, s.warmupMs, shape.samplersPerIteration(), uptime(),
                    Duration.between(started, Instant.now()).toSeconds(), search.notes, String.join(" ",
                            o.userProperties(true).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
            int engineCpus = watcher.load().stream().mapToInt(Watcher.Series::cpus).max().orElse(0);
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
            if (checked != null) {
                Preflight.tidy(jmeter, engines, checked, dir.resolve("preflight-tidy"), o.engineTimeout, err);
            }
            if (watcher != null) {
                watcher.close();
            }
            if (engines != null) {
                engines.close();
            }
            if (lab != null && lab != o.sharedLab) {
                lab.close();
            }
            Layout.deleteRecursively(labDir);
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
                        : local ? Watcher.allowedCpus(Long.parseLong(target.strip())) : Runtime.getRuntime().availableProcessors();
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
        private final Run.Options o;
        private final Settings s;
        private final SizingPlan.Shape shape;
        private final Path sizing;
        private final Path dir;
        private final Lab lab;
        private final Engines engines;
        private final Watcher watcher;
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

        Search(Layout layout, JMeter jmeter, Run.Options o, Settings s, SizingPlan.Shape shape, Path sizing, Path dir, Lab lab,
               Engines engines, Watcher watcher, long deadline, PrintStream log) {
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
            boolean setUp = false;
            try {
                setUp = PlanFile.threadGroups(o.jmx).stream().anyMatch(t -> t.kind().equals("SetupThreadGroup") && t.hasSampler());
            } catch (IOException e) {
                // the plan was read before; no setUp then
            }
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
            SizingPlan.write(o.jmx, jmx, s.model, loads, Math.max(1, s.engines), shape.groups(), s.stepMs, s.warmupMs, leadInMs,
                    listenerSlo == null ? null : listenerSlo.toString(), s.guardErrorsPct(), unjudged);
            Path phaseDir = dir.resolve(name);
            Run.Options r = Run.Options.of(layout, o.planId + " (size " + name + ")", jmx).args(o.jmeterArgs)
                    .property("jmeter.save.saveservice.subresults", "false").dashboard(false).echo(false)
                    .maxErrorPct(100).dir(phaseDir).rmiDir(o.rmiDir).workDir(o.workDir).noLab(true)
                    .timeout(Duration.ofMillis(loads.size() * s.stepMs + 300_000)).watcher(watcher);
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
