package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.trustload.harness.Lab;
import org.trustload.harness.run.Run;

/**
 * ONAP's own current performance plan for the xacml-pdp, {@code perf.jmx} as ONAP ships it
 * (onap/policy-xacml-pdp {@code testsuites/performance/src/main/resources/testplans/perf.jmx}, last changed
 * in commit 2a1a8764 of 2024-11-06, in every release since 4.0.1), passes in full against the lab's PDP:
 * policy-api creates (201), PAP deploys (202), monitoring, naming, optimization and guard decisions,
 * healthcheck with its Groovy assertion, PAP undeploys (202) and policy-api deletes (200).
 *
 * <p>ONAP's file is not part of this project (its licence and text are ONAP's): the test runs when
 * {@code -Donap.perf.jmx=PATH} (or {@code ONAP_PERF_JMX}) names a copy and is skipped otherwise. Only what
 * the brief allows is changed, in a copy under target/: ports, users and duration through JMeter properties
 * (the plan's own {@code api_port}, {@code pap_port}, {@code xacml_port}, {@code users}, {@code duration});
 * and, by a text edit of the copy because the plan has them as literal values, the host names
 * ({@code localhost} → 127.0.0.1), the credentials of its User Defined Variables (→ the lab's
 * {@code pdpx.user}/{@code pdpx.password}, random per lab start) and its listeners' files
 * ({@code /tmp/pdpx_perf_*.log} → the run directory, so two runs never share them).
 */
class OnapPerfPlanIT {

    private static final Path DIR = Plans.DIR.resolve("target/onap-perf");

    @Test
    void onapsCurrentPerfPlanPassesInFullAgainstTheLab() throws Exception {
        String given = System.getProperty("onap.perf.jmx", System.getenv().getOrDefault("ONAP_PERF_JMX", ""));
        assumeTrue(!given.isBlank() && Files.isRegularFile(Path.of(given)),
                "ONAP's perf.jmx is not part of this project: -Donap.perf.jmx=PATH to a copy of onap/policy-xacml-pdp"
                        + " testsuites/performance/src/main/resources/testplans/perf.jmx runs this test");
        byte[] original = Files.readAllBytes(Path.of(given));
        System.out.println("ONAP perf.jmx sha256 "
                + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(original)));

        Files.createDirectories(DIR);
        Path run = DIR.resolve("run");
        Path labProperties = DIR.resolve("lab.properties");
        try (Lab lab = PlanRunIT.startLab("pdp", labProperties, DIR.resolve("lab.log"))) {
            Properties labProps = Plans.load(lab.properties());
            Path plan = DIR.resolve("perf.jmx");
            Files.writeString(plan, edit(new String(original, StandardCharsets.UTF_8), run));
            Properties props = new Properties();
            props.setProperty("pdpx.user", labProps.getProperty("pdpx.user"));
            props.setProperty("pdpx.password", labProps.getProperty("pdpx.password"));
            for (String port : List.of("api_port", "pap_port", "xacml_port")) {
                props.setProperty(port, labProps.getProperty("pdp.port"));
            }
            props.setProperty("users", "2");
            props.setProperty("duration", "10");
            Path file = DIR.resolve("onap.properties"); // a -q file: JMeter logs every -J value
            try (var out = Files.newBufferedWriter(file)) {
                props.store(out, "lab endpoints and credentials for ONAP's perf.jmx");
            }
            Run.Result r = Plans.run(plan, run, List.of("-q", file.toString()), Duration.ofMinutes(5));

            JsonNode stats = Plans.statistics(run);
            System.out.println("ONAP perf.jmx against the lab: " + stats.path("Total").path("sampleCount").asLong()
                    + " samples, "
                    + stats.path("Total").path("errorCount").asLong() + " errors; " + r.message());
            for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) stats::fields) {
                assertThat(e.getValue().path("errorCount").asLong()).as("errors of '" + e.getKey() + "', see " + run)
                        .isZero();
            }
            // every request of the plan ran: 4 creates, 4 deploys, 7 kinds of decision, healthcheck, 4 undeploys, 4
            // deletes
            assertThat(stats.size() - 1).as("sampler labels, see " + run).isEqualTo(24);
            for (String label : List.of("Create Monitoring Policy", "Deploy Min/Max Policy", "Check Health",
                    "Fetch Optimization Decisions", "Undeploy Frequency Limiter Guard Policy",
                    "Delete Min/Max Guard Policy")) {
                assertThat(stats.path(label).path("sampleCount").asLong()).as(label).isPositive();
            }
        }
    }

    /** The text edits described in the class comment; fails when the plan no longer has what they change. */
    static String edit(String jmx, Path runDir) {
        String out = jmx;
        for (String[] v : new String[][] {{"API_HOST", "127.0.0.1"}, {"PAP_HOST", "127.0.0.1"},
                {"XACML_HOST", "127.0.0.1"},
            {"API_USER", "${__P(pdpx.user)}"}, {"PAP_USER", "${__P(pdpx.user)}"}, {"XACML_USER", "${__P(pdpx.user)}"},
            {"API_PASSWORD", "${__P(pdpx.password)}"}, {"PAP_PASSWORD", "${__P(pdpx.password)}"},
            {"XACML_PASSWORD", "${__P(pdpx.password)}"}}) {
            Pattern p = Pattern.compile("(<stringProp name=\"Argument.name\">" + v[0]
                    + "</stringProp>\\s*<stringProp name=\"Argument.value\">)[^<]*(</stringProp>)");
            Matcher m = p.matcher(out);
            assertThat(m.find()).as("perf.jmx defines " + v[0]).isTrue();
            out = p.matcher(out).replaceAll("$1" + Matcher.quoteReplacement(v[1]) + "$2");
        }
        assertThat(out).contains("/tmp/pdpx_perf_");
        return out.replace("/tmp/pdpx_perf_", runDir.resolve("onap-listener-").toString().replace("\\", "/"));
    }
}
