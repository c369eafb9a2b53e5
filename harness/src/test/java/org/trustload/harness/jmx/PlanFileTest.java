package org.trustload.harness.jmx;

import org.trustload.harness.TestHome;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.jmx.PlanTree;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.jmeter.sampler.DebugSampler;
import org.apache.jmeter.sampler.TestAction;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.jmeter.engine.EngineLoad;
import org.trustload.jmeter.results.SampleEventMarker;

class PlanFileTest {

    private static final Path PLANS = TestHome.PLANS;

    @BeforeAll
    static void jmeter() {
        TestHome.init();
    }

    @Test
    void readsEnabledThreadGroupsWithTheirSchedulerAndSamplers() throws Exception {
        var groups = PlanFile.threadGroups(PLANS.resolve("jdbc/mysql-select-insert.jmx"));
        assertThat(groups).extracting(PlanFile.ThreadGroup::kind).contains("SetupThreadGroup", "ThreadGroup");
        assertThat(groups).allMatch(PlanFile.ThreadGroup::hasSampler);
        var pades = PlanFile.threadGroups(PLANS.resolve("pki/pades.jmx"));
        assertThat(pades).singleElement().satisfies(g -> {
            assertThat(g.name()).isEqualTo("PAdES-B signers");
            assertThat(g.threads(Map.of())).hasValue(20);
            assertThat(g.threads(Map.of("threads", "2"))).hasValue(2);
            assertThat(g.scheduledSeconds(Map.of("duration", "60"))).hasValue(60);
        });
    }

    @Test
    void resolvesLiteralsAndPropertyFunctionsOnly() {
        assertThat(PlanFile.resolve("7", Map.of())).hasValue(7);
        assertThat(PlanFile.resolve("${__P(n,3)}", Map.of())).hasValue(3);
        assertThat(PlanFile.resolve("${__P(n,3)}", Map.of("n", "0"))).hasValue(0);
        assertThat(PlanFile.resolve("${__property(n,,4)}", Map.of())).hasValue(4);
        assertThat(PlanFile.resolve("${__groovy(1+1)}", Map.of())).isEqualTo(OptionalLong.empty());
    }

    @Test
    void theEventMarkerGoesFirstUnderTheTestPlanOfACopyBesideThePlan(@TempDir Path dir) throws Exception {
        Path plan = Files.copy(PLANS.resolve("ldap/ldap-search-500x25.jmx"), dir.resolve("plan.jmx"));
        Path copy = PlanFile.of(plan).runCopy(false, t -> { }).orElseThrow();
        assertThat(copy.getParent()).isEqualTo(dir);
        assertThat(copy.getFileName().toString()).startsWith(".plan.jmx.trustload-").endsWith(".jmx.run");
        String text = Files.readString(copy);
        assertThat(text.indexOf(SampleEventMarker.class.getName()))
                .isGreaterThan(text.indexOf("testclass=\"TestPlan\""))
                .isLessThan(text.indexOf("LdapConnectionConfig"));
        assertThat(text).doesNotContain(EngineLoad.class.getName());
        assertThat(Files.readString(PlanFile.of(plan).runCopy(true, t -> { }).orElseThrow()))
                .contains(EngineLoad.class.getName(),
                org.trustload.jmeter.engine.EngineEnds.class.getName());
        assertThat(PlanFile.threadGroups(copy)).isEqualTo(PlanFile.threadGroups(plan));
        assertThat(PlanFile.threadGroups(plan)).singleElement().satisfies(g -> {
            assertThat(g.samplersPerIteration()).isEqualTo(1);
            assertThat(g.plannedSamples(Map.of())).hasValue(500 * 25);
            assertThat(g.durationSeconds(Map.of("duration", "20"))).hasValue(20);
        });
        assertThat(PlanFile.of(dir.resolve("missing.jmx")).runCopy(false, t -> { })).isEmpty();
    }

    @Test
    void samplesPerIterationAreUnknownBehindControllersThatDecideAtRunTime() throws Exception {
        // the KMS plan chooses its sampler with a Switch Controller
        assertThat(PlanFile.threadGroups(PLANS.resolve("kms/kms-benchmark-aws.jmx")))
                .allSatisfy(g -> assertThat(g.samplersPerIteration()).isEqualTo(-1));
    }

    @Test
    void resolvesNestedPropertyDefaultsAsJMeterDoes() {
        String cap = "${__P(max_duration,${__P(duration,600)})}";
        assertThat(PlanFile.resolve(cap, Map.of())).hasValue(600);
        assertThat(PlanFile.resolve(cap, Map.of("duration", "20"))).hasValue(20);
        assertThat(PlanFile.resolve(cap, Map.of("duration", "20", "max_duration", "5"))).hasValue(5);
        assertThat(PlanFile.resolve("${__property(a,,${__P(b,${__P(c,9)})})}", Map.of())).hasValue(9);
        // a property's value is not evaluated again (JMeter takes it literally)
        assertThat(PlanFile.evaluate("${__P(f,x)}", Map.of("f", "${__P(g,1)}"))).isEqualTo("${__P(g,1)}");
        assertThat(PlanFile.evaluate("(uid=fulano[1-${__P(ldap.users,10000)}])", Map.of()))
                .isEqualTo("(uid=fulano[1-10000])");
        assertThat(PlanFile.resolve("${__P(d,${__groovy(1)})}", Map.of())).isEmpty();
        assertThat(PlanFile.resolve("${__P(d,${unclosed)}", Map.of())).isEmpty();
    }

    @Test
    void samplesPerIterationCountSamplersThatWriteASampleAsJMeterLoadsThem(@TempDir Path dir) throws Exception {
        HashTree plan = PlanTree.plan("p", false);
        HashTree group = PlanTree.planNode(plan).add(PlanTree.threadGroup(new org.apache.jmeter.threads.ThreadGroup(),
                "ThreadGroupGui", "g", 3, 4, "${__P(d,9)}"));
        group.add(PlanTree.element(new DebugSampler(), PlanTree.TEST_BEAN_GUI, "counted"));
        group.add(PlanTree.element(new TestAction(), "TestActionGui", "a Flow Control Action writes no sample"));
        DebugSampler off = PlanTree.element(new DebugSampler(), PlanTree.TEST_BEAN_GUI, "disabled");
        off.setEnabled(false);
        group.add(off);
        assertThat(PlanFile.threadGroups(PlanTree.save(plan, dir.resolve("p.jmx")))).singleElement().satisfies(g -> {
            assertThat(g.kind()).isEqualTo("ThreadGroup");
            assertThat(g.samplersPerIteration()).isEqualTo(1);
            assertThat(g.plannedSamples(Map.of())).hasValue(3 * 4);
            assertThat(g.durationSeconds(Map.of())).hasValue(9);
        });
    }
}
