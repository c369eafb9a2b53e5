package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs the assembled JMeter headless in a subprocess, as users do, and reads what it wrote. */
final class JMeterProcess {

    private JMeterProcess() {
    }

    /**
     * Runs {@code plan} in a fresh {@code dir} with the extra arguments (-q files, -J properties),
     * writing results.jtl, jmeter.log, console.txt and the dashboard under report/. Fails the test
     * when JMeter does not end in {@code timeout} or exits non-zero.
     */
    static Path run(Path plan, Path dir, List<String> args, Duration timeout) throws Exception {
        int status = execute(plan, dir, args, timeout);
        assertThat(status).as("JMeter exit status, see " + dir.resolve("console.txt")).isZero();
        Path results = dir.resolve("results.jtl");
        assertThat(results).as("results file").exists();
        assertThat(Files.readAllLines(results)).as("results beyond the header line").hasSizeGreaterThan(1);
        return dir;
    }

    /**
     * Runs {@code plan} like {@link #run} but only returns JMeter's exit status: for tests of what
     * JMeter does when a run goes wrong.
     */
    static int execute(Path plan, Path dir, List<String> args, Duration timeout) throws Exception {
        deleteRecursively(dir);
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>(jmeterCommand());
        cmd.addAll(List.of("-n", "-t", plan.toString()));
        cmd.addAll(args);
        cmd.addAll(List.of("-l", "results.jtl", "-j", "jmeter.log", "-e", "-o", "report"));
        Process jmeter = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("console.txt").toFile()).start();
        if (!jmeter.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            jmeter.destroyForcibly();
            throw new AssertionError(plan + ": JMeter did not finish in " + timeout + ", see " + dir);
        }
        return jmeter.exitValue();
    }

    /**
     * The command line every JMeter JVM of the tests starts with, up to and including the launcher
     * jar: controllers and distributed engines ({@link JMeterEngines}) get the same JVM flags, like
     * {@code ./trustload}'s {@code jmeter_java}. RMI is told to use the loopback address (distributed
     * mode binds and announces it; harmless otherwise).
     */
    static List<String> jmeterCommand() {
        return List.of(java(), "-Xms256m", "-Xmx1g", "-Djava.rmi.server.hostname=127.0.0.1",
                "-jar", Plans.HOME.resolve("bin/ApacheJMeter.jar").toString());
    }

    /** The dashboard's statistics.json, keyed by label and "Total". */
    static JsonNode statistics(Path dir) throws IOException {
        Path stats = dir.resolve("report/statistics.json");
        assertThat(stats).as("dashboard statistics").exists();
        return new ObjectMapper().readTree(stats.toFile());
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
