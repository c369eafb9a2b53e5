package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;

/**
 * {@code ./trustload size} of one plan of each family, open and closed models among them, against one lab (its JVM
 * the watched server), at a tiny scale: the search, the verdict, the report and the exit status hold together. It
 * reads no figure (a capacity, "client-bound" or "host busy" are all accepted with a report that matches them), so
 * it runs beside the other classes; {@link SizeIT}, which measures, runs alone.
 *
 * <p>CI budget: ~1.5 min: six size runs of two 3-s steps each, one lab for all.
 */
class SizeFamiliesIT {

    private static final Path OUT = Plans.ROOT.resolve("test-plans/target/size-families");
    private static Lab lab;

    @BeforeAll
    static void lab() throws Exception {
        Layout.deleteRecursively(OUT);
        Files.createDirectories(OUT);
        Path props = Files.createTempDirectory("tl-size").resolve("lab.properties");
        lab = PlanRunIT.startLab("ldap,pki,kms,gmssl,pdp,http", props, OUT.resolve("lab.log"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (lab != null) {
            lab.close();
        }
    }

    /** Steps of 3 s (1 s warm-up), two per run, one run per case: the whole search machinery, no figure. */
    private static List<String> tiny(String model, String slo, String start) {
        return List.of("--model", model, "--slo", slo, "--start", start, "--factor", "4", "--step-time", "3s",
                "--warmup", "1s",
                "--max-time", "16s", "--steps-per-run", "2", "--refine", "0", "--no-confirm");
    }

    @TestFactory
    Stream<DynamicTest> onePlanOfEveryFamilySizesAgainstTheLab() {
        record Case(String plan, String model, String slo, String start, List<String> more) {
        }
        return Stream.of(
                new Case("ldap/ldap-search-200x10", "open", "p99<=200ms,errors<=1%", "40",
                        List.of("--unit", "searches")),
                new Case("pki/timestamp", "closed", "p99<=500ms,errors<=1%", "1", List.of("--unit", "timestamps")),
                new Case("kms/kms-benchmark-aws", "open", "p99<=200ms,errors<=1%", "40", List.of("-Jcase=encrypt")),
                new Case("gmssl/gmssl-cps", "closed", "p99<=500ms,errors<=1%", "1", List.of("--unit", "connections")),
                new Case("pdp/onap-pdpx-decisions", "closed", "p99<=500ms,errors<=1%,server.cpu<=95%", "2",
                        List.of("--unit", "decisions")),
                new Case("http/http-100x10", "open", "p99<=100ms,errors<=1%", "100", List.of())
        ).map(c -> DynamicTest.dynamicTest(c.plan() + " " + c.model(), () -> {
            List<String> args = new ArrayList<>(tiny(c.model(), c.slo(), c.start()));
            args.addAll(c.more());
            SizeIT.Sized r = SizeIT.size(OUT, lab, c.plan(), c.plan().replace('/', '_') + "-" + c.model(), args);
            assertThat(r.status()).as("exit status of size, see " + r.sizing()).isIn(0, 6, 7);
            SizeIT.assertReport(r);
            assertThat(r.md()).as("the lab's JVM is the watched server").contains("| server watched | JVM pid ");
            assertThat(r.md()).contains("| model | " + c.model());
        }));
    }
}
