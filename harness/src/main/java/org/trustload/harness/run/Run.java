package org.trustload.harness.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.trustload.common.ChildProcess;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.HarnessException;
import org.trustload.harness.JMeter;
import org.trustload.harness.Layout;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.host.HostMonitor;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.jmx.PlanTree;
import org.trustload.harness.results.LoadGenerator;
import org.trustload.harness.results.Summary;
import org.trustload.harness.results.SummaryText;

/**
 * One headless run of a plan, as {@code ./trustload run}, the plan tests and the benches do it, in stages: the
 * {@link Environment} (lab, engines, preflight), JMeter's {@link CommandLine}, the {@link Supervisor} until JMeter
 * ends, the {@link ExitRules}, and the summary ({@link RunHeader}, {@link Summary}) in the results layout
 * {@code results.jtl, jmeter.log, console.txt, report/, summary.txt}. The lab's properties file (it holds the lab's
 * passwords) lives in a private temporary directory, never in the results folder, and is deleted when the run ends.
 */
public final class Run {

    public static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.systemDefault());

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

    /** {@link #execute(JMeter, RunSpec, PrintStream)} of {@code spec.build()}. */
    public static Result execute(JMeter jmeter, RunSpec.Builder spec, PrintStream log) throws IOException,
            InterruptedException {
        return execute(jmeter, spec.build(), log);
    }

    /** Runs {@code spec}; {@code log} gets the launcher's messages (and, with echo, JMeter's console). */
    public static Result execute(JMeter jmeter, RunSpec spec, PrintStream log) throws IOException,
            InterruptedException {
        Instant started = Instant.now();
        PlanTree.init(jmeter.layout().jmeterHome());
        Path dir = spec.dir() != null ? spec.dir() : spec.resultsRoot().resolve(spec.planId())
                .resolve(STAMP.format(started));
        Layout.deleteRecursively(dir);
        Files.createDirectories(dir);
        HostMonitor monitor = spec.monitor() != null ? spec.monitor() : new HostMonitor(null, 0, null);
        if (spec.monitor() == null) {
            // the load generator's CPU: the controller names dir/results.jtl, the engines this run starts log to
            // dir/engine-I/ (not the preflight's JMeter of remote runs, in dir/preflight/), running engines to their
            // logs
            List<String> words = new ArrayList<>(List.of(dir.resolve("results.jtl").toString(), dir.resolve("engine-")
                    .toString()));
            if (spec.sharedEngines() != null) {
                spec.sharedEngines().logs().forEach(l -> words.add(l.toString()));
            }
            monitor.watchLoad(words.toArray(String[]::new));
        }
        // the plan as it runs: with the elements that mark each sample event's rows (see Summary) and, on remote
        // engines, report their load and their end; the plan itself when its folder is read-only (the summary then
        // infers sub-results from their names)
        Optional<Path> copy = spec.plan().runCopy(spec.remoteRun(), tree -> {
            if (Influx.wanted(spec.properties())) {
                Influx.addBackendListener(tree, spec.planId());
            }
        });
        Environment env = null;
        // SIGTERM or Ctrl-C to the launcher: stop what this run started (a terminal's Ctrl-C reaches them too, a
        // SIGTERM does not) and remove the lab's properties (its passwords)
        ChildProcess[] jmeterProcess = new ChildProcess[1];
        Environment[] opened = new Environment[1];
        Thread cleanup = new Thread(() -> {
            try {
                if (jmeterProcess[0] != null) {
                    jmeterProcess[0].close();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (opened[0] != null) {
                opened[0].stopNow();
            }
            deleteQuietly(copy);
        }, "trustload-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        int jmeterStatus;
        Supervisor supervisor;
        try {
            try {
                env = Environment.open(jmeter, spec, dir, "the test", log);
                opened[0] = env;
            } catch (HarnessException e) {
                log.println("trustload: " + e.getMessage());
                return new Result(ExitStatus.NOT_EXECUTED, dir, Optional.empty(), e.getMessage(), "");
            }
            List<String> args = CommandLine.of(jmeter.layout(), spec, env, dir, copy, log);
            Engines engines = env.engines();
            log.println("trustload: running " + spec.planId() + (engines == null ? "" : " on engines "
                    + String.join(",", engines.hosts()))
                    + " -> " + dir);
            supervisor = new Supervisor(env, spec.timeout(), ExitRules.scheduledSeconds(spec), spec.echo(), log);
            Supervisor s = supervisor;
            ChildProcess p = jmeter.start("JMeter", engines == null ? "127.0.0.1" : engines.rmiHost(), args,
                    spec.workDir(),
                    dir.resolve("console.txt"), null, line -> {
                        if (spec.echo()) {
                            spec.out().println(line);
                        }
                        s.line(line);
                    });
            jmeterProcess[0] = p;
            jmeterStatus = supervisor.waitFor(p, dir.resolve("threads.txt"));
            if (engines != null && engines.isRemote() && Files.exists(dir.resolve("results.jtl"))) {
                monitor.readRemote(dir.resolve("results.jtl"), PlanFile.ENGINE_LOAD_COLUMN, engines.hosts());
            }
        } finally {
            if (spec.monitor() == null) {
                monitor.close();
            }
            Layout.deleteRecursively(dir.resolve(CommandLine.REPORT_TEMP));
            if (env != null) {
                env.close();
            }
            deleteQuietly(copy);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        return evaluate(spec, dir, jmeterStatus, supervisor, env, started, monitor, log);
    }

    private static Result evaluate(RunSpec spec, Path dir, int jmeterStatus, Supervisor supervisor, Environment env,
            Instant started,
                                   HostMonitor monitor, PrintStream log) throws IOException {
        Path jtl = dir.resolve("results.jtl");
        Summary summary = null;
        String readError = null;
        if (Files.exists(jtl) && Files.size(jtl) > 0) {
            try {
                summary = Summary.of(jtl);
            } catch (IOException e) {
                readError = "cannot read " + jtl + ": " + e.getMessage();
            }
        }
        Engines engines = env.engines();
        Map<String, Long> lost = supervisor.lost;
        ExitRules.Verdict v = ExitRules.apply(spec, dir, jmeterStatus, supervisor.labDied, engines, lost, summary,
                readError);
        StringBuilder text = new StringBuilder(RunHeader.header(spec, env.target(), engines, started, summary));
        if (engines != null && engines.isRemote() && summary != null) {
            text.append(RunHeader.engineLines(engines, summary, lost));
        }
        if (summary != null && summary.rows() > 0) {
            // a controller stopped because an engine went printed no final summariser line: nothing to compare with
            text.append(System.lineSeparator()).append(summary.table(!lost.isEmpty() ? Optional.empty()
                    : Summary.summariser(RunHeader.read(dir.resolve("console.txt")))
                    .or(() -> Summary.summariser(RunHeader.read(dir.resolve("jmeter.log"))))));
            text.append(summary.errorTable());
            v.judged().ifPresent(j -> text.append(j.text(spec.slo())));
            v.sloStopped().ifPresent(l -> text.append(System.lineSeparator()).append(l).append(System.lineSeparator()));
            long from = Math.min(summary.total().firstStart(), summary.warmUp().firstStart());
            long to = Math.max(summary.total().lastEnd(), summary.warmUp().lastEnd());
            text.append(LoadGenerator.of(monitor, from, to, summary.total().count() + summary.warmUp().count(),
                    summary.total().percentile(50), summary.total().mean()).text());
        }
        text.append(SummaryText.jvmStats(dir));
        if (spec.dashboard()) {
            text.append(System.lineSeparator()).append(v.reportFailed().map(r -> "Report: NOT generated (" + r + ")")
                    .orElse("Report: " + dir.resolve("report/index.html"))).append(System.lineSeparator());
        }
        text.append(String.format("%nExit status %d: %s%s%n", v.status().code(), v.status().meaning(),
                v.message().isEmpty() ? "" : " - " + v.message()));
        Files.writeString(dir.resolve("summary.txt"), text);
        if (spec.echo()) {
            spec.out().print(text);
            spec.out().flush();
        } else if (!v.message().isEmpty()) {
            log.println("trustload: " + v.message());
        }
        log.println("trustload: results in " + dir);
        return new Result(v.status(), dir, Optional.ofNullable(summary), v.message(), text.toString());
    }

    private static void deleteQuietly(Optional<Path> file) {
        try {
            if (file.isPresent()) {
                Files.deleteIfExists(file.get());
            }
        } catch (IOException e) {
            System.err.println("trustload: cannot remove " + file.get() + ": " + e);
        }
    }
}
