package org.trustload.harness.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service demand of a search: its figures, their spread, the warm-up rule, the open model's bracket, sizing.json.
 * */
class ServiceDemandTest {

    /** A step: offered, achieved/s, server CPU %, server ms/op, load ms/op, GCs and GC ms over 10 s, broken rules. */
    private static Step step(String phase, double offered, double achieved, double serverPct, double serverMs,
                             double loadMs, long gcs, double gcMs, String... broken) {
        return new Step(phase, 1, offered, offered * 2, 10, achieved, (long) (achieved * 10), 0, 20, 20, 30, 35, 40, 50,
                30, loadMs, 0.01, serverPct, Double.NaN, serverMs, gcs, gcMs, 60, List.of(broken), "");
    }

    private static ServiceDemand.Warmup warm() {
        return new ServiceDemand.Warmup(List.of(12.0, 11.5), 1, 30_000, true);
    }

    @Test
    void theServersCpuPerOperationIsReadAtLowLoadAndAtTheKneeWithItsSpread() {
        List<Step> steps = List.of(step("ramp-1", 1, 50, 55, 11, 9, 5, 20), step("ramp-1", 2, 80, 85, 10.6, 8.5, 8, 30),
                step("ramp-1", 4, 90, 97, 10.8, 8, 9, 40), step("ramp-1", 8, 91, 99, 10.9, 8, 9, 45,
                        "p95 2400 ms > 2000 ms"));
        Verdict v = Verdict.of(steps, Optional.empty(), false, true, false, 1, "signatures", "p95<=2s", 1);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SERVER);
        ServiceDemand d = ServiceDemand.of(steps, Optional.empty(), v, false, 1, 1, warm());
        assertThat(d.serverLow().value()).isEqualTo(11);
        assertThat(d.serverLow().load()).isEqualTo(1);
        assertThat(d.serverKnee().value()).as("the knee: the first broken step above the best").isEqualTo(10.9);
        assertThat(d.serverLow().min()).isEqualTo(10.6);
        assertThat(d.serverLow().max()).isEqualTo(11);
        assertThat(d.serverLow().steps()).as("three met, and the knee").isEqualTo(4);
        assertThat(d.client().value()).as("at the best step").isEqualTo(8);
        assertThat(d.client().max()).as("met steps only").isEqualTo(9);
        assertThat(d.serverGc().value()).as("40 ms of GC over 900 operations").isCloseTo(40.0 / 900,
                Offset.offset(1e-9));
        assertThat(d.gcsPerThousand()).isCloseTo(10, Offset.offset(1e-9));
        assertThat(d.capacity()).isEqualTo(90);
        assertThat(d.bracket()).as("closed model").isEmpty();
        assertThat(d.markdown("signatures",
                "closed")).contains("| server CPU per signature, low load | 11.00 ms | 10.60–11.00 ms"
                + " (4 steps) | ramp-1 at 1 threads |", "| capacity | 90.0 signatures/s |");
    }

    @Test
    void aClientBoundSearchHasNoCapacity() {
        List<Step> steps = List.of(step("ramp-1", 1, 50, 20, 1, 9, 0, 0), step("ramp-1", 2, 52, 21, 1, 9, 0, 0));
        Verdict v = Verdict.of(List.of(new Step("ramp-1", 1, 1, Double.NaN, 10, 50, 500, 0, 20, 20, 30, 35, 40, 50, 97,
                9, 0.01,
                20, Double.NaN, 1, 0, 0, 99, List.of(), "")), Optional.empty(), true, false, false, 1, "requests",
                        "p99<=1s", 1);
        ServiceDemand d = ServiceDemand.of(steps, Optional.empty(), v, false, 1, 1, warm());
        assertThat(d.capacity()).isNaN();
    }

    @Test
    void theOpenModelsBracketIsTheBestRateAndTheFirstBrokenOneAboveIt() {
        List<Step> steps = List.of(step("ramp-1", 100, 200, 40, 2, 1, 0, 0), step("ramp-1", 200, 399, 80, 2, 1, 0, 0),
                step("ramp-1", 400, 420, 99, 2, 1, 0, 0, "p99 900 ms > 100 ms"),
                step("refine", 283, 470, 95, 2, 1, 0, 0, "p99 300 ms > 100 ms"));
        Verdict v = Verdict.of(steps, Optional.empty(), false, false, true, 1, "requests", "p99<=100ms", 1);
        ServiceDemand d = ServiceDemand.of(steps, Optional.empty(), v, true, 1, 1, warm());
        assertThat(d.bracket()).isPresent();
        assertThat(d.bracket().get().text("requests")).isEqualTo("met at 200 arrivals/s (400 requests/s), broke at 283"
                + " arrivals/s (566 requests/s)");
    }

    @Test
    void aServerIsStillWarmingWhileItsCpuPerOperationFallsMoreThanATenthFromOneStepToTheNext() {
        // FACTS-style DSS figures (issue 38): 51 ms at the warm-up step, then 33, 19, 13, 12 and 11.5
        assertThat(ServiceDemand.settled(51, 33)).isFalse();
        assertThat(ServiceDemand.settled(13, 12)).as("8% less").isTrue();
        assertThat(ServiceDemand.settled(12, 10.7)).as("11% less").isFalse();
        assertThat(ServiceDemand.settled(10, 11)).as("rising is not warming").isTrue();
        assertThat(ServiceDemand.settled(Double.NaN, 5)).as("the server not watched: nothing to wait for").isTrue();
        assertThat(new ServiceDemand.Warmup(List.of(51.0, 33.0, 19.0, 13.0, 12.0), 5, 150_000, true).text())
                .isEqualTo("51.00 -> 33.00 -> 19.00 -> 13.00 -> 12.00 ms at the start load; 5 unjudged steps before the"
                        + " first"
                        + " judged one (150 s): settled (within 10% from one step to the next)");
    }

    @Test
    void sizingJsonHoldsTheDemandTheVerdictAndEveryStepWithUnknownsAsNull(@TempDir Path dir) throws Exception {
        List<Step> steps = List.of(step("ramp-1", 1, 50, 55, 11, 9, -1, Double.NaN), step("ramp-1", 2, 80, 95, 10.6,
                8.5, -1,
                Double.NaN), step("ramp-1", 4, 81, 99, 10.5, 8, -1, Double.NaN, "p95 2400 ms > 2000 ms"));
        Verdict v = Verdict.of(steps, Optional.empty(), false, true, false, 1, "signatures", "p95<=2s", 1);
        ServiceDemand d = ServiceDemand.of(steps, Optional.empty(), v, false, 1, 1, warm());
        SizingReport.Info info = new SizingReport.Info("pki/cades", "/x/cades.jmx", "closed", "p95<=2s", "signatures",
                "process 42", 1, true, 1, 10_000, 3_000, 1, "load average 1.0", 120, List.of(), "");
        JsonNode j = new ObjectMapper().readTree(SizingJson.write(dir, info, steps, Optional.empty(), v, d).toFile());
        assertThat(j.get("format").asText()).isEqualTo(SizingJson.FORMAT);
        assertThat(j.at("/verdict/kind").asText()).isEqualTo("server");
        assertThat(j.at("/verdict/capacity").asDouble()).isEqualTo(80);
        assertThat(j.at("/demand/serverMsPerOpLow/value").asDouble()).isEqualTo(11);
        assertThat(j.at("/demand/serverMsPerOpKnee/value").asDouble()).isEqualTo(10.5);
        assertThat(j.at("/demand/clientMsPerOp/value").asDouble()).isEqualTo(8.5);
        assertThat(j.at("/demand/serverGcMsPerOp/value").isNull()).as("GC unknown for a process").isTrue();
        assertThat(j.get("steps")).hasSize(3);
        assertThat(j.at("/steps/2/good").asBoolean()).isFalse();
        assertThat(j.at("/warmup/settled").asBoolean()).isTrue();
        assertThat(j.get("serverCpus").asInt()).isEqualTo(1);
    }
}
