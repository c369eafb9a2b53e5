package org.trustload.jvmstats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The text format and what each exporter's page gives (pages as node_exporter 1.5 and the JMX exporter 1.0.1 write
 * them).
 */
class PrometheusTextTest {

    private static final String NODE = """
            # HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.
            # TYPE node_cpu_seconds_total counter
            node_cpu_seconds_total{cpu="0",mode="idle"} 1000.5
            node_cpu_seconds_total{cpu="0",mode="iowait"} 3
            node_cpu_seconds_total{cpu="0",mode="system"} 20.25
            node_cpu_seconds_total{cpu="0",mode="user"} 40
            node_cpu_seconds_total{cpu="1",mode="idle"} 990
            node_cpu_seconds_total{cpu="1",mode="softirq"} 0.75
            node_cpu_seconds_total{cpu="1",mode="user"} 39
            # HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
            process_cpu_seconds_total 7.5
            """;

    private static final String JMX = """
            # HELP jvm_gc_collection_seconds Time spent in a given JVM garbage collector in seconds.
            # TYPE jvm_gc_collection_seconds summary
            jvm_gc_collection_seconds_count{gc="G1 Young Generation",} 12.0
            jvm_gc_collection_seconds_sum{gc="G1 Young Generation",} 0.084
            jvm_gc_collection_seconds_count{gc="G1 Old Generation",} 1.0
            jvm_gc_collection_seconds_sum{gc="G1 Old Generation",} 0.031
            jvm_memory_used_bytes{area="heap",} 5.24288E7
            jvm_memory_used_bytes{area="nonheap",} 3.0E7
            jvm_memory_committed_bytes{area="heap",} 1.34217728E8
            jvm_threads_current 23.0
            process_cpu_seconds_total 3.21
            process_resident_memory_bytes 2.1E8
            process_open_fds 41.0
            jmx_scrape_error 0.0
            label_with_escapes{path="a\\"b\\\\c",} +Inf
            """;

    @Test
    void nodeExporterGivesTheHostsBusyCpuAndItsCpuCount() throws StatsException {
        StatsSnapshot s = PrometheusSource.snapshot(PrometheusText.parse(NODE), 1000);
        assertThat(s.cpuMs()).as("all modes but idle and iowait, not the exporter's own process").isEqualTo(100_000.0);
        assertThat(s.cpuCount()).isEqualTo(2);
        assertThat(s.gcCount()).isEqualTo(-1);
    }

    @Test
    void jmxExporterGivesTheProcessCpuGcHeapAndThreads() throws StatsException {
        StatsSnapshot s = PrometheusSource.snapshot(PrometheusText.parse(JMX), 1000);
        assertThat(s.cpuMs()).isEqualTo(3210.0);
        assertThat(s.youngGcCount()).isEqualTo(12);
        assertThat(s.youngGcTimeMs()).isEqualTo(84.0);
        assertThat(s.fullGcCount()).isEqualTo(1);
        assertThat(s.heapUsedBytes()).isEqualTo(52428800.0);
        assertThat(s.threads()).isEqualTo(23);
        assertThat(s.rssBytes()).isEqualTo(210_000_000L);
        assertThat(s.openFiles()).isEqualTo(41);
    }

    @Test
    void labelsWithEscapesAndSpecialValues() throws StatsException {
        List<PrometheusText.Sample> all = PrometheusText.parse(JMX);
        PrometheusText.Sample esc = all.stream().filter(x -> x.name().equals("label_with_escapes"))
                .findFirst().orElseThrow();
        assertThat(esc.label("path")).isEqualTo("a\"b\\c");
        assertThat(esc.value()).isInfinite();
    }

    @Test
    void aPageWithoutCpuOrNotInTheFormatIsAClearError() {
        assertThatThrownBy(() -> PrometheusSource.snapshot(PrometheusText.parse("up 1\n"), 1))
                .hasMessageContaining("neither node_cpu_seconds_total");
        assertThatThrownBy(() -> PrometheusText.parse("<html>not metrics</html>\n")).hasMessageContaining("line 1");
        assertThatThrownBy(() -> new PrometheusSource(SourceConfig.of("ftp://x/metrics")))
                .hasMessageContaining("http(s) URL");
    }
}
