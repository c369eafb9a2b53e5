package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.testing.ConflictCheck;

/**
 * The third install path of issue 14, as a user runs it: the example pom of
 * {@code docs/examples/jmeter-maven-plugin} (jmeter-maven-plugin 3.7.0, JMeter 5.6.3 from Maven
 * Central) with this build's jars, against the lab. LDAP runs without errors, TLCP runs with the
 * documented JVM arguments and, without them, stops at test start naming them and fails the build;
 * the JVM Stats columns and dashboard graphs are there.
 *
 * <p>Our jars must come from this build, and the shared {@code ~/.m2} must not be written to: the
 * nested Maven uses a private local repository ({@value #REPO_PROPERTY}, default
 * {@code ~/.cache/trustload/jmeter-maven-plugin-it/m2}), seeded once with hard links to
 * {@code ~/.m2/repository} and kept between runs, so only the first run downloads the plugin's and
 * JMeter's dependency trees (247 MB on the machine of docs/jmeter-maven-plugin.md). Its
 * {@code org/trustload} folder is laid out afresh from this build's poms and jars on every run.
 *
 * <p>CI budget: ~2 min, ~1.5 min more on a new machine (the plugin's downloads): five nested Maven builds, each
 * assembling the plugin's JMeter home, as a user of the plugin runs them.
 */
class JmeterMavenPluginIT {

    static final String REPO_PROPERTY = "trustload.mavenplugin.repo";
    private static final String VERSION = "0.1.0";
    private static final Path EXAMPLE = Plans.ROOT.resolve("docs/examples/jmeter-maven-plugin/pom.xml");
    private static final Path TRUSTLOAD_PROPERTIES =
            Plans.ROOT.resolve("dist/src/main/jmeter/bin/trustload.properties");
    private static final Path OUT = Plans.DIR.resolve("target/jmeter-maven-plugin-it");
    private static final Path REPO = Path.of(System.getProperty(REPO_PROPERTY,
            System.getProperty("user.home") + "/.cache/trustload/jmeter-maven-plugin-it/m2"));

    static Lab lab;
    static Path labProperties;

    @BeforeAll
    static void prepare() throws Exception {
        Layout.deleteRecursively(OUT);
        Files.createDirectories(OUT);
        seedRepository();
        layOutThisBuild();
        labProperties = OUT.resolve("lab.properties");
        List<String> args = new ArrayList<>(PlanRunIT.labArgs());
        args.addAll(List.of("--users", "100"));
        lab = Lab.start(Plans.LAYOUT, "ldap,gmssl", labProperties, OUT.resolve("lab.log"), args, Duration.ofMinutes(5));
    }

    @AfterAll
    static void stopLab() throws Exception {
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    void ldapPlanRunsWithoutErrorsOnAHomeThatHoldsNoClassTwice() throws Exception {
        Build b = build("ldap", UnaryOperator.identity());
        assertThat(b.exit).as("mvn exit status, see " + b.log).isZero();
        // the plugin puts JMeter's jars and ours into one lib/: two BouncyCastles (JMeter's jdk15on and our
        // jdk18on), or any class in two jars, would make behaviour depend on the class path order
        Path home = b.jmeterHome();
        assertThat(ConflictCheck.duplicates(home)).as("files or artifacts held twice in " + home).isEmpty();
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            assertThat(jars.map(j -> j.getFileName().toString())).anyMatch(n -> n.startsWith("bcprov-jdk18on-"))
                    .noneMatch(n -> n.contains("jdk15on"));
        }
        List<Jtl.Sample> rows = Jtl.read(b.results());
        assertThat(rows).as("4 threads x 2 loops").hasSize(8);
        assertThat(rows).allSatisfy(s -> assertThat(s.success()).as(s.label() + " " + s.responseMessage()).isTrue());
        assertNoLabSecretIn(b.dir);
    }

    @Test
    void tlcpPlanRunsWithTheDocumentedJvmArguments() throws Exception {
        Build b = build("tlcp", UnaryOperator.identity(),
                "-Dplan.dir=gmssl", "-Dplan=gmssl-cps.jmx", "-Dthreads=2", "-Dloops=5");
        assertThat(b.exit).as("mvn exit status, see " + b.log).isZero();
        List<Jtl.Sample> rows = Jtl.read(b.results());
        assertThat(rows).as("2 threads x 5 loops").hasSize(10);
        assertThat(rows).allSatisfy(s -> {
            assertThat(s.label()).isEqualTo("TLCP cps");
            assertThat(s.success()).as(s.responseCode() + " " + s.responseMessage()).isTrue();
        });
        assertNoLabSecretIn(b.dir);
    }

    @Test
    void withoutTheJvmArgumentsTheTlcpPlanRunsOnItsDefaultEngine() throws Exception {
        // bc, TLCP's default engine, is pure Java: the options are only the optional bgm engine's
        Build b = build("tlcp-no-arguments",
                pom -> pom.lines().filter(l -> !l.contains("<argument>--add-")).collect(Collectors.joining("\n")),
                "-Dplan.dir=gmssl", "-Dplan=gmssl-cps.jmx", "-Dthreads=2", "-Dloops=5");
        assertThat(Files.readString(b.dir.resolve("pom.xml"))).doesNotContain("--add-");
        assertThat(b.exit).as("mvn exit status, see " + b.log).isZero();
        assertThat(Jtl.read(b.results())).hasSize(10).allSatisfy(s -> assertThat(s.success()).isTrue());
    }

    @Test
    void withoutTheJvmArgumentsTheBgmEngineStopsTheTestAtStartNamingThemAndTheBuildFails() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() <= 21, "bgm runs on Java 17 to 21");
        Build b = build("tlcp-bgm-no-arguments",
                pom -> pom.lines().filter(l -> !l.contains("<argument>--add-")).collect(Collectors.joining("\n"))
                        .replace("<threads>${threads}</threads>",
                                "<threads>${threads}</threads>\n            <engine>bgm</engine>"),
                "-Dplan.dir=gmssl", "-Dplan=gmssl-cps.jmx", "-Dthreads=2", "-Dloops=5");
        assertThat(Files.readString(b.dir.resolve("pom.xml"))).doesNotContain("--add-")
                .contains("<engine>bgm</engine>");
        String log = Files.readString(b.log);
        assertThat(b.exit).as("mvn exit status, see " + b.log).isNotZero();
        assertThat(log).contains("bgm engine needs JVM flags");
        for (String option : Plans.LAYOUT.jvmFlags()) {
            assertThat(log).as("the message names " + option).contains(option);
        }
        assertThat(log).contains("Failing build because no requests were found in the results file");
    }

    @Test
    void jvmStatsColumnsAndDashboardGraphs() throws Exception {
        Build b = build("jvmstats", UnaryOperator.identity(),
                "-Dplan.dir=jvmstats", "-Dplan=jvm-stats-demo.jmx", "-Dthreads=2", "-Dloops=150");
        assertThat(b.exit).as("mvn exit status, see " + b.log).isZero();
        String header = Files.readAllLines(b.results()).get(0);
        for (String prefix : List.of("jvm", "load")) {
            for (String column : List.of("cpu_ms", "cpu_pct", "heap_used_mb", "gc_count", "gc_time_ms", "threads")) {
                assertThat(header).contains(prefix + "_" + column);
            }
        }
        assertThat(Jtl.read(b.results())).allSatisfy(s -> assertThat(s.success()).isTrue());
        Path graphs;
        try (Stream<Path> found = Files.find(b.dir.resolve("target/jmeter/reports"), 4,
                (p, a) -> p.endsWith("content/js/customGraph.js"))) {
            graphs = found.findFirst().orElseThrow(() -> new AssertionError("no dashboard under " + b.dir));
        }
        String js = Files.readString(graphs);
        List<String> titles = Files.readAllLines(TRUSTLOAD_PROPERTIES).stream()
                .filter(l -> l.startsWith("jmeter.reportgenerator.graph.custom_") && l.contains(".title="))
                .map(l -> l.substring(l.indexOf('=') + 1)).toList();
        assertThat(titles).hasSize(6);
        for (String title : titles) {
            assertThat(js).as("dashboard graph " + title).contains(title);
        }
    }

    /** One {@code mvn verify} of the example pom (after {@code edit}) in its own folder under {@link #OUT}. */
    static Build build(String name, UnaryOperator<String> edit, String... props) throws Exception {
        Path dir = OUT.resolve(name);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("pom.xml"), edit.apply(Files.readString(EXAMPLE)));
        List<String> cmd = new ArrayList<>(List.of("mvn", "-B", "-ntp", "-Dstyle.color=never",
                "-Dmaven.repo.local=" + REPO,
                "-Dplans=" + Plans.DIR,
                "-Dtrustload.properties=" + TRUSTLOAD_PROPERTIES,
                "-Dtargets=" + labProperties));
        cmd.addAll(List.of(props));
        cmd.add("verify");
        Path log = dir.resolve("mvn.log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("MAVEN_OPTS", Plans.QUICK_JVM_ARGS); // the nested Maven's JVM lives a few seconds
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("mvn did not end within 10 minutes, see " + log);
        }
        return new Build(dir, log, p.exitValue());
    }

    record Build(Path dir, Path log, int exit) {
        /** The JMeter home the plugin assembled ({@code target/<uuid>/jmeter} in 3.7.0). */
        Path jmeterHome() throws IOException {
            try (Stream<Path> found = Files.find(dir.resolve("target"), 3,
                    (p, a) -> p.getFileName().toString().equals("jmeter") && Files.isDirectory(p.resolve("lib/ext")))) {
                return found.findFirst()
                        .orElseThrow(() -> new AssertionError("no JMeter home under " + dir + "/target"));
            }
        }

        Path results() throws IOException {
            try (Stream<Path> files = Files.list(dir.resolve("target/jmeter/results"))) {
                return files.filter(f -> f.toString().endsWith(".csv")).findFirst()
                        .orElseThrow(() -> new AssertionError("no results file, see " + log));
            }
        }
    }

    /**
     * No password of lab.properties in the Maven log or any file the build wrote, except the plugin's
     * copy of the file itself ({@code target/<uuid>/jmeter/custom_properties/lab-<uuid>.properties},
     * the file JMeter gets with -q; docs/jmeter-maven-plugin.md says so).
     */
    static void assertNoLabSecretIn(Path dir) throws IOException {
        Properties lab = new Properties();
        try (InputStream in = Files.newInputStream(labProperties)) {
            lab.load(in);
        }
        List<String> secrets = lab.stringPropertyNames().stream().filter(k -> k.endsWith("password"))
                .map(lab::getProperty).filter(v -> !v.isBlank()).toList();
        assertThat(secrets).isNotEmpty();
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> written =
                    files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(".jar")).toList();
            assertThat(written.stream().filter(f -> f.getParent().endsWith("custom_properties")
                    && f.getFileName().toString().startsWith("lab-"))).as("the plugin's copy of lab.properties")
                    .hasSize(1);
            for (Path f : written.stream().filter(f -> !f.getParent().endsWith("custom_properties")).toList()) {
                String text = new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1);
                for (String s : secrets) {
                    assertThat(text.contains(s)).as("a lab password in " + f).isFalse();
                }
            }
        }
    }

    /**
     * Creates the private repository once: hard links to the artifacts of {@code ~/.m2/repository}
     * (copies where links are impossible), copies of its metadata files (Maven rewrites those in
     * place, which through a link would change {@code ~/.m2}), and nothing of {@code org/trustload}.
     */
    static void seedRepository() throws IOException {
        Path marker = REPO.resolve(".trustload-seeded");
        if (Files.exists(marker)) {
            return;
        }
        Path shared = Path.of(System.getProperty("user.home"), ".m2/repository");
        Files.createDirectories(REPO);
        if (Files.isDirectory(shared)) {
            try (Stream<Path> files = Files.walk(shared)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Path rel = shared.relativize(f);
                    if (rel.startsWith("org/trustload")) {
                        continue;
                    }
                    Path to = REPO.resolve(rel);
                    if (Files.exists(to)) {
                        continue;
                    }
                    Files.createDirectories(to.getParent());
                    String n = f.getFileName().toString();
                    boolean artifact = n.endsWith(".jar") || n.endsWith(".pom") || n.endsWith(".zip")
                            || n.endsWith(".sha1") || n.endsWith(".module");
                    if (artifact) {
                        try {
                            Files.createLink(to, f);
                            continue;
                        } catch (FileSystemException | UnsupportedOperationException e) {
                            // another file system: copy
                        }
                    }
                    Files.copy(f, to);
                }
            }
        }
        Files.writeString(marker, "seeded from " + shared + "\n");
    }

    /** This build's poms and jars where the plugin resolves {@code org.trustload:*:0.1.0}. */
    static void layOutThisBuild() throws IOException {
        Path ours = REPO.resolve("org/trustload");
        Layout.deleteRecursively(ours);
        put(Plans.ROOT.resolve("pom.xml"), "trustload", "trustload-" + VERSION + ".pom");
        for (String module : List.of("lib", "labkit", "testkit", "samplers", "listeners")) {
            String id = "trustload-" + module;
            put(Plans.ROOT.resolve(module + "/pom.xml"), id, id + "-" + VERSION + ".pom");
            put(Plans.ROOT.resolve(module + "/target/" + id + "-" + VERSION + ".jar"), id, id + "-" + VERSION + ".jar");
        }
        // testkit is samplers' test-scope dependency (the plugin resolves it too, with labkit, and testkit's
        // own test-scope dependency on lib's test-jar)
        put(Plans.ROOT.resolve("lib/target/trustload-lib-" + VERSION + "-tests.jar"), "trustload-lib",
                "trustload-lib-" + VERSION + "-tests.jar");
    }

    private static void put(Path from, String artifactId, String file) throws IOException {
        assertThat(from).as("built by the reactor before test-plans").isRegularFile();
        Path to = REPO.resolve("org/trustload/" + artifactId + "/" + VERSION + "/" + file);
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
}
