package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.util.stream.Stream;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every plan loads with JMeter's SaveService, is in the catalog, and Java-serializes (distributed mode). */
class PlanStructureTest {

    @BeforeAll
    static void jmeter() {
        assertThat(Plans.HOME.resolve("bin/jmeter.properties")).as("assembled JMeter home").exists();
        JMeterUtils.setJMeterHome(Plans.HOME.toString());
        JMeterUtils.loadJMeterProperties(Plans.HOME.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
    }

    @TestFactory
    Stream<DynamicTest> everyPlanLoadsIsCataloguedAndSerializes() {
        return Plans.all().stream().map(plan -> DynamicTest.dynamicTest(plan.id(), plan.jmx().toUri(), () -> {
            assertThat(Plans.entry(plan)).as(plan.id() + " needs a row in test-plans/catalog.tsv").isPresent();
            HashTree tree = SaveService.loadTree(plan.jmx().toFile());
            assertThat(tree.list()).as("test plan element").isNotEmpty();
            JMeter.convertSubTree(tree, false); // what the controller does before sending the tree
            try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
                out.writeObject(tree);
            }
        }));
    }
}
