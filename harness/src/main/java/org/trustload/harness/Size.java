package org.trustload.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.trustload.harness.cli.Commands;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.host.HostMonitor;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.results.SummaryText;
import org.trustload.harness.run.Environment;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.harness.sizing.Search;
import org.trustload.harness.sizing.ServerWatch;
import org.trustload.harness.sizing.Settings;
import org.trustload.harness.sizing.SizingPlan;
import org.trustload.harness.sizing.Verdict;

/**
 * {@code ./trustload size PLAN --slo RULES}: searches the load at which a plan's server stops meeting a service-level
 * objective (ramp, refine, confirm: {@link Search}) within {@code --max-time}, in one {@link Environment}, and writes
 * {@code sizing/} beside the phases' results. Exit status: 0 a capacity, 6 client-bound, 7 no verdict, 2 and 3 as
 * {@code run}. The method: docs/sizing.md.
 */
public final class Size {

    private Size() {
    }

    /** {@code 30}, {@code 30s}, {@code 500ms}, {@code 5m}, {@code 1h}, in ms (also plan's workload files). */
    public static long duration(String v, String name) throws HarnessException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|m|min|h)?")
                .matcher(v.strip());
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
            return search(jmeter, o, Commands.sizeSettings(args), out, err);
        } catch (HarnessException e) {
            err.println("trustload: " + e.getMessage());
            return e.status().code();
        }
    }

    private static int search(JMeter jmeter, RunSpec.Builder o, Settings s, PrintStream out, PrintStream err)
            throws IOException, InterruptedException, HarnessException {
        RunSpec spec = o.args(s.jmeterArgs()).noLab(s.noLab()).engines(s.remote().isEmpty() ? s.engines() : 0)
                .remote(s.remote()).controller(s.controller()).build();
        SizingPlan.init(jmeter.layout().jmeterHome());
        Instant started = Instant.now();
        long deadline = System.currentTimeMillis() + s.maxTimeMs();
        Path dir = spec.dir() != null ? spec.dir()
                : spec.resultsRoot().resolve(spec.planId()).resolve("size-" + Run.STAMP.format(started));
        Files.createDirectories(dir);
        Files.createDirectories(dir.resolve("sizing").resolve("plans"));
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
        Engines engines = env.engines();
        HostMonitor watcher = null;
        try {
            ServerWatch sw = ServerWatch.of(s, env.lab());
            if (engines != null && engines.isRemote() && sw.sharedHost()) {
                // the load is offered from other hosts: this machine holds the server (and the controller) only
                sw = sw.notShared();
            }
            if (sw.error() != null) {
                err.println("trustload: " + sw.error());
                return ExitStatus.USAGE.code();
            }
            watcher = new HostMonitor(sw.source(), sw.cpus(), sw.pid(), s.loadCpus());
            err.println("trustload: size " + spec.planId() + ", " + s.model().name().toLowerCase(Locale.ROOT)
                    + " model, objective " + s.slo() + ", steps of " + s.stepMs() / 1000.0 + " s ("
                            + s.warmupMs() / 1000.0
                    + " s warm-up), at most " + SummaryText.hms(s.maxTimeMs() / 1000) + "; server: " + sw.describe());
            Search search = new Search(jmeter, spec, s, shape, dir, env, watcher, deadline, err);
            int status = search.run();
            if (status != 0) {
                return status;
            }
            Verdict v = search.report(sw, started, out);
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
}
