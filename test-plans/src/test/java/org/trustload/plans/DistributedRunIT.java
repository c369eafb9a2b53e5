package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;
import org.trustload.harness.Layout;
import org.trustload.harness.Catalog;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.Lab;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * JMeter's distributed mode with TrustLoad: every plan of {@code catalog.tsv} runs at smoke scale on two
 * engines (RMI over SSL on 127.0.0.1), one lab and one engine pair for all of them; the merged results
 * must hold twice the plan's {@code expect.samples}, half from each engine, and no error, and none of
 * the JVMs may listen on anything but loopback. A plan whose sidecar names a {@code fixture} (a real
 * server the lab cannot stand in for, e.g. MariaDB) gets it for its run, its properties sent to the
 * engines in a -q/-G file as {@link PlanRunIT} passes them. {@code ./trustload run --engines 2} is checked end to end,
 * including the case where the controller exits 0 although the engines never ran the plan.
 *
 * <p>CI budget: ~3-4 min: a controller JVM per plan (no dashboard) on two engines that one lab serves, for the plans
 * that together run every element class and family ({@link #plans()}), and two launcher runs that start their own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributedRunIT {

    private static final Path OUT = Plans.DIR.resolve("target/distributed");
    private static final Pattern PID = Pattern.compile("pid=(\\d+)");

    private final Set<String> listeners = ConcurrentHashMap.newKeySet();
    private Lab lab;
    private Path labProperties;
    private Engines engines;
    private Thread watcher;
    private volatile boolean watching = true;

    /**
     * The plans to run on two engines. By default the fewest catalog plans that together hold every element
     * class any plan uses, every plan family (the folder) and every fixture: what distributed mode can break is
     * an element that does not serialize or run on an engine, so the other plans add minutes and no new
     * element (PlanRunIT still runs them all locally). {@code -Dtrustload.plans=pdp/,jdbc/} selects by id as
     * PlanRunIT does, {@code -Dtrustload.distributed.all=true} runs every plan.
     */
    static List<Catalog.Entry> plans() throws IOException {
        List<Catalog.Entry> selected = Plans.catalog().values().stream().filter(e -> Plans.selected(e.id())).toList();
        if (!System.getProperty("trustload.plans", "").isBlank() || Boolean.getBoolean("trustload.distributed.all")) {
            return selected;
        }
        java.util.Map<Catalog.Entry, Set<String>> features = new java.util.HashMap<>();
        for (Catalog.Entry e : selected) {
            Path jmx = Plans.DIR.resolve(e.id() + ".jmx");
            Set<String> f = new LinkedHashSet<>(Plans.elementClasses(jmx));
            f.add("family " + Plans.family(e.id()));
            f.add("fixture "
                    + Plans.load(new Plans.Plan(e.id(), jmx).smokeProperties()).getProperty("fixture", "").strip());
            features.put(e, f);
        }
        return Plans.cover(selected, features::get);
    }

    @BeforeAll
    void startLabAndEngines() throws Exception {
        Layout.deleteRecursively(OUT);
        Files.createDirectories(OUT);
        Set<String> services = new LinkedHashSet<>();
        plans().forEach(p -> services.addAll(p.services()));
        if (!services.isEmpty()) {
            labProperties = OUT.resolve("lab.properties");
            lab = PlanRunIT.startLab(String.join(",", services), labProperties, OUT.resolve("lab.log"));
        }
        engines = Plans.startEngines(2, OUT);
        watcher = new Thread(this::watchListeners, "listener-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    @AfterAll
    void stopAll() throws Exception {
        watching = false;
        if (watcher != null) {
            watcher.join(5000);
        }
        if (engines != null) {
            engines.close();
        }
        if (lab != null) {
            lab.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyPlanRunsOnTwoEngines() throws IOException {
        return plans().stream().map(p -> DynamicTest.dynamicTest(p.id(), () -> runOnEngines(p)));
    }

    private void runOnEngines(Catalog.Entry plan) throws Exception {
        Path jmx = Plans.DIR.resolve(plan.id() + ".jmx");
        Path smoke = new Plans.Plan(plan.id(), jmx).smokeProperties();
        long expected = Long.parseLong(Plans.load(smoke).getProperty("expect.samples").strip());
        Path dir = OUT.resolve(plan.id());
        // no dashboard: the counts are the dashboard's way, from the results file (PlanRunIT holds the dashboard)
        RunSpec.Builder options = RunSpec.of(Plans.LAYOUT, plan).lab(lab).engines(engines).dir(dir).echo(false)
                .timeout(Duration.ofMinutes(5)).dashboard(false);
        String fixtureName = Plans.load(smoke).getProperty("fixture", "").strip();
        Run.Result run;
        List<String> fixtureSecrets = new ArrayList<>();
        try (Plans.Fixture fixture = fixtureName.isEmpty() ? null : Plans.startFixture(fixtureName)) {
            if (fixture != null) {
                fixture.properties().forEach((k, v) -> {
                    if (k.contains("password") && !v.isBlank()) {
                        fixtureSecrets.add(k + "=" + v);
                    }
                });
                // beside the results folder, which the run empties first; -q and -G, never -J (logged)
                options.properties(fixture.writeProperties(OUT.resolve(plan.id() + ".fixture.properties"),
                        "fixture " + fixtureName));
            }
            run = Run.execute(Plans.JMETER, options.properties(smoke), System.out);
        }
        assertThat(run.status()).as(run.message() + "\n" + run.summaryText()).isEqualTo(ExitStatus.OK);
        // the load generator's line names the engines' JVMs too (running engines: found by their logs)
        assertThat(run.summaryText()).as("the load generator, see " + dir).contains("Load generator: ", "engine pid ");

        long[] total = Plans.dashboardTotal(dir.resolve("results.jtl"));
        assertThat(total[0]).as("merged sampleCount = 2 engines x expect.samples, see " + dir).isEqualTo(2 * expected);
        assertThat(total[1]).as("errors, see " + dir).isZero();
        // results.jtl may hold more rows than the dashboard counts (e.g. transaction parents): the engines
        // must each have written half of them. Distributed thread names are "<host:port>-<group> 1-1".
        // Read as CSV: a thread name with a comma (the PDP plans' setUp) is quoted.
        List<org.trustload.harness.results.Jtl.Sample> rows =
                org.trustload.harness.results.Jtl.read(dir.resolve("results.jtl"));
        for (String host : engines.hosts()) {
            assertThat(2 * rows.stream().filter(r -> r.threadName().startsWith(host + "-")).count())
                    .as("rows from engine " + host + " x 2 in " + dir.resolve("results.jtl")).isEqualTo(rows.size());
        }
        assertThat(listeners).as("sockets of the controller and engines listening beyond loopback").isEmpty();
        if (labProperties != null || !fixtureSecrets.isEmpty()) {
            // JMeter's engine prints received properties as "name=value" at INFO; we keep that logger at WARN
            List<String> secrets = new ArrayList<>(fixtureSecrets);
            if (labProperties != null) {
                Plans.load(labProperties).entrySet().stream()
                        .filter(e -> e.getKey().toString().contains("password") && !e.getValue().toString().isBlank())
                        .forEach(e -> secrets.add(e.getKey() + "=" + e.getValue()));
            }
            for (Path log : secrets.isEmpty() ? List.<Path>of() : engines.logs()) {
                assertThat(Files.readString(log)).as("lab and fixture passwords sent with -G must not reach " + log)
                        .doesNotContain(secrets);
            }
        }
    }

    @Test
    void launcherRunsAPlanOnTwoEnginesAndMergesTheirSamples() throws Exception {
        Launched run = launch("debug", "-Jthreads=2", "-Jloops=3");
        assertThat(run.status).as("./trustload exit status, output:\n" + run.output).isZero();
        Path results = runDir(run.dir).resolve("results.jtl");
        List<org.trustload.harness.results.Jtl.Sample> rows = org.trustload.harness.results.Jtl.read(results);
        assertThat(rows).as("2 engines x 2 threads x 3 loops").hasSize(12);
        assertThat(rows.stream().map(r -> r.threadName().replaceFirst("-.*", "")).distinct().count())
                .as("distinct engines in the thread names of " + results).isEqualTo(2);
        // every summary says what the load generator used: here the controller and the two engines it started
        assertThat(run.output).contains("Load generator: the busiest of 3 JMeter JVMs (");
        assertThat(listeners).as("sockets listening beyond loopback").isEmpty();
    }

    @Test
    void launcherFailsWhenTheEnginesRefuseAPlanThatCannotBeSerialized() throws Exception {
        // The element class is only on the controller's class path: serializing the tree fails there.
        Launched run = launch("not-serializable",
                "-Juser.classpath=" + Plans.DIR.resolve("target/test-classes"));
        assertThat(run.status).as("./trustload must fail, output:\n" + run.output).isNotZero();
        // ...although JMeter itself exited 0: the launcher found no samples.
        assertThat(run.status).as("could not execute").isEqualTo(ExitStatus.NOT_EXECUTED.code());
        assertThat(run.output).doesNotContain("JMeter exited with status").contains("the run wrote no results");
        assertThat(Files.readString(runDir(run.dir).resolve("jmeter.log")))
                .contains("NotSerializableException");
    }

    private record Launched(int status, String output, Path dir) {
    }

    private Launched launch(String plan, String... properties) throws Exception {
        Path dir = OUT.resolve("launcher-" + plan);
        Layout.deleteRecursively(dir);
        Files.createDirectories(dir);
        Path jmx = Plans.DIR.resolve("src/test/resources/distributed/" + plan + ".jmx");
        List<String> cmd = new ArrayList<>(List.of(Plans.ROOT.resolve("trustload").toString(), "run", jmx.toString(),
                "--engines", "2"));
        cmd.addAll(List.of(properties));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("console.txt").toFile());
        pb.environment().put("TRUSTLOAD_RESULTS", dir.resolve("results").toString());
        pb.environment().put("HEAP", "-Xms256m -Xmx512m");
        Plans.launcherEnvironment(pb.environment());
        pb.environment().put("TRUSTLOAD_ENGINE_TIMEOUT", "600"); // its own engines: waited for, never expected to fail
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroyForcibly();
            throw new AssertionError("./trustload did not finish in 5 minutes, see " + dir);
        }
        String output = Files.readString(dir.resolve("console.txt"));
        assertThat(p.descendants().filter(ProcessHandle::isAlive).count()).as("processes left running by ./trustload")
                .isZero();
        return new Launched(p.exitValue(), output, dir);
    }

    /** The one run directory ./trustload made under {@code dir/results} (it holds jmeter.log). */
    private static Path runDir(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir.resolve("results"))) {
            return s.filter(p -> p.getFileName().toString().equals("jmeter.log")).map(Path::getParent).findFirst()
                    .orElseThrow(() -> new AssertionError("no run directory with jmeter.log under " + dir));
        }
    }

    /**
     * Polls {@code ss} while the tests run: every TCP/UDP socket of this JVM's child processes (engines,
     * controllers, ./trustload's engines; the lab excepted, it is tested on its own) must be bound to a
     * loopback address.
     */
    private void watchListeners() {
        long labPid = lab == null ? -1 : lab.handle().pid();
        while (watching) {
            try {
                Set<Long> ours = new LinkedHashSet<>();
                ProcessHandle.current().descendants().filter(h -> h.pid() != labPid
                        && h.parent().map(pp -> pp.pid() != labPid).orElse(true)).forEach(h -> ours.add(h.pid()));
                Process ss =
                        new ProcessBuilder("ss", "-H", "-l", "-t", "-u", "-n", "-p").redirectErrorStream(true).start();
                for (String line : new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    String[] f = line.trim().split("\\s+");
                    Matcher m = PID.matcher(line);
                    if (f.length >= 5 && m.find() && ours.contains(Long.parseLong(m.group(1)))
                            && !(f[4].startsWith("127.0.0.1:") || f[4].startsWith("[::ffff:127.0.0.1]:")
                                 || f[4].startsWith("[::1]:"))) {
                        listeners.add(line.trim());
                    }
                }
                ss.waitFor();
                // a listener lives as long as its JVM (seconds at least): once a second finds it ('ss -p' reads
                // every process's sockets, ~15% of a core at three times a second)
                Thread.sleep(1000);
            } catch (IOException | InterruptedException e) {
                listeners.add("cannot run ss: " + e);
                return;
            }
        }
    }
}
