package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every plan loads with JMeter's SaveService, is in the catalog, and Java-serializes (distributed mode).
 * Every plan also ends in bounded time and opens with results to look at in the GUI: each thread group
 * (setUp and tearDown included) runs with the scheduler on and a duration whose default is a positive
 * number of seconds (a {@code ${__P(max_duration,…)}} or {@code ${__P(duration,…)}} property), and the
 * Test Plan's last two children are one Summary Report and one Aggregate Report writing no file (the
 * listeners of the seed's HTTP walkthrough; their cost in non-GUI runs is measured in docs/plans.md).
 */
class PlanStructureTest {

    /** The GUI classes of the two listeners every plan ends with, in this order. */
    static final List<String> GUI_LISTENERS = List.of("SummaryReport", "StatVisualizer");

    /** {@code ${__P(name,default)}} with no function or variable inside: replaced by its default. */
    private static final Pattern PROPERTY_WITH_DEFAULT =
            Pattern.compile("\\$\\{__P\\(\\s*[\\w.-]+\\s*,([^${}()]*)\\)\\}");

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

    @TestFactory
    Stream<DynamicTest> everyPlanHasADurationCapAndTheTwoGuiListeners() {
        return Plans.all().stream().map(plan -> DynamicTest.dynamicTest(plan.id(), plan.jmx().toUri(), () ->
                assertThat(problems(SaveService.loadTree(plan.jmx().toFile())))
                        .as(plan.id()
                                + ": paste the listeners as the Test Plan's last children, schedule every thread group")
                        .isEmpty()));
    }

    @Test
    void theChecksFindAPlanWithoutCapOrListeners() throws Exception {
        HashTree tree = SaveService.loadTree(Plans.DIR.resolve("src/test/resources/exit/setup-fails.jmx").toFile());
        assertThat(problems(tree)).anyMatch(p -> p.startsWith("thread group 'setUp: prepare' has no duration cap"))
                .anyMatch(p -> p.startsWith("thread group 'Main phase' has no duration cap"))
                .anyMatch(p -> p.startsWith("1 Summary Report expected, found 0"))
                .anyMatch(p -> p.startsWith("1 Aggregate Report expected, found 0"));
    }

    @Test
    void aDurationDefaultIsReadThroughNestedProperties() {
        assertThat(defaultSeconds("${__P(max_duration,${__P(duration,600)})}")).isEqualTo(600);
        assertThat(defaultSeconds("${__P(duration,3600)}")).isEqualTo(3600);
        assertThat(defaultSeconds("120")).isEqualTo(120);
        assertThat(defaultSeconds("${__P(duration)}")).isEqualTo(-1);
        assertThat(defaultSeconds("${__P(duration,0)}")).isEqualTo(-1);
        assertThat(defaultSeconds("")).isEqualTo(-1);
    }

    /** What a plan lacks of the duration cap and the two GUI listeners (empty when it has them). */
    static List<String> problems(HashTree tree) {
        List<String> problems = new ArrayList<>();
        SearchByClass<AbstractThreadGroup> groups = new SearchByClass<>(AbstractThreadGroup.class);
        tree.traverse(groups);
        for (AbstractThreadGroup group : groups.getSearchResults()) {
            if (!group.isEnabled()) {
                continue;
            }
            String duration = group.getPropertyAsString(ThreadGroup.DURATION);
            if (!(group instanceof ThreadGroup)) {
                problems.add("thread group '" + group.getName() + "' is a " + group.getClass().getSimpleName()
                        + ": teach PlanStructureTest how it is capped");
            } else if (!group.getPropertyAsBoolean(ThreadGroup.SCHEDULER) || defaultSeconds(duration) <= 0) {
                problems.add("thread group '" + group.getName() + "' has no duration cap (scheduler "
                        + group.getPropertyAsBoolean(ThreadGroup.SCHEDULER) + ", duration '" + duration
                        + "'): tick \"Specify Thread lifetime\" with ${__P(duration,SECONDS)}");
            }
        }
        SearchByClass<ResultCollector> collectors = new SearchByClass<>(ResultCollector.class);
        tree.traverse(collectors);
        for (String gui : GUI_LISTENERS) {
            List<ResultCollector> found =
                    collectors.getSearchResults().stream().filter(c -> guiClass(c).equals(gui)).toList();
            String name = gui.equals("SummaryReport") ? "Summary Report" : "Aggregate Report";
            if (found.size() != 1) {
                problems.add("1 " + name + " expected, found " + found.size());
            }
            found.stream().filter(c -> !c.getFilename().isBlank())
                    .forEach(c -> problems.add(name + " '" + c.getName() + "' writes " + c.getFilename()
                            + ": leave its file name empty"));
            found.stream().filter(c -> !c.isEnabled())
                    .forEach(c -> problems.add(name + " '" + c.getName() + "' is disabled"));
        }
        // the last two children of the Test Plan: shown last in the GUI tree, after the thread groups
        List<Object> children = tree.list().isEmpty() ? List.of()
                : new ArrayList<>(tree.getTree(tree.list().iterator().next()).list());
        List<String> last = children.subList(Math.max(0, children.size() - 2), children.size()).stream()
                .map(o -> o instanceof ResultCollector c ? guiClass(c) : o.getClass().getSimpleName()).toList();
        if (!last.equals(GUI_LISTENERS)) {
            problems.add("the Test Plan's last two children are " + last + ", expected " + GUI_LISTENERS);
        }
        return problems;
    }

    private static String guiClass(TestElement e) {
        String gui = e.getPropertyAsString(TestElement.GUI_CLASS);
        return gui.substring(gui.lastIndexOf('.') + 1);
    }

    /** The seconds a duration field gives when no property is set, or -1 when that is not a positive number. */
    static long defaultSeconds(String duration) {
        String s = duration.strip();
        for (Matcher m = PROPERTY_WITH_DEFAULT.matcher(s); m.find(); m = PROPERTY_WITH_DEFAULT.matcher(s)) {
            s = s.substring(0, m.start()) + m.group(1).strip() + s.substring(m.end());
        }
        try {
            long seconds = Long.parseLong(s);
            return seconds > 0 ? seconds : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
