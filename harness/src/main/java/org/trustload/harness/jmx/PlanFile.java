package org.trustload.harness.jmx;

import org.trustload.harness.results.Jtl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.control.RunTime;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.MultiProperty;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jorphan.collections.HashTree;
import org.trustload.jmeter.engine.EngineEnds;
import org.trustload.jmeter.engine.EngineLoad;
import org.trustload.jmeter.jvmstats.JvmStats;
import org.trustload.jmeter.results.SampleEventMarker;

/**
 * What the harness reads of a plan and the run's copy it writes, on the tree JMeter itself loads ({@link
 * PlanTree#load}): the enabled thread groups, the data files remote engines need, the JVM Stats columns, and the copy
 * with the harness's own elements. {@link PlanTree#init} first.
 */
public final class PlanFile {

    /**
     * An enabled thread group.
     *
     * @param kind {@code ThreadGroup}, {@code SetupThreadGroup}, {@code PostThreadGroup}, ...
     * @param threads as written (e.g. {@code ${__P(threads,20)}})
     * @param scheduled the scheduler (duration) is on
     * @param hasSampler an enabled sampler somewhere beneath it (a group without one never writes samples)
     * @param samplersPerIteration the samples one iteration writes (top-level, as the summariser counts them)
     *        when the group holds only samplers and controllers that run each child once (Simple, Transaction
     *        in non-parent mode, Random Order, Critical Section); -1 when another controller decides it at run time
     * @param rampUp the ramp-up seconds as written ({@code ThreadGroup.ramp_time}; empty for other kinds)
     * @param loopsInside the loop counts of the enabled Loop Controllers beneath it, as written, in file order
     * @param secondsInside the seconds of the enabled Runtime Controllers beneath it, as written, in file order
     */
    public record ThreadGroup(String name, String kind, String threads, String loops, boolean scheduled,
                              String duration, String delay, boolean hasSampler, long samplersPerIteration,
                              String rampUp, List<String> loopsInside, List<String> secondsInside) {

        /** A group without ramp-up or inner loops (tests). */
        public ThreadGroup(String name, String kind, String threads, String loops, boolean scheduled, String duration,
                           String delay, boolean hasSampler, long samplersPerIteration) {
            this(name, kind, threads, loops, scheduled, duration, delay, hasSampler, samplersPerIteration, "",
                    List.of(), List.of());
        }

        /** The ramp-up in seconds with {@code props} applied; empty when it cannot be told. */
        public OptionalLong rampUpSeconds(Map<String, String> props) {
            return resolve(rampUp, props);
        }

        /** The number of threads with {@code props} applied; empty when it cannot be told. */
        public OptionalLong threads(Map<String, String> props) {
            return resolve(threads, props);
        }

        /**
         * The top-level samples the group's loops ask for (threads x loops x samples per iteration) on one
         * engine; empty when it loops until stopped or a count cannot be told.
         */
        public OptionalLong plannedSamples(Map<String, String> props) {
            OptionalLong t = threads(props);
            OptionalLong l = resolve(loops, props);
            if (t.isEmpty() || l.isEmpty() || l.getAsLong() < 0 || samplersPerIteration < 0) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(t.getAsLong() * l.getAsLong() * samplersPerIteration);
        }

        /** Seconds the scheduler allows (duration alone, without the start delay); empty without a scheduler. */
        public OptionalLong durationSeconds(Map<String, String> props) {
            if (!scheduled) {
                return OptionalLong.empty();
            }
            OptionalLong d = resolve(duration, props);
            return d.isEmpty() || d.getAsLong() <= 0 ? OptionalLong.empty() : d;
        }

        /** Seconds the scheduler allows (delay + duration); empty without a scheduler. */
        public OptionalLong scheduledSeconds(Map<String, String> props) {
            OptionalLong d = durationSeconds(props);
            return d.isEmpty() ? d : OptionalLong.of(d.getAsLong() + resolve(delay, props).orElse(0));
        }
    }

    private final Path file;
    /** Null until loaded, and when the file is not a plan JMeter loads (its log says why when it runs). */
    private HashTree tree;
    private boolean loaded;
    private List<ThreadGroup> threadGroups;

    private PlanFile(Path file, HashTree tree) {
        this.file = file;
        this.tree = tree;
        this.loaded = tree != null;
    }

    /**
     * {@code plan}, loaded once on first use ({@link PlanTree#init} first), for everything a run reads of it; an
     * unreadable plan reads as one without elements.
     */
    public static PlanFile of(Path plan) {
        return new PlanFile(plan, null);
    }

    private synchronized HashTree tree() {
        if (!loaded) {
            loaded = true;
            try {
                tree = PlanTree.load(file);
            } catch (IOException | RuntimeException | LinkageError e) {
                tree = null;
            }
        }
        return tree;
    }

    /** The enabled thread groups, in file order. */
    public synchronized List<ThreadGroup> threadGroups() {
        if (threadGroups == null) {
            List<ThreadGroup> out = new ArrayList<>();
            if (tree() != null) {
                collect(tree(), out);
            }
            threadGroups = List.copyOf(out);
        }
        return threadGroups;
    }

    /** The enabled thread groups of {@code plan}, in file order. */
    public static List<ThreadGroup> threadGroups(Path plan) throws IOException {
        return new PlanFile(plan, PlanTree.load(plan)).threadGroups();
    }

    private static void collect(HashTree tree, List<ThreadGroup> out) {
        for (Object k : tree.list()) {
            if (!(k instanceof TestElement e) || !e.isEnabled()) {
                continue; // a disabled element disables what it holds
            }
            HashTree children = tree.getTree(k);
            if (e instanceof AbstractThreadGroup g) {
                String loops = g.getProperty(AbstractThreadGroup.MAIN_CONTROLLER)
                        .getObjectValue() instanceof TestElement main
                        ? main.getPropertyAsString(LoopController.LOOPS) : "";
                out.add(new ThreadGroup(g.getName(), g.getClass().getSimpleName(),
                        g.getPropertyAsString(AbstractThreadGroup.NUM_THREADS),
                        loops, g.getPropertyAsBoolean("ThreadGroup.scheduler"),
                                g.getPropertyAsString("ThreadGroup.duration"),
                        g.getPropertyAsString("ThreadGroup.delay"), hasSampler(children), samplers(children),
                        g.getPropertyAsString("ThreadGroup.ramp_time"), inside(children, LoopController.class,
                                LoopController.LOOPS),
                        inside(children, RunTime.class, "RunTime.seconds")));
            } else {
                collect(children, out);
            }
        }
    }

    /**
     * Calls {@code each} for every enabled element beneath {@code tree} (a disabled one hides its children), depth
     * first.
     */
    private static void enabled(HashTree tree, BiConsumer<TestElement, HashTree> each) {
        for (Object k : tree.list()) {
            if (k instanceof TestElement e && e.isEnabled()) {
                each.accept(e, tree.getTree(k));
                enabled(tree.getTree(k), each);
            }
        }
    }

    /** The property {@code name} of every enabled element of class {@code type} beneath {@code tree}, in file order. */
    private static List<String> inside(HashTree tree, Class<?> type, String name) {
        List<String> out = new ArrayList<>();
        enabled(tree, (e, children) -> {
            if (e.getClass() == type) {
                out.add(e.getPropertyAsString(name));
            }
        });
        return out;
    }

    private static boolean hasSampler(HashTree tree) {
        boolean[] found = {false};
        enabled(tree, (e, children) -> found[0] |= writesSamples(e));
        return found[0];
    }

    /** A sampler that writes a sample: not a Flow Control Action (its {@code sample} returns none). */
    private static boolean writesSamples(TestElement e) {
        return e instanceof Sampler && !e.getClass().getName().equals("org.apache.jmeter.sampler.TestAction");
    }

    /** Controllers that run each child once per pass. */
    private static final Set<String> ONCE_EACH = Set.of("GenericController", "TransactionController",
            "RandomOrderController", "CriticalSectionController");

    /** Samples one pass over {@code tree} writes; -1 when a controller decides it at run time. */
    private static long samplers(HashTree tree) {
        long n = 0;
        for (Object k : tree.list()) {
            if (!(k instanceof TestElement e) || !e.isEnabled()) {
                continue;
            }
            HashTree children = tree.getTree(k);
            if (writesSamples(e)) {
                n++;
            } else if (hasSampler(children)) {
                // a parent-mode transaction's samples are sub-results the summariser never sees
                if (!ONCE_EACH.contains(e.getClass().getSimpleName())
                        || e.getPropertyAsBoolean("TransactionController.parent")) {
                    return -1;
                }
                long inner = samplers(children);
                if (inner < 0) {
                    return -1;
                }
                n += inner;
            }
        }
        return n;
    }

    /**
     * A number as written in a plan: a literal, or {@code ${__P(name,default)}} /
     * {@code ${__property(name,,default)}} looked up in {@code props}, the default itself such an
     * expression when nested ({@code ${__P(max_duration,${__P(duration,600)})}}); empty when it is anything
     * else (another function, a variable).
     */
    public static OptionalLong resolve(String value, Map<String, String> props) {
        String v = evaluate(value == null ? "" : value.strip(), props);
        if (v == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(v.strip()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * {@code text} with every {@code ${__P(...)}} / {@code ${__property(...)}} replaced as JMeter would (a
     * property's value is taken as it is: JMeter does not evaluate functions inside it); null when the text
     * holds any other {@code ${...}}. Not JMeter's own evaluator ({@code CompoundVariable}): that one reads the
     * JVM-wide JMeter properties (a run's {@code -J} values would have to be set in the harness's JVM, where
     * benches and tests run many plans) and runs every other function it meets ({@code __groovy},
     * {@code __counter}, ...) here instead of saying that only the run can tell.
     */
    static String evaluate(String text, Map<String, String> props) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            int start = text.indexOf("${", i);
            if (start < 0) {
                out.append(text, i, text.length());
                break;
            }
            out.append(text, i, start);
            int end = closingBrace(text, start + 2);
            if (end < 0) {
                return null;
            }
            String call = text.substring(start + 2, end);
            String fn = call.startsWith("__P(") ? "__P" : call.startsWith("__property(") ? "__property" : null;
            if (fn == null || !call.endsWith(")")) {
                return null;
            }
            List<String> args = arguments(call.substring(fn.length() + 1, call.length() - 1));
            String name = evaluate(args.get(0).strip(), props);
            // __P(name,default); __property(name,variable,default)
            int defaultAt = fn.equals("__P") ? 1 : 2;
            String def = args.size() > defaultAt ? evaluate(args.get(defaultAt), props) : "";
            if (name == null || def == null) {
                return null;
            }
            out.append(props.containsKey(name) ? props.get(name) : def);
            i = end + 1;
        }
        return out.toString();
    }

    /** Index of the {@code }} closing the {@code ${} whose content starts at {@code from}; -1 when none. */
    private static int closingBrace(String s, int from) {
        int depth = 0;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '$' && i + 1 < s.length() && s.charAt(i + 1) == '{') {
                depth++;
                i++;
            } else if (c == '}') {
                if (depth == 0) {
                    return i;
                }
                depth--;
            }
        }
        return -1;
    }

    /** A function's arguments: split at top-level commas ({@code \\,} is a literal comma), nested calls kept whole. */
    private static List<String> arguments(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == ',' && depth == 0) {
                cur.append(',');
                i++;
            } else if (c == ',' && depth == 0) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                if (c == '$' && i + 1 < s.length() && s.charAt(i + 1) == '{') {
                    depth++;
                } else if (c == '}' && depth > 0) {
                    depth--;
                }
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    /**
     * Properties of TrustLoad elements that name a file the element reads (their {@code file(...)} fields, less
     * outputs and Unix socket paths, which belong to the server's host): the data a remote engine needs at the
     * same path. {@code InputFilesTest} (test-plans) holds this list to the elements' BeanInfo.
     */
    public static final Set<String> TRUSTLOAD_INPUT_FILES = Set.of("keyStoreFile", "certificateFile", "pkcs11Config",
            "trustStore", "trustAnchorsFile", "crlFiles", "inputFile", "clientKeyFile", "caFile", "clientKeyStore");

    /**
     * A data file a plan reads: its path as the run's properties make it, and what names it.
     *
     * @param path the property's value with {@code ${__P(...)}} resolved (as written: relative or absolute)
     * @param namedBy e.g. {@code "CSV Data Set Config 'users' (filename)"}
     */
    public record InputFile(String path, String namedBy) {
    }

    /**
     * The data files {@code plan}'s enabled elements read, with the run's properties {@code props}: TrustLoad
     * elements' input files ({@link #TRUSTLOAD_INPUT_FILES}), CSV Data Set Config files and HTTP file uploads.
     * A value that depends on anything but properties (a variable, another function) is set at run time on the
     * engine and left out.
     */
    public static List<InputFile> inputFiles(Path plan, Map<String, String> props) throws IOException {
        return new PlanFile(plan, PlanTree.load(plan)).inputFiles(props);
    }

    /** {@link #inputFiles(Path, Map)} of this plan. */
    public List<InputFile> inputFiles(Map<String, String> props) {
        List<InputFile> out = new ArrayList<>();
        if (tree() == null) {
            return out;
        }
        enabled(tree(), (e, children) -> {
            String type = e.getClass().getName();
            if (type.equals("org.apache.jmeter.config.CSVDataSet")) {
                add(out, e.getPropertyAsString("filename"), props, "CSV Data Set Config '" + e.getName()
                        + "' (filename)");
            } else if (type.startsWith("org.trustload.")) {
                for (String name : TRUSTLOAD_INPUT_FILES) {
                    add(out, e.getPropertyAsString(name), props, "'" + e.getName() + "' (" + name + ")");
                }
            }
            e.propertyIterator().forEachRemaining(p -> uploads(p, e.getName(), props, out));
        });
        return out;
    }

    /** HTTP file uploads: HTTPFileArg elements anywhere in an element's properties. */
    private static void uploads(JMeterProperty p, String element, Map<String, String> props, List<InputFile> out) {
        if (p.getObjectValue() instanceof TestElement arg && arg.getClass().getName().endsWith(".HTTPFileArg")) {
            add(out, arg.getPropertyAsString("File.path"), props, "'" + element + "' (file upload)");
        }
        if (p instanceof MultiProperty m) {
            m.iterator().forEachRemaining(c -> uploads(c, element, props, out));
        }
    }

    /** The files a value names once evaluated: one path, or a list separated by commas or blanks ({@code crlFiles}). */
    private static void add(List<InputFile> out, String written, Map<String, String> props, String namedBy) {
        String v = evaluate(written.strip(), props);
        if (v == null) {
            return;
        }
        for (String one : namedBy.endsWith("(crlFiles)") ? v.split("[,\\s]+") : new String[] {v.strip()}) {
            InputFile f = new InputFile(one.strip(), namedBy);
            if (!f.path().isEmpty() && out.stream().noneMatch(x -> x.path().equals(f.path()))) {
                out.add(f);
            }
        }
    }

    /**
     * The {@code sample_variables} of the plan's enabled JVM Stats elements ({@code <prefix>_cpu_ms,…}), if it has any.
     */
    public static Optional<String> jvmStatsColumns(Path plan) throws IOException {
        return new PlanFile(plan, PlanTree.load(plan)).jvmStatsColumns();
    }

    /** {@link #jvmStatsColumns(Path)} of this plan. */
    public Optional<String> jvmStatsColumns() {
        Set<String> names = new LinkedHashSet<>();
        if (tree() == null) {
            return Optional.empty();
        }
        enabled(tree(), (e, children) -> {
            if (e instanceof JvmStats) {
                String prefix = e.getPropertyAsString("variablePrefix").strip();
                JvmStats.VARIABLES.forEach(v -> names.add((prefix.isEmpty() ? "jvm" : prefix) + "_" + v));
            }
        });
        return names.isEmpty() ? Optional.empty() : Optional.of(String.join(",", names));
    }

    /**
     * The column {@link EngineLoad} fills on remote engines: {@code epochMs/cpuMs/gcMs/waitMs/cpus} of the engine that
     * sent the row.
     */
    public static final String ENGINE_LOAD_COLUMN = EngineLoad.VARIABLE;

    /**
     * A copy of the plan with elements of the harness first under the test plan: the {@link SampleEventMarker} and,
     * for remote engines, {@link EngineLoad} and {@link EngineEnds}; {@code more} then adds what else the run needs
     * (e.g. a Backend Listener). Written beside the plan (JMeter resolves a plan's relative file names from the
     * plan's folder) under a name no plan listing picks up ({@code .NAME.trustload-PID-N.jmx.run}); the caller deletes
     * it. Empty when the plan cannot be read or its folder is not writable: the run then uses the plan itself.
     */
    public Optional<Path> runCopy(boolean remote, Consumer<HashTree> more) {
        if (tree() == null) {
            return Optional.empty();
        }
        Path copy = file.resolveSibling("." + file.getFileName() + ".trustload-" + ProcessHandle.current().pid() + "-"
                + COPIES.incrementAndGet() + ".jmx.run");
        try {
            HashTree run = (HashTree) tree().clone();
            List<TestElement> first = new ArrayList<>();
            first.add(PlanTree.element(new SampleEventMarker(), SampleEventMarker.class.getName(),
                    "TrustLoad event marker (added by the harness: " + Jtl.EVENT_COLUMN + " column)"));
            if (remote) {
                first.add(PlanTree.element(new EngineLoad(), EngineLoad.class.getName(),
                        "TrustLoad engine load (added by the harness: " + ENGINE_LOAD_COLUMN + " column)"));
                first.add(PlanTree.element(new EngineEnds(), EngineEnds.class.getName(),
                        "TrustLoad engine ends (added by the harness: tells it when each engine has ended)"));
            }
            PlanTree.addFirst(PlanTree.planNode(run), first);
            more.accept(run);
            return Optional.of(PlanTree.save(run, copy));
        } catch (IOException | RuntimeException | LinkageError e) { // LinkageError: a JMeter home without the elements
            try {
                Files.deleteIfExists(copy);
            } catch (IOException ignored) {
                // the folder is not writable: nothing was written
            }
            return Optional.empty();
        }
    }

    private static final AtomicInteger COPIES = new AtomicInteger();
}
