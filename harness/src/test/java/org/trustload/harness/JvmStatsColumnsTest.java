package org.trustload.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller of a distributed run lists the columns of the plan's JVM Stats elements, and only theirs. */
class JvmStatsColumnsTest {

    @Test
    void aPlanWithJvmStatsGetsItsPrefixesColumnsInPlanOrder(@TempDir Path dir) throws Exception {
        Path jmx = dir.resolve("p.jmx");
        Files.writeString(jmx, """
                <org.trustload.jmeter.jvmstats.JvmStats testclass="org.trustload.jmeter.jvmstats.JvmStats">
                <stringProp name="variablePrefix">load</stringProp></org.trustload.jmeter.jvmstats.JvmStats>
                <org.trustload.jmeter.jvmstats.JvmStats testclass="org.trustload.jmeter.jvmstats.JvmStats">
                <stringProp name="variablePrefix">jvm</stringProp></org.trustload.jmeter.jvmstats.JvmStats>
                """);
        String columns = Run.jvmStatsColumns(jmx).orElseThrow();
        assertThat(columns.split(",")).hasSize(18).startsWith("load_cpu_ms", "load_cpu_pct").endsWith("jvm_rss_mb", "jvm_threads");
    }

    @Test
    void aPlanWithoutJvmStatsGetsNoColumns(@TempDir Path dir) throws Exception {
        Path jmx = dir.resolve("p.jmx");
        Files.writeString(jmx, "<DebugSampler testclass=\"DebugSampler\"/>");
        assertThat(Run.jvmStatsColumns(jmx)).isEmpty();
    }
}
