package org.trustload.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmxTest {

    private static final Path PLANS = Path.of(System.getProperty("trustload.root", "..")).resolve("test-plans");

    @Test
    void readsEnabledThreadGroupsWithTheirSchedulerAndSamplers() throws Exception {
        var groups = Jmx.threadGroups(PLANS.resolve("jdbc/mysql-select-insert.jmx"));
        assertThat(groups).extracting(Jmx.ThreadGroup::kind).contains("SetupThreadGroup", "ThreadGroup");
        assertThat(groups).allMatch(Jmx.ThreadGroup::hasSampler);
        var pades = Jmx.threadGroups(PLANS.resolve("pki/pades.jmx"));
        assertThat(pades).singleElement().satisfies(g -> {
            assertThat(g.name()).isEqualTo("PAdES-B signers");
            assertThat(g.threads(Map.of())).hasValue(20);
            assertThat(g.threads(Map.of("threads", "2"))).hasValue(2);
            assertThat(g.scheduledSeconds(Map.of("duration", "60"))).hasValue(60);
        });
    }

    @Test
    void resolvesLiteralsAndPropertyFunctionsOnly() {
        assertThat(Jmx.resolve("7", Map.of())).hasValue(7);
        assertThat(Jmx.resolve("${__P(n,3)}", Map.of())).hasValue(3);
        assertThat(Jmx.resolve("${__P(n,3)}", Map.of("n", "0"))).hasValue(0);
        assertThat(Jmx.resolve("${__property(n,,4)}", Map.of())).hasValue(4);
        assertThat(Jmx.resolve("${__groovy(1+1)}", Map.of())).isEqualTo(OptionalLong.empty());
    }

    @Test
    void theEventMarkerGoesFirstUnderTheTestPlanOfACopyBesideThePlan(@TempDir Path dir) throws Exception {
        Path plan = Files.copy(PLANS.resolve("ldap/ldap-search-500x25.jmx"), dir.resolve("plan.jmx"));
        Path copy = Jmx.withHarnessElements(plan, false).orElseThrow();
        assertThat(copy.getParent()).isEqualTo(dir);
        assertThat(copy.getFileName().toString()).startsWith(".plan.jmx.trustload-").endsWith(".jmx.run");
        String text = Files.readString(copy);
        assertThat(text.indexOf(Jmx.EVENT_MARKER_CLASS)).isGreaterThan(text.indexOf("testclass=\"TestPlan\""))
                .isLessThan(text.indexOf("LdapConnectionConfig"));
        assertThat(Jmx.threadGroups(copy)).isEqualTo(Jmx.threadGroups(plan));
        assertThat(Jmx.threadGroups(plan)).singleElement().satisfies(g -> {
            assertThat(g.samplersPerIteration()).isEqualTo(1);
            assertThat(g.plannedSamples(Map.of())).hasValue(500 * 25);
            assertThat(g.durationSeconds(Map.of("duration", "20"))).hasValue(20);
        });
        assertThat(Jmx.withHarnessElements(dir.resolve("missing.jmx"), false)).isEmpty();
    }

    @Test
    void samplesPerIterationAreUnknownBehindControllersThatDecideAtRunTime() throws Exception {
        // the KMS plan chooses its sampler with a Switch Controller
        assertThat(Jmx.threadGroups(PLANS.resolve("kms/kms-benchmark-aws.jmx")))
                .allSatisfy(g -> assertThat(g.samplersPerIteration()).isEqualTo(-1));
    }

    @Test
    void resolvesNestedPropertyDefaultsAsJMeterDoes() {
        String cap = "${__P(max_duration,${__P(duration,600)})}";
        assertThat(Jmx.resolve(cap, Map.of())).hasValue(600);
        assertThat(Jmx.resolve(cap, Map.of("duration", "20"))).hasValue(20);
        assertThat(Jmx.resolve(cap, Map.of("duration", "20", "max_duration", "5"))).hasValue(5);
        assertThat(Jmx.resolve("${__property(a,,${__P(b,${__P(c,9)})})}", Map.of())).hasValue(9);
        // a property's value is not evaluated again (JMeter takes it literally)
        assertThat(Jmx.evaluate("${__P(f,x)}", Map.of("f", "${__P(g,1)}"))).isEqualTo("${__P(g,1)}");
        assertThat(Jmx.evaluate("(uid=fulano[1-${__P(ldap.users,10000)}])", Map.of())).isEqualTo("(uid=fulano[1-10000])");
        assertThat(Jmx.resolve("${__P(d,${__groovy(1)})}", Map.of())).isEmpty();
        assertThat(Jmx.resolve("${__P(d,${unclosed)}", Map.of())).isEmpty();
    }
}
