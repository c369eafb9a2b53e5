package org.trustload.harness.cli;

import com.unboundid.util.args.Argument;
import com.unboundid.util.args.ArgumentException;
import com.unboundid.util.args.ArgumentParser;
import com.unboundid.util.args.BooleanArgument;
import com.unboundid.util.args.StringArgument;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.trustload.harness.Bench;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.HarnessException;
import org.trustload.harness.run.RunSpec;
import org.trustload.harness.sizing.Settings;
import org.trustload.harness.sizing.SizingPlan;
import org.trustload.slo.Objective;

/**
 * Every {@code ./trustload} command with its options, declared once on UnboundID's {@link ArgumentParser} (typed and
 * bounded values, exclusive and dependent sets): the launcher parses with them, {@code help} and {@code help COMMAND}
 * are generated from them, and the docs test reads them ({@link #options()}).
 */
public final class Commands {

    /** A width the help wraps at. */
    private static final int WIDTH = 110;

    /**
     * A command.
     *
     * @param operands what comes before its options ({@code PLAN}, {@code NAME}), empty for none
     * @param summary what it does, for the overview of {@code ./trustload help}
     */
    public record Command(String name, String operands, String summary, Declaration declaration) {

        /** A fresh parser of its options (an UnboundID parser holds the values of one parse). */
        public ArgumentParser parser() {
            try {
                return declaration.declare();
            } catch (ArgumentException e) {
                throw new IllegalStateException("the declaration of " + name + " is wrong: " + e.getMessage(), e);
            }
        }

        /** Parses this command's options (after its operands). */
        public Parsed parse(List<String> args) throws HarnessException {
            return Parsed.parse(parser(), args);
        }
    }

    /** Declares a command's options on a new parser. */
    @FunctionalInterface
    public interface Declaration {
        ArgumentParser declare() throws ArgumentException;
    }

    private static final List<Command> ALL = List.of(
            new Command("list", "", "the plans of test-plans/catalog.tsv", () -> parser("list", "Lists the plans of"
                    + " test-plans/catalog.tsv.", 0)),
            new Command("run", "PLAN", "build what is missing, start the lab services PLAN needs, run PLAN headless,"
                    + " write results/PLAN/<timestamp>/ (results.jtl, jmeter.log, console.txt, report/index.html,"
                    + " summary.txt) and print a summary (warm-up apart, the load generator's CPU;"
                    + " docs/results.md)", Commands::run),
            new Command("size", "PLAN", "the plan's capacity under a service-level objective (docs/sizing.md): raises"
                    + " the load until the objective breaks or throughput stops improving, refines, confirms; writes"
                    + " results/PLAN/size-<timestamp>/sizing/", Commands::size),
            new Command("plan", "FILE", "a capacity plan for a mix of operations (docs/capacity-planning.md): servers,"
                    + " server CPUs and load-generator engines for a target rate, from each operation's size report"
                    + " (size runs for those without one), with the arithmetic; --verify runs the mix at one server's"
                    + " share and compares; ./trustload help plan: the workload file's keys", Commands::plan),
            new Command("engine", "", "a JMeter engine for a controller on another host (run/size --remote), in the"
                    + " foreground (Ctrl-C stops it)", Commands::engine),
            new Command("lab", "[SERVICES]", "run the lab in the foreground (Ctrl-C stops it)", Commands::lab),
            new Command("gui", "[PLAN]", "start the lab services PLAN needs, open the JMeter GUI (with PLAN), stop the"
                    + " lab when the GUI exits", Commands::gui),
            new Command("bench", "NAME", "a benchmark (docs/bench.md): " + String.join(", ", Bench.NAMES) + "; --tiny:"
                    + " each part once at a tiny scale (a check, not a figure)", Commands::bench),
            new Command("fixture", "NAME", "a throwaway real server of the tests, in the foreground (Ctrl-C stops it);"
                    + " prints how to point a plan at it", Commands::fixture),
            new Command("help", "[COMMAND]", "this text, or a command's options", () -> parser("help",
                    "Prints the commands, or one command's options.", 1)));

    private Commands() {
    }

    public static List<Command> all() {
        return ALL;
    }

    public static Optional<Command> get(String name) {
        return ALL.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /**
     * Each command's long options ({@code --name}), as declared: what the docs may write after {@code ./trustload
     * COMMAND}.
     */
    public static Map<String, Set<String>> options() {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (Command c : ALL) {
            Set<String> names = new LinkedHashSet<>();
            for (Argument a : c.parser().getNamedArguments()) {
                if (a.getLongIdentifier() != null) {
                    names.add("--" + a.getLongIdentifier());
                }
            }
            out.put(c.name(), names);
        }
        return out;
    }

    /** {@code ./trustload help}: each command with its options and what it does, the exit statuses, the environment. */
    public static String usage() {
        StringBuilder sb = new StringBuilder("Usage: ./trustload COMMAND [ARGS]   (./trustload help COMMAND: its"
                + " options in full)\n\n");
        for (Command c : ALL) {
            List<String> words = new ArrayList<>(List.of(c.name()));
            if (!c.operands().isEmpty()) {
                words.add(c.operands());
            }
            for (Argument a : c.parser().getNamedArguments()) {
                if (!a.isHidden()) {
                    String id = a.getIdentifierString() + (a.takesValue() ? " " + a.getValuePlaceholder() : "")
                            + (a.getMaxOccurrences() != 1 ? " ..." : "");
                    words.add(a.isRequired() ? id : "[" + id + "]");
                }
            }
            if (c.name().equals("bench") || c.name().equals("fixture")) {
                words.add("[key=value ...]");
            }
            wrap(sb, "  ", "      ", words);
            wrap(sb, "        ", "        ", List.of(c.summary().split(" ")));
        }
        sb.append(String.format(Locale.ROOT, "%nExit status of run and size (docs/harness.md):%n%s%n",
                ExitStatus.table()));
        sb.append("""
                Environment: HEAP (default "-Xms1g -Xmx1g"), TRUSTLOAD_JVM_ARGS (more JVM options for JMeter),
                JAVA_HOME, TRUSTLOAD_LAB_TIMEOUT (seconds to wait for the lab, default 120),
                TRUSTLOAD_LAB_ARGS (more lab options, e.g. "--port-base 20000" for a second lab beside a running
                one; each lab takes a socket directory of its own), TRUSTLOAD_LAB_JVM_ARGS (JVM options of the lab,
                e.g. -Xmx2g), TRUSTLOAD_RESULTS (where results go, \
                default ./results),
                TRUSTLOAD_RMI_DIR (RMI SSL keystore for --engines, --remote and engine, default dist/target/rmi; created
                when missing), TRUSTLOAD_ENGINE_TIMEOUT (seconds to wait for each engine, and for the remote engines'
                check, default 120).
                """);
        return sb.toString();
    }

    /** {@code ./trustload help COMMAND}: the command's declared options in full. */
    public static String usage(String command) throws HarnessException {
        Command c = get(command).orElseThrow(() -> HarnessException.usage("unknown command '" + command + "'"));
        ArgumentParser p = c.parser();
        StringBuilder sb = new StringBuilder();
        for (String line : p.getUsage(WIDTH)) {
            // operands the parser already shows at the end (lab's SERVICES) are not named twice
            String trailing = p.getTrailingArgumentsPlaceholder();
            boolean shown = trailing != null && c.operands().contains(trailing);
            sb.append(line.replace("Usage:  " + c.name() + " ", "Usage:  ./trustload " + c.name()
                    + (c.operands().isEmpty() || shown ? "" : " " + c.operands()) + " ")).append('\n');
        }
        return sb.toString();
    }

    private static void wrap(StringBuilder sb, String first, String next, List<String> words) {
        StringBuilder line = new StringBuilder(first);
        for (String w : words) {
            if (line.length() + w.length() + 1 > WIDTH && line.length() > next.length()) {
                sb.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder(next);
            }
            line.append(w).append(' ');
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }

    private static ArgumentParser parser(String name, String description, int trailing) throws ArgumentException {
        return new ArgumentParser(name, description, trailing, trailing == 0 ? null : "{ARG}");
    }

    /** The options of {@code run} after PLAN; {@code slo} null without {@code --slo}. */
    public record RunArgs(List<String> jmeterArgs, boolean noLab, int engines, double maxErrorPct, Objective slo,
                          List<String> remote, String controller) {
    }

    /** {@code run}'s options. */
    public static RunArgs runArgs(List<String> args) throws HarnessException {
        Parsed r = get("run").orElseThrow().parse(args);
        return new RunArgs(r.jmeterArgs(), r.flag("no-lab"), r.engines(),
                r.number("max-error-pct", RunSpec.DEFAULT_MAX_ERROR_PCT), r.value("slo", Objective::parse), r.remote(),
                r.controller());
    }

    /** {@code size}'s options as the search's settings, and the checks across them. */
    public static Settings sizeSettings(List<String> args) throws HarnessException {
        Parsed p = get("size").orElseThrow().parse(args);
        List<String> remote = p.remote();
        Settings s = new Settings(Objective.parse(p.string("slo")), p.string("model").equals("open")
                ? SizingPlan.Model.OPEN : SizingPlan.Model.CLOSED, p.number("start", Double.NaN), p.number("factor", 2),
                p.number("max-load", Double.NaN), p.millis("step-time", 30_000), p.millis("warmup", 10_000),
                p.millis("max-time", 15 * 60_000), p.integer("plateau"), p.number("min-gain", 5), p.integer("refine"),
                !p.flag("no-confirm"), p.integer("steps-per-run"), p.string("server"),
                p.given("server-cpus") ? p.integer("server-cpus") : 0, p.string("load-cpus"),
                p.given("unit") ? p.string("unit") : "requests",
                remote.isEmpty() ? p.engines() : remote.size(), // each step's load is split across the remote engines
                remote, p.controller(), p.flag("no-lab"), p.jmeterArgs());
        if (s.warmupMs() >= s.stepMs()) {
            throw HarnessException.usage("--warmup must be shorter than --step-time");
        }
        boolean cpuRule = s.slo().rules().stream().anyMatch(r -> r.kind() == Objective.Kind.SERVER_CPU);
        if (cpuRule && s.server() == null && s.noLab()) {
            throw HarnessException.usage("server.cpu needs a watched server: --server KIND:TARGET (or the lab)");
        }
        return s;
    }

    // ---- the declarations ----

    private static ArgumentParser run() throws ArgumentException {
        ArgumentParser p = parser("run", "Builds what is missing, starts the lab services PLAN needs, runs PLAN"
                + " headless, writes results/PLAN/<timestamp>/ (results.jtl, jmeter.log, console.txt,"
                + " report/index.html, summary.txt) and prints a summary (warm-up apart, the load generator's CPU;"
                + " docs/results.md). The lab is skipped with --no-lab or when a -J or -q property sets the plan's"
                + " target property (e.g. -Jldap.host=ldap.example.org: a real server). PLAN is a catalog id"
                + " (ldap/ldap-search-200x10) or a path to a .jmx.", 0);
        Parsed.jmeter(p);
        noLab(p);
        engines(p, "JMeter's distributed mode on this machine: starts N engines (jmeter -s) bound to 127.0.0.1 with RMI"
                + " over SSL, runs PLAN on each of them (N x the plan's load), merges the samples into one results.jtl,"
                + " stops the engines; -J and -q properties and the lab's are sent to the engines (-G)");
        Parsed.number(p, "max-error-pct", "P", "exit 4 when more than P% of the top-level samples failed (default 1;"
                + " 100 never fails on errors)", -Double.MIN_VALUE, 100);
        Parsed.string(p, "slo", "RULES", "exit 8 when the run's steady window (its samples after the ramp-up, warm-up"
                + " left out) breaks RULES, in size's syntax: 'p99<=500ms,errors<=1%' (pNN, avg, max, errors;"
                + " docs/results.md)",
                v -> slo(v, Objective.Kind.SERVER_CPU, "server.cpu is judged by ./trustload size, which watches the"
                        + " server; run judges pNN, avg, max and errors"));
        remote(p, "the same on engines already running on other hosts (./trustload engine there; port 1099 by default);"
                + " before the test each must answer with the controller's RMI keystore, JMeter and TrustLoad versions;"
                + " the data files the plan names (key stores, PDFs, CSVs) are checked there and shipped when missing"
                + " (removed after the run); the lab, when the plan needs it, listens on the address the engines reach"
                + " this host at (docs/distributed.md)");
        return p;
    }

    private static ArgumentParser size() throws ArgumentException {
        ArgumentParser p = parser("size", "The plan's capacity under a service-level objective (docs/sizing.md): raises"
                + " the load until the objective breaks or throughput stops improving, refines, confirms; watches the"
                + " load generator's and the server's CPU; writes results/PLAN/size-<timestamp>/sizing/ (index.html,"
                + " sizing.md, charts). Exit 0 capacity found, 6 client-bound (no verdict; says how many engines), 7 no"
                + " capacity found. With --remote each step's load is split across the engines, and each engine's CPU"
                + " (read from its sample rows) is judged for the client-bound verdict.", 0);
        Parsed.string(p, "slo", "RULES", "the objective, like 'p99<=500ms,errors<=1%' (+ server.cpu<=90%"
                + " when the server is watched); outage is judged by run only", v -> slo(v, Objective.Kind.OUTAGE,
                "outage is judged over a whole run (./trustload run --slo), not per load step"), true);
        StringArgument model = new StringArgument(null, "model", false, 1, "closed|open", "closed: thread steps; open:"
                + " arrival-rate steps (Open Model Thread Group)", Set.of("closed", "open"), "closed");
        p.addArgument(model);
        Parsed.number(p, "start", "N", "the first step's load (default: the engines' count, or 10 arrivals/s)", 0,
                Double.MAX_VALUE);
        Parsed.number(p, "factor", "F", "each ramp step's load over the last (default 2)", 1.05, Double.MAX_VALUE);
        Parsed.number(p, "max-load", "N", "the highest load tried (default 2000 threads, 100000 arrivals/s)", 0,
                Double.MAX_VALUE);
        Parsed.duration(p, "step-time", "each step's length, e.g. 30s", 30_000, 1000);
        Parsed.duration(p, "warmup", "the start of each step left out of its measure (shorter than --step-time)",
                10_000, 0);
        Parsed.duration(p, "max-time", "the whole search, JMeter starts included", 15 * 60_000, 1000);
        Parsed.integer(p, "plateau", "N", "steps without --min-gain before the ramp stops", 1, Integer.MAX_VALUE, 2);
        Parsed.number(p, "min-gain", "PCT", "the throughput gain a step must bring, e.g. 5% (default)", 0,
                Double.MAX_VALUE);
        Parsed.integer(p, "refine", "N", "steps between the last good and the first bad load", 0, 100, 3);
        Parsed.flag(p, "no-confirm", "no confirm run of the best step");
        Parsed.integer(p, "steps-per-run", "N", "steps in one JMeter run", 1, 1000, 6);
        Parsed.string(p, "server", "KIND:TARGET", "the server to watch: jvm-pid:PID, process:PID, jmx:HOST:PORT,"
                + " prometheus:URL (default: the lab's JVM)", v -> v.indexOf(':') > 0 ? null
                : "--server takes KIND:TARGET, e.g. jvm-pid:1234 or prometheus:http://host:9100/metrics");
        Parsed.integer(p, "server-cpus", "N", "the watched server's CPUs (default: as its source says)", 1, 4096, null);
        Parsed.string(p, "load-cpus", "LIST", "the CPUs JMeter is pinned to, e.g. 0 or 0-1,3", v ->
                v.matches("[0-9,\\-]+")
                ? null : "--load-cpus takes a CPU list such as 0 or 0-1,3, not '" + v + "'");
        Parsed.string(p, "unit", "NAME", "what one sample is, for the report (default requests)", null);
        engines(p, "N local engines (as run --engines), started once for the whole search; each gets 1/N of every"
                + " step's load");
        remote(p, "engines already running on other hosts (as run --remote); each step's load is split across them");
        Parsed.jmeter(p);
        noLab(p);
        return p;
    }

    private static ArgumentParser plan() throws ArgumentException {
        ArgumentParser p = parser("plan", "A capacity plan for the workload FILE (docs/capacity-planning.md).", 0);
        Parsed.string(p, "target", "R/s|R/min", "the target rate, replacing the file's", v -> {
            try {
                org.trustload.harness.plan.Workload.Rate.parse(v, "--target");
                return null;
            } catch (org.trustload.harness.plan.Workload.WorkloadException e) {
                return e.getMessage();
            }
        });
        Parsed.flag(p, "verify", "run the mix at one server's predicted share and compare");
        Parsed.string(p, "out", "DIR", "where the plan goes (default results/plans/NAME-<timestamp>)", null);
        return p;
    }

    private static ArgumentParser gui() throws ArgumentException {
        ArgumentParser p = parser("gui", "Starts the lab services PLAN needs, opens the JMeter GUI (with PLAN), stops"
                + " the lab when the GUI exits.", 0);
        Parsed.jmeter(p);
        noLab(p);
        return p;
    }

    private static ArgumentParser engine() throws ArgumentException {
        ArgumentParser p = parser("engine", "A JMeter engine for a controller on another host (run/size --remote), in"
                + " the foreground (Ctrl-C stops it): RMI over SSL with the RMI keystore of TRUSTLOAD_RMI_DIR (made"
                + " when missing, and then it says to copy that folder to the controller and every other engine: one"
                + " keystore everywhere); prints the --remote to use.", 0);
        Parsed.string(p, "bind", "ADDRESS", "the address the controller reaches this host at; the engine listens there"
                + " only (never 0.0.0.0)", Commands::notWildcard, true);
        Parsed.integer(p, "port", "P", "the RMI registry port (default 1099)", 1, 65535, 1099);
        Parsed.integer(p, "object-port", "P2", "the RMI object port, not P (default 4000)", 1, 65535,
                4000);
        return p;
    }

    private static ArgumentParser lab() throws ArgumentException {
        ArgumentParser p = new ArgumentParser("lab", "Runs the lab in the foreground (Ctrl-C stops it); writes its"
                + " lab.properties into a private folder of its own (the READY line names it), so two labs never share"
                + " the file. SERVICES: a comma list (default: all).", 1, "SERVICES");
        Parsed.string(p, "bind", "ADDRESS", "every lab listener on ADDRESS instead of 127.0.0.1 (for engines on other"
                + " hosts)", Commands::notWildcard);
        return p;
    }

    private static ArgumentParser bench() throws ArgumentException {
        ArgumentParser p = new ArgumentParser("bench", "A benchmark (docs/bench.md); key=value arguments go to the"
                + " bench (the last of a key wins).", -1, "{key=value ...}");
        Parsed.flag(p, "tiny", "each part once at a tiny scale (a check, not a figure)");
        BooleanArgument noBuild = Parsed.flag(p, "no-build", "the old wrappers' flag: ./trustload builds only when"
                + " sources changed");
        noBuild.setHidden(true);
        return p;
    }

    private static ArgumentParser fixture() throws ArgumentException {
        return new ArgumentParser("fixture", "A throwaway real server of the tests, in the foreground (Ctrl-C stops"
                + " it): slapd [entries=N] [nofile=N] [stats] (OpenLDAP; stats: slapd's -d stats lines, each"
                + " operation's etime, in its log), mariadb (for jdbc/mysql-select-insert), node-exporter (Prometheus,"
                + " loopback), dss [lab=FILE] [port=N] [out=FILE] (EU DSS 6.4, with a lab of its own unless lab= names"
                + " a running one's lab.properties; its -q file in a private folder of its own, named in its READY"
                + " line, removed at stop); prints how to point a plan at it.", -1, "{key=value ...}");
    }

    private static void noLab(ArgumentParser p) throws ArgumentException {
        Parsed.flag(p, "no-lab", "no lab: the plan's properties name its server");
    }

    private static void engines(ArgumentParser p, String description) throws ArgumentException {
        Parsed.integer(p, "engines", "N", description, 1, 16, null);
    }

    /** {@code --remote} and {@code --controller}, after {@code --engines}: one or the other. */
    private static void remote(ArgumentParser p, String description) throws ArgumentException {
        StringArgument remote = Parsed.string(p, "remote", "HOST[:PORT],...", description, v -> {
            try {
                org.trustload.harness.engine.Engines.parseHosts(v);
                return null;
            } catch (HarnessException e) {
                return e.getMessage();
            }
        });
        StringArgument controller = Parsed.string(p, "controller", "ADDRESS", "with --remote: the address the engines"
                + " reach this host at (default: the local address of the connections to them)", Commands::notWildcard);
        p.addExclusiveArgumentSet(p.getNamedArgument("engines"), remote);
        p.addDependentArgumentSet(controller, remote);
    }

    /** An address, never a wildcard (JMeter's RMI and the lab would listen on every interface). */
    private static String notWildcard(String v) {
        String a = v.strip().replace("[", "").replace("]", "");
        return a.isEmpty() || a.equals("0.0.0.0") || a.equals("::") || a.contains("/")
                ? "takes the ADDRESS the other hosts reach this one at (never 0.0.0.0), not '" + v + "'" : null;
    }

    /** Why {@code v} is not an objective without rules of kind {@code refused}, or null. */
    private static String slo(String v, Objective.Kind refused, String why) {
        try {
            Objective o = Objective.parse(v);
            return o.rules().stream().anyMatch(r -> r.kind() == refused) ? "--slo: " + why : null;
        } catch (IllegalArgumentException e) {
            return "--slo: " + e.getMessage();
        }
    }

    /** The engine's two ports the same: refused (after parsing: a parser compares no values). */
    public static void differentPorts(Parsed engine) throws HarnessException {
        if (engine.integer("port").equals(engine.integer("object-port"))) {
            throw HarnessException.usage("engine: --port and --object-port must differ");
        }
    }
}
