package org.trustload.harness;

import org.trustload.harness.results.Summary;
import org.trustload.harness.cli.KeyValues;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.trustload.common.ChildProcess;

/**
 * {@code ./trustload bench NAME [key=value ...]}: starts a bench of the bench module in its own JVM
 * (its class path is {@code bench/target/bench.classpath}), with the JVM flags every java gets, a raw
 * files folder {@code bench/target/NAME-bench/<timestamp>/} (passed as {@code out=DIR}) holding
 * machine.txt and bench.txt (the bench's output), and a time limit. {@code --tiny} runs the bench at the
 * tiny scale of its spec (seconds, not a measurement): ci/test runs {@code bench all --tiny} so no bench rots.
 */
public final class Bench {

    /**
     * A bench: its main class, heap, whether it takes {@code out=DIR}, and the arguments of its tiny scale
     * ({@code --tiny}: every part once, a few seconds, no figure to read). Every bench runs with the JMeter home's
     * jars: the harness reads plans with JMeter's classes (docs/harness.md).
     */
    private record Spec(String mainClass, String heap, boolean takesOut, List<String> tiny) {
        Spec(String mainClass, String heap, boolean takesOut, String... tiny) {
            this(mainClass, heap, takesOut, List.of(tiny));
        }
    }

    private static final Map<String, Spec> SPECS = new LinkedHashMap<>();

    static {
        SPECS.put("ldap", new Spec("org.trustload.bench.LdapBench", "-Xmx1g", false, "parts=matrix,jvmstats,client",
                "clientThreads=1", "clientRounds=1", "clientSeconds=2", "clientWarmup=1", "clientJfr=false",
                "clientEntries=100", "jsOps=50", "jsRounds=1", "rounds=1", "piOps=20", "ptOps=50", "warmup=10",
                "threads=1", "schemes=ldapi", "peers=ours,raw", "jfrRounds=0", "writeDocs=false"));
        SPECS.put("pki", new Spec("org.trustload.bench.pki.PkiBench", "-Xmx512m", true, "rounds=1", "threads=1",
                "cadesOps=10", "padesOps=3", "jcaOps=10", "warmup=2", "maxSeconds=6", "hsm=false", "openssl=false",
                "jfr=false"));
        SPECS.put("login", new Spec("org.trustload.bench.login.LoginBench", "-Xmx1g", false, "threads=4", "seconds=2",
                "warmup=1", "out=bench/target/login-bench/tiny.md"));
        SPECS.put("kms", new Spec("org.trustload.bench.kms.KmsBench", "-Xmx512m", true, "rounds=1", "threads=1",
                "warmup=1", "window=2", "backend=false", "jfr=false"));
        SPECS.put("kms-aliyun", new Spec("org.trustload.bench.AliyunKmsBench", "-Xmx512m", true, "threads=1",
                "seconds=2", "warmup=2"));
        SPECS.put("gmssl", new Spec("org.trustload.bench.gmssl.GmsslBench", "-Xmx512m", true, "parts=ratio,inprocess",
                "servers=lab", "suites=ECC_SM4_CBC_SM3", "auth=false", "inprocessSuites=ECC_SM4_CBC_SM3", "threads=1",
                "seconds=1", "warmup=1", "rounds=1", "jfr=false"));
        SPECS.put("tongsuo", new Spec("org.trustload.bench.TongsuoBench", "-Xmx512m", false, "rounds=1", "seconds=1",
                "warmup=1", "count=20", "requests=5", "sampler=false", "doc=false"));
        SPECS.put("cost", new Spec("org.trustload.bench.cost.CostBench", "-Xmx1g", true, "families=ldap-per-thread",
                "seconds=3", "warmup=0", "threads=1", "jfr=false", "doc=false"));
        SPECS.put("reference", new Spec("org.trustload.bench.reference.ReferenceBench", "-Xmx384m", true, "seconds=1",
                "warmup=0", "entries=1000", "rows=1000", "count=20", "doc=false"));
        SPECS.put("faults", new Spec("org.trustload.bench.faults.FaultBench", "-Xmx1g", true, "families=ldap",
                "faults=latency,restart",
                "hold=1.5", "threads=1"));
        SPECS.put("soak", new Spec("org.trustload.bench.faults.SoakBench", "-Xmx1g", true, "seconds=5", "threads=1"));
        SPECS.put("jvmstats", new Spec("org.trustload.bench.jvmstats.JvmStatsBench", "-Xmx1g", false, "rounds=1",
                "seconds=2", "threads=1", "jfr=false"));
    }

    /** The bench names, and {@code all}. */
    public static final List<String> NAMES;

    static {
        List<String> names = new ArrayList<>(SPECS.keySet());
        names.add("all");
        NAMES = List.copyOf(names);
    }

    /** Each bench's time limit (the longest, pki's plans part, stays well inside it). */
    private static final Duration LIMIT = Duration.ofMinutes(60);

    /**
     * Each bench's time limit at tiny scale: a safety bound, not a budget (pki and ldap take ~3 min in CI, and more
     * than 4 under a CPU hog on both cores).
     */
    private static final Duration TINY_LIMIT = Duration.ofMinutes(10);

    private Bench() {
    }

    /** {@code ./trustload bench NAME [--tiny] [key=value ...]} ({@code given}: the key=value arguments). */
    static int run(Layout layout, String name, boolean tiny, List<String> given, PrintStream out, PrintStream err)
            throws IOException, InterruptedException, HarnessException {
        if (!NAMES.contains(name)) {
            throw HarnessException.usage("bench needs a NAME: " + String.join(", ", NAMES) + " (docs/bench.md)");
        }
        if (name.equals("all")) {
            int worst = 0;
            List<String> failed = new ArrayList<>();
            for (String n : SPECS.keySet()) {
                out.println("== bench " + n + (tiny ? " (tiny)" : ""));
                int rc = runOne(layout, n, given, tiny, out, err);
                if (rc != 0) {
                    failed.add(n + " (exit " + rc + ")");
                }
                worst = Math.max(worst, rc);
            }
            if (!failed.isEmpty()) {
                err.println("trustload: benches that failed: " + String.join(", ", failed));
            }
            return worst;
        }
        return runOne(layout, name, given, tiny, out, err);
    }

    private static int runOne(Layout layout, String name, List<String> given, boolean tiny, PrintStream out,
            PrintStream err) throws IOException, InterruptedException, HarnessException {
        Spec spec = SPECS.get(name);
        List<String> args = new ArrayList<>(tiny ? spec.tiny() : List.of());
        args.addAll(given); // given key=value after the tiny ones: the bench's parser keeps the last
        Duration limit = tiny ? TINY_LIMIT : LIMIT;
        String parts = "bench";
        if (name.equals("pki")) { // parts=bench,plans: plans are ./trustload runs, done here
            parts = KeyValues.take(args, "parts", "bench");
        }
        int rc = 0;
        if (name.equals("pki") && (",".concat(parts).concat(",")).contains(",plans,")) {
            rc = pkiPlans(layout, KeyValues.take(args, "planDuration", "60"), KeyValues.take(args, "plans",
                    "cades:40,cades-t:40,pades:20,pades-t:20,timestamp:40"), out, err);
        }
        if (!(",".concat(parts).concat(",")).contains(",bench,")) {
            return rc;
        }
        String cp = classPath(layout);
        Path dir = layout.root().resolve("bench/target/" + name + "-bench").resolve(Run.STAMP.format(Instant.now()));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("machine.txt"), machine());
        out.print(Files.readString(dir.resolve("machine.txt")));
        err.println("trustload: bench " + name + ", raw files in " + dir);
        cp += ":" + layout.jmeterHome().resolve("lib/*") + ":" + layout.jmeterHome().resolve("lib/ext/*");
        List<String> cmd = new ArrayList<>(List.of(Layout.java(), spec.heap()));
        cmd.addAll(layout.jvmFlags());
        cmd.addAll(List.of("-cp", cp, "-Dtrustload.root=" + layout.root(), spec.mainClass()));
        if (spec.takesOut()) {
            cmd.add("out=" + dir);
        }
        cmd.addAll(args);
        try (ChildProcess p = ChildProcess.launch("bench " + name, cmd, null, name.equals("pki") ? softHsm(dir)
                : Map.of(),
                dir.resolve("bench.txt"), null, out::println)) {
            if (!p.waitFor(limit)) {
                p.handle().descendants().forEach(ProcessHandle::destroyForcibly);
                err.println("trustload: bench " + name + " did not finish within " + limit.toMinutes() + " min");
                return ExitStatus.NOT_EXECUTED.code();
            }
            rc = p.exitValue() == 0 ? rc : ExitStatus.NOT_EXECUTED.code();
        }
        Files.writeString(dir.resolve("machine.txt"), "load (1/5/15 min) at end: " + loadAverage() + "\n",
                java.nio.file.StandardOpenOption.APPEND);
        return rc;
    }

    /** A server {@code ./trustload fixture NAME} runs in the foreground until Ctrl-C; returns the exit status. */
    interface Fixture {
        int run(Layout layout, List<String> args) throws IOException, InterruptedException, HarnessException;
    }

    /** The throwaway real servers of the tests, for use by hand, by name. */
    static final Map<String, Fixture> FIXTURES = Map.of("slapd", testkit("org.trustload.testing.Slapd"),
            "mariadb", testkit("org.trustload.testing.MariaDb"), "node-exporter",
                    testkit("org.trustload.testing.NodeExporter"),
            "dss", (layout, args) -> DssFixture.foreground(layout, args, System.out));

    /**
     * {@code ./trustload fixture NAME [key=value ...]}: the same throwaway server the tests start
     * (OpenLDAP slapd, MariaDB, EU DSS ...), in the foreground until Ctrl-C; it prints how to point a plan at it.
     */
    static int fixture(Layout layout, String name, List<String> args) throws IOException, InterruptedException,
            HarnessException {
        if (!FIXTURES.containsKey(name)) {
            throw HarnessException.usage("fixture needs a NAME: " + String.join(", ",
                    new java.util.TreeSet<>(FIXTURES.keySet())));
        }
        return FIXTURES.get(name).run(layout, args);
    }

    /**
     * A testkit fixture's main class in a JVM of its own (the fixture's own hook stops its server and deletes its
     * directory).
     */
    private static Fixture testkit(String main) {
        return (layout, args) -> {
            List<String> cmd = new ArrayList<>(List.of(Layout.java(), "-Xmx256m", "-cp", classPath(layout), main));
            cmd.addAll(args);
            return ChildProcess.inTerminal(main, cmd).stopWithLauncher(() -> { }).waitFor() == 0 ? 0
                    : ExitStatus.NOT_EXECUTED.code();
        };
    }

    /** The bench module's jar and class path (it holds the testkit module with the fixtures). */
    private static String classPath(Layout layout) throws IOException, HarnessException {
        Path benchJar = layout.root().resolve("bench/target/trustload-bench-0.1.0.jar");
        Path classpath = layout.root().resolve("bench/target/bench.classpath");
        if (!Files.exists(benchJar) || !Files.exists(classpath)) {
            throw HarnessException.notExecuted("no bench build at " + benchJar
                    + " (mvn -B -DskipTests package builds it)");
        }
        return benchJar + ":" + Files.readString(classpath).strip();
    }

    /**
     * The pki bench's "plans" part: each test-plans/pki plan for {@code duration} seconds with the given
     * threads against the lab (remote mode), as {@code ./trustload run} runs it; top-level samples per label.
     */
    private static int pkiPlans(Layout layout, String duration, String plans, PrintStream out, PrintStream err)
            throws IOException, InterruptedException, HarnessException {
        Catalog catalog = Catalog.read(layout.catalogFile());
        Path results = layout.root().resolve("bench/target/pki-bench").resolve("plans-"
                + Run.STAMP.format(Instant.now()));
        out.println("== plans: ./trustload run pki/<plan> -Jduration=" + duration
                + " -Jthreads=<n> (lab pki service, remote mode)");
        int worst = 0;
        for (String item : plans.split(",")) {
            String[] f = item.strip().split(":");
            Catalog.Entry e = catalog.get("pki/" + f[0]).orElseThrow(() -> HarnessException.usage("no plan pki/"
                    + f[0]));
            String threads = f.length > 1 ? f[1] : "20";
            out.printf(Locale.ROOT, "-- pki/%s threads=%s load-before=%s%n", f[0], threads, loadAverage());
            RunSpec.Builder o = RunSpec.of(layout, e).resultsRoot(results).echo(false).maxErrorPct(100)
                    .property("duration", duration).property("threads", threads)
                    .labArgs(Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")))
                    .timeout(Duration.ofSeconds(Long.parseLong(duration) + 240));
            Run.Result r = Run.execute(JMeter.fromEnvironment(layout), o, err);
            out.printf(Locale.ROOT, "   exit %d, results %s%n", r.status().code(), r.dir());
            worst = Math.max(worst, r.status().code());
            if (r.summary().isEmpty()) {
                continue;
            }
            out.printf(Locale.ROOT, "   %-34s %8s %7s %10s %12s%n", "label", "samples", "errors", "per min", "avg ms");
            for (Summary.Stats s : r.summary().get().samples().values()) {
                out.printf(Locale.ROOT, "   %-34s %8d %7d %10.1f %12.1f%n", s.label(), s.count(), s.errors(),
                        s.throughput() * 60, s.mean());
            }
        }
        return worst;
    }

    /**
     * SoftHSM reads SOFTHSM2_CONF when its library initialises: the bench JVM and its children get a
     * token directory of their own (never the system one).
     */
    private static Map<String, String> softHsm(Path dir) throws IOException {
        if (!Files.exists(Path.of("/usr/lib/softhsm/libsofthsm2.so"))) {
            return Map.of();
        }
        Path tokens = Files.createDirectories(dir.resolve("softhsm/tokens"));
        Path conf = dir.resolve("softhsm/softhsm2.conf");
        Files.writeString(conf, "directories.tokendir = " + tokens
                + "\nobjectstore.backend = file\nlog.level = ERROR\n");
        return Map.of("SOFTHSM2_CONF", conf.toString());
    }

    private static String machine() {
        String cpu = "?";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("?");
        } catch (IOException e) {
            // keep "?"
        }
        return String.format(Locale.ROOT, "date: %s%ncpu: %d cores, %s%nload (1/5/15 min) at start: %s%njava: %s %s%n",
                java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
                        .withZone(java.time.ZoneOffset.UTC)
                        .format(Instant.now()),
                Runtime.getRuntime().availableProcessors(), cpu, loadAverage(), System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"));
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
