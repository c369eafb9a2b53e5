package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.time.Duration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every plan headless at tiny scale, as a user would, against the lab services its catalog
 * row lists. The sidecar {@code <plan>.smoke.properties} sets the tiny scale and
 * {@code expect.samples=N}; the dashboard's statistics.json must show N samples and no error. A plan
 * that needs a real server the lab cannot be names it with {@code fixture=NAME} in its sidecar
 * ({@link Plans#startFixture}); its properties reach JMeter in a -q file, never as -J (JMeter logs
 * every -J value).
 *
 * <p>It is also the secrets test, so CI runs each plan once: after each run, the outputs kept under
 * {@code target/plan-runs/<plan>/} (results.jtl, jmeter.log, console.txt, the HTML report, lab.log)
 * must contain none of the passwords and private keys the run used ({@link Secrets} derives them
 * from lab.properties, the fixture, the sidecar and the plan). The results are CSV as users save
 * them: labels, codes, messages, URLs, failure messages; no plan saves response bodies.
 *
 * <p>{@code -Dtrustload.plans=http/,jdbc/} runs only the plans whose id starts with one of the
 * comma-separated prefixes (for development; CI runs them all).
 */
class PlanRunIT {

    private static final Path OUT = Plans.DIR.resolve("target/plan-runs");
    private static final String READY = "TRUSTLOAD-LAB READY";

    @TestFactory
    Stream<DynamicTest> everyPlanRunsAtSmokeScaleWithoutErrorsAndLeaksNoSecret() {
        List<String> only = List.of(System.getProperty("trustload.plans", "").split(",")).stream()
                .map(String::strip).filter(x -> !x.isEmpty()).toList();
        return Plans.all().stream().filter(plan -> only.isEmpty() || only.stream().anyMatch(plan.id()::startsWith))
                .map(plan -> DynamicTest.dynamicTest(plan.id(), plan.jmx().toUri(), () -> run(plan)));
    }

    private static void run(Plans.Plan plan) throws Exception {
        Path smoke = plan.smokeProperties();
        assertThat(smoke).as(plan.id() + " needs a sidecar " + Plans.DIR.relativize(smoke)
                + " (tiny-scale properties and expect.samples=N)").exists();
        String expected = Plans.load(smoke).getProperty("expect.samples");
        assertThat(expected).as("expect.samples in " + smoke).isNotBlank();
        Plans.Entry entry = Plans.entry(plan).orElseThrow(() ->
                new AssertionError(plan.id() + " needs a row in test-plans/catalog.tsv"));

        Path dir = OUT.resolve(plan.id());
        JMeterProcess.deleteRecursively(dir);
        Files.createDirectories(dir);
        List<String> args = new ArrayList<>();
        Process lab = null;
        Path labProperties = dir.resolve("lab.properties");
        Path fixtureProperties = dir.resolve("fixture.properties");
        String fixtureName = Plans.load(smoke).getProperty("fixture", "").strip();
        Secrets secrets = new Secrets();
        try (Plans.Fixture fixture = fixtureName.isEmpty() ? null : Plans.startFixture(fixtureName)) {
            if (!entry.services().isEmpty()) {
                lab = startLab(String.join(",", entry.services()), labProperties, dir.resolve("lab.log"));
                args.addAll(List.of("-q", labProperties.toString()));
            }
            if (fixture != null) {
                Properties p = new Properties();
                p.putAll(fixture.properties());
                try (var out = Files.newBufferedWriter(fixtureProperties)) {
                    p.store(out, "fixture " + fixtureName);
                }
                args.addAll(List.of("-q", fixtureProperties.toString()));
            }
            args.addAll(List.of("-q", smoke.toString()));
            // Collected while the lab runs: its key files are gone once it stops.
            Map<String, String> labProps = Secrets.read(labProperties);
            secrets.addProperties(labProps, "lab.properties").addProperties(Secrets.read(fixtureProperties), "fixture")
                    .addProperties(Secrets.read(smoke), smoke.getFileName().toString()).addPlanDefaults(plan.jmx())
                    .addKeyFiles(labProps, "lab.properties");
            JMeterProcess.run(plan.jmx(), dir.resolve("run"), args, Duration.ofMinutes(10));
        } finally {
            stop(lab);
        }
        JsonNode total = JMeterProcess.statistics(dir.resolve("run")).path("Total");
        assertThat(total.path("sampleCount").asLong()).as("Total sampleCount, see " + dir)
                .isEqualTo(Long.parseLong(expected.strip()));
        assertThat(total.path("errorCount").asLong()).as("Total errorCount, see " + dir).isZero();
        System.out.println(plan.id() + ": " + secrets.size() + " passwords and key fragments looked for in " + dir);
        assertThat(secrets.findIn(dir, Set.of(labProperties, fixtureProperties)))
                .as("passwords or private keys (of " + secrets.size() + " looked for) in the outputs under " + dir)
                .isEmpty();
    }

    /** Starts the lab on a random free port range and waits for its READY line. */
    static Process startLab(String services, Path properties, Path log) throws Exception {
        assertThat(Plans.LAB_JAR).as("lab jar (mvn package builds it)").exists();
        Process lab = new ProcessBuilder(JMeterProcess.java(), "-jar", Plans.LAB_JAR.toString(), "--services", services,
                "--port-base", Integer.toString(freePortBase()), "--out", properties.toString(),
                "--socket-dir", socketDir().toString())
                .redirectErrorStream(true).start();
        CountDownLatch ready = new CountDownLatch(1);
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(lab.getInputStream(), StandardCharsets.UTF_8));
                 PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
                for (String line; (line = in.readLine()) != null; ) {
                    out.println(line);
                    if (line.startsWith(READY)) {
                        ready.countDown();
                    }
                }
            } catch (IOException e) {
                // the lab's output ended; readiness (or its absence) decides
            }
        }, "lab-output");
        pump.setDaemon(true);
        pump.start();
        for (int i = 0; i < 600 && ready.getCount() > 0; i++) {
            if (!lab.isAlive()) {
                throw new AssertionError("lab exited with " + lab.exitValue() + " before " + READY + ", see " + log);
            }
            ready.await(500, TimeUnit.MILLISECONDS);
        }
        if (ready.getCount() > 0) {
            stop(lab);
            throw new AssertionError("lab not ready within 300 s, see " + log);
        }
        assertThat(properties).as("lab.properties written by the lab").exists();
        return lab;
    }

    private static Path socketDir;

    /**
     * The socket/key directory of every lab this test JVM starts, one at a time: private, so another
     * lab on this machine cannot share (or regenerate) it, and shared between our runs, so the pki
     * service generates its 1000 users once (~3 CPU-s, a minute on a loaded machine) and later labs
     * load them from its cache.
     */
    static synchronized Path socketDir() throws IOException {
        if (socketDir == null) {
            Path dir = Files.createTempDirectory(Path.of("/tmp"), "tl");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    JMeterProcess.deleteRecursively(dir);
                } catch (IOException e) {
                    System.err.println("cannot remove " + dir + ": " + e);
                }
            }));
            socketDir = dir;
        }
        return socketDir;
    }

    static void stop(Process p) throws InterruptedException {
        if (p != null && p.isAlive()) {
            p.destroy(); // SIGTERM: the lab stops cleanly
            if (!p.waitFor(15, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    /** Every port offset reserved for lab services: see docs/lab.md, "Port offsets". */
    private static final int[] LAB_OFFSETS = {389, 636, 8080, 8443, 8444, 8600, 8601, 8610, 8611, 8700, 8701, 8702, 8703, 8800, 8801, 8802, 8900};

    /** A base port whose lab ports are all free on 127.0.0.1. */
    static int freePortBase() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(20, 57) * 1000;
            boolean free = true;
            for (int offset : LAB_OFFSETS) {
                int port = base + offset;
                try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                    s.setReuseAddress(true);
                } catch (IOException busy) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IOException("no free port range found");
    }
}
