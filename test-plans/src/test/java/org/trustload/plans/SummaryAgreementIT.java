package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.Lab;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.harness.results.Summary;

/**
 * The run summary agrees with JMeter at several thread counts ({@link Plans#assertSummaryMatchesJMeter}:
 * Total + warm-up = the summariser's count, p50/p90/p95/p99 = statistics.json's): LDAP searches on one connection
 * per thread, where 0-1 ms samples of one thread overlap on JMeter's clocks (a guess from times took
 * them for sub-results), the LDAP protocol comparison with its Transaction Controllers and its warm-up (Total
 * = summariser - warm-up, rows in the order the plan ran them), and stock HTTP requests. PlanRunIT checks every
 * plan the same way at its smoke scale (pki/pades for sub-results). One lab for all runs.
 *
 * <p>CI budget: ~1 min: five JMeter runs with their dashboards, the figures compared.
 */
class SummaryAgreementIT {

    private static final Path OUT = Plans.DIR.resolve("target/summary-agreement");
    private static Lab lab;

    @BeforeAll
    static void startLab() throws Exception {
        Files.createDirectories(OUT);
        lab = PlanRunIT.startLab("ldap,http", OUT.resolve("lab.properties"), OUT.resolve("lab.log"));
    }

    @AfterAll
    static void stopLab() throws Exception {
        if (lab != null) {
            lab.close();
        }
    }

    private record Case(String plan, List<String> args) {
        String name() {
            return plan + " " + String.join(" ", args);
        }
    }

    @TestFactory
    Stream<DynamicTest> summaryTotalIsTheSummarisersAndItsPercentilesTheDashboards() {
        return Stream.of(
                new Case("ldap/ldap-search-200x10",
                        List.of("-Jthreads=1", "-Jloops=300", "-Jconnection_mode=per-thread")),
                new Case("ldap/ldap-search-200x10",
                        List.of("-Jthreads=4", "-Jloops=300", "-Jconnection_mode=per-thread")),
                new Case("ldap/ldap-vs-ldaps-vs-ldapi", List.of("-Jn1=1", "-Jn2=10", "-Jn3=40", "-Jwarmup_seconds=1")),
                new Case("http/http-100x10", List.of("-Jthreads=2", "-Jloops=50")),
                new Case("http/http-100x10", List.of("-Jthreads=10", "-Jloops=20")))
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> run(c)));
    }

    private static void run(Case c) throws Exception {
        Path dir = OUT.resolve(c.name().replaceAll("[^A-Za-z0-9=.-]+", "_"));
        Run.Result r = Run.execute(Plans.JMETER, RunSpec.of(Plans.LAYOUT, Plans.catalog().get(c.plan()))
                .lab(lab).args(c.args()).args(List.of("-Jrampup=0", "-Jduration=120")).dir(dir).echo(false)
                .timeout(Duration.ofMinutes(4)), System.out);
        assertThat(r.status()).as(r.message() + "\n" + r.summaryText()).isEqualTo(ExitStatus.OK);
        Plans.assertSummaryMatchesJMeter(r);
        Summary s = r.summary().orElseThrow();
        if (c.plan().equals("ldap/ldap-vs-ldaps-vs-ldapi")) {
            // a second of warm-up per protocol: in its own block, in no Total; the protocols' rows in the order they
            // ran
            assertThat(s.total().count()).as("Total: 1 + 10 + 40 searches per protocol").isEqualTo(3 * 51);
            assertThat(s.warmUp().count()).as("warm-up samples").isPositive();
            assertThat(s.warmUpSamples()).containsOnlyKeys("warm-up ldap search N=40", "warm-up ldaps search N=40",
                    "warm-up ldapi search N=40");
            String text = r.summaryText();
            List<Integer> order = Stream.of("ldap", "ldaps", "ldapi").flatMap(p -> Stream.of(1, 10, 40)
                    .map(n -> text.indexOf("\n" + p + " search N=" + n + " "))).toList();
            assertThat(order).as("rows in run order, see " + r.dir()).doesNotContain(-1).isSorted();
            assertThat(text).contains("Warm-up (not in Total)").containsPattern("(?m)^ldapi N=40 total +1 +0 ");
        }
        System.out.println(c.name() + ": Total " + s.total().count() + " + warm-up " + s.warmUp().count()
                + " = summariser; percentiles = dashboard");
    }
}
