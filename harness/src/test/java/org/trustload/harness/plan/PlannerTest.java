package org.trustload.harness.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.harness.HarnessException;

/** plan's command line, the verify run's reading of a size report, and the 10% rule. */
class PlannerTest {

    @Test
    void theCommandLineTakesAFileATargetVerifyAndOut(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("w.properties"), "");
        Planner.Args a = Planner.parse(List.of(f.toString(), "--target", "6000/min", "--verify", "--out="
                + dir.resolve("o")));
        assertThat(a.target().perSecond()).isEqualTo(100);
        assertThat(a.verify()).isTrue();
        assertThat(a.out()).isEqualTo(dir.resolve("o"));
        assertThatThrownBy(() -> Planner.parse(List.of())).isInstanceOf(HarnessException.class)
                .hasMessageContaining("workload FILE");
        assertThatThrownBy(() -> Planner.parse(List.of(f.toString(), "--target",
                "fast"))).hasMessageContaining("100/s or 6000/min");
        assertThatThrownBy(() -> Planner.parse(List.of(f.toString(),
                "--bogus"))).hasMessageContaining("Unknown argument '--bogus'");
        assertThatThrownBy(() -> Planner.parse(List.of(dir.resolve("none").toString())))
                .hasMessageContaining("no workload file");
    }

    @Test
    void aPredictionHoldsWithinTenPercent() {
        assertThat(Planner.within(65, 61.5)).isEqualTo("within 10% (+5.7%)");
        assertThat(Planner.within(50, 61.5)).isEqualTo("off by -18.7% (more than 10%)");
    }

    @Test
    void theVerifyRunsJudgedStepIsReadFromItsReport(@TempDir Path dir) throws Exception {
        Path json = Files.writeString(dir.resolve("sizing.json"), """
                {"format":"trustload-sizing/1","steps":[{"phase":"ramp-1","index":1,"achieved":149.5,"samples":1495,
                "errors":0,"p99":40,"serverCpuPct":61.0,"loadCpuMsPerOp":0.4,"good":true,"broken":[],"stoppedBy":""}]}
                """);
        Planner.Checked c = Planner.checked("web", 150, json);
        assertThat(c.good()).isTrue();
        assertThat(c.serverCpuPct()).isEqualTo(61);
        assertThat(c.clientCpus()).isEqualTo(0.4 * 149.5 / 1000);
    }
}
