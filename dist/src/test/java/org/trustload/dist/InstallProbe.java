package org.trustload.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code install-probe.jmx} in a JMeter home with its own {@code bin/jmeter} (which sources
 * {@code bin/setenv.sh}, as JMeter's official script does) and {@code -q bin/trustload.properties}: an
 * install path is complete when the GM-SSL engine bgm starts (JVM options and bgmprovider jars: what TLCP
 * Request needs), the JVM Stats element adds its columns and the dashboard gets its graphs.
 */
final class InstallProbe {

    private InstallProbe() {
    }

    static void assertComplete(Path home, Path work) throws Exception {
        Path plan = Path.of(InstallProbe.class.getResource("/install-probe.jmx").toURI());
        Files.createDirectories(work);
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/jmeter").toString(), "-n", "-t", plan.toString(),
                "-q", home.resolve("bin/trustload.properties").toString(), "-Jjmeterengine.nongui.port=0",
                "-l", "results.jtl", "-j", "jmeter.log", "-e", "-o", "report")
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(work.resolve("out.txt").toFile());
        pb.environment().put("HEAP", "-Xms128m -Xmx512m");
        pb.environment().remove("JVM_ARGS");
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("JMeter finished").isTrue();
        assertThat(p.exitValue()).as(Files.readString(work.resolve("out.txt"))).isZero();
        assertThat(Files.readString(work.resolve("results.jtl"))).as("the probe's sample")
                .contains("bgm engine available").doesNotContain("missing JVM options");
        // the JVM Stats element (listeners jar) adds its columns at test start; the graphs come from
        // trustload.properties
        assertThat(Files.readAllLines(work.resolve("results.jtl")).get(0)).as("results header").contains("jvm_cpu_ms");
        assertThat(Files.readString(work.resolve("report/content/pages/CustomsGraphs.html")))
                .as("JVM Stats graphs on the dashboard").contains("JVM Stats (watched JVM)");
    }
}
