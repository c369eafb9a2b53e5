package org.trustload.harness.jmx;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;

/**
 * Reads, edits and builds {@code .jmx} plans with JMeter's own test-element tree and {@link SaveService}, never as
 * text: the harness reads plans with it ({@link PlanFile}), {@code ./trustload size} reshapes them and the benches
 * write their one-cell plans. A
 * plan is a {@link HashTree}: {@code add} hangs an element on a node and returns the element's own node.
 * <pre>{@code
 * HashTree plan = PlanTree.plan("bench", false);
 * HashTree group = PlanTree.planNode(plan).add(PlanTree.threadGroup(new ThreadGroup(), GUI, "measure", 4, 1, "300"));
 * group.add(PlanTree.element("org.apache.jmeter.sampler.DebugSampler", PlanTree.TEST_BEAN_GUI, "search"));
 * PlanTree.save(plan, file);
 * }</pre>
 * Run in a JVM with the JMeter home's jars ({@code lib/}, {@code lib/ext/}) and {@link #init} first.
 */
public final class PlanTree {

    /** JMeter's editor for TestBeans (TrustLoad's elements, JMeter's newer ones). */
    public static final String TEST_BEAN_GUI = "org.apache.jmeter.testbeans.gui.TestBeanGUI";

    private PlanTree() {
    }

    /**
     * Loads JMeter's properties once, as the JMeter home's {@code bin/} has them (SaveService needs them); nothing
     * when this JVM has loaded them already (a test that set its own).
     */
    public static synchronized void init(Path jmeterHome) {
        if (JMeterUtils.getJMeterProperties() != null) {
            return;
        }
        JMeterUtils.setJMeterHome(jmeterHome.toString());
        JMeterUtils.loadJMeterProperties(jmeterHome.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
    }

    /** {@code e}, named, enabled, with the classes JMeter stores it with (its own and the editor that opens it). */
    public static <T extends TestElement> T element(T e, String guiClass, String name) {
        e.setProperty(TestElement.GUI_CLASS, guiClass);
        e.setProperty(TestElement.TEST_CLASS, e.getClass().getName());
        e.setName(name);
        e.setEnabled(true);
        return e;
    }

    /**
     * An element of a class known by name (a plugin's or another JMeter module's, loaded from the class path)
     * with string and boolean properties given as name, value pairs.
     */
    public static TestElement element(String testClass, String guiClass, String name, Object... properties) {
        TestElement e;
        try {
            e = (TestElement) Class.forName(testClass).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException x) {
            throw new IllegalArgumentException("cannot create a " + testClass
                    + " (is the JMeter home on the class path?)", x);
        }
        element(e, guiClass, name);
        for (int i = 0; i + 1 < properties.length; i += 2) {
            if (properties[i + 1] instanceof Boolean b) {
                e.setProperty((String) properties[i], b);
            } else {
                e.setProperty((String) properties[i], String.valueOf(properties[i + 1]));
            }
        }
        return e;
    }

    /** The tree of a Test Plan named {@code name}; {@code serialized}: its thread groups run one after the other. */
    public static HashTree plan(String name, boolean serialized) {
        TestPlan plan = element(new TestPlan(), "org.apache.jmeter.control.gui.TestPlanGui", name);
        plan.setSerialized(serialized);
        plan.setTearDownOnShutdown(true);
        plan.setUserDefinedVariables(element(new Arguments(), "org.apache.jmeter.config.gui.ArgumentsPanel",
                "User Defined Variables"));
        ListedHashTree tree = new ListedHashTree();
        tree.add(plan);
        return tree;
    }

    /** The node of the Test Plan of a tree from {@link #plan}, where thread groups go. */
    public static HashTree planNode(HashTree tree) {
        return tree.getTree(tree.getArray()[0]);
    }

    /** A loop controller running its children {@code loops} times ({@code -1}: until the thread group ends). */
    public static LoopController loop(String name, int loops) {
        LoopController loop = element(new LoopController(), "org.apache.jmeter.control.gui.LoopControlPanel", name);
        loop.setLoops(loops);
        loop.setContinueForever(true);
        return loop;
    }

    /**
     * A thread group ({@code g}: a Thread Group or setUp Thread Group) of {@code threads} threads, each running its
     * children {@code loops} times ({@code -1}: until stopped), stopped after {@code seconds} (a number or a
     * {@code ${__P(..)}}).
     */
    public static <G extends ThreadGroup> G threadGroup(G g, String guiClass, String name, int threads, int loops,
                                                        String seconds) {
        element(g, guiClass, name);
        g.setProperty(AbstractThreadGroup.ON_SAMPLE_ERROR, AbstractThreadGroup.ON_SAMPLE_ERROR_CONTINUE);
        g.setNumThreads(threads);
        g.setRampUp(0);
        g.setScheduler(true);
        g.setProperty(ThreadGroup.DURATION, seconds);
        LoopController main = element(new LoopController(), "org.apache.jmeter.control.gui.LoopControlPanel",
                "Loop Controller");
        main.setLoops(loops);
        main.setContinueForever(false);
        g.setSamplerController(main);
        return g;
    }

    /** A plan file's tree, as JMeter loads it; an IOException when it is not a plan JMeter can load here. */
    public static HashTree load(Path file) throws IOException {
        HashTree tree;
        try {
            tree = SaveService.loadTree(file.toFile());
        } catch (RuntimeException e) { // XStream's: an unknown element class, not XML
            throw new IOException("cannot load " + file + " as a JMeter plan: " + e, e);
        }
        if (tree == null || tree.isEmpty()) {
            throw new IOException(file + " is not a JMeter plan");
        }
        return tree;
    }

    /** Puts {@code elements} (without children) first on {@code node}, before what it holds. */
    public static void addFirst(HashTree node, List<? extends TestElement> elements) {
        List<Object> keys = new ArrayList<>(node.list());
        List<HashTree> children = keys.stream().map(node::getTree).toList();
        node.clear();
        elements.forEach(node::add);
        for (int i = 0; i < keys.size(); i++) {
            node.set(keys.get(i), children.get(i));
        }
    }

    /**
     * Puts {@code with} in place of the first element {@code which} accepts, depth first (its children stay), or
     * with {@code null} removes it and its children; false when none is found.
     */
    public static boolean replace(HashTree node, Predicate<TestElement> which, TestElement with) {
        for (Object k : new ArrayList<>(node.list())) {
            if (k instanceof TestElement e && which.test(e)) {
                if (with == null) {
                    node.remove(k);
                } else {
                    node.replaceKey(k, with);
                }
                return true;
            }
            if (replace(node.getTree(k), which, with)) {
                return true;
            }
        }
        return false;
    }

    /** Writes {@code tree} to {@code file} as JMeter does. */
    public static Path save(HashTree tree, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream os = Files.newOutputStream(file)) {
            SaveService.saveTree(tree, os);
        }
        return file;
    }
}
