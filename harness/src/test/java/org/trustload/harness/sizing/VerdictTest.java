package org.trustload.harness.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VerdictTest {

    /** A step at load {@code offered}: achieved/s, p50, p99, load CPU %, server CPU %, server ms/op, machine %, broken rules. */
    private static Step step(double offered, double achieved, double p50, double p99, double loadPct, double serverPct,
                             double serverMs, double machine, String... broken) {
        return new Step("ramp-1", 0, offered, Double.NaN, 10, achieved, (long) (achieved * 10), 0, p50, p50, p99, p99, p99, p99,
                loadPct, 0.01, 0.1, serverPct, serverMs, 0, 0, machine, List.of(broken), "");
    }

    @Test
    void aServerAtItsCpuLimitGivesACapacityAndTheSizingSentence() {
        List<Step> steps = List.of(step(8, 4000, 2, 10, 30, 60, 0.14, 70), step(16, 7000, 3, 15, 40, 88, 0.14, 80),
                step(32, 7100, 9, 40, 45, 97, 0.14, 95, "p99 40 ms > 20 ms"));
        Verdict v = Verdict.of(steps, Optional.empty(), false, false, false, 1, "searches", "p99<=20ms", 2);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SERVER);
        assertThat(v.limit()).startsWith("the server's CPU (97% of 2 CPUs");
        assertThat(v.sentence()).isEqualTo("7,000 searches/s at p99<=20ms with the server at 88% of 2 CPUs: ~0.140 ms CPU per"
                + " search -> 1 CPU per 7,140 searches/s.");
    }

    @Test
    void aBusyLoadGeneratorIsNeverTheServersCapacity() {
        List<Step> steps = List.of(step(8, 4000, 2, 10, 60, 20, 0.1, 70), step(16, 4300, 9, 40, 96, 22, 0.1, 98, "p99 40 ms > 20 ms"));
        Verdict v = Verdict.of(steps, Optional.empty(), false, false, false, 1, "searches", "p99<=20ms", 2);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.CLIENT);
        assertThat(v.sentence()).startsWith("Client-bound, no verdict").contains("not the server's capacity", "try 2 engines on other machines (--remote HOST,...");
        assertThat(v.enginesNext()).isEqualTo(2);
    }

    /** A step whose load generator's threads waited for a CPU 12 times as long as they ran, on a machine this busy. */
    private static Step starved(double machine) {
        return new Step("ramp-1", 0, 60, 60, 2, 59.7, 119, 0, 16800, 16800, 17100, 17200, 17200, 17200, 34, 0.5, 12.0,
                Double.NaN, Double.NaN, -1, Double.NaN, machine, List.of("p99 17171 ms > 50 ms"), "");
    }

    @Test
    void aLoadGeneratorWaitingForACpuMeasuresItsOwnQueueing() {
        Verdict v = Verdict.of(List.of(starved(60)), Optional.empty(), false, false, true, 1, "requests", "p99<=50ms", 0);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.CLIENT);
        assertThat(v.limit()).contains("waited for a CPU 12.0 times as long as they ran");
        assertThat(v.best()).isEmpty();
    }

    @Test
    void aMachineSaturatedByOtherWorkGivesNoVerdict() {
        Verdict v = Verdict.of(List.of(starved(100)), Optional.empty(), false, false, true, 1, "requests", "p99<=50ms", 0);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.HOST_BUSY);
        assertThat(v.sentence()).startsWith("No verdict: this machine was 100% busy").contains("mostly with other processes");
    }

    @Test
    void aPlateauWithoutABreachIsStillAKnee() {
        List<Step> steps = List.of(step(2, 40, 50, 60, 5, 3, 0.5, 20), step(4, 40, 100, 110, 5, 3, 0.5, 20),
                step(8, 40, 200, 210, 5, 3, 0.5, 20));
        Verdict v = Verdict.of(steps, Optional.empty(), true, true, false, 1, "requests", "p99<=3000ms", 2);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SERVER);
        assertThat(v.limit()).contains("a limit other than CPU");
    }

    @Test
    void noLimitAndBrokenAtTheStartAreNoVerdict() {
        assertThat(Verdict.of(List.of(step(1, 100, 1, 2, 5, 5, 0.1, 10)), Optional.empty(), false, false, false, 1, "r",
                "p99<=5ms", 2).kind()).isEqualTo(Verdict.Kind.NOT_REACHED);
        assertThat(Verdict.of(List.of(step(1, 100, 1, 9, 5, 5, 0.1, 10, "p99 9 ms > 5 ms")), Optional.empty(), false, false,
                false, 1, "r", "p99<=5ms", 2).kind()).isEqualTo(Verdict.Kind.BELOW_START);
    }
}
