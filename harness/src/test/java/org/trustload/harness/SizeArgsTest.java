package org.trustload.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.trustload.harness.cli.Commands;
import org.trustload.harness.sizing.Settings;
import org.trustload.harness.sizing.SizingPlan;

class SizeArgsTest {

    @Test
    void readsTheSearchOptions() throws HarnessException {
        Settings s = Commands.sizeSettings(List.of("--slo", "p99<=20ms,errors<=1%", "--model=open", "--start", "50",
                "--factor", "1.5",
                "--step-time", "1m", "--warmup", "15s", "--max-time", "1h", "--engines", "2", "-Jcase=sign", "--unit",
                        "searches"));
        assertThat(s.model()).isEqualTo(SizingPlan.Model.OPEN);
        assertThat(s.stepMs()).isEqualTo(60_000);
        assertThat(s.warmupMs()).isEqualTo(15_000);
        assertThat(s.maxTimeMs()).isEqualTo(3_600_000);
        assertThat(s.engines()).isEqualTo(2);
        assertThat(s.jmeterArgs()).containsExactly("-Jcase=sign");
        assertThat(s.next(50)).isEqualTo(75);
        assertThat(s.guardErrorsPct()).as("stop badly broken error budgets at 10x the budget, at least 10%")
                .isEqualTo(10);
    }

    @Test
    void closedStepsAreWholeThreadsThatAlwaysGrow() throws HarnessException {
        Settings s = Commands.sizeSettings(List.of("--slo", "p99<=1s", "--factor", "1.2"));
        assertThat(s.startLoad()).isEqualTo(1);
        assertThat(s.next(1)).isEqualTo(2);
        assertThat(s.next(10)).isEqualTo(12);
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--model", "open"))).hasMessageContaining("--slo");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "p99>5")))
                .hasMessageContaining("--slo: cannot read the rule");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "p99<=5ms", "--model", "both")))
                .hasMessageContaining("--model");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "p99<=5ms,outage<=5s")))
                .hasMessageContaining("judged over a whole run");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "p99<=5ms", "--warmup", "30s")))
                .hasMessageContaining("shorter");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "p99<=5ms", "--factor", "1")))
                .hasMessageContaining("above 1.05");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "p99<=5ms", "--load-cpus", "all")))
                .hasMessageContaining("CPU list");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "server.cpu<=90%", "--no-lab")))
                .hasMessageContaining("needs a watched server");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "p99<=5ms", "--step-time", "soon")))
                .hasMessageContaining("--step-time");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "p99<=5ms", "--step-time", "500ms")))
                .hasMessageContaining("lower bound");
        assertThatThrownBy(() -> Commands.sizeSettings(List.of("--slo", "p99<=5ms", "--engines", "2", "--remote", "h")))
                .hasMessageContaining("not allowed to be used together");
    }
}
