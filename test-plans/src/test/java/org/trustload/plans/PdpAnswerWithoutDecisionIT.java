package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Lab;
import org.trustload.testing.TestHttpServer;

/**
 * A PDP that answers a decision request with 200 but no decision fails the sample, never passes it: both PDP
 * plans run against the lab's PDP behind a relay that takes the decision out of its answers ({@code decision}
 * of the legacy API, {@code status} of the current one). Every decision sample fails on the plan's JSON
 * assertion; the setUp and tearDown requests, whose answers the relay leaves alone, succeed.
 */
class PdpAnswerWithoutDecisionIT {

    private static final Path OUT = Plans.DIR.resolve("target/pdp-no-decision");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aDecisionAnswerWithoutADecisionFailsEveryDecisionSampleOfBothPdpPlans() throws Exception {
        Files.createDirectories(OUT);
        try (Lab lab = PlanRunIT.startLab("pdp", OUT.resolve("lab.properties"), OUT.resolve("lab.log"));
                TestHttpServer relay = new TestHttpServer()) {
            Properties labProps = Plans.load(lab.properties());
            relay.relay("/", URI.create("http://127.0.0.1:" + labProps.getProperty("pdp.port")),
                    PdpAnswerWithoutDecisionIT::withoutDecision);
            for (String plan : List.of("pdp/onap-pdpx-decisions", "pdp/pdpx-decisions-current-api")) {
                Path dir = OUT.resolve(plan.substring(4));
                Plans.runWithoutReport(Plans.DIR.resolve(plan + ".jmx"), dir, List.of("-q", lab.properties().toString(),
                        "-Jpdp.host=127.0.0.1", "-Jpdp.protocol=http", "-Jpdp.port=" + relay.uri("/").getPort(),
                        "-Jsetup_threads=1", "-Jsetup_loops=1", "-Jthreads=1", "-Jloops=3", "-Jduration=120"),
                        Duration.ofMinutes(5));
                List<Jtl.Sample> samples = Jtl.read(dir.resolve("results.jtl"));
                List<Jtl.Sample> decisions = samples.stream().filter(s -> s.label().contains("ecision")).toList();
                assertThat(decisions).as(plan + ": decision samples, see " + dir).hasSizeGreaterThanOrEqualTo(6)
                        .allSatisfy(s -> {
                            assertThat(s.success()).as(s.label() + " without a decision").isFalse();
                            assertThat(s.responseCode()).as(s.label()).isEqualTo("200");
                            assertThat(s.failureMessage()).as(s.label() + ": the plan's assertion says why")
                                    .contains("$['" + (plan.endsWith("current-api") ? "status" : "decision") + "']");
                        });
                assertThat(samples.stream().filter(s -> !s.label().contains("ecision")).toList())
                        .as(plan + ": create, push and delete are answered as the PDP answered them").isNotEmpty()
                        .allMatch(Jtl.Sample::success);
            }
        }
    }

    /** A decision answer with its decision taken out; other answers unchanged. */
    private static byte[] withoutDecision(String path, byte[] body) {
        if (!path.endsWith("/getDecision") && !path.endsWith("/decision")) {
            return body;
        }
        try {
            if (JSON.readTree(body) instanceof ObjectNode o) {
                o.remove("decision");
                o.remove("status");
                return JSON.writeValueAsBytes(o);
            }
        } catch (IOException notJson) {
            // leave it: the plan's assertion reads what the server sent
        }
        return body;
    }
}
