package org.trustload.testing.jvmstats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.trustload.jvmstats.ChildJvm;
import org.trustload.jvmstats.SourceConfig;
import org.trustload.jvmstats.StatsException;
import org.trustload.jvmstats.StatsSnapshot;
import org.trustload.jvmstats.StatsSource;
import org.trustload.jvmstats.StatsSources;
import org.trustload.testing.JmxExporterAgent;
import org.trustload.testing.NodeExporter;

/**
 * The JVM Stats {@code prometheus} source against the two real exporters, on loopback: Debian's
 * node_exporter (the host's CPU) and the Prometheus JMX exporter agent from Maven Central inside a JVM
 * that burns CPU and allocates (its process CPU and GC).
 */
class PrometheusSourceIT {

    @Test
    void nodeExporterGivesTheHostsCpu() throws Exception {
        NodeExporter.assumeOrFailInCi();
        try (NodeExporter n = NodeExporter.start();
             StatsSource s = StatsSources.open("prometheus", SourceConfig.of(n.url()))) {
            StatsSnapshot a = s.poll();
            long end = System.nanoTime() + 300_000_000L;
            long x = 0;
            while (System.nanoTime() < end) {
                x += x * 31 + 1; // this JVM's work shows in the host's CPU
            }
            Thread.sleep(200);
            StatsSnapshot b = s.poll();
            assertThat(x).isNotZero();
            assertThat(a.cpuCount()).as("CPUs node_exporter lists")
                    .isEqualTo(Runtime.getRuntime().availableProcessors());
            assertThat(b.cpuMs() - a.cpuMs()).as("host CPU ms over ~0.5 s of this JVM spinning").isGreaterThan(100);
            assertThat(s.describe()).contains("prometheus exporter http://127.0.0.1:");
        }
    }

    @Test
    void jmxExporterAgentGivesTheJvmsCpuAndGc() throws Exception {
        Path dir = Files.createTempDirectory("tl-jmx-exporter");
        JmxExporterAgent agent = JmxExporterAgent.prepare(dir);
        try (ChildJvm child = ChildJvm.start("burn", agent.jvmArgs().toArray(String[]::new));
             StatsSource s = open(agent.url())) {
            StatsSnapshot a = s.poll();
            Thread.sleep(1500);
            StatsSnapshot b = s.poll();
            assertThat(b.cpuMs() - a.cpuMs())
                    .as("CPU ms of a JVM burning a core for 1.5 s (on a shared machine it gets less)")
                    .isGreaterThan(100);
            assertThat(b.youngGcCount()).as("young collections of a JVM allocating garbage").isGreaterThan(0);
            assertThat(b.youngGcTimeMs()).isGreaterThan(0);
            assertThat(b.heapUsedBytes()).isGreaterThan(0);
            assertThat(b.threads()).isGreaterThan(1);
            assertThat(b.cpuCount()).as("a process exporter does not know the host's CPUs").isEqualTo(-1);
        } finally {
            Files.deleteIfExists(dir.resolve("jmx-exporter.yaml"));
            Files.deleteIfExists(dir);
        }
    }

    /** The agent's HTTP server starts with the JVM, a moment after READY may be printed. */
    private static StatsSource open(String url) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (true) {
            try {
                return StatsSources.open("prometheus", SourceConfig.of(url));
            } catch (StatsException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }
}
