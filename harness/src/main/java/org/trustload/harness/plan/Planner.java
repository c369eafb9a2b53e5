package org.trustload.harness.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.trustload.harness.Catalog;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.HarnessException;
import org.trustload.harness.JMeter;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.harness.cli.Commands;
import org.trustload.harness.cli.Parsed;
import org.trustload.harness.Size;

/**
 * {@code ./trustload plan FILE [--target R/s|R/min] [--verify] [--out DIR]}: a capacity plan for a workload
 * ({@link Workload}): reads the size reports the file names, runs {@code size} for the operations without one, and
 * prints and writes the fleet ({@link Fleet}); {@code --verify} then runs the mix at one server's predicted share
 * and compares what it measured with what the plan predicted. docs/capacity-planning.md.
 */
public final class Planner {

    /** Turns a plan id or a .jmx path into run options, as the launcher does for {@code size}. */
    @FunctionalInterface
    public interface Resolver {
        RunSpec.Builder resolve(String plan) throws IOException, HarnessException;
    }

    /** The command line: the workload file, a target replacing the file's, whether to verify, where to write. */
    record Args(Path file, Workload.Rate target, boolean verify, Path out) {
    }

    /** A predicted share of the server's CPU within this relative distance of the measured one holds. */
    static final double WITHIN = 0.10;

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private Planner() {
    }

    /** Parses {@code plan}'s arguments: FILE, then the options {@link Commands} declares. */
    static Args parse(List<String> args) throws HarnessException {
        if (args.isEmpty() || args.get(0).startsWith("-")) {
            throw usage("plan needs a workload FILE (studies/*.properties are examples; ./trustload help plan)");
        }
        Path file = Path.of(args.get(0));
        Parsed p = Commands.get("plan").orElseThrow().parse(args.subList(1, args.size()));
        if (!Files.isRegularFile(file)) {
            throw usage("plan: no workload file " + file);
        }
        Workload.Rate target = null;
        if (p.given("target")) {
            try {
                target = Workload.Rate.parse(p.string("target"), "--target");
            } catch (Workload.WorkloadException e) {
                throw usage(e.getMessage());
            }
        }
        return new Args(file.toAbsolutePath().normalize(), target, p.flag("verify"),
                p.given("out") ? Path.of(p.string("out")).toAbsolutePath() : null);
    }

    private static HarnessException usage(String message) {
        return new HarnessException(ExitStatus.USAGE, message);
    }

    /**
     * Runs the command.
     *
     * @param resultsRoot where the plan's folder goes without {@code --out} ({@code results/plans/NAME-<timestamp>})
     * @return the exit status: 0, 8 when {@code --verify} broke an operation's objective, or size's when a size run
     *         could not execute
     */
    public static int run(Layout layout, JMeter jmeter, Resolver resolver, Path resultsRoot, List<String> argv,
                          PrintStream out, PrintStream err) throws IOException, InterruptedException {
        try {
            Args a = parse(argv);
            Workload w;
            try {
                w = Workload.read(a.file(), a.target());
            } catch (Workload.WorkloadException e) {
                throw usage(a.file() + ": " + e.getMessage());
            }
            Path dir = a.out() != null ? a.out()
                    : resultsRoot.resolve("plans").resolve(a.file().getFileName().toString()
                    .replaceFirst("\\.properties$", "") + "-" + STAMP.format(LocalDateTime.now()));
            Files.createDirectories(dir);
            Map<String, List<Measured>> reports = new LinkedHashMap<>();
            for (Workload.Operation op : w.operations()) {
                List<Measured> ms = new ArrayList<>();
                for (Path r : op.reports()) {
                    ms.add(Measured.read(r));
                }
                if (ms.isEmpty()) {
                    err.println("trustload: plan: " + op.name() + " has no size report: running size " + op.plan()
                            + " --slo '" + op.slo() + "' (its folder: " + dir.resolve("size-" + op.name()) + ")");
                    RunSpec.Builder o = resolver.resolve(op.plan()).dir(dir.resolve("size-" + op.name()));
                    List<String> args = new ArrayList<>(List.of("--slo", op.slo(), "--unit", op.unit()));
                    args.addAll(w.sizeArgs());
                    args.addAll(op.sizeArgs());
                    op.properties().forEach((k, v) -> args.add("-J" + k + "=" + v));
                    int status = Size.run(jmeter, o, args, out, err);
                    if (status != 0 && status != ExitStatus.CLIENT_BOUND.code()
                            && status != ExitStatus.NO_VERDICT.code()) {
                        err.println("trustload: plan: the size run of " + op.name() + " could not run (exit " + status
                                + ")");
                        return status;
                    }
                    ms.add(Measured.read(dir.resolve("size-" + op.name()).resolve("sizing")));
                }
                if (ms.stream().anyMatch(m -> !(m.serverMsPerOp() > 0))) {
                    throw new HarnessException(ExitStatus.USAGE, "plan: the size report of " + op.name()
                            + " has no server CPU"
                            + " per operation (was the server watched? --server KIND:TARGET): " + ms.get(0).file());
                }
                reports.put(op.name(), ms);
            }
            Fleet f = Fleet.of(w, reports);
            String text = f.text();
            out.print(text);
            StringBuilder md = new StringBuilder("# Capacity plan: " + w.name() + "\n\n`./trustload plan " + a.file()
                    + (a.target() == null ? "" : " --target " + a.target().text()) + "` on "
                    + LocalDateTime.now().withNano(0)
                    + " (docs/capacity-planning.md)\n\n```text\n" + text + "```\n");
            int status = 0;
            if (a.verify()) {
                Verification v = verify(layout, jmeter, resolver, w, f, dir, err);
                out.print(v.text());
                md.append("\n## Verify\n\n```text\n").append(v.text()).append("```\n");
                status = v.objectiveHeld() ? 0 : ExitStatus.SLO_BROKEN.code();
            }
            Files.writeString(dir.resolve("plan.md"), md.toString());
            out.println("trustload: plan written to " + dir.resolve("plan.md"));
            return status;
        } catch (HarnessException e) {
            err.println("trustload: " + e.getMessage());
            return e.status().code();
        }
    }

    /** What {@code --verify} measured of one operation. */
    record Checked(String op, double rate, double achieved, double p99, double errorPct, boolean good, String broken,
                   double serverCpuPct, double clientCpus, String verdict, String sentence, Path report) {
    }

    /** The verify run's outcome against the plan's prediction. */
    record Verification(Fleet fleet, List<Checked> ops, Duration time, Duration warmup, Path dir) {

        boolean objectiveHeld() {
            return !ops.isEmpty() && ops.stream().allMatch(Checked::good);
        }

        /** The server's CPU share over the run: the mean of what each operation's run read (one server, one time). */
        double serverCpuPct() {
            return ops.stream().mapToDouble(Checked::serverCpuPct).filter(d -> !Double.isNaN(d)).average()
                    .orElse(Double.NaN);
        }

        double clientCpus() {
            return ops.stream().mapToDouble(Checked::clientCpus).filter(d -> !Double.isNaN(d)).sum();
        }

        String text() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(Locale.ROOT,
                    "%nVerify: one server's share of the target at peak, %s/s (%s), open model,"
                            + " %d s measured after %d s unjudged at the same rate (runs in %s):%n",
                            Fleet.n(fleet.perServerRate()),
                    String.join(", ", ops.stream().map(c -> c.op() + " " + Fleet.n(c.rate()) + "/s").toList()),
                            time.toSeconds(),
                    time.toSeconds(), dir));
            for (Checked c : ops) {
                sb.append(String.format(Locale.ROOT,
                        "  %s: %s/s achieved of %s/s, p99 %s ms, errors %.2f%%: objective %s%n", c.op(),
                        Fleet.n(c.achieved()), Fleet.n(c.rate()), Fleet.n(c.p99()), c.errorPct(),
                        c.good() ? "held" : "BROKEN (" + c.broken() + ")"));
                if (c.verdict().equals("host_busy") || c.verdict().equals("client")) {
                    // the comparison is then not the server's: say why, in size's words
                    sb.append("    its run's verdict: ").append(c.sentence()).append('\n');
                }
            }
            double predicted = 100 * fleet.predictedUtilisation();
            double measured = serverCpuPct();
            sb.append(String.format(Locale.ROOT, "  server CPU: measured %s of %s, predicted %s: %s%n",
                    Double.isNaN(measured) ? "-" : Fleet.n(measured) + "%", Fleet.cpus(fleet.serverCpus()),
                            Fleet.n(predicted) + "%",
                    Double.isNaN(measured) ? "not measured (no server watched: --server in the file's size options)"
                            : within(measured, predicted)));
            sb.append(String.format(Locale.ROOT, "  load generator CPU: measured %s CPUs, predicted %s CPUs: %s%n",
                    Fleet.n(clientCpus()), Fleet.n(fleet.predictedClientCpus()), within(clientCpus(),
                            fleet.predictedClientCpus())));
            if (ops.size() > 1) {
                sb.append("  (the operations ran side by side, one JMeter each, started together: their properties may"
                        + " differ; the server's CPU is the mean of what each run read over its own window)\n");
            }
            sb.append(objectiveHeld() ? "The objective held at the predicted share.\n"
                    : "The objective did NOT hold at the predicted share: the plan is short of servers (exit 8).\n");
            return sb.toString();
        }
    }

    /** "within 10% (+3.2%)" or "off by 14% (more than 10%)". */
    static String within(double measured, double predicted) {
        if (Double.isNaN(measured) || !(predicted > 0)) {
            return "-";
        }
        double rel = (measured - predicted) / predicted;
        return Math.abs(rel) <= WITHIN ? String.format(Locale.ROOT, "within %.0f%% (%+.1f%%)", 100 * WITHIN, 100 * rel)
                : String.format(Locale.ROOT, "off by %+.1f%% (more than %.0f%%)", 100 * rel, 100 * WITHIN);
    }

    /** The operations whose plans need the lab: lab services in the catalog, no target property set, no --no-lab. */
    static List<String> labServices(Layout layout, Workload w, List<String> ops) throws IOException {
        Catalog catalog = Catalog.read(layout.catalogFile());
        List<String> services = new ArrayList<>();
        for (Workload.Operation op : w.operations()) {
            Catalog.Entry e = catalog.get(op.plan().replaceFirst("\\.jmx$", "")).orElse(null);
            if (e == null || e.services().isEmpty() || w.sizeArgs().contains("--no-lab")
                    || op.sizeArgs().contains("--no-lab")
                    || e.targets().stream().anyMatch(op.properties()::containsKey)) {
                continue;
            }
            ops.add(op.name());
            e.services().stream().filter(x -> !services.contains(x)).forEach(services::add);
        }
        return services;
    }

    private static Verification verify(Layout layout, JMeter jmeter, Resolver resolver, Workload w, Fleet f, Path dir,
                                       PrintStream err) throws IOException, InterruptedException, HarnessException {
        int measuredSize = f.lines().get(0).ref().serverCpus();
        if (w.serverCpus() > 0 && f.lines().stream().anyMatch(l -> l.ref().serverCpus() != w.serverCpus())) {
            throw usage("plan --verify runs on the server that was measured (" + Fleet.cpus(measuredSize)
                    + "): plan for that"
                    + " size (no server.cpus in the file) to verify it");
        }
        Path vdir = dir.resolve("verify");
        Files.createDirectories(vdir);
        long t = w.verifyTime().toMillis();
        long warm = w.verifyWarmup().toMillis();
        err.println(String.format(Locale.ROOT,
                "trustload: plan --verify: %s side by side at one server's share (%s/s), two"
                        + " steps of %d s each (one unjudged), logs in %s", String.join(", ",
                        f.lines().stream().map(l ->
                        l.op().name() + " " + Fleet.n(l.rate() / f.servers()) + "/s").toList()),
                                Fleet.n(f.perServerRate()),
                t / 1000, vdir));
        // operations that run side by side against the lab share one (two would take the same ports)
        List<String> onLab = new ArrayList<>();
        List<String> services = labServices(layout, w, onLab);
        Lab lab = null;
        Path labDir = Layout.privateTempDir("trustload-lab");
        ExecutorService pool = Executors.newFixedThreadPool(f.lines().size());
        try {
            if (onLab.size() > 1) {
                err.println("trustload: plan --verify: one lab (" + String.join(",", services) + ") for "
                        + String.join(", ", onLab));
                lab = Lab.start(layout, String.join(",", services), labDir.resolve("lab.properties"),
                        vdir.resolve("lab.log"),
                        Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")), Duration.ofSeconds(120));
            }
            List<Future<Integer>> runs = new ArrayList<>();
            for (Fleet.Line l : f.lines()) {
                Workload.Operation op = l.op();
                double rate = l.rate() / f.servers();
                double spa = l.ref().samplesPerArrival() > 0 ? l.ref().samplesPerArrival() : 1;
                // two steps and a minute for JMeter: no time for size to repeat a warm-up (the size runs did; the
                // unjudged step warms JMeter and tops up the server)
                String arrivals = String.format(Locale.ROOT, "%.3f", rate / spa);
                List<String> args = new ArrayList<>(List.of("--slo", op.slo(), "--unit", op.unit()));
                args.addAll(w.sizeArgs());
                args.addAll(op.sizeArgs());
                op.properties().forEach((k, v) -> args.add("-J" + k + "=" + v));
                args.addAll(List.of("--model", "open", "--start", arrivals, "--max-load", arrivals, "--refine", "0",
                        "--no-confirm", "--plateau", "1", "--steps-per-run", "2", "--step-time", t / 1000 + "s",
                                "--warmup",
                        warm / 1000 + "s", "--max-time", (2 * t + warm + 60_000) / 1000 + "s"));
                RunSpec.Builder o = resolver.resolve(op.plan()).dir(vdir.resolve(op.name()));
                if (lab != null && onLab.contains(op.name())) {
                    o.lab(lab);
                }
                Path log = vdir.resolve(op.name() + ".log");
                runs.add(pool.submit(() -> {
                    try (OutputStream os = Files.newOutputStream(log); PrintStream ps = new PrintStream(os, true,
                            StandardCharsets.UTF_8)) {
                        return Size.run(jmeter, o, args, ps, ps);
                    }
                }));
            }
            List<Checked> checked = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) {
                Fleet.Line l = f.lines().get(i);
                int status;
                try {
                    status = runs.get(i).get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new HarnessException(ExitStatus.NOT_EXECUTED, "plan --verify: " + l.op().name() + ": "
                            + e.getCause());
                }
                Path json = vdir.resolve(l.op().name()).resolve("sizing/sizing.json");
                if (!Files.exists(json)) {
                    throw new HarnessException(ExitStatus.NOT_EXECUTED, "plan --verify: the run of " + l.op().name()
                            + " could not run (exit " + status + "; see " + vdir.resolve(l.op().name() + ".log") + ")");
                }
                checked.add(checked(l.op().name(), l.rate() / f.servers(), json));
            }
            return new Verification(f, checked, w.verifyTime(), w.verifyWarmup(), vdir);
        } finally {
            pool.shutdownNow();
            if (lab != null) {
                lab.close();
            }
            Layout.deleteRecursively(labDir);
        }
    }

    /** The judged step of a verify run's report. */
    static Checked checked(String op, double rate, Path json) throws IOException {
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        JsonNode step = null;
        for (JsonNode s : j.path("steps")) {
            step = s; // the last judged step (one, unless the server warmed up first)
        }
        if (step == null) {
            return new Checked(op, rate, Double.NaN, Double.NaN, Double.NaN, false, "no step measured", Double.NaN,
                    Double.NaN, j.at("/verdict/kind").asText(""), j.at("/verdict/sentence").asText(""), json);
        }
        double achieved = d(step.path("achieved"));
        long samples = step.path("samples").asLong();
        List<String> broken = new ArrayList<>();
        step.path("broken").forEach(b -> broken.add(b.asText()));
        if (!step.path("stoppedBy").asText("").isEmpty()) {
            broken.add(step.path("stoppedBy").asText());
        }
        double clientMs = d(step.path("loadCpuMsPerOp"));
        return new Checked(op, rate, achieved, d(step.path("p99")), samples == 0 ? 0
                : 100.0 * step.path("errors").asLong()
                / samples, step.path("good").asBoolean(), String.join("; ", broken), d(step.path("serverCpuPct")),
                Double.isNaN(clientMs) ? Double.NaN : clientMs * achieved / 1000, j.at("/verdict/kind").asText(""),
                j.at("/verdict/sentence").asText(""), json);
    }

    private static double d(JsonNode n) {
        return n == null || !n.isNumber() ? Double.NaN : n.asDouble();
    }

    /** {@code ./trustload help plan}. */
    public static String help() {
        return """
                Usage: ./trustload plan FILE [--target R/s|R/min] [--verify] [--out DIR]

                A capacity plan for a mix of operations (docs/capacity-planning.md): how many servers of the measured
                size, how many server CPUs and how many load-generator engines a target rate needs, with the
                arithmetic line by line and the assumptions it rests on.

                  FILE              a workload file (Java properties; studies/*.properties are examples):
                                      operations = cades, pades        the mix's operations by name
                                      op.cades.plan = pki/cades         a catalog id or a .jmx
                                      op.cades.share = 60%              its share of the target (or op.NAME.rate = 20/s)
                                      op.cades.slo = p95<=2s,errors<=1% its objective (or slo = ... for all)
                                      op.cades.unit = signatures        what one operation is called
                                      op.cades.J.NAME = VALUE           a JMeter property of its plan (-JNAME=VALUE)
                                      op.cades.size = --start 2         more size options for it
                                      op.cades.report = PATH[, PATH2]   its size report(s) (sizing.json or its folder);
                                                                        two of one server at different CPU counts give a
                                                                        scaling efficiency; none: plan runs size for it
                                      target = 6000/min                 the total rate the shares divide (or --target)
                                      ceiling = 70%                     share of each server's CPUs to plan for
                                      spares = 1                        servers added for failures (default 1: N+1)
                                      server.cpus = 4                   plan servers of this size (default: as measured)
                                      engine.cpus = 2                   CPUs of one load generator (default: measured)
                                      size = --server process:PID --server-cpus 1 --load-cpus 0
                                                                        options for every size run and for --verify
                                      verify.time = 2m                  --verify's measured step (default 2m), and
                                      verify.warmup = 30s               its warm-up (default 30s)
                  --target R        replaces the file's target: 100/s, 6000/min, 6,000/min
                  --verify          then runs the mix at one server's share of the target (the target over the servers
                                    it needs, the spares down) as open-model runs side by side, one JMeter per
                                    operation: an unjudged step, then a measured one, each verify.time long; prints
                                    whether each objective held, the server's measured CPU against the predicted
                                    utilisation (within 10%) and the load generators' CPU against the prediction
                  --out DIR         where plan.md (and the size and verify runs) go; default
                                    results/plans/FILE-<timestamp>/

                Exit status: 0 the plan (and, with --verify, every objective held); 8 --verify broke an objective;
                1 a bad command line or workload file; 2, 3 a size or verify run could not execute.
                """;
    }
}
