package org.trustload.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every bench runs once at its tiny scale ({@code ./trustload bench NAME --tiny}: the harness holds each
 * bench's tiny arguments), through the harness as a user runs it, so that no bench rots between the
 * measurements. Nothing here reads a figure: a tiny run measures nothing. The benches of {@link #HERE} run here,
 * the others in {@link BenchTinyPeersIT}, in a second JVM at the same time (bench/pom.xml); the halves take about
 * as long (2026-12-07, load 20: ldap 156 s, pki 165 s, the others 26-65 s).
 *
 * <p>CI budget: ~2.5 min: five benches, each its own JVMs and servers (labs, slapd, the Tongsuo peer) started as a
 * user's bench starts them.
 */
class BenchTinyIT {

    /** The benches of {@code ./trustload bench} (the help text must list the same). */
    static final List<String> BENCHES = List.of("ldap", "pki", "login", "kms", "kms-aliyun", "gmssl", "tongsuo",
            "cost", "reference", "faults", "soak", "jvmstats");
    /** The benches this class runs; {@link BenchTinyPeersIT#HERE} the rest. */
    static final List<String> HERE = List.of("ldap", "kms", "kms-aliyun", "tongsuo", "jvmstats", "soak");

    private static final Path ROOT = Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();

    static Process harness(Path log, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(":",
                        ROOT.resolve("harness/target/trustload-harness.jar").toString(), // as ./trustload gives it
                        ROOT.resolve("dist/target/jmeter/lib") + "/*",
                        ROOT.resolve("dist/target/jmeter/lib/ext") + "/*"),
                "-Dtrustload.root=" + ROOT, "org.trustload.harness.Main"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(new File("/dev/null")).start();
    }

    @Test
    void theHelpListsEveryBenchTested() throws Exception {
        Path log = Files.createTempFile("bench-help", ".txt");
        Process p = harness(log, "help");
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<String> lines = Files.readAllLines(log);
        Files.delete(log);
        // the command's usage line and its summary, wrapped on the lines after it (up to the next command)
        StringBuilder bench = new StringBuilder();
        boolean in = false;
        for (String l : lines) {
            if (l.contains("bench NAME")) {
                in = true;
            } else if (in && (l.isBlank() || l.matches("  \\S.*"))) {
                break;
            }
            if (in) {
                bench.append(' ').append(l.strip());
            }
        }
        assertThat(bench.toString()).as("help text of bench").contains(String.join(", ", BENCHES));
    }

    @Test
    void theTwoClassesRunEveryBenchOnce() {
        List<String> both = new java.util.ArrayList<>(HERE);
        both.addAll(BenchTinyPeersIT.HERE);
        assertThat(both).as("the benches of BenchTinyIT and BenchTinyPeersIT")
                .containsExactlyInAnyOrderElementsOf(BENCHES);
    }

    @TestFactory
    Stream<DynamicTest> everyBenchRunsAtTinyScale() {
        return tiny(HERE);
    }

    /** A dynamic test per bench of {@code names}: {@code ./trustload bench NAME --tiny} exits 0. */
    static Stream<DynamicTest> tiny(List<String> names) {
        return names.stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            Path dir = ROOT.resolve("bench/target/tiny");
            Files.createDirectories(dir);
            Path log = dir.resolve(name + ".txt");
            long t0 = System.nanoTime();
            Process p = harness(log, "bench", name, "--tiny");
            // the harness stops a tiny bench after 10 minutes; this is the backstop
            if (!p.waitFor(11, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            System.out.printf("bench %s --tiny: exit %s in %.1f s%n", name, p.isAlive() ? "-" : p.exitValue(),
                    (System.nanoTime() - t0) / 1e9);
            assertThat(p.exitValue()).as("./trustload bench " + name + " --tiny, output:\n" + output).isZero();
        }));
    }
}
