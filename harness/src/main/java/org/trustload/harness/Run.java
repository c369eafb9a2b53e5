package org.trustload.harness;

import org.trustload.common.ChildProcess;
import org.trustload.common.Percentiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.trustload.harness.sizing.Watcher;
import org.trustload.jmeter.slo.SloStop;
import org.trustload.slo.Objective;

/**
 * One headless run of a plan, as {@code ./trustload run}, the plan tests and the benches do it: the lab
 * services the plan needs (unless its target property points elsewhere), optionally N distributed
 * engines, JMeter with the results layout {@code results.jtl, jmeter.log, console.txt, report/,
 * summary.txt}, the summary and the exit status. The lab's properties file (it holds the lab's
 * passwords) lives in a private temporary directory, never in the results folder, and is deleted
 * when the run ends.
 */
public final class Run {

    /** Property names whose values the summary header never shows. */
    static final Pattern SECRET_NAME = Pattern.compile("(?i).*(password|secret|token|key|credential|auth).*");
    static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.systemDefault());
    /** Default of {@code --max-error-pct}: see docs/harness.md. */
    public static final double DEFAULT_MAX_ERROR_PCT = 1.0;

    /** What to run; defaults are the launcher's. */
    public static final class Options {
        String planId;
        Path jmx;
        List<String> services = List.of();
        List<String> targets = List.of();
        final List<String> jmeterArgs = new ArrayList<>();
        boolean noLab;
        int engines;
        List<String> remote = List.of();
        String controllerAddress;
        double maxErrorPct = DEFAULT_MAX_ERROR_PCT;
        Path resultsRoot;
        Path dir;
        List<String> labArgs = List.of();
        Duration labTimeout = Duration.ofSeconds(120);
        Duration engineTimeout = Duration.ofSeconds(120);
        Path rmiDir;
        Path workDir = Path.of("").toAbsolutePath();
        Duration timeout;
        boolean echo = true;
        boolean dashboard = true;
        boolean resultsFile = true;
        PrintStream out = System.out;
        Consumer<Lab> onLabReady = lab -> { };
        Lab sharedLab;
        Engines sharedEngines;
        Objective slo;
        Watcher watcher;
        /** The plan's thread groups, once read. */
        List<PlanFile.ThreadGroup> threadGroups;

        /** A catalog plan. */
        public static Options of(Layout layout, Catalog.Entry entry) {
            Options o = new Options();
            o.planId = entry.id();
            o.jmx = layout.plans().resolve(entry.id() + ".jmx");
            o.services = entry.services();
            o.targets = entry.targets();
            o.resultsRoot = layout.root().resolve("results");
            o.rmiDir = layout.root().resolve("dist/target/rmi");
            return o;
        }

        /** A plan file outside the catalog (no lab unless {@link #services} says so). */
        public static Options of(Layout layout, String id, Path jmx) {
            Options o = new Options();
            o.planId = id;
            o.jmx = jmx.toAbsolutePath();
            o.resultsRoot = layout.root().resolve("results");
            o.rmiDir = layout.root().resolve("dist/target/rmi");
            return o;
        }

        public Options services(List<String> services) {
            this.services = List.copyOf(services);
            return this;
        }

        /** Adds {@code -Jname=value} (JMeter logs it: never a password) or {@code -q FILE} arguments, in order. */
        public Options args(List<String> args) {
            jmeterArgs.addAll(args);
            return this;
        }

        /** Adds {@code -q file}: properties for the controller and, with engines, for them too. */
        public Options properties(Path file) {
            jmeterArgs.addAll(List.of("-q", file.toAbsolutePath().toString()));
            return this;
        }

        public Options property(String name, String value) {
            jmeterArgs.add("-J" + name + "=" + value);
            return this;
        }

        public Options noLab(boolean noLab) {
            this.noLab = noLab;
            return this;
        }

        public Options engines(int engines) {
            this.engines = engines;
            return this;
        }

        /** Runs on engines already running on other hosts ({@code HOST:PORT} each; {@code ./trustload engine} there). */
        public Options remote(List<String> hosts) {
            this.remote = List.copyOf(hosts);
            return this;
        }

        /** With {@link #remote}: the address the engines reach this controller at (null: the local address of the connections to them). */
        public Options controller(String address) {
            this.controllerAddress = address;
            return this;
        }

        public Options maxErrorPct(double pct) {
            this.maxErrorPct = pct;
            return this;
        }

        /** Results go to {@code root/PLAN/<timestamp>/}. */
        public Options resultsRoot(Path root) {
            this.resultsRoot = root;
            return this;
        }

        /** Results go exactly here (emptied first). */
        public Options dir(Path dir) {
            this.dir = dir;
            return this;
        }

        public Options labArgs(List<String> args) {
            this.labArgs = List.copyOf(args);
            return this;
        }

        public Options labTimeout(Duration t) {
            this.labTimeout = t;
            return this;
        }

        public Options engineTimeout(Duration t) {
            this.engineTimeout = t;
            return this;
        }

        public Options rmiDir(Path dir) {
            this.rmiDir = dir;
            return this;
        }

        public Options workDir(Path dir) {
            this.workDir = dir;
            return this;
        }

        /** JMeter is killed after this (tests); none by default. */
        public Options timeout(Duration t) {
            this.timeout = t;
            return this;
        }

        /** Whether JMeter's console and the summary are printed (the launcher) or only written (tests). */
        public Options echo(boolean echo) {
            this.echo = echo;
            return this;
        }

        /** Whether JMeter writes its HTML dashboard ({@code report/}); {@code ./trustload size} phases skip it. */
        public Options dashboard(boolean dashboard) {
            this.dashboard = dashboard;
            return this;
        }

        /** Whether JMeter writes {@code results.jtl} (the kms bench counts without its cost); without it, no summary. */
        public Options resultsFile(boolean write) {
            this.resultsFile = write;
            return this;
        }

        /** Runs against this running lab (its properties are passed on; the run does not stop it). */
        public Options lab(Lab lab) {
            this.sharedLab = lab;
            return this;
        }

        /** Judges the run's steady window by these rules ({@code --slo}): exit 8 when one breaks. */
        public Options slo(Objective slo) {
            this.slo = slo;
            return this;
        }

        /** Reads the load generator's CPU from this running watcher (its caller chose the JVMs it watches). */
        public Options watcher(Watcher watcher) {
            this.watcher = watcher;
            return this;
        }

        /** Runs on these running engines (the run does not stop them). */
        public Options engines(Engines engines) {
            this.sharedEngines = engines;
            return this;
        }

        /** Where JMeter's console and the summary are echoed (the launcher's stdout; its own messages go to the log). */
        public Options out(PrintStream out) {
            this.out = out;
            return this;
        }

        /** Called once the lab is ready (e.g. to read its properties before it stops and removes its files). */
        public Options onLabReady(Consumer<Lab> hook) {
            this.onLabReady = hook;
            return this;
        }

        /** Whether the lab starts: the plan needs services and no target property is set. */
        boolean useLab(PrintStream log) throws IOException {
            if (services.isEmpty() || noLab || sharedLab != null) {
                return false;
            }
            Map<String, String> props = userProperties(false);
            for (String t : targets) {
                if (props.containsKey(t)) {
                    log.println("trustload: " + t + " is set: running against that server, no lab");
                    return false;
                }
            }
            return true;
        }

        /** The user's -J and -q properties; with {@code masked}, secret values replaced. */
        Map<String, String> userProperties(boolean masked) throws IOException {
            Map<String, String> out = new LinkedHashMap<>();
            for (int i = 0; i < jmeterArgs.size(); i++) {
                String a = jmeterArgs.get(i);
                if (a.equals("-q") && i + 1 < jmeterArgs.size()) {
                    Map<String, String> p = load(Path.of(jmeterArgs.get(++i)));
                    // every property from a -q file is masked: that is where users put passwords
                    p.keySet().stream().sorted().forEach(n -> out.put(n, masked ? "***" : p.get(n)));
                } else if (a.startsWith("-J") && a.indexOf('=') > 2) {
                    String name = a.substring(2, a.indexOf('='));
                    String value = a.substring(a.indexOf('=') + 1);
                    out.put(name, masked && SECRET_NAME.matcher(name).matches() ? "***" : value);
                }
            }
            return out;
        }
    }

    /**
     * What a run gave.
     *
     * @param summary empty when the run wrote no readable results
     * @param message why the status is not OK (empty when it is)
     */
    public record Result(ExitStatus status, Path dir, Optional<Summary> summary, String message, String summaryText) {

        public Path jtl() {
            return dir.resolve("results.jtl");
        }

        public Path jmeterLog() {
            return dir.resolve("jmeter.log");
        }

        public Path console() {
            return dir.resolve("console.txt");
        }
    }

    private Run() {
    }

    /** Runs {@code o} and returns its status; {@code log} gets the launcher's messages (and, with echo, JMeter's console). */
    public static Result execute(JMeter jmeter, Options o, PrintStream log) throws IOException, InterruptedException {
        Instant started = Instant.now();
        PlanTree.init(jmeter.layout().jmeterHome());
        Path dir = o.dir != null ? o.dir : o.resultsRoot.resolve(o.planId).resolve(STAMP.format(started));
        Layout.deleteRecursively(dir);
        Files.createDirectories(dir);
        boolean useLab = o.useLab(log);
        Path labDir = Layout.privateTempDir("trustload-lab");
        Lab lab = null;
        Engines engines = null;
        // the load generator's CPU: every JMeter JVM of this run names its results folder (-l, the engines it
        // starts: their logs), running engines their own logs
        Watcher watcher = o.watcher != null ? o.watcher : new Watcher(null, 0, null);
        if (o.watcher == null) {
            // the controller writes dir/results.jtl, the engines this run starts log to dir/engine-I/ (not the
            // preflight's JMeter of remote runs, in dir/preflight/)
            List<String> words = new ArrayList<>(List.of(dir.resolve("results.jtl").toString(), dir.resolve("engine-").toString()));
            if (o.sharedEngines != null) {
                o.sharedEngines.logs().forEach(l -> words.add(l.toString()));
            }
            watcher.watchLoad(words.toArray(String[]::new));
        }
        AtomicReference<String> labDied = new AtomicReference<>(); // how the lab died under the run
        // SIGTERM or Ctrl-C to the launcher: stop what this run started (a terminal's Ctrl-C reaches them
        // too, a SIGTERM does not) and remove the lab's properties (its passwords)
        Started children = new Started();
        // the plan as it runs: with the element that marks each sample event's rows (see Summary); the plan
        // itself when its folder is read-only (the summary then infers sub-results from their names)
        boolean remoteRun = !o.remote.isEmpty() || (o.sharedEngines != null && o.sharedEngines.isRemote());
        Optional<Path> marked = PlanFile.withHarnessElements(o.jmx, remoteRun);
        Thread cleanup = new Thread(() -> {
            children.stop();
            try {
                Layout.deleteRecursively(labDir);
                if (marked.isPresent()) {
                    Files.deleteIfExists(marked.get());
                }
            } catch (IOException e) {
                System.err.println("trustload: cannot remove " + labDir + ": " + e);
            }
        }, "trustload-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        int jmeterStatus;
        String target;
        Preflight.Result checked = null;
        Map<String, Long> lost = new java.util.concurrent.ConcurrentHashMap<>(); // remote engines gone during the run
        try {
            List<String> args = new ArrayList<>(List.of("-n", "-t", marked.orElse(o.jmx).toString()));
            List<String> labProps = new ArrayList<>();
            List<String> labArgs = new ArrayList<>(o.labArgs);
            if (o.sharedEngines == null && !o.remote.isEmpty()) {
                // before the lab: it must listen where the engines reach this host
                log.println("trustload: checking the remote engines " + String.join(",", o.remote));
                Engines.Probe probe = Engines.probe(o.remote, o.rmiDir);
                if (!probe.problems().isEmpty()) {
                    return notExecuted(dir, problems("the remote engines cannot run the test", probe.problems().entrySet().stream()
                            .map(e -> "engine " + e.getKey() + ": " + e.getValue()).toList()), log);
                }
                if (o.controllerAddress == null && !probe.differing().isEmpty()) {
                    return notExecuted(dir, "the engines reach this host at different addresses (" + probe.differing()
                            + "): JMeter announces one; give it with --controller ADDRESS", log);
                }
                engines = Engines.remote(o.remote, o.rmiDir, o.controllerAddress != null ? o.controllerAddress
                        : probe.controller().orElseThrow());
                labArgs.addAll(List.of("--bind", engines.rmiHost()));
            }
            if (o.sharedLab != null) {
                labProps = List.of("-q", o.sharedLab.properties().toString());
                target = "the lab (" + o.sharedLab.readyLine() + ")";
            } else if (useLab) {
                String services = String.join(",", o.services);
                log.println("trustload: starting lab services '" + services + "' (log: " + dir.resolve("lab.log") + ")");
                try {
                    lab = Lab.start(jmeter.layout(), services, labDir.resolve("lab.properties"), dir.resolve("lab.log"),
                            labArgs, o.labTimeout);
                    children.lab = lab;
                } catch (HarnessException e) {
                    return notExecuted(dir, e.getMessage(), log);
                }
                log.println("trustload: " + lab.readyLine());
                o.onLabReady.accept(lab);
                labProps = List.of("-q", lab.properties().toString());
                target = "the lab (services " + services + ")";
            } else {
                target = targetDescription(o);
            }
            Lab runLab = lab != null ? lab : o.sharedLab;
            if (o.sharedEngines != null) {
                engines = o.sharedEngines;
            } else if (engines != null) {
                // remote engines: what they need, checked (and shipped) before the test, with this run's properties
                Map<String, String> props = new LinkedHashMap<>();
                if (runLab != null) {
                    props.putAll(load(runLab.properties()));
                }
                props.putAll(o.userProperties(false));
                checked = Preflight.check(jmeter, engines, o.jmx, props, dir.resolve("preflight"), o.engineTimeout, log);
                if (!checked.ok()) {
                    return notExecuted(dir, problems("the remote engines cannot run the test (checked before it started; see "
                            + dir.resolve("preflight") + ")", checked.problems()), log);
                }
                Map<String, Integer> cpus = engines.cpus();
                log.println("trustload: remote engines ready: " + String.join(", ", engines.hosts().stream()
                        .map(h -> h + (cpus.containsKey(h) ? " (" + cpus.get(h) + " CPUs)" : "")).toList())
                        + "; this controller at " + engines.rmiHost());
            } else if (o.engines > 0) {
                log.println("trustload: starting " + o.engines + " JMeter engines (RMI over SSL, 127.0.0.1, logs: " + dir + "/engine-*)");
                try {
                    engines = Engines.start(jmeter, o.engines, dir, o.rmiDir, o.workDir, o.engineTimeout, log);
                    children.engines = engines;
                } catch (HarnessException e) {
                    return notExecuted(dir, e.getMessage(), log);
                }
                log.println("trustload: engines ready on " + String.join(",", engines.hosts()));
                // -X: the engines exit at the end of the test (close() covers failures)
                args.add("-X");
            }
            if (engines != null) {
                args.addAll(engines.controllerArgs());
                // JVM Stats: a separate target (JMX, PID) is polled by the first engine only; engines write
                // their summaries into the results folder too
                args.add("-Gtrustload.jvmstats.remote_poller=" + engines.hosts().get(0));
                if (!engines.isRemote()) {
                    args.add("-Gtrustload.results.dir=" + dir); // a folder of this host: remote engines write theirs locally
                }
                if (runLab != null) {
                    args.add("-G" + runLab.properties());
                }
                // -J is local to the controller: send the user's properties to the engines too
                for (int i = 0; i < o.jmeterArgs.size(); i++) {
                    String a = o.jmeterArgs.get(i);
                    if (a.equals("-q") && i + 1 < o.jmeterArgs.size()) {
                        args.add("-G" + o.jmeterArgs.get(++i)); // JMeter sends a -G file's properties
                    } else if (a.startsWith("-J")) {
                        args.add("-G" + a.substring(2));
                    }
                }
            }
            // jmeterengine.nongui.port=0: no UDP shutdown listener (it would bind all interfaces)
            // bin/trustload.properties: dashboard graphs of the JVM Stats listener
            args.addAll(List.of("-q", jmeter.layout().trustloadProperties().toString(), "-Jtrustload.results.dir=" + dir));
            args.addAll(labProps);
            args.addAll(List.of("-Jsummariser.interval=5", "-Jjmeterengine.nongui.port=0"));
            // the dashboard's scratch folder (default "temp" in the working directory) of this run alone: two runs
            // sharing one deleted it under each other ("Error generating the report")
            args.add("-J" + REPORT_TEMP_PROPERTY + "=" + dir.resolve(REPORT_TEMP));
            args.addAll(o.jmeterArgs);
            args.addAll(Influx.stream(o, marked, engines != null, log)); // -Jinflux.url: JMeter's Backend Listener in the copy
            // after the user's: the summary and the dashboard must agree on every percentile (Percentiles)
            args.add("-J" + Percentiles.DASHBOARD_WINDOW_PROPERTY + "=" + Percentiles.DASHBOARD_WINDOW_PROPERTY_VALUE);
            sampleVariables(o, marked.isPresent(), engines != null, marked.isPresent() && remoteRun)
                    .ifPresent(v -> args.add("-J" + SAMPLE_VARIABLES + "=" + v));
            args.addAll(o.resultsFile ? List.of("-l", dir.resolve("results.jtl").toString(), "-j", dir.resolve("jmeter.log").toString())
                    : List.of("-j", dir.resolve("jmeter.log").toString()));
            if (o.dashboard) {
                args.addAll(List.of("-e", "-o", dir.resolve("report").toString()));
            }
            log.println("trustload: running " + o.planId + (engines == null ? "" : " on engines " + String.join(",", engines.hosts()))
                    + " -> " + dir);
            Progress progress = new Progress(scheduledSeconds(o), log, o.echo);
            ChildProcess p = jmeter.start("JMeter", engines == null ? "127.0.0.1" : engines.rmiHost(), args, o.workDir,
                    dir.resolve("console.txt"), null, line -> {
                        if (o.echo) {
                            o.out.println(line);
                        }
                        progress.line(line);
                    });
            children.jmeter = p;
            jmeterStatus = waitFor(p, runLab, engines != null && engines.isRemote() ? engines : null, dir.resolve("jmeter.log"),
                    o.timeout, labDied, lost, log, dir.resolve("threads.txt"));
            if (engines != null && engines.isRemote() && Files.exists(dir.resolve("results.jtl"))) {
                watcher.readRemote(dir.resolve("results.jtl"), PlanFile.ENGINE_LOAD_COLUMN, engines.hosts());
            }
        } finally {
            if (checked != null) {
                Preflight.tidy(jmeter, engines, checked, dir.resolve("preflight-tidy"), o.engineTimeout, log);
            }
            if (o.watcher == null) {
                watcher.close();
            }
            Layout.deleteRecursively(dir.resolve(REPORT_TEMP));
            if (engines != null && engines != o.sharedEngines) {
                engines.close();
            }
            if (lab != null) {
                lab.close();
            }
            Layout.deleteRecursively(labDir);
            if (marked.isPresent()) {
                Files.deleteIfExists(marked.get());
            }
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        return evaluate(jmeter.layout(), o, dir, jmeterStatus, labDied.get(), engines, lost, target, started, watcher, log);
    }

    static final String SAMPLE_VARIABLES = "sample_variables";
    /** JMeter's property for the dashboard's scratch folder (ReportGenerator; default {@code temp} in the working directory). */
    static final String REPORT_TEMP_PROPERTY = "jmeter.reportgenerator.temp_dir";
    /** This run's dashboard scratch folder, inside its results folder (removed after the run). */
    static final String REPORT_TEMP = ".report-temp";

    /**
     * The {@code sample_variables} the run needs, after the user's own: the event marker's column (when the
     * plan runs with it) and, in distributed mode, the JVM Stats columns (the listener lists them where it
     * runs, the engines; the controller writes the results file and needs the list from the start, and JMeter
     * sends it to the engines). Empty when there is nothing to add.
     */
    static Optional<String> sampleVariables(Options o, boolean marker, boolean distributed, boolean engineLoad) throws IOException {
        List<String> names = new ArrayList<>();
        String user = o.userProperties(false).getOrDefault(SAMPLE_VARIABLES, "");
        for (String n : user.split(",")) {
            if (!n.isBlank() && !names.contains(n.strip())) {
                names.add(n.strip());
            }
        }
        int given = names.size();
        if (marker && !names.contains(Jtl.EVENT_COLUMN)) {
            names.add(Jtl.EVENT_COLUMN);
        }
        if (engineLoad && !names.contains(PlanFile.ENGINE_LOAD_COLUMN)) {
            names.add(PlanFile.ENGINE_LOAD_COLUMN);
        }
        if (distributed) {
            try {
                PlanFile.jvmStatsColumns(o.jmx).ifPresent(c -> names.addAll(List.of(c.split(",")).stream().filter(n -> !names.contains(n)).toList()));
            } catch (IOException e) {
                // not a plan JMeter loads: its log says why
            }
        }
        return names.size() == given ? Optional.empty() : Optional.of(String.join(",", names));
    }

    private static String targetDescription(Options o) throws IOException {
        Map<String, String> props = o.userProperties(true);
        List<String> set = o.targets.stream().filter(props::containsKey).map(t -> t + "=" + props.get(t)).toList();
        if (!set.isEmpty()) {
            return "a real server (" + String.join(", ", set) + ")";
        }
        if (o.services.isEmpty()) {
            return "what the plan's properties name (the plan needs no lab)";
        }
        return "no lab (--no-lab): what the plan's properties name";
    }

    /** A title and its lines, one per problem, as one message. */
    static String problems(String title, List<String> lines) {
        return title + ":" + System.lineSeparator() + "  " + String.join(System.lineSeparator() + "  ", lines);
    }

    /** A properties file's properties; an IOException when Java cannot read it as one (a bad unicode escape). */
    static Map<String, String> load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + " is not a properties file: " + e.getMessage(), e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(n -> out.put(n, p.getProperty(n)));
        return out;
    }

    private static Result notExecuted(Path dir, String message, PrintStream log) {
        log.println("trustload: " + message);
        return new Result(ExitStatus.NOT_EXECUTED, dir, Optional.empty(), message, "");
    }

    /** Seconds the plan is scheduled to run (its longest scheduled thread group), 0 when not scheduled. */
    private static long scheduledSeconds(Options o) {
        try {
            Map<String, String> props = o.userProperties(false);
            long max = 0;
            for (PlanFile.ThreadGroup tg : threadGroups(o)) {
                max = Math.max(max, tg.scheduledSeconds(props).orElse(0));
            }
            return max;
        } catch (IOException e) {
            return 0;
        }
    }

    /** A hung JMeter's thread dump (jcmd Thread.print of its JVM), so that the hang can be diagnosed. */
    private static void dumpThreads(ChildProcess p, Path file) {
        StringBuilder out = new StringBuilder();
        List<ProcessHandle> jvms = new ArrayList<>();
        jvms.add(p.handle());
        p.handle().descendants().forEach(jvms::add);
        for (ProcessHandle h : jvms) {
            out.append("== pid ").append(h.pid()).append(' ').append(h.info().command().orElse("")).append('\n');
            try {
                out.append(ChildProcess.run(List.of("jcmd", Long.toString(h.pid()), "Thread.print"), Duration.ofSeconds(30)).output());
            } catch (IOException | InterruptedException e) {
                out.append("== pid ").append(h.pid()).append(": ").append(e).append('\n');
            }
        }
        try {
            Files.writeString(file, out);
        } catch (IOException e) {
            // the run is failing anyway; the message says where the dump would be
        }
    }

    /** A remote engine is gone once it has refused or ignored this many connections in a row. */
    static final int LOST_AFTER = 2;

    /**
     * Waits for JMeter; stops it when the lab dies under it or the timeout passes. With remote engines, watches that
     * each still accepts connections: JMeter's controller waits for every engine's end of test, so one that died
     * would keep it waiting for ever; once the others have ended (their "Finished remote host" in the controller's
     * log) the controller is stopped (its results file is flushed on the way out) and {@code lost} says which engine
     * went and when. Returns JMeter's exit status.
     */
    private static int waitFor(ChildProcess p, Lab lab, Engines remote, Path jmeterLog, Duration timeout, AtomicReference<String> labDied,
                               Map<String, Long> lost, PrintStream log, Path threadDump) throws InterruptedException {
        long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        Map<String, Integer> misses = new LinkedHashMap<>();
        long nextProbe = System.nanoTime();
        while (!p.waitFor(Duration.ofSeconds(1))) {
            if (remote != null && System.nanoTime() >= nextProbe) {
                nextProbe = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                for (String h : remote.hosts()) {
                    if (lost.containsKey(h)) {
                        continue;
                    }
                    if (Engines.answering(h)) {
                        misses.remove(h);
                    } else if (misses.merge(h, 1, Integer::sum) >= LOST_AFTER) {
                        lost.put(h, System.currentTimeMillis());
                        log.println("trustload: engine " + h + " stopped answering during the run");
                    }
                }
                if (!lost.isEmpty()) {
                    String jlog = read(jmeterLog);
                    List<String> waiting = remote.hosts().stream().filter(h -> !lost.containsKey(h))
                            .filter(h -> !jlog.contains("Finished remote host: " + h + " ")).toList();
                    if (waiting.isEmpty() && p.isAlive()) {
                        log.println("trustload: the other engines have ended: stopping the controller, which would wait for "
                                + String.join(", ", lost.keySet()) + " for ever");
                        p.close();
                        return p.exitValue();
                    }
                }
            }
            if (lab != null && !lab.isAlive()) {
                log.println("trustload: the lab exited during the run: stopping JMeter (" + lab.exitReport() + ")");
                p.close();
                labDied.set(lab.exitReport()); // again: the log may have grown
                break;
            }
            if (System.nanoTime() > deadline) {
                log.println("trustload: JMeter did not finish within " + timeout.toSeconds() + " s: its threads are in "
                        + threadDump + "; stopping it");
                dumpThreads(p, threadDump);
                p.close();
                return -1;
            }
        }
        if (labDied.get() == null && lab != null && !lab.isAlive()) {
            labDied.set(lab.exitReport()); // JMeter ended on its own (e.g. errors stopped the test) as the lab died
        }
        return p.exitValue();
    }

    /** What a TrustLoad element's fail-fast check writes to the console and jmeter.log. */
    private static final String CONFIG_ERROR_LINE = "TrustLoad configuration error";

    private static Result evaluate(Layout layout, Options o, Path dir, int jmeterStatus, String labDied, Engines engines,
                                   Map<String, Long> lost, String target, Instant started, Watcher watcher, PrintStream log)
            throws IOException {
        Path jtl = dir.resolve("results.jtl");
        String message = "";
        ExitStatus status = ExitStatus.OK;
        Summary summary = null;
        if (Files.exists(jtl) && Files.size(jtl) > 0) {
            try {
                summary = Summary.of(jtl);
            } catch (IOException e) {
                message = "cannot read " + jtl + ": " + e.getMessage();
                status = ExitStatus.NOT_EXECUTED;
            }
        }
        String console = read(dir.resolve("console.txt")) + "\n" + read(dir.resolve("jmeter.log"));
        Optional<String> sloStopped = sloStopLine(console, engines);
        Optional<Judged> judged = o.slo == null || summary == null ? Optional.empty() : Optional.of(judge(o, summary));
        Optional<String> reportFailed = o.dashboard && !Files.isRegularFile(dir.resolve("report/index.html"))
                ? Optional.of(!lost.isEmpty() ? "the controller was stopped as an engine had gone; bin/jmeter -g results.jtl -o report"
                        + " makes one from what arrived"
                        : console.lines().filter(l -> l.contains("Error generating the report")).findFirst()
                        .map(String::strip).orElse("JMeter wrote no report/index.html"))
                : Optional.empty();
        if (status != ExitStatus.OK) {
            // keep the message
        } else if (labDied != null) {
            status = ExitStatus.NOT_EXECUTED;
            message = "JMeter was stopped because " + labDied;
        } else if (!lost.isEmpty()) {
            status = ExitStatus.NOT_EXECUTED;
            Summary s0 = summary;
            message = "engine(s) stopped answering during the run: " + String.join(", ", lost.entrySet().stream()
                    .map(e -> e.getKey() + " (at " + DateTimeFormatter.ISO_LOCAL_TIME.withZone(ZoneOffset.UTC)
                            .format(Instant.ofEpochMilli(e.getValue()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS))
                            + " UTC, " + (s0 == null ? 0 : s0.samplesOfEngine(e.getKey())) + " samples received from it)").toList())
                    + "; the results hold what every engine sent before";
        } else if (jmeterStatus != 0) {
            status = ExitStatus.NOT_EXECUTED;
            message = jmeterStatus < 0 ? "JMeter did not finish in time; see " + dir.resolve("jmeter.log")
                    : "JMeter exited with status " + jmeterStatus + "; see " + dir.resolve("jmeter.log");
        } else if ((summary != null && summary.configErrors() > 0) || console.contains(CONFIG_ERROR_LINE)) {
            // before "no results": an element that checks its configuration at test start stops the test
            // before any sample, and the user must learn what to fix, not that nothing ran
            status = ExitStatus.CONFIG_ERROR;
            long samples = summary == null ? 0 : summary.configErrors();
            message = console.lines().filter(l -> l.contains(CONFIG_ERROR_LINE)).findFirst()
                    .map(l -> l.substring(l.indexOf(CONFIG_ERROR_LINE)).strip() + "; ").orElse("")
                    + samples + " samples with response code " + Summary.CONFIG_ERROR_CODE + "; see "
                    + (samples > 0 ? "the top errors and " : "") + dir.resolve("jmeter.log");
        } else if (summary == null || summary.rows() == 0) {
            // JMeter can exit 0 and write nothing (e.g. a distributed engine refused the tree)
            status = ExitStatus.NOT_EXECUTED;
            message = "the run wrote no results; see " + dir.resolve("jmeter.log");
        } else if (engines != null && !missingEngines(engines, summary).isEmpty()) {
            List<String> missing = missingEngines(engines, summary);
            status = ExitStatus.NOT_EXECUTED;
            message = "no samples from engine(s) " + String.join(",", missing) + "; see " + dir.resolve("jmeter.log")
                    + " and " + dir + "/engine-*/";
        } else if (sloStopped.isPresent()) {
            // before "a thread group without samples": the objective stopped the test before later groups ran
            status = ExitStatus.SLO_BROKEN;
            message = sloStopped.get();
        } else {
            List<String> silent = silentThreadGroups(o, summary);
            double pct = summary.total().errorPct();
            if (!silent.isEmpty()) {
                status = ExitStatus.THREAD_GROUP_WITHOUT_SAMPLES;
                message = "thread group(s) without a sample: " + String.join(", ", silent)
                        + " (did a setUp fail or the test stop early?); see " + dir.resolve("jmeter.log");
            } else if (pct > o.maxErrorPct) {
                status = ExitStatus.TOO_MANY_ERRORS;
                message = String.format(Locale.ROOT, "%.2f%% of %d samples failed, above --max-error-pct %s",
                        pct, summary.total().count(), trim(o.maxErrorPct));
            } else if (judged.isPresent() && !judged.get().broken().isEmpty()) {
                status = ExitStatus.SLO_BROKEN;
                message = "--slo " + o.slo + ": " + String.join(", ", judged.get().broken()) + " over the steady window";
            } else if (reportFailed.isPresent()) {
                status = ExitStatus.REPORT_FAILED;
                message = "the HTML report was not generated: " + reportFailed.get() + "; see " + dir.resolve("jmeter.log");
            }
        }
        StringBuilder text = new StringBuilder();
        text.append(header(o, target, engines, started, summary));
        if (engines != null && engines.isRemote() && summary != null) {
            text.append(engineLines(engines, summary, lost));
        }
        if (summary != null && summary.rows() > 0) {
            // a controller stopped because an engine went printed no final summariser line: nothing to compare with
            text.append(System.lineSeparator()).append(summary.table(!lost.isEmpty() ? Optional.empty()
                    : Summary.summariser(read(dir.resolve("console.txt"))).or(() -> Summary.summariser(read(dir.resolve("jmeter.log"))))));
            text.append(summary.errorTable());
            judged.ifPresent(j -> text.append(j.text(o.slo)));
            sloStopped.ifPresent(l -> text.append(System.lineSeparator()).append(l).append(System.lineSeparator()));
            long from = Math.min(summary.total().firstStart(), summary.warmUp().firstStart());
            long to = Math.max(summary.total().lastEnd(), summary.warmUp().lastEnd());
            text.append(LoadGenerator.of(watcher, from, to, summary.total().count() + summary.warmUp().count(),
                    summary.total().percentile(50), summary.total().mean()).text());
        }
        text.append(Summary.jvmStats(dir));
        if (o.dashboard) {
            text.append(System.lineSeparator()).append(reportFailed.map(r -> "Report: NOT generated (" + r + ")")
                    .orElse("Report: " + dir.resolve("report/index.html"))).append(System.lineSeparator());
        }
        text.append(String.format("%nExit status %d: %s%s%n", status.code(), status.meaning(), message.isEmpty() ? "" : " - " + message));
        Files.writeString(dir.resolve("summary.txt"), text);
        if (o.echo) {
            o.out.print(text);
            o.out.flush();
        } else if (!message.isEmpty()) {
            log.println("trustload: " + message);
        }
        log.println("trustload: results in " + dir);
        return new Result(status, dir, Optional.ofNullable(summary), message, text.toString());
    }

    /** What the SLO Stop listener prints when its objective broke. */
    static final String SLO_STOP_LINE = SloStop.BROKEN_LINE;

    /** SLO Stop's line in the controller's console or log, or in an engine's log; without its trailing timestamp. */
    static Optional<String> sloStopLine(String console, Engines engines) {
        StringBuilder all = new StringBuilder(console);
        if (engines != null) {
            for (Path f : engines.logs()) {
                all.append('\n').append(read(f));
            }
        }
        return all.toString().lines().filter(l -> l.contains(SLO_STOP_LINE)).findFirst()
                .map(l -> l.substring(l.indexOf(SLO_STOP_LINE)).replaceFirst(" at \\d{13}$", "").strip());
    }

    /**
     * The seconds skipped before the steady window: the longest ramp-up of the plan's thread groups (with the run's
     * properties), 0 when none can be told.
     */
    static long rampUpMs(Options o) throws IOException {
        Map<String, String> props = o.userProperties(false);
        long max = 0;
        for (PlanFile.ThreadGroup tg : threadGroups(o)) {
            max = Math.max(max, tg.rampUpSeconds(props).orElse(0));
        }
        return max * 1000;
    }

    /**
     * The objective's verdict over the steady window.
     *
     * @param skipMs the ramp-up left out
     * @param whole the steady window held too few samples: the whole of Total was judged
     */
    record Judged(Summary.Stats window, long skipMs, boolean whole, List<String> broken) {

        String text(Objective slo) {
            StringBuilder sb = new StringBuilder(System.lineSeparator());
            String over = whole ? String.format(Locale.ROOT, "all %d samples of Total (fewer than %d ended after the %s ramp-up)",
                    window.count(), Summary.MIN_SAMPLES_FOR_STATS, hms(skipMs / 1000))
                    : skipMs > 0 ? String.format(Locale.ROOT, "the steady window: the %d samples of Total that ended after the %s ramp-up",
                            window.count(), hms(skipMs / 1000))
                    : String.format(Locale.ROOT, "the steady window: all %d samples of Total (no ramp-up)", window.count());
            if (window.count() == 0) {
                Summary.wrap(sb, "Objective " + slo + " (--slo): not judged, Total has no samples.");
            } else {
                Summary.wrap(sb, "Objective " + slo + " (--slo) over " + over + ": " + (broken.isEmpty() ? "met"
                        : "BROKEN - " + String.join(", ", broken)) + ".");
            }
            return sb.toString();
        }
    }

    static Judged judge(Options o, Summary summary) throws IOException {
        long skip = rampUpMs(o);
        Summary.Stats w = summary.steady(skip);
        boolean whole = skip > 0 && w.count() < Summary.MIN_SAMPLES_FOR_STATS;
        if (whole) {
            w = summary.steady(0);
        }
        return new Judged(w, skip, whole, o.slo.broken(w.measured()));
    }

    /** What each remote engine sent, and which stopped answering during the run. */
    static String engineLines(Engines engines, Summary summary, Map<String, Long> lost) {
        StringBuilder sb = new StringBuilder();
        for (String h : engines.hosts()) {
            Long at = lost.get(h);
            sb.append("Engine:     ").append(h).append(": ").append(summary.samplesOfEngine(h)).append(" samples")
                    .append(engines.cpus().containsKey(h) ? ", " + engines.cpus().get(h) + " CPUs" : "")
                    .append(at == null ? "" : ", STOPPED ANSWERING at " + DateTimeFormatter.ISO_LOCAL_TIME.withZone(ZoneOffset.UTC)
                            .format(Instant.ofEpochMilli(at).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)) + " UTC (its samples until then)")
                    .append(System.lineSeparator());
        }
        return sb.toString();
    }

    /** Engines no sample came from: an engine that refused the plan contributes nothing while JMeter exits 0. */
    private static List<String> missingEngines(Engines engines, Summary s) {
        return engines.hosts().stream().filter(h -> !s.hasThreadsOfEngine(h)).toList();
    }

    /** Enabled thread groups with a sampler and a thread count that is not 0 that wrote no row. */
    static List<String> silentThreadGroups(Options o, Summary summary) throws IOException {
        Map<String, String> props = o.userProperties(false);
        List<String> out = new ArrayList<>();
        for (PlanFile.ThreadGroup tg : threadGroups(o)) {
            OptionalLong threads = tg.threads(props);
            boolean runs = tg.hasSampler() && (threads.isEmpty() || threads.getAsLong() > 0);
            if (runs && !summary.hasThreadsOf(tg.name())) {
                out.add("'" + tg.name() + "'");
            }
        }
        return out;
    }

    private static String header(Options o, String target, Engines engines, Instant started, Summary summary) throws IOException {
        Map<String, String> props = o.userProperties(true);
        Map<String, String> raw = o.userProperties(false);
        StringBuilder sb = new StringBuilder();
        sb.append("Plan:       ").append(o.planId).append(" (").append(o.jmx).append(")").append(System.lineSeparator());
        sb.append("Target:     ").append(target).append(System.lineSeparator());
        sb.append("Load:       ").append(engines == null ? "this JVM" : engines.isRemote()
                        ? engines.hosts().size() + " remote engines (each runs every thread group; this controller at " + engines.rmiHost() + ")"
                        : engines.hosts().size() + " engines on 127.0.0.1 (each runs every thread group)")
                .append(System.lineSeparator());
        int engineCount = engines == null ? 1 : engines.hosts().size();
        for (PlanFile.ThreadGroup tg : threadGroups(o)) {
            sb.append("Threads:    ").append(threadsLine(tg, raw, summary, engineCount)).append(System.lineSeparator());
            inside(tg, raw).ifPresent(line -> sb.append("            ").append(line).append(System.lineSeparator()));
            if (summary != null) {
                planned(tg, raw, summary, engineCount).ifPresent(line -> sb.append("            ").append(line).append(System.lineSeparator()));
            }
        }
        long wall = Duration.between(started, Instant.now()).toSeconds();
        sb.append("Started:    ").append(DateTimeFormatter.ISO_LOCAL_DATE_TIME.withZone(ZoneOffset.UTC).format(started.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)))
                .append(" UTC, ").append(hms(wall)).append(" in all (lab, JMeter, report)");
        if (summary != null && summary.total().count() + summary.warmUp().count() > 0) {
            long from = Math.min(summary.total().firstStart(), summary.warmUp().firstStart());
            long to = Math.max(summary.total().lastEnd(), summary.warmUp().lastEnd());
            sb.append("; samples over ").append(hms((to - from) / 1000));
        }
        sb.append(System.lineSeparator());
        sb.append("Properties: ").append(props.isEmpty() ? "(none given)" : String.join(" ",
                props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList())).append(System.lineSeparator());
        return sb.toString();
    }

    /**
     * A thread group as it ran: {@code "Searchers: 20 threads, 25 loops, ramp-up 5 s, at most 00:10:00 (duration cap)"},
     * with the run's properties applied, and the threads that wrote a sample when that differs (a test stopped early).
     */
    static String threadsLine(PlanFile.ThreadGroup tg, Map<String, String> props, Summary summary, int engines) {
        OptionalLong threads = tg.threads(props);
        OptionalLong loops = PlanFile.resolve(tg.loops(), props);
        OptionalLong secs = tg.scheduledSeconds(props);
        OptionalLong ramp = tg.rampUpSeconds(props);
        StringBuilder line = new StringBuilder(tg.name()).append(": ")
                .append(threads.isPresent() ? plural(threads.getAsLong(), "thread")
                        : tg.threads().isBlank() ? "threads as its arrivals need (open model)" : tg.threads() + " threads")
                .append(engines > 1 ? " on each of " + engines + " engines" : "")
                .append(loops.isPresent() ? (loops.getAsLong() < 0 ? ", loops until stopped" : ", " + plural(loops.getAsLong(), "loop"))
                        : "")
                .append(ramp.isPresent() && ramp.getAsLong() > 0 ? ", ramp-up " + ramp.getAsLong() + " s" : "")
                .append(secs.isPresent() ? ", at most " + hms(secs.getAsLong()) + " (duration cap)" : "");
        if (summary != null && threads.isPresent() && tg.hasSampler()) {
            int ran = summary.threadsRan(tg.name());
            if (ran != threads.getAsLong() * engines) {
                line.append("; ").append(ran).append(ran == 1 ? " thread" : " threads").append(" wrote samples");
            }
        }
        return line.toString();
    }

    /**
     * What repeats inside one loop of a thread group, with the run's properties applied:
     * {@code "each loop: Loop Controllers of 1, 100, 1000 iterations; Runtime Controllers of 10 s"}; empty when nothing does.
     */
    static Optional<String> inside(PlanFile.ThreadGroup tg, Map<String, String> props) {
        List<String> parts = new ArrayList<>();
        List<String> loops = distinct(tg.loopsInside(), props);
        if (!loops.isEmpty()) {
            parts.add((loops.size() == 1 && tg.loopsInside().size() == 1 ? "a Loop Controller of " : "Loop Controllers of ")
                    + String.join(", ", loops) + (loops.equals(List.of("1")) ? " iteration" : " iterations"));
        }
        List<String> seconds = distinct(tg.secondsInside(), props);
        if (!seconds.isEmpty()) {
            parts.add((tg.secondsInside().size() == 1 ? "a Runtime Controller of " : "Runtime Controllers of ")
                    + String.join(", ", seconds) + " s");
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of("each loop: " + String.join("; ", parts));
    }

    /** The distinct values as JMeter would read them, numbers sorted ({@code -1}: "forever"); unresolvable ones as written. */
    private static List<String> distinct(List<String> written, Map<String, String> props) {
        java.util.TreeSet<Long> numbers = new java.util.TreeSet<>();
        java.util.LinkedHashSet<String> other = new java.util.LinkedHashSet<>();
        for (String w : written) {
            OptionalLong v = PlanFile.resolve(w, props);
            if (v.isPresent()) {
                numbers.add(v.getAsLong());
            } else {
                other.add(w);
            }
        }
        List<String> out = new ArrayList<>();
        numbers.forEach(n -> out.add(n < 0 ? "forever" : Long.toString(n)));
        out.addAll(other);
        return out;
    }

    private static String plural(long n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }

    /** A thread group's samples count as cut by its cap when they span the cap less this (threads stop between samples). */
    static final long CAP_SLACK_MS = 2000;

    /**
     * For a loop-count thread group: what its loops asked for and what ran, and whether the duration cap
     * ended it ("planned 12500, ran 10000, cut by the cap (00:10:00)"); empty for groups that loop until
     * stopped (the cap is their length) and groups without samplers.
     */
    static Optional<String> planned(PlanFile.ThreadGroup tg, Map<String, String> props, Summary summary, int engines) {
        OptionalLong loops = PlanFile.resolve(tg.loops(), props);
        if (!tg.hasSampler() || loops.isEmpty() || loops.getAsLong() < 0) {
            return Optional.empty();
        }
        OptionalLong perEngine = tg.plannedSamples(props);
        OptionalLong planned = perEngine.isPresent() ? OptionalLong.of(perEngine.getAsLong() * engines) : perEngine;
        Summary.Stats ran = summary.threadGroup(tg.name());
        OptionalLong cap = tg.durationSeconds(props);
        boolean fewer = planned.isEmpty() || ran.count() < planned.getAsLong();
        boolean cut = cap.isPresent() && fewer && ran.count() > 0 && ran.spanMs() >= cap.getAsLong() * 1000 - CAP_SLACK_MS;
        StringBuilder line = new StringBuilder();
        if (planned.isPresent()) {
            line.append("planned ").append(planned.getAsLong()).append(", ran ").append(ran.count());
            if (cut) {
                line.append(", cut by the cap (").append(hms(cap.getAsLong())).append(")");
            } else if (ran.count() < planned.getAsLong()) {
                line.append(", ").append(planned.getAsLong() - ran.count()).append(" not run (the test stopped early)");
            }
        } else if (cut) {
            line.append("ran ").append(ran.count()).append(", cut by the cap (").append(hms(cap.getAsLong()))
                    .append(") before its loops were done");
        } else {
            return Optional.empty(); // its controllers decide the count: nothing to compare
        }
        return Optional.of(line.toString());
    }

    /** The plan's thread groups, read once; none when the file is not a readable plan (JMeter says why in its log). */
    private static List<PlanFile.ThreadGroup> threadGroups(Options o) {
        if (o.threadGroups == null) {
            try {
                o.threadGroups = PlanFile.threadGroups(o.jmx);
            } catch (IOException | RuntimeException e) {
                o.threadGroups = List.of();
            }
        }
        return o.threadGroups;
    }

    static String hms(long seconds) {
        return String.format(Locale.ROOT, "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** What a run started, for its shutdown hook. */
    static final class Started {
        volatile ChildProcess jmeter;
        volatile Engines engines;
        volatile Lab lab;

        void stop() {
            try {
                if (jmeter != null) {
                    jmeter.close();
                }
                if (engines != null) {
                    engines.close();
                }
                if (lab != null) {
                    lab.close();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Prints elapsed (and, for a scheduled plan, remaining) time after each summariser line. */
    static final class Progress {
        private final long scheduled;
        private final PrintStream log;
        private final boolean echo;
        /** Reset when JMeter says the test starts (JVM start-up and tree loading are not the plan's time). */
        private volatile long start = System.nanoTime();

        Progress(long scheduledSeconds, PrintStream log, boolean echo) {
            this.scheduled = scheduledSeconds;
            this.log = log;
            this.echo = echo;
        }

        void line(String line) {
            if (line.startsWith("Starting standalone test") || line.startsWith("Starting distributed test")) {
                start = System.nanoTime();
                return;
            }
            if (!echo || !line.startsWith("summary +")) {
                return;
            }
            long elapsed = (System.nanoTime() - start) / 1_000_000_000L;
            Optional<Summary.Summariser> s = Summary.summariser(line);
            String counts = s.map(x -> ", " + x.count() + " samples in the last interval").orElse("");
            if (scheduled > 0) {
                log.println("trustload: " + hms(elapsed) + " elapsed, at most " + hms(Math.max(0, scheduled - elapsed))
                        + " left of the " + hms(scheduled) + " scheduled" + counts);
            } else {
                log.println("trustload: " + hms(elapsed) + " elapsed (loop-count plan: ends when its loops are done)" + counts);
            }
        }
    }
}
