package org.trustload.harness.sizing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.jmeter.config.ConfigElement;
import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.PostThreadGroup;
import org.apache.jmeter.threads.SetupThreadGroup;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jmeter.threads.openmodel.OpenModelThreadGroup;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.jmx.PlanTree;
import org.trustload.jmeter.slo.SloStop;

/**
 * Reshapes a plan for one search phase of {@code ./trustload size}, with JMeter's own tree and
 * {@link SaveService} (never string-built XML): every enabled main thread group (not setUp, not
 * tearDown) becomes one thread group per load step, named {@code size-sNN <name>}, that starts when
 * the step starts and ends with it:
 * <ul>
 *   <li>closed model: a Thread Group with the step's threads, the scheduler's delay set to the step's
 *       start and its duration to the step's length, looping until then;</li>
 *   <li>open model: an Open Model Thread Group with the schedule
 *       {@code pause(start) rate(R/sec) random_arrivals(length) rate(R/sec)} (JMeter 5.5+), so arrivals
 *       do not wait for answers (no coordinated omission).</li>
 * </ul>
 * The steps' samples are told apart by their thread names. Several main groups share each step's load
 * in proportion to their thread counts in the plan (its mix). A TrustLoad config element (one with a
 * {@code configName}) found inside a main group moves to the test plan, once: it is global by name, and
 * one copy per step would clash. Two SLO Stop listeners in each judged step's group end the phase once
 * that step broke the objective (at once when its errors reach the guard), so the search never runs far
 * past the knee; a warm-up step has none.
 */
public final class SizingPlan {

    /** Thread group names of the steps: {@code size-s03 <original name>}. */
    public static final Pattern STEP_THREAD = Pattern.compile("(?:^|[ -])size-s(\\d{2,3}) ");
    private static final String STEP_PREFIX = "size-s%02d ";

    /** Load model. */
    public enum Model { OPEN, CLOSED }

    /**
     * What the plan holds.
     *
     * @param groups main thread groups and their share of the load
     * @param samplersPerIteration enabled samplers one iteration of the (first) main group runs, loops
     *                             with a literal count multiplied; 1 when it cannot be told
     */
    public record Shape(Map<String, Double> groups, double samplersPerIteration) {
    }

    private SizingPlan() {
    }

    /** Loads JMeter's properties once, as the JMeter home's {@code bin/} has them. */
    public static void init(Path jmeterHome) {
        PlanTree.init(jmeterHome);
    }

    /** The main thread groups with their weights (thread counts resolved with {@code props}). */
    public static Shape shape(Path plan, Map<String, Long> threadsByGroup, Map<String, String> props) throws IOException {
        HashTree tree = SaveService.loadTree(plan.toFile());
        HashTree planTree = planTree(tree);
        Map<String, Double> groups = new LinkedHashMap<>();
        double spi = 1;
        boolean first = true;
        for (Object o : new ArrayList<>(planTree.list())) {
            if (isMain(o)) {
                AbstractThreadGroup tg = (AbstractThreadGroup) o;
                groups.put(tg.getName(), (double) Math.max(1, threadsByGroup.getOrDefault(tg.getName(), 1L)));
                if (first) {
                    spi = Math.max(1, samplers(planTree.getTree(tg), props));
                    first = false;
                }
            }
        }
        double sum = groups.values().stream().mapToDouble(Double::doubleValue).sum();
        groups.replaceAll((k, v) -> v / sum);
        return new Shape(groups, spi);
    }

    /**
     * Writes the phase plan.
     *
     * @param loads total load of each step (threads or arrivals/s over all engines), in order
     * @param engines how many engines run the plan (each gets {@code load / engines})
     * @param slo the objective the SLO Stop listener holds the phase to (null: none)
     * @param guardErrorsPct errors at which the phase stops after 2 s
     */
    public static void write(Path in, Path out, Model model, List<Double> loads, int engines, Map<String, Double> weights,
                             long stepMs, long warmupMs, long leadInMs, String slo, double guardErrorsPct, int unjudged)
            throws IOException {
        HashTree tree = SaveService.loadTree(in.toFile());
        HashTree planTree = planTree(tree);
        TestPlan testPlan = (TestPlan) tree.list().iterator().next();
        testPlan.setSerialized(false);
        List<Object> keys = new ArrayList<>(planTree.list());
        int position = 0;
        ListedHashTree rebuilt = new ListedHashTree();
        List<Object> hoisted = new ArrayList<>();
        for (Object o : keys) {
            if (!isMain(o)) {
                continue;
            }
            hoist(planTree.getTree(o), hoisted, planTree);
        }
        for (Object o : keys) {
            HashTree sub = planTree.getTree(o);
            if (!isMain(o)) {
                rebuilt.set(o, sub);
                continue;
            }
            AbstractThreadGroup tg = (AbstractThreadGroup) o;
            double w = weights.getOrDefault(tg.getName(), 1.0 / Math.max(1, weights.size()));
            for (int s = 0; s < loads.size(); s++) {
                double perEngine = loads.get(s) * w / Math.max(1, engines);
                AbstractThreadGroup step = model == Model.CLOSED
                        ? closedStep(tg, s, (int) Math.max(1, Math.round(perEngine)), stepMs, warmupMs)
                        : openStep(tg, s, perEngine, stepMs, leadInMs);
                HashTree steps = cloneTree(sub);
                if (s >= unjudged) {
                    // in the step's own group: each judges its step's samples only, and a warm-up step none
                    if (slo != null) {
                        long windowS = Math.max(1, (stepMs - warmupMs) / 1000);
                        steps.set(sloStop("size: SLO " + slo, slo, windowS, Math.max(1, warmupMs / 1000 + windowS / 2)),
                                new ListedHashTree());
                    }
                    steps.set(sloStop("size: error guard", String.format(Locale.ROOT, "errors<=%.2f%%", guardErrorsPct), 2, 2),
                            new ListedHashTree());
                }
                rebuilt.set(step, steps);
            }
            position++;
        }
        if (position == 0) {
            throw new IOException(in + " has no enabled thread group to size (setUp and tearDown groups are not sized)");
        }
        for (Object h : hoisted) {
            rebuilt.set(h, new ListedHashTree());
        }
        tree.set(testPlan, rebuilt);
        PlanTree.save(tree, out);
    }

    private static HashTree planTree(HashTree tree) throws IOException {
        if (tree.list().size() != 1 || !(tree.list().iterator().next() instanceof TestPlan)) {
            throw new IOException("not a JMeter test plan (no TestPlan at its root)");
        }
        return tree.getTree(tree.list().iterator().next());
    }

    private static boolean isMain(Object o) {
        return o instanceof AbstractThreadGroup tg && tg.isEnabled() && !(o instanceof SetupThreadGroup)
                && !(o instanceof PostThreadGroup);
    }

    /** Moves TrustLoad config elements (global by their configName) out of a main group, to the plan. */
    private static void hoist(HashTree sub, List<Object> hoisted, HashTree planTree) {
        for (Object o : new ArrayList<>(sub.list())) {
            if (o instanceof ConfigElement && o instanceof TestStateListener && o instanceof TestElement te
                    && !te.getPropertyAsString("configName").isBlank()) {
                if (!planTree.list().contains(o) && !hoisted.contains(o)) {
                    hoisted.add(o);
                }
                sub.remove(o);
            } else {
                hoist(sub.getTree(o), hoisted, planTree);
            }
        }
    }

    /** Names a step's group {@code size-sNN <name>}, with the original's action after a sampler error. */
    private static <G extends AbstractThreadGroup> G stepOf(G g, String gui, AbstractThreadGroup orig, int s) {
        PlanTree.element(g, gui, String.format(Locale.ROOT, STEP_PREFIX, s) + orig.getName());
        g.setProperty(AbstractThreadGroup.ON_SAMPLE_ERROR, orig.getPropertyAsString(AbstractThreadGroup.ON_SAMPLE_ERROR,
                AbstractThreadGroup.ON_SAMPLE_ERROR_CONTINUE));
        return g;
    }

    private static AbstractThreadGroup closedStep(AbstractThreadGroup orig, int s, int threads, long stepMs, long warmupMs) {
        ThreadGroup g = stepOf(new ThreadGroup(), "org.apache.jmeter.threads.gui.ThreadGroupGui", orig, s);
        g.setNumThreads(threads);
        // threads start over a fraction of the warm-up, not all in the same millisecond
        g.setRampUp((int) Math.min(Math.max(0, warmupMs / 2000), 60));
        g.setScheduler(true);
        g.setDelay(s * stepMs / 1000);
        g.setDuration(stepMs / 1000);
        g.setProperty(ThreadGroup.DELAYED_START, true);
        g.setSamplerController(PlanTree.loop("Loop Controller", LoopController.INFINITE_LOOP_COUNT));
        return g;
    }

    private static AbstractThreadGroup openStep(AbstractThreadGroup orig, int s, double perEngineRate, long stepMs, long leadInMs) {
        OpenModelThreadGroup g = stepOf(new OpenModelThreadGroup(), "org.apache.jmeter.threads.openmodel.gui.OpenModelThreadGroupGui",
                orig, s);
        g.setScheduleString(schedule(leadInMs + s * stepMs, perEngineRate, stepMs));
        // the controller JMeter's own Open Model Thread Group form gives it
        org.apache.jmeter.threads.openmodel.OpenModelThreadGroupController c =
                new org.apache.jmeter.threads.openmodel.OpenModelThreadGroupController();
        c.setProperty(TestElement.TEST_CLASS, c.getClass().getName());
        g.setProperty(new org.apache.jmeter.testelement.property.TestElementProperty(AbstractThreadGroup.MAIN_CONTROLLER, c));
        return g;
    }

    /**
     * {@code pause(start) rate(R/sec) random_arrivals(length) rate(R/sec) pause(tail)}: a constant rate for
     * one step. JMeter counts an Open Model schedule from the test's start, before the elements' own
     * start-up (SDK clients, key stores) and the setUp groups: arrivals whose time has passed all fire at
     * once, so every schedule starts after a lead-in long enough for those. At the end of its schedule the
     * group interrupts the samples still running; the tail pause lets them end (half a step, at most 15 s).
     */
    static String schedule(long startMs, double perSecond, long stepMs) {
        String rate = String.format(Locale.ROOT, "rate(%s/sec)", number(perSecond));
        String pause = startMs > 0 ? String.format(Locale.ROOT, "pause(%s sec) ", number(startMs / 1000.0)) : "";
        double tail = Math.min(15, Math.max(1, stepMs / 2000.0));
        return pause + rate + String.format(Locale.ROOT, " random_arrivals(%s sec) ", number(stepMs / 1000.0)) + rate
                + String.format(Locale.ROOT, " pause(%s sec)", number(tail));
    }

    private static String number(double d) {
        if (d == Math.rint(d)) {
            return Long.toString((long) d);
        }
        return String.format(Locale.ROOT, "%.3f", d).replaceAll("0+$", "");
    }

    private static TestElement sloStop(String name, String objective, long windowS, long breakS) {
        SloStop l = PlanTree.element(new SloStop(), PlanTree.TEST_BEAN_GUI, name);
        l.setProperty("objective", objective);
        l.setProperty("windowSeconds", windowS);
        l.setProperty("breakSeconds", breakS);
        l.setProperty("minSamples", 20L);
        // stop-now: a graceful stop waits for the Open Model groups of later steps, asleep in their pause
        l.setProperty("action", "stop-now");
        return l;
    }

    /** A deep copy: each step gets its own elements, as JMeter gives each thread its own. */
    private static HashTree cloneTree(HashTree sub) {
        ListedHashTree copy = new ListedHashTree();
        for (Object o : sub.list()) {
            Object c = o instanceof TestElement te ? te.clone() : o;
            copy.set(c, cloneTree(sub.getTree(o)));
        }
        return copy;
    }

    /** Enabled samplers one iteration runs; literal loop counts multiply, other controllers count once. */
    private static double samplers(HashTree sub, Map<String, String> props) {
        double n = 0;
        for (Object o : sub.list()) {
            if (o instanceof TestElement te && !te.isEnabled()) {
                continue;
            }
            if (o instanceof Sampler) {
                n += 1;
            } else if (o.getClass().getName().equals("org.apache.jmeter.control.SwitchController")) {
                double most = 0; // one child runs per iteration
                for (Object c : sub.getTree(o).list()) {
                    HashTree one = new ListedHashTree();
                    one.set(c, sub.getTree(o).getTree(c));
                    most = Math.max(most, samplers(one, props));
                }
                n += most;
            } else if (o instanceof LoopController lc && !(o instanceof org.apache.jmeter.control.WhileController)) {
                // a literal count or ${__P(loops,10)} with the run's properties (http-100x10's 10 requests per
                // iteration: counted as 1, plan --verify sent ten times one server's share)
                OptionalLong loops = PlanFile.resolve(lc.getPropertyAsString(LoopController.LOOPS), props);
                double inner = samplers(sub.getTree(o), props);
                n += loops.isPresent() && loops.getAsLong() > 0 ? inner * loops.getAsLong() : inner;
            } else {
                n += samplers(sub.getTree(o), props);
            }
        }
        return n;
    }

    /** The step of a thread name ({@code size-s03 group 1-2}, with an engine prefix in distributed mode); -1 if none. */
    public static int step(String threadName) {
        Matcher m = STEP_THREAD.matcher(threadName);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }
}
