package org.trustload.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {

    private static final long T0 = 1_000_000;

    private static LoadGenerator of(LoadGenerator.Jvm... jvms) {
        return new LoadGenerator(List.of(jvms), 71, T0, T0 + 42_000, false);
    }

    @Test
    void everySummarySaysWhatTheBusiestJvmUsedWithinTheWidth() {
        String text = of(new LoadGenerator.Jvm("pid 7", 2, 38.4, 120, 0.3, 0.21)).text();
        assertThat(text.replaceAll("\\s+", " ")).contains("Load generator: JMeter (pid 7) used 38% of the 2 CPUs it may use"
                + " over the 00:00:42 of samples; GC 0.12 s (0.3% of the time); its threads waited for a CPU 0.21 ms per ms of CPU;"
                + " this machine was 71% busy.").doesNotContain("Warning");
        assertThat(text.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(Summary.WIDTH));
    }

    @Test
    void aSaturatedOrStarvedLoadGeneratorGetsThePlainWarning() {
        LoadGenerator busy = of(new LoadGenerator.Jvm("engine pid 8", 2, 93, 50, 0.1, 0.2),
                new LoadGenerator.Jvm("pid 7", 2, 5, 10, 0.1, 0.1));
        assertThat(busy.saturated()).isTrue();
        assertThat(busy.text().replaceAll("\\s+", " ")).contains("the busiest of 2 JMeter JVMs (engine pid 8) used 93%",
                "pid 7: 5% of 2 CPUs", "Warning: JMeter used 93% of its CPUs: the figures above may be the load generator's limit");
        LoadGenerator starved = of(new LoadGenerator.Jvm("pid 7", 2, 20, Double.NaN, Double.NaN, 1.5));
        assertThat(starved.saturated()).isTrue();
        assertThat(starved.text().replaceAll("\\s+", " ")).contains("GC (unknown)", "Warning: JMeter's threads waited for a CPU at"
                + " least as long as they ran (1.50 ms per ms): the figures above may be the load generator's limit");
        assertThat(of(new LoadGenerator.Jvm("pid 7", 2, 89.9, 0, 0, 0.99)).saturated()).isFalse();
    }

    @Test
    void aShortRunIsMeasuredOverTheJvmsWholeLifeAndSaysSo() {
        String text = new LoadGenerator(List.of(new LoadGenerator.Jvm("pid 7", 2, 60, 0, 0, 0.1)), 50, T0, T0 + 9000, true).text();
        assertThat(text.replaceAll("\\s+", " ")).contains("over its whole life (00:00:09, start-up and report included: the"
                + " samples spanned under 2 s)");
        assertThat(new LoadGenerator(List.of(), Double.NaN, T0, T0, true).text()).contains("Load generator: not measured");
    }
}
