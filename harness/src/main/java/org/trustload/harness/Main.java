package org.trustload.harness;

import org.trustload.harness.engine.Engines;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.harness.cli.Commands;
import org.trustload.harness.cli.KeyValues;
import org.trustload.harness.cli.Parsed;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.trustload.common.ChildProcess;
import org.trustload.common.ClientException;
import org.trustload.harness.plan.Planner;

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
                case "bench" -> bench(args);
                case "fixture" -> {
                    List<String> rest = operand(args, "fixture", "NAME: " + String.join(", ",
                            new TreeSet<>(Bench.FIXTURES.keySet())));
                    yield Bench.fixture(layout, args.get(0), Commands.get("fixture").orElseThrow().parse(rest)
                            .trailing());
                }
                case "help", "-h", "--help" -> {
                    out.print(args.isEmpty() ? usage() : args.get(0).equals("plan") ? Planner.help()
                            : Commands.usage(args.get(0)));
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

    /** The command's first operand (checked by name), and the arguments after it. */
    private static List<String> operand(List<String> args, String command, String what) throws HarnessException {
        if (args.isEmpty() || args.get(0).startsWith("-")) {
            throw HarnessException.usage(command + " needs a " + what);
        }
        return args.subList(1, args.size());
    }

    /** A catalog id ({@code ldap/ldap-search-200x10}) or a path to a .jmx (its catalog row when it is one of ours). */
    RunSpec.Builder resolve(String plan) throws IOException, HarnessException {
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
                Optional<Catalog.Entry> e = catalog.get(layout.plans().relativize(jmx).toString()
                        .replaceFirst("\\.jmx$", ""));
                if (e.isPresent()) {
                    return RunSpec.of(layout, e.get());
                }
            }
            return RunSpec.of(layout, id, jmx);
        }
        String id = plan.replaceFirst("\\.jmx$", "");
        Catalog.Entry e = catalog.get(id).orElseThrow(() -> HarnessException.usage("unknown plan '"
                + ClientException.bounded(plan, ClientException.MAX_MESSAGE) + "'. Known plans:\n" + catalog.table()));
        Path jmx = layout.plans().resolve(e.id() + ".jmx");
        if (!Files.exists(jmx)) {
            throw HarnessException.usage("plan '" + id + "' is in the catalog but " + jmx + " does not exist (yet)");
        }
        return RunSpec.of(layout, e);
    }

    private int run(List<String> args) throws IOException, InterruptedException, HarnessException {
        List<String> rest = operand(args, "run", "PLAN (./trustload list shows them)");
        RunSpec.Builder o = resolve(args.get(0));
        Commands.RunArgs r = Commands.runArgs(rest);
        o.args(r.jmeterArgs()).noLab(r.noLab()).engines(r.engines()).maxErrorPct(r.maxErrorPct()).slo(r.slo())
                .remote(r.remote())
                .controller(r.controller());
        environment(o);
        // Ctrl-C: the JVM's shutdown hooks cannot wait for children, but the terminal sends SIGINT to the
        // whole process group (JMeter, engines and lab stop with it)
        Run.Result result = Run.execute(JMeter.fromEnvironment(layout), o.out(out), err);
        return result.status().code();
    }

    /** The launcher's environment variables that shape a run or a search. */
    private void environment(RunSpec.Builder o) throws HarnessException {
        env("TRUSTLOAD_RESULTS").ifPresent(v -> o.resultsRoot(Path.of(v).toAbsolutePath()));
        env("TRUSTLOAD_RMI_DIR").ifPresent(v -> o.rmiDir(Path.of(v).toAbsolutePath()));
        o.labArgs(Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")));
        o.labTimeout(Duration.ofSeconds(seconds("TRUSTLOAD_LAB_TIMEOUT", 120)));
        o.engineTimeout(Duration.ofSeconds(seconds("TRUSTLOAD_ENGINE_TIMEOUT", 120)));
    }

    private int size(List<String> args) throws IOException, InterruptedException, HarnessException {
        List<String> rest = operand(args, "size", "PLAN (./trustload list shows them) and --slo RULES");
        return Size.run(layout, sizeOptions(args.get(0)), rest, out, err);
    }

    /** {@code ./trustload plan FILE ...}: a capacity plan (org.trustload.harness.plan). */
    private int plan(List<String> args) throws IOException, InterruptedException {
        Path results = Path.of(env("TRUSTLOAD_RESULTS").orElse(layout.root().resolve("results").toString()));
        return Planner.run(layout, JMeter.fromEnvironment(layout), this::sizeOptions, results.toAbsolutePath(), args,
                out, err);
    }

    /** PLAN's options for a size run, with the environment's settings (size, and plan's size and verify runs). */
    private RunSpec.Builder sizeOptions(String plan) throws IOException, HarnessException {
        RunSpec.Builder o = resolve(plan);
        environment(o);
        return o;
    }

    /**
     * {@code ./trustload engine --bind ADDRESS [--port P] [--object-port P2]}: a JMeter engine for other hosts'
     * controllers.
     */
    private int engine(List<String> args) throws IOException, InterruptedException, HarnessException {
        Parsed e = Commands.get("engine").orElseThrow().parse(args);
        Commands.differentPorts(e);
        String bind = e.string("bind").strip();
        int port = e.integer("port");
        int objectPort = e.integer("object-port");
        Path results = Path.of(env("TRUSTLOAD_RESULTS").orElse(layout.root().resolve("results").toString()))
                .toAbsolutePath();
        Path dir = results.resolve("engine-" + bind.replaceAll("[^A-Za-z0-9.-]", "_") + "-" + port);
        Path rmiDir = env("TRUSTLOAD_RMI_DIR").map(v -> Path.of(v).toAbsolutePath()).orElse(layout.root()
                .resolve("dist/target/rmi"));
        err.println("trustload: starting a JMeter engine on " + bind + ":" + port + " (objects on " + objectPort
                + "; log and console in "
                + dir + "); Ctrl-C stops it");
        return Engines.serve(JMeter.fromEnvironment(layout), bind, port, objectPort, rmiDir, dir, Path.of("")
                .toAbsolutePath(),
                Duration.ofSeconds(seconds("TRUSTLOAD_ENGINE_TIMEOUT", 120)), out);
    }

    private int lab(List<String> argv) throws IOException, InterruptedException, HarnessException {
        List<String> args = new ArrayList<>(argv);
        if (!args.isEmpty() && !args.get(0).startsWith("-")) {
            args.add(args.remove(0)); // SERVICES before the options: the parser reads operands after them
        }
        Parsed l = Commands.get("lab").orElseThrow().parse(args);
        if (!Files.exists(layout.labJar())) {
            throw HarnessException.notExecuted("no lab jar at " + layout.labJar());
        }
        List<String> cmd = new ArrayList<>(List.of(Layout.java()));
        cmd.addAll(layout.labJvmFlags());
        cmd.addAll(List.of("-jar", layout.labJar().toString()));
        if (!l.trailing().isEmpty()) {
            cmd.addAll(List.of("--services", l.trailing().get(0)));
        }
        cmd.addAll(Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")));
        if (l.given("bind")) {
            cmd.addAll(List.of("--bind", l.string("bind").strip()));
        }
        // a folder of this lab's own (private: lab.properties holds the lab's passwords), so that two labs
        // started from one checkout never write the same file
        Path dir = Layout.privateTempDir("trustload-lab");
        Path props = dir.resolve("lab.properties");
        cmd.addAll(List.of("--out", props.toString()));
        err.println("trustload: lab in the foreground, endpoints in " + props
                + " (the READY line repeats it); Ctrl-C stops it");
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
        RunSpec.Builder o = null;
        if (!args.isEmpty() && !args.get(0).startsWith("-")) {
            o = resolve(args.get(0));
            args = args.subList(1, args.size());
        }
        Parsed r = Commands.get("gui").orElseThrow().parse(args);
        List<String> cmd = new ArrayList<>(JMeter.fromEnvironment(layout).command());
        cmd.addAll(List.of("-q", layout.trustloadProperties().toString()));
        Lab lab = null;
        Path labDir = Layout.privateTempDir("trustload-lab");
        try {
            if (o != null) {
                RunSpec spec = o.args(r.jmeterArgs()).noLab(r.flag("no-lab")).build();
                if (spec.useLab(err)) {
                    Path log = Path.of(env("TRUSTLOAD_RESULTS").orElse(layout.root().resolve("results").toString()),
                            "gui", "lab.log");
                    lab = Lab.start(layout, String.join(",", spec.services()), labDir.resolve("lab.properties"), log,
                            Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")),
                                    Duration.ofSeconds(seconds("TRUSTLOAD_LAB_TIMEOUT", 120)));
                    err.println("trustload: " + lab.readyLine());
                    cmd.addAll(List.of("-q", lab.properties().toString()));
                }
                cmd.addAll(List.of("-t", spec.jmx().toString()));
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

    /** {@code ./trustload bench NAME [--tiny] [key=value ...]}: the options may come anywhere after NAME. */
    private int bench(List<String> args) throws IOException, InterruptedException, HarnessException {
        List<String> rest = operand(args, "bench", "NAME: " + String.join(", ", Bench.NAMES) + " (docs/bench.md)");
        List<String> ordered = new ArrayList<>(rest.stream().filter(a -> a.startsWith("--")).toList());
        ordered.addAll(rest.stream().filter(a -> !a.startsWith("--")).toList());
        Parsed b = Commands.get("bench").orElseThrow().parse(ordered);
        return Bench.run(layout, args.get(0), b.flag("tiny"), KeyValues.check(b.trailing()), out, err);
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

    /** {@code ./trustload help}, generated from the declarations ({@link Commands}). */
    public static String usage() {
        return Commands.usage();
    }
}
