package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;

/**
 * {@code ./trustload run|size PLAN --remote} across hosts: network namespaces stand for the hosts — a controller,
 * two engines ({@code ./trustload engine --bind ADDR}) and a server ({@code ./trustload lab ldap --bind ADDR}) —
 * joined by veth pairs to a bridge in a namespace of its own, with addresses from 198.18.0.0/15 (the benchmarking
 * range, inside these namespaces only; nothing is created in the host's own namespace). The namespaces are deleted
 * at the end, also when a test fails. Proves: samples of both engines merged and Total equal to JMeter's
 * summariser; a {@code -q} secret in no file and no process command line; RMI over SSL through
 * {@code java.rmi.server.hostname} and fixed ports, every socket of every namespace listening only on the address
 * the test gave that namespace; a short {@code size --remote} with the lab bound to the
 * controller's address; a data file missing on one engine (a tmpfs over the data folder in a mount namespace of
 * its own) shipped there and used by the run; the failure table (unreachable engine, another RMI keystore, another
 * TrustLoad version, a data file missing on the engines), each stopped before the test with the engine named; an engine
 * killed mid-run reported with its samples. Needs root and {@code ip netns}: skipped outside CI when they are not
 * there, failed in CI.
 *
 * <p>CI budget: ~3.5 min: eight launcher runs across the namespaces (each a controller JVM, most with a preflight on
 * both engines) on one lab and one pair of engines started once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RemoteEnginesIT {

    private static final Path OUT = Plans.DIR.resolve("target/remote-engines");
    private static final String PLAN = "ldap/ldap-search-200x10";
    private static final String NET = "198.18.0.";
    /** Where the data files of the shipping case live: on engine 1 an empty file system of its own. */
    private static final Path DATA = OUT.resolve("data");

    /** The hosts: namespace suffix and address. */
    private static final Map<String, String> HOSTS =
            Map.of("c", NET + "1", "e1", NET + "2", "e2", NET + "3", "s", NET + "4");
    private static final String E1 = NET + "2:" + Engines.DEFAULT_PORT;
    private static final String E2 = NET + "3:" + Engines.DEFAULT_PORT;

    private final String prefix = "tl" + HexFormat.of().formatHex(new SecureRandom().generateSeed(2));
    private final List<String> namespaces = new ArrayList<>();
    private final Map<String, Process> started = new LinkedHashMap<>();
    private final Set<String> strayListeners = ConcurrentHashMap.newKeySet();
    private final Set<String> seenListeners = ConcurrentHashMap.newKeySet();
    private final Set<String> secretOnCommandLine = ConcurrentHashMap.newKeySet();
    private final Set<String> watchedSecrets = ConcurrentHashMap.newKeySet();
    private volatile boolean watching = true;
    private Thread watcher;
    private Path labProperties;
    private Map<String, String> labProps;

    @BeforeAll
    void hostsEnginesAndServer() throws Exception {
        Layout.deleteRecursively(OUT);
        Files.createDirectories(OUT);
        String why = namespacesUnavailable();
        if (why != null) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("CI must be able to create network namespaces (ci/test runs as root): " + why);
            }
            Assumptions.abort("network namespaces unavailable here (" + why
                    + "): run as root with iproute2 to test --remote");
        }
        String bridge = ns("b");
        ip("netns", "add", bridge);
        namespaces.add(bridge);
        ip("-n", bridge, "link", "set", "lo", "up");
        ip("-n", bridge, "link", "add", "br0", "type", "bridge");
        ip("-n", bridge, "link", "set", "br0", "up");
        for (Map.Entry<String, String> h : HOSTS.entrySet()) {
            String n = ns(h.getKey());
            ip("netns", "add", n);
            namespaces.add(n);
            ip("-n", n, "link", "set", "lo", "up");
            // the veth is made inside the bridge's namespace, its other end moved into the host's: none in ours
            ip("-n", bridge, "link", "add", "v-" + h.getKey(), "type", "veth", "peer", "name", "eth0", "netns", n);
            ip("-n", bridge, "link", "set", "v-" + h.getKey(), "master", "br0");
            ip("-n", bridge, "link", "set", "v-" + h.getKey(), "up");
            ip("-n", n, "addr", "add", h.getValue() + "/24", "dev", "eth0");
            ip("-n", n, "link", "set", "eth0", "up");
        }
        watcher = new Thread(this::watch, "remote-engines-watch");
        watcher.setDaemon(true);
        watcher.start();

        // the server host: the lab's LDAP on its address
        Process lab = start("s", OUT.resolve("server.txt"), Map.of(), "lab", "ldap", "--bind", HOSTS.get("s"));
        String ready = await(OUT.resolve("server.txt"), Lab.READY + " ", lab);
        labProperties = Path.of(ready.substring(ready.indexOf(Lab.READY) + Lab.READY.length()).strip());
        labProps = Secrets.read(labProperties);
        assertThat(labProps.get("ldap.host")).isEqualTo(HOSTS.get("s"));
        // two engine hosts, the first making the RMI keystore the others use (the copy a user makes by hand)
        for (String e : List.of("e1", "e2")) {
            Process p = start(e, OUT.resolve(e + ".txt"), Map.of("TRUSTLOAD_RESULTS", OUT.resolve(e).toString()),
                    "engine", "--bind", HOSTS.get(e));
            await(OUT.resolve(e + ".txt"), Engines.READY + " " + HOSTS.get(e) + ":" + Engines.DEFAULT_PORT, p);
        }
    }

    @AfterAll
    void deleteEverything() throws Exception {
        watching = false;
        if (watcher != null) {
            watcher.join(5000);
        }
        System.out.println("RemoteEnginesIT: sockets seen listening, by host: "
                + new java.util.TreeSet<>(seenListeners));
        for (Process p : started.values()) {
            stop(p);
        }
        for (int i = namespaces.size() - 1; i >= 0; i--) {
            new ProcessBuilder("ip", "netns", "del", namespaces.get(i)).inheritIO().start()
                    .waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Order(1)
    void runOnTwoRemoteEnginesMergesTheirSamplesAndKeepsTheSecret() throws Exception {
        String secret = "rq" + HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
        Path creds = OUT.resolve("creds.properties");
        Properties p = new Properties();
        p.setProperty("remote.it.password", secret);
        try (var w = Files.newBufferedWriter(creds)) {
            p.store(w, "RemoteEnginesIT (random per run)");
        }
        watchedSecrets.add(secret);
        Launched run = controller("run-remote", "run", PLAN, "--remote", E1 + "," + E2, "--no-lab", "-q",
                labProperties.toString(), "-q", creds.toString(), "-Jthreads=2", "-Jloops=3", "-Jrampup=0");
        assertThat(run.status).as("exit status, output:\n" + run.output).isZero();
        Path dir = run.runDir();
        List<org.trustload.harness.results.Jtl.Sample> rows =
                org.trustload.harness.results.Jtl.read(dir.resolve("results.jtl"));
        assertThat(rows).as("2 engines x 2 threads x 3 loops in " + dir).hasSize(12);
        for (String e : List.of(E1, E2)) {
            assertThat(rows.stream().filter(r -> r.threadName().startsWith(e + "-"))).as("rows of engine " + e)
                    .hasSize(6);
        }
        String summary = Files.readString(dir.resolve("summary.txt"));
        assertThat(summary).contains("Total: 12 top-level samples = JMeter's summariser's count.")
                .doesNotContain("but the summariser counted")
                .contains("Engine:     " + E1 + ": 6 samples", "Engine:     " + E2 + ": 6 samples")
                .contains("this controller at " + HOSTS.get("c"));
        assertThat(dir.resolve("report/index.html")).exists();
        assertThat(dir.resolve("preflight")).as("the engines were checked before the test").isDirectory();

        Secrets secrets = new Secrets().addAllValues(Map.of("remote.it.password", secret), "-q creds.properties")
                .addProperties(labProps, "lab.properties");
        watchedSecrets.addAll(labProps.entrySet().stream().filter(e -> e.getKey().contains("password"))
                .map(Map.Entry::getValue)
                .filter(v -> !v.isBlank()).toList());
        assertThat(secrets.findIn(OUT, Set.of(creds)))
                .as("secrets in files of the controller and the engines under " + OUT)
                .isEmpty();
        assertThat(secretOnCommandLine).as("secrets on a process command line").isEmpty();
        assertThat(strayListeners).as("sockets listening on an address the test did not give").isEmpty();
    }

    @Test
    @Order(2)
    void sizeSplitsEachStepAcrossTheEnginesAndReadsTheirCpu() throws Exception {
        // the lab this time is size's own, bound to the controller's address as the engines reach it
        Launched run = controller("size-remote", "size", PLAN, "--remote", E1 + "," + E2, "--model", "open",
                "--slo", "p99<=200ms,errors<=1%", "--start", "20", "--factor", "4", "--step-time", "3s", "--warmup",
                "1s",
                "--max-time", "12s", "--steps-per-run", "2", "--refine", "0", "--no-confirm", "--unit", "searches",
                "-q", Plans.DIR.resolve(PLAN + ".smoke.properties").toString());
        assertThat(run.status).as("exit status of size, output:\n" + run.output).isIn(0, 6, 7);
        Path md = find(run.dir.resolve("results"), "sizing.md")
                .orElseThrow(() -> new AssertionError("no sizing.md: " + run.output));
        String text = Files.readString(md);
        assertThat(text).as(md.toString()).contains("the load came from the engines " + E1 + ", " + E2)
                .containsPattern("\\| ramp-1 \\|( [^|]+ \\|){7} [0-9]+% \\|"); // the load CPU column: known
        // each engine's CPU, read back from its own samples, in each run's summary
        Path ramp = find(run.dir.resolve("results"), "ramp-1").orElseThrow();
        String summary = Files.readString(ramp.resolve("summary.txt"));
        assertThat(summary.substring(Math.max(0, summary.indexOf("Load generator: the busiest of 3 JMeter JVMs"))))
                .as(ramp.resolve("summary.txt").toString()).startsWith("Load generator: ")
                .contains("engine " + E1, "engine " + E2);
        assertThat(strayListeners).as("sockets listening on an address the test did not give").isEmpty();
    }

    @Test
    @Order(3)
    void aDataFileMissingOnAnEngineIsShippedThereAndUsedByTheRun() throws Exception {
        // LDAPS with the lab's trust store copied to DATA: engine 2 sees the controller's copy, engine 1 has none
        Path trustStore = DATA.resolve("ldap-truststore.p12");
        Files.copy(Path.of(labProps.get("ldap.truststore")), trustStore,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Launched run = controller("shipped", "run", PLAN, "--remote", E1 + "," + E2, "--no-lab", "-q",
                labProperties.toString(),
                "-Jscheme=ldaps", "-Jport=" + labProps.get("ldaps.port"), "-Jldap.truststore=" + trustStore,
                "-Jthreads=1",
                "-Jloops=2", "-Jrampup=0");
        assertThat(run.status).as("exit status, output:\n" + run.output).isZero();
        assertThat(run.output).contains("engine " + E1 + ": shipped " + trustStore)
                .doesNotContain("engine " + E2 + ": shipped");
        List<org.trustload.harness.results.Jtl.Sample> rows =
                org.trustload.harness.results.Jtl.read(run.runDir().resolve("results.jtl"));
        assertThat(rows).as("LDAPS searches, both engines").hasSize(4)
                .allMatch(org.trustload.harness.results.Jtl.Sample::success);
        assertThat(rows.stream().filter(r -> r.threadName().startsWith(E1 + "-")))
                .as("engine 1 used the shipped trust store").hasSize(2);
    }

    @Test
    @Order(3)
    void anUnreachableEngineStopsTheRunBeforeTheTestNamingIt() throws Exception {
        Launched run = controller("unreachable", "run", PLAN, "--remote", E1 + "," + NET + "3:1199", "--no-lab", "-q",
                labProperties.toString());
        assertStoppedBefore(run, NET + "3:1199", "unreachable: connection refused");
    }

    @Test
    @Order(4)
    void anEngineWithAnotherKeystoreStopsTheRunBeforeTheTestNamingIt() throws Exception {
        Launched run = controller("keystore", Map.of("TRUSTLOAD_RMI_DIR", OUT.resolve("other-rmi").toString()), "run",
                PLAN,
                "--remote", E1, "--no-lab", "-q", labProperties.toString());
        assertStoppedBefore(run, E1, "refused the RMI keystore");
    }

    @Test
    @Order(5)
    void aDataFileMissingOnTheEnginesStopsTheRunBeforeTheTestNamingEach() throws Exception {
        String missing = "/nonexistent-" + prefix + "/truststore.p12";
        Launched run = controller("missing-file", "run", PLAN, "--remote", E1 + "," + E2, "--no-lab", "-q",
                labProperties.toString(), "-Jldap.truststore=" + missing);
        assertStoppedBefore(run, E1, missing + " ('");
        assertThat(run.output)
                .contains("engine " + E2 + ": " + missing, "is missing there, and the controller has none to ship");
    }

    @Test
    @Order(6)
    void anEngineOfAnotherTrustLoadVersionStopsTheRunBeforeTheTestNamingIt() throws Exception {
        // a JMeter home like ours but for the version its TrustLoad lib jar says (hard links, one jar rewritten)
        Path home = OUT.resolve("home-other");
        Process cp = new ProcessBuilder("cp", "-al", Plans.HOME.toString(), home.toString()).inheritIO().start();
        assertThat(cp.waitFor()).isZero();
        Path jar;
        try (Stream<Path> s = Files.walk(home.resolve("lib"))) {
            jar = s.filter(f -> f.getFileName().toString().matches("trustload-lib-.*\\.jar")).findFirst().orElseThrow();
        }
        Path copy = jar.resolveSibling("copy.tmp");
        Files.copy(jar, copy);
        Files.delete(jar);
        Files.move(copy, jar);
        try (java.nio.file.FileSystem zip = java.nio.file.FileSystems.newFileSystem(jar)) {
            Files.writeString(zip.getPath(org.trustload.common.Version.ENTRY), "version=0.0.0-other\n");
        }
        String other = NET + "3:1100";
        Process engine = startJava("e2-other", OUT.resolve("e2-other.txt"), List.of("-Dtrustload.jmeter.home=" + home),
                "engine", "--bind", HOSTS.get("e2"), "--port", "1100", "--object-port", "4001");
        await(OUT.resolve("e2-other.txt"), Engines.READY + " " + other, engine);
        Launched run = controller("other-version", "run", PLAN, "--remote", E1 + "," + other, "--no-lab", "-q",
                labProperties.toString());
        assertStoppedBefore(run, other, "TrustLoad 0.0.0-other");
        assertThat(run.output).doesNotContain("engine " + E1 + ": ");
        stop(engine);
    }

    @Test
    @Order(7)
    void anEngineDyingMidRunIsReportedWithItsSamplesAndTheRunFails() throws Exception {
        Path out = OUT.resolve("dying");
        Files.createDirectories(out);
        Process run = launch("c", out.resolve("console.txt"),
                Map.of("TRUSTLOAD_RESULTS", out.resolve("results").toString()),
                "run", PLAN, "--remote", E1 + "," + E2, "--no-lab", "-q", labProperties.toString(), "-Jthreads=1",
                "-Jloops=-1", "-Jrampup=0", "-Jduration=20");
        // once engine 2 has sent samples, its JVM goes (as a host that crashes)
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
        while (!rowsFrom(out.resolve("results"), E2) && run.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(run.isAlive()).as("the run still going when engine 2 had sent samples; " + out).isTrue();
        Process e2 = started.get("e2");
        e2.descendants().forEach(ProcessHandle::destroyForcibly);
        e2.destroyForcibly();
        assertThat(run.waitFor(5, TimeUnit.MINUTES)).as("the controller ends once the other engine has").isTrue();
        String output = Files.readString(out.resolve("console.txt"));
        assertThat(run.exitValue()).as(output).isEqualTo(ExitStatus.NOT_EXECUTED.code());
        Path summary = find(out.resolve("results"), "summary.txt").orElseThrow();
        assertThat(Files.readString(summary))
                .containsPattern("Engine: +" + E2.replace(".", "\\.") + ": [1-9][0-9]* samples, .*STOPPED ANSWERING")
                .containsPattern("Engine: +" + E1.replace(".", "\\.") + ": [1-9][0-9]* samples");
    }

    /** Whether the run's results.jtl (the test's, not the preflight's) holds a row of {@code engine}. */
    private static boolean rowsFrom(Path results, String engine) throws IOException {
        Optional<Path> jtl;
        try (Stream<Path> s = Files.exists(results) ? Files.walk(results) : Stream.empty()) {
            jtl = s.filter(f -> f.getFileName().toString().equals("results.jtl"))
                    .filter(f -> !f.getParent().getFileName().toString().startsWith("preflight")).findFirst();
        } catch (java.io.UncheckedIOException e) {
            return false;
        }
        if (jtl.isEmpty()) {
            return false;
        }
        try (Stream<String> lines = Files.lines(jtl.get(), StandardCharsets.UTF_8)) {
            return lines.anyMatch(l -> l.contains("," + engine + "-"));
        } catch (java.io.UncheckedIOException | IOException e) {
            return false;
        }
    }

    private void assertStoppedBefore(Launched run, String engine, String cause) throws IOException {
        assertThat(run.status).as("exit status, output:\n" + run.output).isEqualTo(ExitStatus.NOT_EXECUTED.code());
        assertThat(run.output).contains("engine " + engine + ": ").contains(cause);
        try (Stream<Path> s = Files.exists(run.dir.resolve("results")) ? Files.walk(run.dir.resolve("results"))
                : Stream.empty()) {
            assertThat(s.filter(f -> f.getFileName().toString().equals("results.jtl"))
                    .filter(f -> !f.getParent().getFileName().toString().startsWith("preflight")).toList())
                    .as("the test never started: no results.jtl but the preflight's").isEmpty();
        }
    }

    private record Launched(int status, String output, Path dir) {
        Path runDir() throws IOException {
            try (Stream<Path> s = Files.walk(dir.resolve("results"))) {
                return s.filter(p -> p.getFileName().toString().equals("summary.txt")).map(Path::getParent).findFirst()
                        .orElseThrow(() -> new AssertionError("no summary.txt under " + dir + ":\n" + output));
            }
        }
    }

    private Launched controller(String name, String... args) throws Exception {
        return controller(name, Map.of(), args);
    }

    /** {@code ./trustload ARGS} on the controller's host, to its end. */
    private Launched controller(String name, Map<String, String> env, String... args) throws Exception {
        Path dir = OUT.resolve(name);
        Files.createDirectories(dir);
        Map<String, String> all = new LinkedHashMap<>(env);
        all.put("TRUSTLOAD_RESULTS", dir.resolve("results").toString());
        Process p = launch("c", dir.resolve("console.txt"), all, args);
        if (!p.waitFor(6, TimeUnit.MINUTES)) {
            stop(p);
            throw new AssertionError("./trustload " + String.join(" ", args) + " did not finish in 6 minutes, see "
                    + dir);
        }
        return new Launched(p.exitValue(), Files.readString(dir.resolve("console.txt")), dir);
    }

    /**
     * {@code ./trustload ARGS} in host {@code host}'s namespace, its output to {@code console}, kept to be stopped at
     * the end.
     */
    private Process start(String host, Path console, Map<String, String> env, String... args) throws IOException {
        Process p = launch(host, console, env, args);
        started.put(host, p);
        return p;
    }

    /**
     * The harness's Main with {@code jvm} options, in e2's namespace (the launcher script takes no JVM options), on the
     * class path the launcher gives it: the harness jar and the JMeter home's lib/ and lib/ext/.
     */
    private Process startJava(String name, Path console, List<String> jvm, String... args) throws IOException {
        String classPath = String.join(":", Plans.ROOT.resolve("harness/target/trustload-harness.jar").toString(),
                Plans.HOME.resolve("lib") + "/*", Plans.HOME.resolve("lib/ext") + "/*");
        List<String> cmd = new ArrayList<>(
                List.of("ip", "netns", "exec", ns("e2"), Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", classPath, "-Dtrustload.root=" + Plans.ROOT));
        cmd.addAll(jvm);
        cmd.add("org.trustload.harness.Main");
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(OUT.toFile()).redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("HEAP", "-Xms128m -Xmx512m");
        Plans.launcherEnvironment(pb.environment());
        pb.environment().put("TRUSTLOAD_RMI_DIR", OUT.resolve("rmi").toString());
        pb.environment().put("TRUSTLOAD_RESULTS", OUT.resolve(name).toString());
        Process p = pb.start();
        started.put(name, p);
        return p;
    }

    private Process launch(String host, Path console, Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns(host)));
        if (host.equals("e1")) {
            // engine 1 has a file system of its own where the data files go: an empty tmpfs over DATA, in a private
            // mount namespace (nothing shows outside it), so a file the controller has there is missing on engine 1
            Files.createDirectories(DATA);
            cmd.addAll(List.of("unshare", "-m", "--propagation", "private", "sh", "-c",
                    "mount -t tmpfs tmpfs \"$0\" && exec \"$@\"",
                    DATA.toString()));
        }
        cmd.add(Plans.ROOT.resolve("trustload").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(OUT.toFile()).redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("HEAP", "-Xms128m -Xmx512m");
        Plans.launcherEnvironment(pb.environment());
        // one RMI keystore for every host (users copy the folder from one host to the others)
        pb.environment().put("TRUSTLOAD_RMI_DIR", OUT.resolve("rmi").toString());
        pb.environment().putAll(env);
        return pb.start();
    }

    /** Waits for a line holding {@code text} in {@code console}; fails when {@code p} exits first. Returns the line. */
    private static String await(Path console, String text, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
        while (System.nanoTime() < deadline) {
            if (Files.exists(console)) {
                Optional<String> line = Files.readAllLines(console).stream().filter(l -> l.contains(text)).findFirst();
                if (line.isPresent()) {
                    return line.get();
                }
            }
            if (!p.isAlive()) {
                throw new AssertionError("exited (" + p.exitValue() + ") before '" + text + "':\n"
                        + Files.readString(console));
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no '" + text + "' within 4 minutes in " + console);
    }

    private static void stop(Process p) throws InterruptedException {
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        p.destroy();
        tree.forEach(ProcessHandle::destroy);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private String ns(String host) {
        return prefix + host;
    }

    /** Null when this process can create a network namespace, else why not. */
    private String namespacesUnavailable() throws InterruptedException {
        String probe = ns("probe");
        try {
            Process p = new ProcessBuilder("ip", "netns", "add", probe).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.waitFor() != 0) {
                return "ip netns add failed: " + out;
            }
            new ProcessBuilder("ip", "netns", "del", probe).start().waitFor();
            return null;
        } catch (IOException e) {
            return "no ip command (iproute2): " + e.getMessage();
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed: " + out);
        }
    }

    /**
     * While the tests run: every socket listening in a host's namespace must be on the address the test gave that
     * host (not even its loopback); no process command line may hold a watched secret.
     */
    private void watch() {
        for (long round = 0; watching; round++) {
            try {
                // a listener lives as long as its JVM (seconds at least): 'ss' in each namespace once a second
                // (four process starts); command lines, read in this JVM, three times a second
                for (Map.Entry<String, String> h : round % 3 == 0 ? HOSTS.entrySet() : Set.<Map.Entry<String,
                        String>>of()) {
                    Process ss = new ProcessBuilder("ip", "netns", "exec", ns(h.getKey()), "ss", "-H", "-l", "-t", "-u",
                            "-n")
                            .redirectErrorStream(true).start();
                    for (String line : new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                            .split("\n")) {
                        String[] f = line.trim().split("\\s+");
                        if (f.length < 5) {
                            continue;
                        }
                        String local = f[4].substring(0, f[4].lastIndexOf(':'));
                        seenListeners.add(ns(h.getKey()).substring(prefix.length()) + " " + f[0] + " " + f[4]);
                        if (!Set.of(h.getValue(), "[::ffff:" + h.getValue() + "]").contains(local)) {
                            strayListeners.add(ns(h.getKey()) + ": " + line.trim());
                        }
                    }
                    ss.waitFor();
                }
                try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
                    all.forEach(ph -> {
                        try {
                            String cmdline = Files.readString(Path.of("/proc/" + ph.pid() + "/cmdline"),
                                    StandardCharsets.ISO_8859_1);
                            watchedSecrets.stream().filter(cmdline::contains)
                                    .forEach(s -> secretOnCommandLine.add("pid " + ph.pid() + ": "
                                            + cmdline.replace('\0', ' ')));
                        } catch (IOException | RuntimeException gone) {
                            // exited meanwhile
                        }
                    });
                }
                Thread.sleep(300);
            } catch (IOException e) {
                strayListeners.add("cannot run ss: " + e);
                return;
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static Optional<Path> find(Path dir, String name) throws IOException {
        if (!Files.exists(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(f -> f.getFileName().toString().equals(name)).findFirst();
        } catch (java.io.UncheckedIOException e) {
            return Optional.empty();
        }
    }
}
