package org.trustload.harness.results;

import org.trustload.harness.results.LoadGenerator;
import org.trustload.harness.results.Summary;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {

    private static final long T0 = 1_000_000;

    /** 10,000 samples over 42 s, median 34 ms. */
    private static LoadGenerator of(LoadGenerator.Jvm... jvms) {
        return new LoadGenerator(List.of(jvms), 71, T0, T0 + 42_000, false, 10_000, 34, 36);
    }

    @Test
    void everySummarySaysWhatTheBusiestJvmUsedWithinTheWidth() {
        String text = of(new LoadGenerator.Jvm("pid 7", 2, 38.4, 120, 0.3, 2_100)).text();
        assertThat(text.replaceAll("\\s+", " ")).contains("Load generator: JMeter (pid 7) used 38% of the 2 CPUs it"
                + " may use over the 00:00:42 of samples; GC 0.12 s (0.3% of the time); its threads waited for a CPU"
                + " 0.210 ms per sample against a median response time of 34.0 ms (1%; material from 20%); this"
                + " machine was 71% busy.").doesNotContain("Warning");
        assertThat(text.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(Summary.WIDTH));
    }

    @Test
    void aSaturatedLoadGeneratorOrAWaitThatExplainsTheResponseTimesGetsThePlainWarning() {
        LoadGenerator busy = of(new LoadGenerator.Jvm("engine pid 8", 2, 93, 50, 0.1, 2_000),
                new LoadGenerator.Jvm("pid 7", 2, 5, 10, 0.1, 100));
        assertThat(busy.saturated()).isTrue();
        assertThat(busy.text().replaceAll("\\s+", " ")).contains("the busiest of 2 JMeter JVMs (engine pid 8) used 93%",
                "their threads waited for a CPU 0.210 ms per sample", "pid 7: 5% of 2 CPUs",
                "Warning: JMeter used 93% of its CPUs: the figures above may be the load generator's limit");
        // 8 ms per sample against p50 34 ms
        LoadGenerator starved = of(new LoadGenerator.Jvm("pid 7", 2, 20, Double.NaN, Double.NaN, 80_000));
        assertThat(starved.saturated()).isTrue();
        assertThat(starved.text().replaceAll("\\s+", " ")).contains("GC (unknown)", "Warning: JMeter's threads"
                + " waited for a CPU a material share of the response times (24%): the figures above may be the load"
                + " generator's limit");
    }

    /** FACTS 2026-12-07: a JVM that waited as long as it ran, under a millisecond per sample against a 34 ms median. */
    @Test
    void aWaitRatioAloneIsNoWarning() {
        assertThat(of(new LoadGenerator.Jvm("pid 7", 1, 36, 0, 0, 8_000)).saturated())
                .as("0.8 ms per sample, p50 34 ms").isFalse();
        assertThat(of(new LoadGenerator.Jvm("pid 7", 2, 89.9, 0, 0, 60_000)).saturated())
                .as("6 ms per sample, p50 34 ms").isFalse();
        LoadGenerator.Jvm jvm = new LoadGenerator.Jvm("pid 7", 2, 30, 0, 0, 1_000);
        assertThat(new LoadGenerator(List.of(jvm), 50, T0, T0 + 42_000, false, 0, Double.NaN, Double.NaN).text())
                .contains("its threads' wait for a CPU (unknown)").doesNotContain("Warning");
    }

    @Test
    void aShortRunIsMeasuredOverTheJvmsWholeLifeAndSaysSo() {
        LoadGenerator.Jvm jvm = new LoadGenerator.Jvm("pid 7", 2, 60, 0, 0, 10);
        String text = new LoadGenerator(List.of(jvm), 50, T0, T0 + 9000, true, 100, 3, 3).text();
        assertThat(text.replaceAll("\\s+", " ")).contains("over its whole life (00:00:09, start-up and report included:"
                + " the samples spanned under 2 s)");
        assertThat(new LoadGenerator(List.of(), Double.NaN, T0, T0, true, 0, Double.NaN, Double.NaN).text())
                .contains("Load generator: not measured");
    }
}
