package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jorphan.collections.HashTree;
import org.trustload.harness.Catalog;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.JMeter;
import org.trustload.harness.Layout;
import org.trustload.harness.jmx.PlanTree;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.harness.results.Summary;
import org.trustload.testing.MariaDb;

/**
 * The plan library as the tests see it: every {@code .jmx} under {@code test-plans/}, its
 * {@code catalog.tsv} row and its {@code .smoke.properties} sidecar.
 */
final class Plans {

    static final Path ROOT = Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
    static final Path DIR = ROOT.resolve("test-plans");
    static final Path HOME = Path.of(System.getProperty("trustload.jmeter.home",
            ROOT.resolve("dist/target/jmeter").toString()));
    static final Path LAB_JAR = ROOT.resolve("lab/target/trustload-lab.jar");
    /** The checkout as the harness sees it. */
    static final Layout LAYOUT = new Layout(ROOT, HOME);
    /**
     * JVM options of the JMeter JVMs the tests start that measure nothing: the client compiler only. A smoke run is
     * over before the server compiler's work pays back; without it a run takes about half the CPU (docs/ci.md).
     */
    static final String QUICK_JVM_ARGS = "-XX:TieredStopAtLevel=1";
    /** JMeter JVMs of the tests: the launcher's flags, a smaller heap (several run side by side), C1 only. */
    static final JMeter JMETER = new JMeter(LAYOUT, List.of("-Xms256m", "-Xmx1g"), List.of(QUICK_JVM_ARGS));
    /**
     * The environment of a {@code ./trustload} the tests start: JMeter's JVMs with {@link #QUICK_JVM_ARGS}, and 10
     * minutes for a lab to be ready (the launcher's 2 are short on a machine under a CPU hog, with two test JVMs).
     */
    static void launcherEnvironment(Map<String, String> env) {
        env.put("TRUSTLOAD_JVM_ARGS", QUICK_JVM_ARGS);
        env.put("TRUSTLOAD_LAB_TIMEOUT", "600");
    }

    /** JMeter JVMs of the tests that read a rate or a CPU share (SizeIT): the launcher's JIT compilers. */
    static final JMeter MEASURING_JMETER = new JMeter(LAYOUT, List.of("-Xms256m", "-Xmx1g"), List.of());

    /** A plan file and its id (path under test-plans/ without .jmx, e.g. ldap/ldap-search-200x10). */
    record Plan(String id, Path jmx) {
        Path smokeProperties() {
            return jmx.resolveSibling(jmx.getFileName().toString().replaceFirst("\\.jmx$", ".smoke.properties"));
        }

        @Override
        public String toString() {
            return id;
        }
    }

    private Plans() {
    }

    static List<Plan> all() {
        try (Stream<Path> s = Files.walk(DIR)) {
            List<Plan> plans = s.filter(p -> p.toString().endsWith(".jmx"))
                    .filter(p -> !DIR.relativize(p).startsWith("target") && !DIR.relativize(p).startsWith("src"))
                    .sorted()
                    .map(p -> new Plan(DIR.relativize(p).toString().replaceFirst("\\.jmx$", ""), p))
                    .toList();
            if (plans.isEmpty()) {
                System.out.println("No .jmx plans under " + DIR + ": nothing to test.");
            }
            return plans;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether {@code -Dtrustload.plans=http/,jdbc/} (comma-separated plan id prefixes, for development;
     * unset: every plan) selects the plan {@code id}, {@code -Dtrustload.plans.exclude=gmssl/} (the
     * same form) does not leave it out, and {@code -Dtrustload.plans.set=FILE} (a list of plan ids under
     * test-plans/, such as {@value #JAVA25_SET}) holds it.
     */
    static boolean selected(String id) {
        List<String> only = prefixes("trustload.plans");
        String set = System.getProperty("trustload.plans.set", "").strip();
        return (only.isEmpty() || only.stream().anyMatch(id::startsWith))
                && prefixes("trustload.plans.exclude").stream().noneMatch(id::startsWith)
                && (set.isEmpty() || planSet(DIR.resolve(set)).contains(id));
    }

    /** The plans of the Java 25 pass (PlanRunJava25IT): Java25PlansTest proves they cover all. */
    static final String JAVA25_SET = "java25.plans";

    /** The Java 25 home of {@code -Dtrustload.java25} ({@code ci/test} passes it), if any. */
    static java.util.Optional<Path> java25() {
        String home = System.getProperty("trustload.java25", "").strip();
        return home.isEmpty() || home.startsWith("${") ? java.util.Optional.empty()
                : java.util.Optional.of(Path.of(home));
    }

    /** The plan ids a set file lists, one per line ({@code #} starts a comment). */
    static List<String> planSet(Path file) {
        try {
            return Files.readAllLines(file).stream().map(l -> l.replaceAll("#.*", "").strip()).filter(l -> !l.isEmpty())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A plan's family: the folder of its id ({@code ldap/ldap-search-200x10}: {@code ldap}). */
    static String family(String id) {
        return id.substring(0, id.indexOf('/'));
    }

    /**
     * The classes of the elements a plan runs, as JMeter loads it (SaveService): every enabled element whose
     * parents are enabled, stock JMeter's and TrustLoad's alike.
     */
    static Set<String> elementClasses(Path jmx) throws IOException {
        PlanTree.init(HOME);
        Set<String> classes = new TreeSet<>();
        enabledClasses(PlanTree.load(jmx), classes);
        return classes;
    }

    private static void enabledClasses(HashTree tree, Set<String> out) {
        for (Object node : tree.list()) {
            if (node instanceof TestElement e && e.isEnabled()) {
                out.add(e.getClass().getName());
                enabledClasses(tree.getTree(node), out);
            }
        }
    }

    /**
     * The fewest plans, found greedily (each time the one that adds the most), that together hold every feature
     * (element class, family, fixture...) that any of {@code plans} holds; in the order of {@code plans}.
     */
    static <P> List<P> cover(List<P> plans, Function<P, Set<String>> features) {
        Map<P, Set<String>> left = new LinkedHashMap<>();
        plans.forEach(p -> left.put(p, new HashSet<>(features.apply(p))));
        Set<String> uncovered = new HashSet<>();
        left.values().forEach(uncovered::addAll);
        Set<P> chosen = new HashSet<>();
        while (!uncovered.isEmpty()) {
            P best = left.keySet().stream()
                    .max(Comparator.comparingLong(p -> left.get(p).stream().filter(uncovered::contains).count()))
                    .orElseThrow();
            chosen.add(best);
            uncovered.removeAll(left.remove(best));
        }
        return plans.stream().filter(chosen::contains).toList();
    }

    private static List<String> prefixes(String property) {
        return List.of(System.getProperty(property, "").split(",")).stream().map(String::strip)
                .filter(x -> !x.isEmpty())
                .toList();
    }

    /** The catalog rows by plan id ({@link Catalog}, as ./trustload reads it). */
    static Map<String, Catalog.Entry> catalog() throws IOException {
        Map<String, Catalog.Entry> rows = new LinkedHashMap<>();
        Catalog.read(LAYOUT.catalogFile()).entries().forEach(e -> rows.put(e.id(), e));
        return rows;
    }

    static Optional<Catalog.Entry> entry(Plan plan) throws IOException {
        return Optional.ofNullable(catalog().get(plan.id()));
    }

    /**
     * A real server a plan's smoke run asks for with {@code fixture=NAME} in its sidecar (plans whose
     * catalog row lists no lab service because the lab cannot stand in for the server).
     */
    interface Fixture extends AutoCloseable {
        /** The properties that point the plan at this server (passed to JMeter in a -q file). */
        Map<String, String> properties();

        /** Writes {@link #properties()} into {@code file} (for -q / -G: JMeter logs every -J value). */
        default Path writeProperties(Path file, String comment) throws IOException {
            Properties p = new Properties();
            p.putAll(properties());
            Files.createDirectories(file.getParent());
            try (var out = Files.newBufferedWriter(file)) {
                p.store(out, comment);
            }
            return file;
        }
    }

    /**
     * Starts the fixture {@code name} ({@code mariadb}); skips or fails like the fixture's own tests when it is not
     * installed.
     */
    static Fixture startFixture(String name) throws Exception {
        switch (name) {
            case "mariadb" -> {
                MariaDb.assumeOrFailInCi();
                MariaDb db = MariaDb.start();
                return new Fixture() {
                    @Override
                    public Map<String, String> properties() {
                        return db.properties();
                    }

                    @Override
                    public void close() throws Exception {
                        db.close();
                    }
                };
            }
            default -> throw new IllegalArgumentException("unknown fixture '" + name + "' (known: mariadb)");
        }
    }

    /**
     * Runs {@code plan} headless through the harness, without a lab (the arguments name the target),
     * writing results.jtl, jmeter.log, console.txt, report/ and summary.txt into a fresh {@code dir}.
     * Fails the test when it could not execute; the caller checks the status beyond that.
     */
    static Run.Result run(Path plan, Path dir, List<String> args, Duration timeout) throws Exception {
        return run(plan, dir, args, timeout, true);
    }

    /**
     * {@link #run} without the HTML dashboard (about a second of JMeter's time per run), for the tests that read the
     * results, the log and the summary only.
     */
    static Run.Result runWithoutReport(Path plan, Path dir, List<String> args, Duration timeout) throws Exception {
        return run(plan, dir, args, timeout, false);
    }

    private static Run.Result run(Path plan, Path dir, List<String> args, Duration timeout, boolean dashboard)
            throws Exception {
        Run.Result r = Run.execute(JMETER, RunSpec.of(LAYOUT, DIR.relativize(plan).toString(), plan).noLab(true)
                .args(args).dir(dir).timeout(timeout).echo(false).maxErrorPct(100).dashboard(dashboard), System.out);
        assertThat(r.status()).as(r.message() + ", see " + dir).isNotEqualTo(ExitStatus.NOT_EXECUTED);
        return r;
    }

    /**
     * {@code n} JMeter engines on 127.0.0.1 ({@link Engines}, as {@code ./trustload run --engines N} starts
     * them), logs under {@code dir/engine-I/}, the RMI keystore under test-plans/target/rmi.
     */
    static Engines startEngines(int n, Path dir) throws Exception {
        return Engines.start(JMETER, n, dir, DIR.resolve("target/rmi"), DIR, Duration.ofMinutes(5), System.out);
    }

    /** {@code -q file -Gfile}: properties for the controller and, as JMeter's -J is local, the engines. */
    static List<String> sendToEngines(Path properties) {
        return List.of("-q", properties.toString(), "-G" + properties);
    }

    /** The dashboard's statistics.json, keyed by label and "Total". */
    static JsonNode statistics(Path dir) throws IOException {
        Path stats = dir.resolve("report/statistics.json");
        assertThat(stats).as("dashboard statistics").exists();
        return new ObjectMapper().readTree(stats.toFile());
    }

    /**
     * The run's summary agrees with JMeter: its Total plus its warm-up is the summariser's count (warm-up is in no
     * Total), summary.txt's Total line says so, and every label's count and p50/p90/p95/p99 (top-level samples and
     * sub-results, warm-up's too) are the dashboard's statistics.json figures; so is Total's when the file holds
     * nothing else (the dashboard's Total counts sub-results, transactions and warm-up too). The table fits
     * {@value Summary#WIDTH} columns.
     */
    /** What the dashboard's Total counts in a results file: every row but a Transaction Controller's. */
    private static final String TRANSACTION_PREFIX = "Number of samples in transaction";

    /**
     * The samples and errors of the dashboard's Total, counted from {@code jtl} without a dashboard: every row
     * (sub-results too) but those of Transaction Controllers, which JMeter's report generator leaves out (checked
     * against statistics.json for the 26 smoke and distributed runs of 2026-12-07).
     */
    static long[] dashboardTotal(Path jtl) throws IOException {
        long[] total = new long[2];
        org.trustload.harness.results.Jtl.forEach(jtl, r -> {
            if (r.responseMessage() == null || !r.responseMessage().startsWith(TRANSACTION_PREFIX)) {
                total[0]++;
                if (!r.success()) {
                    total[1]++;
                }
            }
        });
        return total;
    }

    /**
     * The run's summary agrees with JMeter's summariser: its Total plus its warm-up is the summariser's count (warm-up
     * is in no Total), summary.txt's Total line says so, and the table, its notes and the load generator's lines fit
     * the summary's width.
     */
    static void assertSummaryMatchesSummariser(Run.Result result) throws IOException {
        Summary summary = result.summary().orElseThrow(() -> new AssertionError("no summary in " + result.dir()));
        Summary.Summariser summariser = Summary.summariser(Files.readString(result.console()))
                .orElseThrow(() -> new AssertionError("no summariser line in " + result.console()));
        assertThat(summary.exact()).as("sub-results known from the event column, see " + result.dir()).isTrue();
        assertThat(summary.total().count() + summary.warmUp().count())
                .as("summary Total + warm-up vs the summariser's count, see " + result.dir())
                .isEqualTo(summariser.count());
        String text = Files.readString(result.dir().resolve("summary.txt"));
        assertThat(text).containsPattern("(?m)^Total +" + summary.total().count() + " ");
        assertThat(text.replaceAll("\\s+", " ")).contains(summary.warmUp().count() == 0
                ? "Total: " + summariser.count() + " top-level samples = JMeter's summariser's count."
                : "Total: " + summary.total().count() + " top-level samples = JMeter's summariser's "
                + summariser.count()
                        + " less the " + summary.warmUp().count() + " warm-up samples.");
        // the table with its notes, and the load generator's lines (the top errors' examples stay whole)
        int errors = text.indexOf(text.contains("\nNo failed samples") ? "\nNo failed samples" : "\nTop errors");
        String table = text.substring(text.indexOf("\n\n") + 2, errors);
        int load = text.indexOf("\nLoad generator: ");
        assertThat(load).as("the load generator's line, see " + result.dir()).isPositive();
        String loadLines = text.substring(load + 1, text.indexOf("\n\n", load));
        assertThat((table + loadLines).lines()).as("the table, its notes and the load generator fit " + Summary.WIDTH
                + " columns, see " + result.dir())
                .allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(Summary.WIDTH));
    }

    /**
     * The run's summary agrees with JMeter: its Total plus its warm-up is the summariser's count (warm-up is in no
     * Total), summary.txt's Total line says so, and every label's count and p50/p90/p95/p99 (top-level samples and
     * sub-results, warm-up's too) are the dashboard's statistics.json figures; so is Total's when the file holds
     * nothing else (the dashboard's Total counts sub-results, transactions and warm-up too). The table fits
     * {@value Summary#WIDTH} columns.
     */
    static void assertSummaryMatchesJMeter(Run.Result result) throws IOException {
        assertSummaryMatchesSummariser(result);
        Summary summary = result.summary().orElseThrow();
        JsonNode stats = statistics(result.dir());
        List<Summary.Stats> labels = new ArrayList<>(summary.samples().values());
        summary.subResults().values().forEach(m -> labels.addAll(m.values()));
        labels.addAll(summary.warmUpSamples().values());
        summary.warmUpSubResults().values().forEach(m -> labels.addAll(m.values()));
        for (Summary.Stats s : labels) {
            assertSameAsDashboard(s, stats.path(s.label()), result.dir());
        }
        if (summary.rows() == summary.total().count()) {
            assertSameAsDashboard(summary.total(), stats.path("Total"), result.dir());
        }
    }

    private static void assertSameAsDashboard(Summary.Stats s, JsonNode d, Path dir) {
        String what = "'" + s.label() + "' in summary.txt vs report/statistics.json, see " + dir;
        assertThat(d.isMissingNode()).as(what + ": label missing").isFalse();
        assertThat(s.count()).as(what + ": samples").isEqualTo(d.path("sampleCount").asLong());
        String[] fields = {"medianResTime", "pct1ResTime", "pct2ResTime", "pct3ResTime"};
        for (int i = 0; i < fields.length; i++) {
            assertThat(s.percentile(Summary.PERCENTILES[i])).as(what + ": p" + (int) Summary.PERCENTILES[i])
                    .isCloseTo(d.path(fields[i]).asDouble(), org.assertj.core.api.Assertions.within(1e-6));
        }
    }

    static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p;
    }
}
