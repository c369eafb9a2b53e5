package org.trustload.harness.jmx;

import org.trustload.harness.TestHome;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.jmx.PlanTree;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.jmeter.sampler.DebugSampler;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.jmeter.jvmstats.JvmStats;

/** The controller of a distributed run lists the columns of the plan's enabled JVM Stats elements, and only theirs. */
class JvmStatsColumnsTest {

    @BeforeAll
    static void jmeter() {
        TestHome.init();
    }

    private static JvmStats jvmStats(String prefix, boolean enabled) {
        JvmStats s = PlanTree.element(new JvmStats(), PlanTree.TEST_BEAN_GUI, "JVM Stats " + prefix);
        s.setProperty("variablePrefix", prefix);
        s.setEnabled(enabled);
        return s;
    }

    @Test
    void aPlanWithJvmStatsGetsItsPrefixesColumnsInPlanOrder(@TempDir Path dir) throws Exception {
        HashTree plan = PlanTree.plan("p", false);
        PlanTree.planNode(plan).add(jvmStats("load", true));
        PlanTree.planNode(plan).add(jvmStats("off", false));
        PlanTree.planNode(plan).add(jvmStats("", true));
        String columns = PlanFile.jvmStatsColumns(PlanTree.save(plan, dir.resolve("p.jmx"))).orElseThrow();
        assertThat(columns.split(",")).hasSize(18).startsWith("load_cpu_ms", "load_cpu_pct").endsWith("jvm_rss_mb",
                "jvm_threads")
                .noneMatch(c -> c.startsWith("off_"));
    }

    @Test
    void aPlanWithoutJvmStatsGetsNoColumns(@TempDir Path dir) throws Exception {
        HashTree plan = PlanTree.plan("p", false);
        PlanTree.planNode(plan).add(PlanTree.element(new DebugSampler(), PlanTree.TEST_BEAN_GUI, "debug"));
        assertThat(PlanFile.jvmStatsColumns(PlanTree.save(plan, dir.resolve("p.jmx")))).isEmpty();
    }
}
