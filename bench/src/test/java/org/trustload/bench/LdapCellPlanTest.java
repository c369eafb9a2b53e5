package org.trustload.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.harness.jmx.PlanTree;

/** The LDAP bench's cell plans are JMeter plans that JMeter loads back as built. */
class LdapCellPlanTest {

    private static final Path HOME = Path.of(System.getProperty("trustload.root", "..")).resolve("dist/target/jmeter");
    private static final LdapCellPlan.Target TARGET = new LdapCellPlan.Target("127.0.0.1", 3389, 3636, "/tmp/s",
            "/tmp/t.p12", "changeit", "dc=example,dc=com", "(uid=user.1)");

    @TempDir
    Path dir;

    @BeforeAll
    static void jmeter() {
        assumeTrue(Files.isRegularFile(HOME.resolve("bin/jmeter.properties")),
                "the assembled JMeter home (mvn package)");
        PlanTree.init(HOME);
    }

    /** Every element of the tree, depth first, as "name (class)". */
    private static List<String> walk(HashTree tree) {
        List<String> out = new ArrayList<>();
        for (Object o : tree.list()) {
            TestElement e = (TestElement) o;
            out.add(e.getName() + " (" + e.getClass().getSimpleName() + ")");
            walk(tree.getTree(o)).forEach(c -> out.add("  " + c));
        }
        return out;
    }

    @Test
    void oursWithATimedWarmUpInTheMeasuredGroupAndJvmStatsReloads() throws Exception {
        LdapCellPlan.Cell cell = new LdapCellPlan.Cell("ldaps", 4, true, 1000);
        Path plan = LdapCellPlan.write(dir.resolve("cell.jmx"), LdapCellPlan.Impl.OURS, cell, TARGET, 200, 5, true);
        HashTree tree = SaveService.loadTree(plan.toFile());
        assertThat(walk(tree)).containsExactly(
                "bench OURS ldaps-t4-per-thread (TestPlan)",
                "  JVM Stats (JvmStats)",
                "  measure (ThreadGroup)",
                "    warm-up (RunTime)",
                "      warmup-search connection (LdapConnectionConfig)",
                "      warmup-search (LdapRequestSampler)",
                "    ops (LoopController)",
                "      search connection (LdapConnectionConfig)",
                "      search (LdapRequestSampler)");
        String xml = Files.readString(plan);
        assertThat(xml).contains("<stringProp name=\"ThreadGroup.duration\">${__P(cell.max.seconds,300)}</stringProp>",
                "<stringProp name=\"RunTime.seconds\">5</stringProp>",
                "<stringProp name=\"trustMode\">trust-store</stringProp>",
                "<stringProp name=\"port\">3636</stringProp>", "<boolProp name=\"startTls\">false</boolProp>",
                "<intProp name=\"LoopController.loops\">1000</intProp>");
    }

    @Test
    void oursWithAWarmUpOfOperationsRunsItInASetUpGroupFirst() throws Exception {
        LdapCellPlan.Cell cell = new LdapCellPlan.Cell("ldapi", 1, false, 50);
        Path plan = LdapCellPlan.write(dir.resolve("cell.jmx"), LdapCellPlan.Impl.OURS, cell, TARGET, 20, 0, false);
        assertThat(walk(SaveService.loadTree(plan.toFile()))).containsExactly(
                "bench OURS ldapi-t1-per-iteration (TestPlan)",
                "  warmup (SetupThreadGroup)",
                "    ops (LoopController)",
                "      warmup-search connection (LdapConnectionConfig)",
                "      warmup-search (LdapRequestSampler)",
                "  measure (ThreadGroup)",
                "    ops (LoopController)",
                "      search connection (LdapConnectionConfig)",
                "      search (LdapRequestSampler)");
        assertThat(Files.readString(plan)).contains("<stringProp name=\"socketPath\">/tmp/s</stringProp>",
                "<boolProp name=\"TestPlan.serialize_threadgroups\">true</boolProp>");
    }
}
