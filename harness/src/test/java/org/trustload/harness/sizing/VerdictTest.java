package org.trustload.harness.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VerdictTest {

    /**
     * A step at load {@code offered}: achieved/s, p50, p99, load CPU %, server CPU %, server ms/op, machine %, broken
     * rules.
     */
    private static Step step(double offered, double achieved, double p50, double p99, double loadPct, double serverPct,
                             double serverMs, double machine, String... broken) {
        return full(offered, achieved, p50, p99, loadPct, 0.001, serverPct, Double.NaN, serverMs, machine, broken);
    }

    /** The same with the load generator's run-queue wait per operation and the server's run-queue wait share. */
    private static Step full(double offered, double achieved, double p50, double p99, double loadPct, double loadWaitMs,
                             double serverPct, double serverWaitPct, double serverMs, double machine,
                             String... broken) {
        return new Step("ramp-1", 0, offered, Double.NaN, 10, achieved, (long) (achieved * 10), 0, p50, p50, p99, p99,
                p99, p99,
                loadPct, 0.01, loadWaitMs, serverPct, serverWaitPct, serverMs, 0, 0, machine, List.of(broken), "");
    }

    @Test
    void aServerAtItsCpuLimitGivesACapacityAndTheSizingSentence() {
        List<Step> steps = List.of(step(8, 4000, 2, 10, 30, 60, 0.14, 70), step(16, 7000, 3, 15, 40, 88, 0.14, 80),
                step(32, 7100, 9, 40, 45, 97, 0.14, 95, "p99 40 ms > 20 ms"));
        Verdict v = Verdict.of(steps, Optional.empty(), false, false, false, 1, "searches", "p99<=20ms", 2);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SERVER);
        assertThat(v.limit()).startsWith("the server's CPU (97% of 2 CPUs");
        assertThat(v.sentence()).isEqualTo("7,000 searches/s at p99<=20ms with the server at 88% of 2 CPUs: ~0.140 ms"
                + " CPU per search -> 1 CPU per 7,140 searches/s.");
    }

    /**
     * FACTS 2026-12-07: a server spinning 4 ms per request on its one CPU, JMeter on the other at 17-36% whose threads
     * waited for a CPU about as long as they ran (1.0 ms per ms) — under a millisecond per request against p50 34 ms.
     */
    @Test
    void aCpuBoundServerIsTheServersCpuHoweverLongJmetersThreadsWaitedPerCpuMs() {
        List<Step> steps = List.of(full(2, 201, 9, 20, 17, 0.4, 91, Double.NaN, 4.5, 60),
                full(4, 214, 18, 40, 25, 0.6, 97, 0.5, 4.5, 62), full(8, 222, 34, 87, 30, 0.8, 99, 0.5, 4.5, 64),
                full(16, 221, 70, 160, 36, 0.9, 99, 0.5, 4.5, 66));
        Verdict v = Verdict.of(steps, Optional.empty(), true, true, false, 1, "requests", "p99<=200ms", 1);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SERVER);
        assertThat(v.limit()).startsWith("the server's CPU (99% of 1 CPU at the knee: 221 requests/s there, 222 at"
                + " the best step").contains("the load generator's threads waited for a CPU 0.900 ms per request"
                + " against a median response time of 70.0 ms (1%; material from 20%)");
        assertThat(v.sentence()).startsWith("222 requests/s at p99<=200ms with the server at 99% of 1 CPU: ~4.50 ms"
                + " CPU per request");
    }

    /**
     * EU DSS pinned to one CPU, JMeter to the other (2026-12-07, pki/cades): the search's steps flat at 177-181/s with
     * DSS at 95-97% and JMeter at 60-72%; the confirm run's new JMeter JVM at 97% of its CPU at the same load. The
     * server's CPU, not client-bound.
     */
    @Test
    void aConfirmRunWhoseOwnJvmWasAtItsLimitDoesNotMakeAServerKneeClientBound() {
        List<Step> steps = List.of(full(4, 121, 24, 105, 62, 10.9, 66, Double.NaN, 5.46, 100),
                full(8, 177, 42, 79, 72, 7.3, 95, Double.NaN, 5.35, 100),
                full(16, 181, 84, 172, 60, 6.4, 96, Double.NaN, 5.32, 100),
                full(32, 181, 174, 405, 64, 7.3, 97, Double.NaN, 5.35, 100));
        Step confirm = full(16, 176, 81, 159, 97, 27.2, 92, Double.NaN, 5.2, 100);
        Verdict v = Verdict.of(steps, Optional.of(confirm), true, true, false, 1, "requests", "p95<=2s", 1);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SERVER);
        assertThat(v.limit()).startsWith("the server's CPU (");
        // a confirm step that was the load generator's own doubt still lowers a capacity it shares the verdict of
        Step quiet = full(16, 170, 85, 170, 58, 6.0, 96, Double.NaN, 5.3, 100);
        assertThat(Verdict.of(steps, Optional.of(quiet), true, true, false, 1, "requests", "p95<=2s", 1).best())
                .hasValue(quiet);
    }

    @Test
    void aMaterialWaitDoesNotOverruleAServerAtItsCpuLimitWithFlatThroughput() {
        List<Step> steps = List.of(full(4, 214, 18, 40, 40, 6, 97, Double.NaN, 4.5, 80),
                full(8, 219, 34, 87, 45, 9, 99, Double.NaN, 4.5, 85));
        Verdict v = Verdict.of(steps, Optional.empty(), true, true, false, 1, "requests", "p99<=200ms", 1);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SERVER);
        assertThat(v.limit()).contains("(26%; material from 20%)");
    }

    @Test
    void aWaitUnderItsShareOfTheMedianIsNoEvidence() {
        // the server plateaus at 60% CPU (a limit of its own); JMeter waits 1 ms per request against p50 20 ms
        List<Step> steps = List.of(full(4, 100, 10, 30, 30, 0.5, 55, Double.NaN, 6, 50),
                full(8, 101, 20, 60, 31, 1, 60, Double.NaN, 6, 52),
                full(16, 101, 40, 120, 32, 1, 60, Double.NaN, 6, 52));
        Verdict v = Verdict.of(steps, Optional.empty(), true, true, false, 1, "requests", "p99<=500ms", 1);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SERVER);
        assertThat(v.limit()).contains("a limit other than CPU");
    }

    @Test
    void aBusyLoadGeneratorIsNeverTheServersCapacity() {
        List<Step> steps = List.of(step(8, 4000, 2, 10, 60, 20, 0.1, 70), step(16, 4300, 9, 40, 96, 22, 0.1, 98,
                "p99 40 ms > 20 ms"));
        Verdict v = Verdict.of(steps, Optional.empty(), false, false, false, 1, "searches", "p99<=20ms", 2);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.CLIENT);
        assertThat(v.sentence()).startsWith("Client-bound, no verdict").contains("not the server's capacity",
                "try 2 engines on other machines (--remote HOST,...");
        assertThat(v.enginesNext()).isEqualTo(2);
    }

    /** A step whose load generator's threads waited 9 ms for a CPU per request, p50 16 ms, the machine this busy. */
    private static Step starved(double machine) {
        return new Step("ramp-1", 0, 60, 60, 2, 59.7, 119, 0, 19, 16, 30, 35, 40, 50, 34, 0.5, 9.0,
                Double.NaN, Double.NaN, Double.NaN, -1, Double.NaN, machine, List.of("p99 40 ms > 20 ms"), "");
    }

    @Test
    void aLoadGeneratorWaitingForACpuAMaterialShareOfTheMedianMeasuresItsOwnQueueing() {
        Verdict v = Verdict.of(List.of(starved(60)), Optional.empty(), false, false, true, 1, "requests", "p99<=20ms",
                0);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.CLIENT);
        assertThat(v.limit()).contains("its threads waited for a CPU 9.00 ms per request against a median response"
                + " time of 16.0 ms (56%; material from 20%)");
        assertThat(v.best()).isEmpty();
    }

    @Test
    void aMachineSaturatedByOtherWorkGivesNoVerdict() {
        Verdict v = Verdict.of(List.of(starved(100)), Optional.empty(), false, false, true, 1, "requests", "p99<=20ms",
                0);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.HOST_BUSY);
        assertThat(v.sentence()).startsWith("No verdict: this machine was 100% busy")
                .contains("mostly with other processes", "waited for a CPU 9.00 ms per request");
    }

    @Test
    void aLocalServerWhoseCpuOtherWorkTookGivesNoVerdict() {
        // a CPU hog on both cores: the pinned server runs half its CPU and waits the other half
        List<Step> steps = List.of(full(2, 100, 18, 40, 15, 0.5, 48, 49, 4.5, 100),
                full(4, 105, 36, 80, 16, 0.6, 50, 49, 4.5, 100), full(8, 108, 72, 160, 17, 0.6, 50, 49, 4.5, 100));
        Verdict v = Verdict.of(steps, Optional.empty(), true, true, false, 1, "requests", "p99<=500ms", 1);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.HOST_BUSY);
        assertThat(v.limit()).contains("the server ran 50% of its CPUs and was ready to run another 49% of their time");
    }

    @Test
    void aServerWaitingForItsOwnThreadsOnAQuietMachineIsNotHostBusy() {
        // the machine busy with the server's 0.61 CPUs only (the load generator's 0.001 aside)
        double machine = 100 * 0.61 / Runtime.getRuntime().availableProcessors();
        List<Step> steps = List.of(full(4, 100, 10, 30, 10, 0.1, 60, 40, 6, machine),
                full(8, 101, 20, 60, 10, 0.1, 60, 40, 6, machine), full(16, 101, 40, 120, 10, 0.1, 60, 40, 6, machine));
        Verdict v = Verdict.of(steps, Optional.empty(), true, true, false, 1, "requests", "p99<=500ms", 1);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SERVER);
    }

    @Test
    void aSubMillisecondMedianIsWeighedByTheMean() {
        assertThat(Verdict.waitMaterial(0.05, 0, 0.4)).as("0.05 of a 0.4 ms mean").isFalse();
        assertThat(Verdict.waitMaterial(0.1, 0, 0.4)).as("0.1 of a 0.4 ms mean").isTrue();
        assertThat(Verdict.waitMaterial(0.1, Double.NaN, 0)).as("no response time: no evidence").isFalse();
        assertThat(Verdict.waitMaterial(6.9, 34, 40)).isTrue();
        assertThat(Verdict.waitMaterial(6.7, 34, 40)).isFalse();
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
        assertThat(Verdict.of(List.of(step(1, 100, 1, 9, 5, 5, 0.1, 10, "p99 9 ms > 5 ms")), Optional.empty(), false,
                false,
                false, 1, "r", "p99<=5ms", 2).kind()).isEqualTo(Verdict.Kind.BELOW_START);
    }
}
