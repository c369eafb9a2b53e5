package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.time.Duration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.trustload.harness.Catalog;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.HarnessException;
import org.trustload.harness.JMeter;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.harness.results.Summary;

/**
 * Runs every plan headless at tiny scale through the same {@link Run} as {@code ./trustload run}, against the lab
 * services of its catalog row or the fixture its sidecar names ({@code fixture=NAME}; its properties reach JMeter in
 * a -q file, never as -J). The sidecar {@code <plan>.smoke.properties} sets the scale and {@code expect.samples=N}:
 * the run exits 0 with N samples and no error; the summary agrees with JMeter's summariser and dashboard
 * ({@link Plans#assertSummaryMatchesJMeter}); the lab's stop line in lab.log shows the requests spread over more than
 * one entry, key, decision input or page; and no output under {@code target/plan-runs/<plan>/} holds a secret the
 * run used ({@link Secrets}), so CI runs each plan once.
 *
 * <p>{@code -Dtrustload.plans=http/,jdbc/} and {@code -Dtrustload.plans.exclude=...} pick plans by id prefix;
 * {@link PlanRunJava25IT} runs the plans of {@code test-plans/java25.plans} again with JMeter and the lab on Java 25.
 *
 * <p>CI budget: ~4.5 min of class time beside the other classes (a lab of the plan's services, a JMeter JVM and a
 * dashboard per plan, ~10-20 s each, two plans at a time): every plan runs end to end once, with its own lab, whose
 * stop line in lab.log is the plan's own.
 */
class PlanRunIT {

    /** Where each plan's outputs stay. */
    private static final Path OUT = Plans.DIR.resolve("target/plan-runs");

    /**
     * How many plans run at once ({@code -Dtrustload.plan.parallel}, default 2): each has its own lab, fixture and
     * folder, and a plan's run waits on its lab and its JMeter JVM's start about as long as it computes.
     */
    private static final int PARALLEL = Integer.getInteger("trustload.plan.parallel", 2);
    private static final String WORKER = "plan-run-";

    /** The JMeter the plans run on; its layout's java starts the lab too. */
    JMeter jmeter() {
        return Plans.JMETER;
    }

    /** The folder of the plans' outputs. */
    Path out() {
        return OUT;
    }

    /** Whether this class runs {@code plan}. */
    boolean runs(Plans.Plan plan) {
        return Plans.selected(plan.id());
    }

    /**
     * Whether each run writes JMeter's HTML dashboard, to which the summary is held label by label; without it the
     * counts are the dashboard's way, from the results file ({@link Plans#dashboardTotal}).
     */
    boolean dashboard() {
        return true;
    }

    @TestFactory
    Stream<DynamicTest> everyPlanRunsAtSmokeScaleWithoutErrorsAndLeaksNoSecret() {
        List<Plans.Plan> plans = Plans.all().stream().filter(this::runs).toList();
        JMeter jmeter = jmeter();
        Path out = out();
        boolean dashboard = dashboard();
        // every run starts now, PARALLEL at a time, in the plans' order; each dynamic test reports its own
        java.util.concurrent.atomic.AtomicInteger workers = new java.util.concurrent.atomic.AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL, r -> {
            Thread t = new Thread(r, WORKER + workers.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        Map<String, Future<?>> runs = new java.util.LinkedHashMap<>();
        for (Plans.Plan plan : plans) {
            runs.put(plan.id(), pool.submit(() -> {
                run(plan, jmeter, out, dashboard);
                return null;
            }));
        }
        pool.shutdown();
        return plans.stream().map(plan -> DynamicTest.dynamicTest(plan.id(), plan.jmx().toUri(), () -> {
            try {
                runs.get(plan.id()).get();
            } catch (ExecutionException e) {
                throw e.getCause();
            }
        }));
    }

    private static void run(Plans.Plan plan, JMeter jmeter, Path out, boolean dashboard) throws Exception {
        Path smoke = plan.smokeProperties();
        assertThat(smoke).as(plan.id() + " needs a sidecar " + Plans.DIR.relativize(smoke)
                + " (tiny-scale properties and expect.samples=N)").exists();
        String expected = Plans.load(smoke).getProperty("expect.samples");
        assertThat(expected).as("expect.samples in " + smoke).isNotBlank();
        Catalog.Entry entry = Plans.entry(plan).orElseThrow(() ->
                new AssertionError(plan.id() + " needs a row in test-plans/catalog.tsv"));

        Path dir = out.resolve(plan.id());
        // beside the results folder, which the run empties first
        Path fixtureProperties = out.resolve(plan.id() + ".fixture.properties");
        Files.createDirectories(fixtureProperties.getParent());
        Files.deleteIfExists(fixtureProperties);
        String fixtureName = Plans.load(smoke).getProperty("fixture", "").strip();
        Secrets secrets = new Secrets();
        RunSpec.Builder options = RunSpec.of(jmeter.layout(), entry)
                .dir(dir).echo(false).timeout(Duration.ofMinutes(10)).labTimeout(Duration.ofMinutes(5))
                .dashboard(dashboard).labArgs(labArgs())
                // collected while the lab runs: its key files are gone once it stops
                .onLabReady(lab -> {
                    try {
                        Map<String, String> labProps = Secrets.read(lab.properties());
                        secrets.addProperties(labProps, "lab.properties").addKeyFiles(labProps, "lab.properties");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
        Run.Result result;
        try (Plans.Fixture fixture = fixtureName.isEmpty() ? null : Plans.startFixture(fixtureName)) {
            if (fixture != null) {
                options.properties(fixture.writeProperties(fixtureProperties, "fixture " + fixtureName));
            }
            options.properties(smoke);
            secrets.addProperties(Secrets.read(fixtureProperties), "fixture")
                    .addProperties(Secrets.read(smoke), smoke.getFileName().toString()).addPlanDefaults(plan.jmx());
            result = Run.execute(jmeter, options, System.out);
            // a port range found free can be taken by a lab of the other test JVM before ours binds it: a new range
            for (int attempt = 2; attempt <= 3 && portTaken(result, dir.resolve("lab.log")); attempt++) {
                result = Run.execute(jmeter, options.labArgs(labArgs()), System.out);
            }
        }
        assertThat(result.status())
                .as("exit status of " + plan.id() + ": " + result.message() + "\n" + result.summaryText())
                .isEqualTo(ExitStatus.OK);
        long[] total = dashboard ? new long[] {Plans.statistics(dir).path("Total").path("sampleCount").asLong(),
                Plans.statistics(dir).path("Total").path("errorCount").asLong()} : Plans.dashboardTotal(result.jtl());
        assertThat(total[0]).as("Total sampleCount, see " + dir).isEqualTo(Long.parseLong(expected.strip()));
        assertThat(total[1]).as("Total errorCount, see " + dir).isZero();
        // the summary's Total counts what JMeter's own summariser counted: top-level samples only; its
        // percentiles are the dashboard's
        if (dashboard) {
            Plans.assertSummaryMatchesJMeter(result);
        } else {
            Plans.assertSummaryMatchesSummariser(result);
        }
        Summary summary = result.summary().orElseThrow();
        Summary.Summariser summariser = Summary.summariser(Files.readString(result.console())).orElseThrow();
        if (plan.id().equals("pki/pades")) {
            // each signature is one top-level row and three sub-result rows (start, sign, complete)
            long signatures = Jtl.read(result.jtl()).stream().filter(r -> r.label().equals("PAdES-B sign")).count();
            assertThat(summary.total().count()).as("pades: Total = top-level rows = summariser").isEqualTo(signatures)
                    .isEqualTo(summariser.count());
            assertThat(summary.rows()).isEqualTo(4 * signatures);
        }
        // JVM Stats: its columns only in plans that use it, its summary in summary.txt, requests without setUp/tearDown
        boolean jvmStats = Files.readString(plan.jmx()).contains("org.trustload.jmeter.jvmstats.JvmStats");
        assertThat(Files.readAllLines(result.jtl()).get(0))
                .as("JVM Stats columns in the results header iff the plan uses it")
                .matches(jvmStats ? ".*jvm_cpu_ms.*" : "((?!_cpu_ms|_gc_time_ms).)*");
        String jvmStatsRequests = Plans.load(smoke).getProperty("expect.jvmstats.requests", "").strip();
        if (!jvmStatsRequests.isEmpty()) {
            String text = Files.readString(dir.resolve("summary.txt"));
            assertThat(text).as("summary.txt shows the JVM Stats summary, setUp/tearDown samples not counted")
                    .contains("JVM Stats summary (jvm-stats-summary.txt)",
                            "requests           " + jvmStatsRequests + " (");
        }
        if (VARIED.matcher(plan.id()).lookingAt()) {
            assertThat(distinctAsked(dir.resolve("lab.log")))
                    .as("distinct entries, keys, inputs or pages the lab was asked for"
                    + " (its stop line in " + dir.resolve("lab.log") + ")").isGreaterThan(1);
        }
        if (plan.id().startsWith("pdp/")) {
            assertThat(Files.readString(dir.resolve("jvm-stats-summary.txt")))
                    .as("the lab PDP watched by PID by default")
                    .contains("JVM pid ", "hsperfdata", "jstat -gc (KB, counts, seconds)");
        }
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(f -> f.getFileName().toString().equals("lab.properties")))
                    .as("lab.properties (lab passwords) left in the results").isEmpty();
        }
        System.out.println(plan.id() + ": Total " + summary.total().count() + " top-level samples (summariser "
                + summariser.count() + ", results file " + summary.rows() + " rows); " + secrets.size()
                + " passwords and key fragments looked for in " + dir);
        assertThat(secrets.findIn(dir, Set.of(fixtureProperties)))
                .as("passwords or private keys (of " + secrets.size() + " looked for) in the outputs under " + dir)
                .isEmpty();
    }

    /** The plan families that vary their requests by default. */
    private static final java.util.regex.Pattern VARIED = java.util.regex.Pattern.compile("(ldap|kms|pdp|http)/");
    private static final java.util.regex.Pattern ASKED = java.util.regex.Pattern.compile(
            "trustload-lab: [^:]+: \\d+ [^:]*? named (\\d+) distinct ");

    /** The most distinct names a lab service's stop line reports (0 when none printed one). */
    static int distinctAsked(Path labLog) throws IOException {
        int most = 0;
        for (String line : Files.readAllLines(labLog)) {
            java.util.regex.Matcher m = ASKED.matcher(line);
            if (m.find()) {
                most = Math.max(most, Integer.parseInt(m.group(1)));
            }
        }
        return most;
    }

    /**
     * Lab options of the tests: this thread's port range ({@link #portBase()}), its private socket directory and 1000
     * LDAP entries (the plans search the lab's users, {@code ldap.users}; importing the default 10,000 costs 10-20 s
     * per lab start).
     */
    static List<String> labArgs() throws IOException {
        return List.of("--port-base", Integer.toString(portBase()), "--socket-dir", socketDir().toString(),
                "--users", "1000");
    }

    /** The port range of each thread's labs (keyed as {@link #SOCKET_DIRS}). */
    private static final Map<String, Integer> PORT_BASES = new java.util.HashMap<>();

    /**
     * A free port range for the next lab this thread starts: the one its last lab had while it is free, so that the
     * pki service's cached users stay valid (their certificates name the CRL URL, port included: a new port
     * regenerated them at every lab start, ~7 CPU-s), another one found free when not.
     */
    static synchronized int portBase() throws IOException {
        String key = socketKey();
        Integer base = PORT_BASES.get(key);
        if (base == null || !Lab.portRangeFree(base)) {
            base = Lab.freePortBase();
            PORT_BASES.put(key, base);
        }
        return base;
    }

    private static String socketKey() {
        String name = Thread.currentThread().getName();
        return name.startsWith(WORKER) ? name : "";
    }

    /**
     * Starts the lab with {@code services} on a free port range and waits for its READY line; on another range when
     * the one found free was taken before the lab bound it (another lab of the two test JVMs, a fixture).
     */
    static Lab startLab(String services, Path properties, Path log) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return Lab.start(Plans.LAYOUT, services, properties, log, labArgs(), Duration.ofMinutes(5));
            } catch (HarnessException e) {
                if (attempt == 3 || !Files.exists(log) || !Files.readString(log).contains(PORT_TAKEN)) {
                    throw e;
                }
            }
        }
    }

    /** What the lab logs when a port of its range is taken. */
    private static final String PORT_TAKEN = "already in use";

    /** Whether a run could not start its lab because a port of its range was taken meanwhile. */
    private static boolean portTaken(Run.Result result, Path labLog) throws IOException {
        return result.status() == ExitStatus.NOT_EXECUTED && Files.exists(labLog)
                && Files.readString(labLog).contains(PORT_TAKEN);
    }

    /** The socket/key directories: one for the test JVM's thread, one per PlanRunIT worker ({@code plan-run-N}). */
    private static final Map<String, Path> SOCKET_DIRS = new java.util.HashMap<>();

    /**
     * The socket/key directory of the labs this thread starts, one at a time: private, so another lab on this
     * machine cannot share (or regenerate) it, and shared between this thread's runs, so the pki service generates
     * its 1000 users once (~3 CPU-s, a minute on a loaded machine) and later labs load them from its cache. A
     * PlanRunIT worker has its own (two labs at once cannot hold one directory).
     */
    static synchronized Path socketDir() throws IOException {
        String key = socketKey();
        Path known = SOCKET_DIRS.get(key);
        if (known == null) {
            Path dir = Files.createTempDirectory(Path.of("/tmp"), "tl");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Layout.deleteRecursively(dir);
                } catch (IOException e) {
                    System.err.println("cannot remove " + dir + ": " + e);
                }
            }));
            SOCKET_DIRS.put(key, dir);
            known = dir;
        }
        return known;
    }
}
