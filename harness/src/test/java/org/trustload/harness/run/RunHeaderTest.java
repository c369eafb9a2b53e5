package org.trustload.harness.run;

import org.trustload.harness.TestHome;
import org.trustload.harness.jmx.PlanFile;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.jmeter.slo.SloStop;

class RunHeaderTest {

    private static final Path PLANS = TestHome.PLANS;

    @BeforeAll
    static void jmeter() {
        TestHome.init();
    }

    @Test
    void theHeaderSaysWhatRepeatsInsideALoopAsThePlanRanIt() throws Exception {
        PlanFile.ThreadGroup tg = PlanFile.threadGroups(PLANS.resolve("ldap/ldap-vs-ldaps-vs-ldapi.jmx")).get(0);
        assertThat(RunHeader.threadsLine(tg, Map.of(), null, 1))
                .isEqualTo("ldap then ldaps then ldapi: 1 thread, 1 loop, at most 01:00:00 (duration cap)");
        assertThat(RunHeader.inside(tg, Map.of())).hasValue("each loop: Loop Controllers of 1, 100, 1000 iterations;"
                + " Runtime Controllers of 10 s");
        assertThat(RunHeader.inside(tg, Map.of("n3", "200", "warmup_seconds", "0")))
                .hasValue("each loop: Loop Controllers of 1, 100, 200 iterations; Runtime Controllers of 0 s");
        PlanFile.ThreadGroup searches = PlanFile.threadGroups(PLANS.resolve("ldap/ldap-search-200x10.jmx")).get(0);
        assertThat(RunHeader.threadsLine(searches, Map.of("threads", "20", "rampup", "5"), null, 2))
                .startsWith("200 users x 10 searches: 20 threads on each of 2 engines, 10 loops, ramp-up 5 s, at most"
                        + " ");
        assertThat(RunHeader.inside(searches, Map.of())).isEmpty();
        PlanFile.ThreadGroup open = new PlanFile.ThreadGroup("size-s03 arrivals", "OpenModelThreadGroup", "", "", false,
                "",
                "", true, 1);
        assertThat(RunHeader.threadsLine(open, Map.of(), null, 1))
                .isEqualTo("size-s03 arrivals: threads as its arrivals need (open model)");
    }

    @Test
    void theHarnessFindsSloStopsLine() {
        assertThat(ExitRules.SLO_STOP_LINE).isEqualTo(SloStop.BROKEN_LINE);
        String console = "summary = 5\n" + SloStop.BROKEN_LINE + ": p99 812 ms > 500 ms (objective p99<=500ms, broken"
                + " for 10 s, 40 samples in the last 10 s); stopping the test at 1795925515799\n";
        assertThat(ExitRules.sloStopLine(console, null)).hasValue(SloStop.BROKEN_LINE + ": p99 812 ms > 500 ms"
                + " (objective p99<=500ms, broken for 10 s, 40 samples in the last 10 s); stopping the test");
        assertThat(ExitRules.sloStopLine("nothing", null)).isEmpty();
    }
}
