package org.trustload.harness.run;

import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.results.Summary;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunPlannedTest {

    private static final PlanFile.ThreadGroup SEARCHES = new PlanFile.ThreadGroup("500 users x 25 searches",
            "ThreadGroup",
            "${__P(threads,500)}", "${__P(loops,25)}", true, "${__P(max_duration,${__P(duration,600)})}", "", true, 1);

    /** {@code n} one-ms samples of the group, spread evenly over {@code spanMs}. */
    private static Summary summary(Path dir, int n, long spanMs) throws Exception {
        StringBuilder rows = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,threadName,"
                + "success\n");
        for (int i = 0; i < n; i++) {
            rows.append(1_000_000 + i * (spanMs - 1) / Math.max(1, n - 1))
                    .append(",1,search,200,ok,500 users x 25 searches 1-")
                    .append(i % 4 + 1).append(",true\n");
        }
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, rows);
        return Summary.of(jtl);
    }

    @Test
    void aLoopCountPlanCutByItsNestedCapSaysSo(@TempDir Path dir) throws Exception {
        Map<String, String> props = Map.of("threads", "4", "loops", "25", "duration", "20");
        assertThat(RunHeader.planned(SEARCHES, props, summary(dir, 80, 20_000), 1))
                .hasValue("planned 100, ran 80, cut by the cap (00:00:20)");
        assertThat(RunHeader.planned(SEARCHES, props, summary(dir, 100, 3_000), 1)).hasValue("planned 100, ran 100");
        assertThat(RunHeader.planned(SEARCHES, props, summary(dir, 4, 100), 1))
                .hasValue("planned 100, ran 4, 96 not run (the test stopped early)");
        assertThat(RunHeader.planned(SEARCHES, props, summary(dir, 100, 3_000), 2))
                .hasValue("planned 200, ran 100, 100 not run (the test stopped early)");
        assertThat(RunHeader.planned(SEARCHES, Map.of("loops", "-1"), summary(dir, 100, 3_000), 1)).isEmpty();
    }
}
