package org.trustload.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.trustload.common.ChildProcess;
import org.trustload.common.ClientException;
import org.trustload.harness.plan.Planner;
import org.trustload.slo.Objective;

/**
 * {@code ./trustload}: the launcher's commands. The shell script finds Java, builds when needed and
 * starts this class with {@code -Dtrustload.root=<checkout>}.
 */
public final class Main {

    private final Layout layout;
    private final PrintStream out;
    private final PrintStream err;

    Main(Layout layout, PrintStream out, PrintStream err) {
        this.layout = layout;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        int status;
        try {
            status = new Main(Layout.current(), System.out, System.err).run(args);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = 130;
        } catch (IOException e) {
            System.err.println("trustload: " + e.getMessage());
            status = ExitStatus.NOT_EXECUTED.code();
        }
        System.out.flush();
        System.exit(status);
    }

    int run(String[] argv) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(Arrays.asList(argv));
        String command = args.isEmpty() ? "help" : args.remove(0);
        try {
            return switch (command) {
                case "list" -> {
                    out.print(catalog().table());
                    yield 0;
                }
                case "run" -> run(args);
                case "size" -> size(args);
                case "plan" -> plan(args);
                case "engine" -> engine(args);
                case "lab" -> lab(args);
                case "gui" -> gui(args);
                case "bench" -> Bench.run(layout, args, out, err);
                case "fixture" -> Bench.fixture(layout, args);
                case "help", "-h", "--help" -> {
                    out.print(!args.isEmpty() && args.get(0).equals("plan") ? Planner.help() : usage());
                    yield 0;
                }
                default -> throw HarnessException.usage("unknown command '" + command + "'\n" + usage());
            };
        } catch (HarnessException e) {
            err.println("trustload: " + e.getMessage());
            return e.status().code();
        }
    }

    private Catalog catalog() throws IOException, HarnessException {
        if (!Files.exists(layout.catalogFile())) {
            throw HarnessException.usage("no catalog at " + layout.catalogFile());
        }
        return Catalog.read(layout.catalogFile());
    }

    /** The options of {@code run}/{@code gui} after PLAN; {@code slo} null without {@code --slo}. */
    record RunArgs(List<String> jmeterArgs, boolean noLab, int engines, double maxErrorPct, Objective slo, List<String> remote,
                   String controller) {
    }

    /** {@code --controller ADDRESS}: an address, never a wildcard (JMeter's RMI would listen on every interface). */
    static String controllerAddress(String v) throws HarnessException {
        String a = v.strip().replace("[", "").replace("]", "");
        if (a.isEmpty() || a.equals("0.0.0.0") || a.equals("::") || a.contains("/")) {
            throw HarnessException.usage("--controller takes the ADDRESS the engines reach this host at (never 0.0.0.0), not '" + v + "'");
        }
        return a;
    }

    static RunArgs parse(List<String> args) throws HarnessException {
        List<String> jmeterArgs = new ArrayList<>();
        boolean noLab = false;
        int engines = 0;
        double maxErrorPct = Run.DEFAULT_MAX_ERROR_PCT;
        Objective slo = null;
        List<String> remote = List.of();
        String controller = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--no-lab")) {
                noLab = true;
            } else if (a.equals("--remote") || a.startsWith("--remote=")) {
                remote = Engines.parseHosts(a.equals("--remote") ? next(args, ++i, "--remote needs HOST[:PORT],...")
                        : a.substring("--remote=".length()));
            } else if (a.equals("--controller") || a.startsWith("--controller=")) {
                controller = controllerAddress(a.equals("--controller") ? next(args, ++i, "--controller needs an ADDRESS")
                        : a.substring("--controller=".length()));
            } else if (a.equals("--engines") || a.startsWith("--engines=")) {
                String v = a.equals("--engines") ? next(args, ++i, "--engines needs a number") : a.substring("--engines=".length());
                try {
                    engines = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    engines = -1;
                }
                if (engines < 0 || engines > 16) {
                    throw HarnessException.usage("--engines takes a number from 1 to 16, not '" + v + "'");
                }
            } else if (a.equals("--max-error-pct") || a.startsWith("--max-error-pct=")) {
                String v = a.equals("--max-error-pct") ? next(args, ++i, "--max-error-pct needs a percentage")
                        : a.substring("--max-error-pct=".length());
                try {
                    maxErrorPct = Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    maxErrorPct = -1;
                }
                if (maxErrorPct < 0 || maxErrorPct > 100) {
                    throw HarnessException.usage("--max-error-pct takes a percentage from 0 to 100, not '" + v + "'");
                }
            } else if (a.equals("--slo") || a.startsWith("--slo=")) {
                String v = a.equals("--slo") ? next(args, ++i, "--slo needs rules, e.g. --slo 'p99<=500ms,errors<=1%'")
                        : a.substring("--slo=".length());
                try {
                    slo = Objective.parse(v);
                } catch (IllegalArgumentException e) {
                    throw HarnessException.usage("--slo: " + e.getMessage());
                }
                if (slo.rules().stream().anyMatch(r -> r.kind() == Objective.Kind.SERVER_CPU)) {
                    throw HarnessException.usage("--slo: server.cpu is judged by ./trustload size, which watches the server;"
                            + " run judges pNN, avg, max and errors");
                }
            } else if (a.startsWith("-J") && a.indexOf('=') > 2) {
                jmeterArgs.add(a);
            } else if (a.equals("-q")) {
                // JMeter logs every -J value; passwords belong in a -q file, whose values it does not log
                jmeterArgs.addAll(List.of("-q", propertiesFile(next(args, ++i, "-q needs a readable properties file"))
                        .toString()));
            } else {
                throw HarnessException.usage("unexpected argument '" + a
                        + "' (expected -Jname=value, -q FILE, --no-lab, --engines N, --remote HOST[:PORT],..., --controller ADDRESS,"
                        + " --max-error-pct P or --slo RULES; see ./trustload help)");
            }
        }
        if (engines > 0 && !remote.isEmpty()) {
            throw HarnessException.usage("--engines N starts engines on this machine, --remote uses engines on others: one or the other");
        }
        if (controller != null && remote.isEmpty()) {
            throw HarnessException.usage("--controller goes with --remote");
        }
        return new RunArgs(jmeterArgs, noLab, engines, maxErrorPct, slo, remote, controller);
    }

    /**
     * The file of {@code -q NAME}, read once here: a regular, readable properties file (not a device such as
     * /dev/zero, which would be read for ever, nor a file Java cannot read as properties).
     */
    private static Path propertiesFile(String name) throws HarnessException {
        String shown = ClientException.bounded(name, ClientException.MAX_MESSAGE);
        Path f;
        try {
            f = Path.of(name).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw HarnessException.usage("-q needs a readable properties file, not '" + shown + "' ("
                    + e.getReason() + ")");
        }
        if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
            throw HarnessException.usage("-q needs a readable properties file, not '" + shown + "'");
        }
        try {
            Run.load(f);
        } catch (IOException e) {
            throw HarnessException.usage("-q " + shown + ": " + e.getMessage());
        }
        return f;
    }

    private static String next(List<String> args, int i, String message) throws HarnessException {
        if (i >= args.size()) {
            throw HarnessException.usage(message);
        }
        return args.get(i);
    }

    /** A catalog id ({@code ldap/ldap-search-200x10}) or a path to a .jmx (its catalog row when it is one of ours). */
    Run.Options resolve(String plan) throws IOException, HarnessException {
        Catalog catalog = catalog();
        Path file;
        try {
            file = Path.of(plan);
        } catch (InvalidPathException e) {
            file = null; // a NUL in the name: no such file, no such plan
        }
        if (file != null && plan.endsWith(".jmx") && Files.isRegularFile(file)) {
            Path jmx = file.toAbsolutePath().normalize();
            String id = jmx.getFileName().toString().replaceFirst("\\.jmx$", "");
            if (jmx.startsWith(layout.plans())) {
                Optional<Catalog.Entry> e = catalog.get(layout.plans().relativize(jmx).toString().replaceFirst("\\.jmx$", ""));
                if (e.isPresent()) {
                    return Run.Options.of(layout, e.get());
                }
            }
            return Run.Options.of(layout, id, jmx);
        }
        String id = plan.replaceFirst("\\.jmx$", "");
        Catalog.Entry e = catalog.get(id).orElseThrow(() -> HarnessException.usage("unknown plan '"
                + ClientException.bounded(plan, ClientException.MAX_MESSAGE) + "'. Known plans:\n" + catalog.table()));
        Run.Options o = Run.Options.of(layout, e);
        if (!Files.exists(o.jmx)) {
            throw HarnessException.usage("plan '" + id + "' is in the catalog but " + o.jmx + " does not exist (yet)");
        }
        return o;
    }

    private int run(List<String> args) throws IOException, InterruptedException, HarnessException {
        if (args.isEmpty()) {
            throw HarnessException.usage("run needs a PLAN (./trustload list shows them)");
        }
        Run.Options o = resolve(args.remove(0));
        RunArgs r = parse(args);
        o.args(r.jmeterArgs()).noLab(r.noLab()).engines(r.engines()).maxErrorPct(r.maxErrorPct()).slo(r.slo()).remote(r.remote())
                .controller(r.controller());
        env("TRUSTLOAD_RESULTS").ifPresent(v -> o.resultsRoot(Path.of(v).toAbsolutePath()));
        env("TRUSTLOAD_RMI_DIR").ifPresent(v -> o.rmiDir(Path.of(v).toAbsolutePath()));
        o.labArgs(Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")));
        o.labTimeout(Duration.ofSeconds(seconds("TRUSTLOAD_LAB_TIMEOUT", 120)));
        o.engineTimeout(Duration.ofSeconds(seconds("TRUSTLOAD_ENGINE_TIMEOUT", 120)));
        JMeter jmeter = JMeter.fromEnvironment(layout);
        // Ctrl-C: the JVM's shutdown hooks cannot wait for children, but the terminal sends SIGINT to the
        // whole process group (JMeter, engines and lab stop with it)
        Run.Result result = Run.execute(jmeter, o.out(out), err);
        return result.status().code();
    }

    private int size(List<String> args) throws IOException, InterruptedException, HarnessException {
        if (args.isEmpty() || args.get(0).startsWith("-")) {
            throw HarnessException.usage("size needs a PLAN (./trustload list shows them) and --slo RULES");
        }
        Run.Options o = sizeOptions(args.remove(0));
        return Size.run(layout, o, args, out, err);
    }

    /** {@code ./trustload plan FILE ...}: a capacity plan (org.trustload.harness.plan). */
    private int plan(List<String> args) throws IOException, InterruptedException {
        Path results = Path.of(env("TRUSTLOAD_RESULTS").orElse(layout.root().resolve("results").toString()));
        return Planner.run(layout, JMeter.fromEnvironment(layout), this::sizeOptions, results.toAbsolutePath(), args,
                out, err);
    }

    /** PLAN's options for a size run, with the environment's settings (size, and plan's size and verify runs). */
    private Run.Options sizeOptions(String plan) throws IOException, HarnessException {
        Run.Options o = resolve(plan);
        env("TRUSTLOAD_RESULTS").ifPresent(v -> o.resultsRoot(Path.of(v).toAbsolutePath()));
        env("TRUSTLOAD_RMI_DIR").ifPresent(v -> o.rmiDir(Path.of(v).toAbsolutePath()));
        o.labArgs(Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")));
        o.labTimeout(Duration.ofSeconds(seconds("TRUSTLOAD_LAB_TIMEOUT", 120)));
        o.engineTimeout(Duration.ofSeconds(seconds("TRUSTLOAD_ENGINE_TIMEOUT", 120)));
        return o;
    }

    /** {@code ./trustload engine --bind ADDRESS [--port P] [--object-port P2]}: a JMeter engine for other hosts' controllers. */
    private int engine(List<String> args) throws IOException, InterruptedException, HarnessException {
        String bind = null;
        int port = Engines.DEFAULT_PORT;
        int objectPort = Engines.DEFAULT_OBJECT_PORT;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            String v = a.contains("=") ? a.substring(a.indexOf('=') + 1) : next(args, ++i, a + " needs a value");
            switch (name) {
                case "--bind" -> bind = v.strip();
                case "--port" -> port = port(v, name);
                case "--object-port" -> objectPort = port(v, name);
                default -> throw HarnessException.usage("unexpected argument '" + a
                        + "' for engine (expected --bind ADDRESS, --port P, --object-port P2; see ./trustload help)");
            }
        }
        if (bind == null || bind.isEmpty()) {
            throw HarnessException.usage("engine needs --bind ADDRESS: the address the controller reaches this host at");
        }
        if (bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("[::]")) {
            throw HarnessException.usage("engine --bind takes one address (the one the controller reaches this host at), never "
                    + bind + ": JMeter's RMI would accept connections on every interface");
        }
        if (port == objectPort) {
            throw HarnessException.usage("engine: --port and --object-port must differ");
        }
        Path results = Path.of(env("TRUSTLOAD_RESULTS").orElse(layout.root().resolve("results").toString())).toAbsolutePath();
        Path dir = results.resolve("engine-" + bind.replaceAll("[^A-Za-z0-9.-]", "_") + "-" + port);
        Path rmiDir = env("TRUSTLOAD_RMI_DIR").map(v -> Path.of(v).toAbsolutePath()).orElse(layout.root().resolve("dist/target/rmi"));
        err.println("trustload: starting a JMeter engine on " + bind + ":" + port + " (objects on " + objectPort + "; log and console in "
                + dir + "); Ctrl-C stops it");
        return Engines.serve(JMeter.fromEnvironment(layout), bind, port, objectPort, rmiDir, dir, Path.of("").toAbsolutePath(),
                Duration.ofSeconds(seconds("TRUSTLOAD_ENGINE_TIMEOUT", 120)), out);
    }

    private static int port(String v, String name) throws HarnessException {
        try {
            int p = Integer.parseInt(v.strip());
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw HarnessException.usage(name + " takes a TCP port (1-65535), not '" + v + "'");
    }

    private int lab(List<String> argv) throws IOException, InterruptedException, HarnessException {
        List<String> args = new ArrayList<>();
        List<String> bind = List.of();
        for (int i = 0; i < argv.size(); i++) {
            String a = argv.get(i);
            if (a.equals("--bind")) {
                bind = List.of("--bind", next(argv, ++i, "--bind needs an ADDRESS"));
            } else if (a.startsWith("--bind=")) {
                bind = List.of("--bind", a.substring("--bind=".length()));
            } else {
                args.add(a);
            }
        }
        if (args.size() > 1) {
            throw HarnessException.usage("lab takes one argument: a comma list of services (and --bind ADDRESS)");
        }
        if (!Files.exists(layout.labJar())) {
            throw HarnessException.notExecuted("no lab jar at " + layout.labJar());
        }
        List<String> cmd = new ArrayList<>(List.of(Layout.java()));
        cmd.addAll(layout.jvmFlags());
        cmd.addAll(List.of("-jar", layout.labJar().toString()));
        if (!args.isEmpty()) {
            cmd.addAll(List.of("--services", args.get(0)));
        }
        cmd.addAll(Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")));
        cmd.addAll(bind);
        // a folder of this lab's own (private: lab.properties holds the lab's passwords), so that two labs
        // started from one checkout never write the same file
        Path dir = Layout.privateTempDir("trustload-lab");
        Path props = dir.resolve("lab.properties");
        cmd.addAll(List.of("--out", props.toString()));
        err.println("trustload: lab in the foreground, endpoints in " + props + " (the READY line repeats it); Ctrl-C stops it");
        // SIGTERM to the launcher stops the lab, which removes its lab.properties before we exit
        int rc = ChildProcess.inTerminal("the lab", cmd).stopWithLauncher(() -> removeQuietly(dir)).waitFor();
        removeQuietly(dir);
        return rc;
    }

    private static void removeQuietly(Path dir) {
        try {
            Layout.deleteRecursively(dir);
        } catch (IOException e) {
            // a file the lab left: the folder is private and in the temporary directory
        }
    }

    private int gui(List<String> args) throws IOException, InterruptedException, HarnessException {
        Run.Options o = null;
        if (!args.isEmpty() && !args.get(0).startsWith("-")) {
            o = resolve(args.remove(0));
        }
        RunArgs r = parse(args);
        if (r.engines() != 0 || !r.remote().isEmpty()) {
            throw HarnessException.usage("gui does not run on engines (use run --engines N or run --remote HOST,...)");
        }
        if (r.slo() != null) {
            throw HarnessException.usage("gui does not judge an objective (use run --slo RULES, or an SLO Stop listener)");
        }
        List<String> cmd = new ArrayList<>(JMeter.fromEnvironment(layout).command());
        cmd.addAll(List.of("-q", layout.trustloadProperties().toString()));
        Lab lab = null;
        Path labDir = Layout.privateTempDir("trustload-lab");
        try {
            if (o != null) {
                o.args(r.jmeterArgs()).noLab(r.noLab());
                if (o.useLab(err)) {
                    Path log = Path.of(env("TRUSTLOAD_RESULTS").orElse(layout.root().resolve("results").toString()), "gui", "lab.log");
                    lab = Lab.start(layout, String.join(",", o.services), labDir.resolve("lab.properties"), log,
                            Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")), Duration.ofSeconds(seconds("TRUSTLOAD_LAB_TIMEOUT", 120)));
                    err.println("trustload: " + lab.readyLine());
                    cmd.addAll(List.of("-q", lab.properties().toString()));
                }
                cmd.addAll(List.of("-t", o.jmx.toString()));
            }
            cmd.addAll(r.jmeterArgs());
            Lab started = lab;
            return ChildProcess.inTerminal("the GUI", cmd).stopWithLauncher(() -> {
                if (started != null) {
                    started.close();
                }
            }).waitFor();
        } finally {
            if (lab != null) {
                lab.close();
            }
            removeQuietly(labDir);
        }
    }

    private static Optional<String> env(String name) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v);
    }

    private static long seconds(String name, long def) throws HarnessException {
        Optional<String> v = env(name);
        try {
            return v.isEmpty() ? def : Long.parseLong(v.get().strip());
        } catch (NumberFormatException e) {
            throw HarnessException.usage(name + " must be a number of seconds, not '" + v.get() + "'");
        }
    }

    public static String usage() {
        return String.format(Locale.ROOT, """
                Usage: ./trustload COMMAND [ARGS]

                  list                         the plans of test-plans/catalog.tsv
                  run PLAN [-Jname=value ...] [-q FILE ...] [--no-lab] [--engines N] [--max-error-pct P] [--slo RULES]
                      [--remote HOST[:PORT],... [--controller ADDRESS]]
                                               build what is missing, start the lab services PLAN needs, run PLAN
                                               headless, write results/PLAN/<timestamp>/ (results.jtl, jmeter.log,
                                               console.txt, report/index.html, summary.txt) and print a summary
                                               (warm-up apart, the load generator's CPU; docs/results.md).
                                               The lab is skipped with --no-lab or when a -J or -q property sets the
                                               plan's target property (e.g. -Jldap.host=ldap.example.org: a real server).
                                               PLAN is a catalog id (ldap/ldap-search-200x10) or a path to a .jmx.
                                               -q FILE adds JMeter properties from FILE: use it for passwords
                                               (JMeter writes every -J value into jmeter.log; the summary masks -q values).
                                               --engines N: JMeter's distributed mode on this machine. Starts N
                                               engines (jmeter -s) bound to 127.0.0.1 with RMI over SSL, runs PLAN
                                               on each of them (N x the plan's load), merges the samples into one
                                               results.jtl, stops the engines. -J and -q properties and the lab's are
                                               sent to the engines (-G).
                                               --remote HOST[:PORT],...: the same on engines already running on other
                                               hosts (./trustload engine there; port 1099 by default). Before the test
                                               each must answer with the controller's RMI keystore, JMeter and TrustLoad
                                               versions; the data files the plan names (key stores, PDFs, CSVs) are
                                               checked there and shipped when missing (removed after the run). The lab,
                                               when the plan needs it, listens on the address the engines reach this host
                                               at. --controller ADDRESS: that address (default: the local address of
                                               the connections to the engines). docs/distributed.md.
                                               --max-error-pct P: exit 4 when more than P%% of the top-level samples
                                               failed (default %s; 100 never fails on errors).
                                               --slo RULES: exit 8 when the run's steady window (its samples after
                                               the ramp-up, warm-up left out) breaks RULES, in size's syntax:
                                               'p99<=500ms,errors<=1%%' (pNN, avg, max, errors; docs/results.md).
                  size PLAN --slo RULES [--model closed|open] [--start N] [--factor F] [--max-load N]
                       [--step-time 30s] [--warmup 10s] [--max-time 15m] [--plateau N] [--min-gain 5%%] [--refine N]
                       [--no-confirm] [--steps-per-run 6]
                       [--server KIND:TARGET] [--server-cpus N] [--load-cpus LIST] [--unit NAME] [--engines N]
                       [--remote HOST[:PORT],... [--controller ADDRESS]]
                       [-Jname=value ...] [-q FILE ...] [--no-lab]
                                               the plan's capacity under a service-level objective (docs/sizing.md):
                                               RULES like 'p99<=500ms,errors<=1%%' (+ server.cpu<=90%% when the server is
                                               watched); closed model: thread steps; open: arrival-rate steps (Open Model
                                               Thread Group). Raises the load until the objective breaks or throughput
                                               stops improving, refines, confirms; watches the load generator's and the
                                               server's CPU (the lab's JVM, or --server jvm-pid:PID, process:PID,
                                               jmx:HOST:PORT, prometheus:URL); writes results/PLAN/size-<timestamp>/sizing/
                                               (index.html, sizing.md, charts). Exit 0 capacity found, 6 client-bound
                                               (no verdict; says how many engines), 7 no capacity found. With --remote
                                               each step's load is split across the engines, and each engine's CPU (read
                                               from its sample rows) is judged for the client-bound verdict.
                  plan FILE [--target R/s|R/min] [--verify] [--out DIR]
                                               a capacity plan for a mix of operations (docs/capacity-planning.md):
                                               servers, server CPUs and load-generator engines for a target rate, from
                                               each operation's size report (size runs for those without one), with the
                                               arithmetic; --verify runs the mix at one server's share and compares.
                                               ./trustload help plan: the workload file's keys
                  engine --bind ADDRESS [--port P] [--object-port P2]
                                               a JMeter engine for a controller on another host (run/size --remote), in
                                               the foreground (Ctrl-C stops it): RMI over SSL with the RMI keystore of
                                               TRUSTLOAD_RMI_DIR (copy that folder from the controller; made when
                                               missing), bound to ADDRESS only (never 0.0.0.0), registry port P (default
                                               1099) and object port P2 (default 4000); prints the --remote to use
                  lab [SERVICES] [--bind ADDRESS]
                                               run the lab in the foreground (Ctrl-C stops it); writes its
                                               lab.properties into a private folder of its own (the READY line
                                               names it), so two labs never share the file; --bind: every lab listener
                                               on ADDRESS instead of 127.0.0.1 (for engines on other hosts)
                  gui [PLAN] [-Jname=value ...] [-q FILE ...] [--no-lab]
                                               start the lab services PLAN needs, open the JMeter GUI (with PLAN),
                                               stop the lab when the GUI exits
                  bench NAME [--tiny] [k=v ..] a benchmark (docs/bench.md): %s;
                                               --tiny: each part once at a tiny scale (a check, not a figure)
                  fixture NAME [key=value ...] a throwaway real server of the tests, in the foreground (Ctrl-C stops
                                               it): slapd [entries=N] [nofile=N] (OpenLDAP), mariadb (for
                                               jdbc/mysql-select-insert), node-exporter (Prometheus, loopback),
                                               dss [lab=FILE] [port=N] [out=FILE] (EU DSS 6.4, with a lab of its
                                               own unless lab= names a running one's lab.properties; its -q file
                                               in a private folder of its own, named in its READY line, removed
                                               at stop); prints how to point a plan at it
                  help                         this text

                Exit status of run and size (docs/harness.md):
                %s
                Environment: HEAP (default "-Xms1g -Xmx1g"), TRUSTLOAD_JVM_ARGS (more JVM options for JMeter),
                JAVA_HOME, TRUSTLOAD_LAB_TIMEOUT (seconds to wait for the lab, default 120),
                TRUSTLOAD_LAB_ARGS (more lab options, e.g. "--port-base 20000" for a second lab beside a running
                one; each lab takes a socket directory of its own), TRUSTLOAD_RESULTS (where results go, default ./results),
                TRUSTLOAD_RMI_DIR (RMI SSL keystore for --engines, --remote and engine, default dist/target/rmi; created
                when missing), TRUSTLOAD_ENGINE_TIMEOUT (seconds to wait for each engine, and for the remote engines'
                check, default 120).
                """, "1", String.join(", ", Bench.NAMES), ExitStatus.table());
    }
}
