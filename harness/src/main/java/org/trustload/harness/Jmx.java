package org.trustload.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * What the harness needs to know of a plan without JMeter's classes: its enabled thread groups, their
 * threads, loops and scheduler, and whether they hold a sampler. A {@code .jmx} is JMeter's XML: each
 * element is followed by a {@code hashTree} sibling holding its children.
 */
public final class Jmx {

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
            this(name, kind, threads, loops, scheduled, duration, delay, hasSampler, samplersPerIteration, "", List.of(), List.of());
        }

        /** The ramp-up in seconds with {@code props} applied; empty when it cannot be told. */
        public OptionalLong rampUpSeconds(Map<String, String> props) {
            return Jmx.resolve(rampUp, props);
        }

        /** The number of threads with {@code props} applied; empty when it cannot be told. */
        public OptionalLong threads(Map<String, String> props) {
            return Jmx.resolve(threads, props);
        }

        /**
         * The top-level samples the group's loops ask for (threads x loops x samples per iteration) on one
         * engine; empty when it loops until stopped or a count cannot be told.
         */
        public OptionalLong plannedSamples(Map<String, String> props) {
            OptionalLong t = threads(props);
            OptionalLong l = Jmx.resolve(loops, props);
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
            OptionalLong d = Jmx.resolve(duration, props);
            return d.isEmpty() || d.getAsLong() <= 0 ? OptionalLong.empty() : d;
        }

        /** Seconds the scheduler allows (delay + duration); empty without a scheduler. */
        public OptionalLong scheduledSeconds(Map<String, String> props) {
            if (!scheduled) {
                return OptionalLong.empty();
            }
            OptionalLong d = Jmx.resolve(duration, props);
            if (d.isEmpty() || d.getAsLong() <= 0) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(d.getAsLong() + Jmx.resolve(delay, props).orElse(0));
        }
    }

    private Jmx() {
    }

    /** The enabled thread groups of {@code plan}, in file order. */
    public static List<ThreadGroup> threadGroups(Path plan) throws IOException {
        Document doc = parse(plan);
        List<ThreadGroup> out = new ArrayList<>();
        for (Node n = doc.getDocumentElement().getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals("hashTree")) {
                collect(e, out); // the root tree: the TestPlan and its hashTree
            }
        }
        return out;
    }

    private static void collect(Element tree, List<ThreadGroup> out) {
        for (Node n = tree.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e) || e.getTagName().equals("hashTree")) {
                continue;
            }
            Element children = nextHashTree(e);
            if (!enabled(e)) {
                continue; // a disabled element disables what it holds
            }
            String testclass = e.getAttribute("testclass");
            if (testclass.endsWith("ThreadGroup") && !testclass.equals("ThreadGroup.main_controller")) {
                Element loop = elementProp(e, "ThreadGroup.main_controller");
                out.add(new ThreadGroup(e.getAttribute("testname"), testclass.substring(testclass.lastIndexOf('.') + 1),
                        prop(e, "ThreadGroup.num_threads"), loop == null ? "" : prop(loop, "LoopController.loops"),
                        Boolean.parseBoolean(prop(e, "ThreadGroup.scheduler")), prop(e, "ThreadGroup.duration"),
                        prop(e, "ThreadGroup.delay"), children != null && hasSampler(children),
                        children == null ? 0 : samplers(children), prop(e, "ThreadGroup.ramp_time"),
                        children == null ? List.of() : inside(children, "LoopController", "LoopController.loops"),
                        children == null ? List.of() : inside(children, "RunTime", "RunTime.seconds")));
            } else if (children != null) {
                collect(children, out);
            }
        }
    }

    /** The property {@code name} of every enabled element of class {@code testclass} beneath {@code tree}, in file order. */
    private static List<String> inside(Element tree, String testclass, String name) {
        List<String> out = new ArrayList<>();
        for (Node n = tree.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e) || e.getTagName().equals("hashTree") || !enabled(e)) {
                continue;
            }
            if (testclass.equals(e.getAttribute("testclass"))) {
                out.add(prop(e, name));
            }
            Element children = nextHashTree(e);
            if (children != null) {
                out.addAll(inside(children, testclass, name));
            }
        }
        return out;
    }

    private static boolean hasSampler(Element tree) {
        for (Node n = tree.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e) || e.getTagName().equals("hashTree") || !enabled(e)) {
                continue;
            }
            String testclass = e.getAttribute("testclass");
            if (testclass.endsWith("Sampler") || testclass.endsWith("SamplerProxy")) {
                return true;
            }
            Element children = nextHashTree(e);
            if (children != null && hasSampler(children)) {
                return true;
            }
        }
        return false;
    }

    /** Controllers that run each child once per pass. */
    private static final Set<String> ONCE_EACH = Set.of("GenericController", "TransactionController",
            "RandomOrderController", "CriticalSectionController");

    /** Samples one pass over {@code tree} writes; -1 when a controller decides it at run time. */
    private static long samplers(Element tree) {
        long n = 0;
        for (Node c = tree.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (!(c instanceof Element e) || e.getTagName().equals("hashTree") || !enabled(e)) {
                continue;
            }
            String testclass = e.getAttribute("testclass");
            Element children = nextHashTree(e);
            if (testclass.endsWith("Sampler") || testclass.endsWith("SamplerProxy")) {
                n++;
            } else if (children != null && hasSampler(children)) {
                boolean parentMode = testclass.equals("TransactionController")
                        && Boolean.parseBoolean(prop(e, "TransactionController.parent"));
                if (!ONCE_EACH.contains(testclass) || parentMode) {
                    return -1; // a parent-mode transaction's samples are sub-results the summariser never sees
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

    private static boolean enabled(Element e) {
        return !"false".equals(e.getAttribute("enabled"));
    }

    private static Element nextHashTree(Element e) {
        for (Node n = e.getNextSibling(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element s) {
                return s.getTagName().equals("hashTree") ? s : null;
            }
        }
        return null;
    }

    private static Element elementProp(Element e, String name) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals("elementProp") && name.equals(c.getAttribute("name"))) {
                return c;
            }
        }
        return null;
    }

    private static String prop(Element e, String name) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && name.equals(c.getAttribute("name")) && !c.getTagName().equals("elementProp")) {
                return c.getTextContent().strip();
            }
        }
        return "";
    }

    /**
     * A number as written in a plan: a literal, or {@code ${__P(name,default)}} /
     * {@code ${__property(name,,default)}} looked up in {@code props}, the default itself such an
     * expression when nested ({@code ${__P(max_duration,${__P(duration,600)})}}); empty when it is anything
     * else (another function, a variable).
     */
    static OptionalLong resolve(String value, Map<String, String> props) {
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
     * holds any other {@code ${...}}.
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
        Document doc = parse(plan);
        List<InputFile> out = new ArrayList<>();
        for (Node n = doc.getDocumentElement().getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals("hashTree")) {
                inputFiles(e, props, out);
            }
        }
        return out;
    }

    private static void inputFiles(Element tree, Map<String, String> props, List<InputFile> out) {
        for (Node n = tree.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e) || e.getTagName().equals("hashTree")) {
                continue;
            }
            Element children = nextHashTree(e);
            if (!enabled(e)) {
                continue;
            }
            String testclass = e.getAttribute("testclass");
            String element = e.getAttribute("testname");
            if (testclass.equals("CSVDataSet")) {
                add(out, prop(e, "filename"), props, "CSV Data Set Config '" + element + "' (filename)");
            } else if (testclass.startsWith("org.trustload.")) {
                for (String name : TRUSTLOAD_INPUT_FILES) {
                    add(out, prop(e, name), props, "'" + element + "' (" + name + ")");
                }
            }
            // HTTP file uploads: HTTPFileArg elements anywhere in the element's properties
            NodeList uploads = e.getElementsByTagName("elementProp");
            for (int i = 0; i < uploads.getLength(); i++) {
                Element u = (Element) uploads.item(i);
                if ("HTTPFileArg".equals(u.getAttribute("elementType"))) {
                    add(out, prop(u, "File.path"), props, "'" + element + "' (file upload)");
                }
            }
            if (children != null) {
                inputFiles(children, props, out);
            }
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

    /** The element that fills {@value Jtl#EVENT_COLUMN} (listeners module; the harness names it, never loads it). */
    static final String EVENT_MARKER_CLASS = "org.trustload.jmeter.results.SampleEventMarker";

    /** The element that fills {@value #ENGINE_LOAD_COLUMN} on remote engines (listeners module; named, never loaded). */
    static final String ENGINE_LOAD_CLASS = "org.trustload.jmeter.engine.EngineLoad";
    /** Its column: {@code epochMs/cpuMs/gcMs/waitMs/cpus} of the engine that sent the row. */
    public static final String ENGINE_LOAD_COLUMN = "trustload_engine_load";

    /**
     * A copy of {@code plan} with elements of the harness first under the test plan: the event marker
     * ({@link #EVENT_MARKER_CLASS}) and, for remote engines, the engine load reading ({@link #ENGINE_LOAD_CLASS}).
     * Written beside the plan (JMeter resolves a plan's relative file names from the plan's folder) under a name no
     * plan listing picks up ({@code .NAME.trustload-PID-N.jmx.run}); the caller deletes it. Empty when the plan
     * cannot be read as a plan or its folder is not writable: the run then uses the plan itself.
     */
    static Optional<Path> withHarnessElements(Path plan, boolean engineLoad) {
        try {
            Document doc = parse(plan);
            Element testPlanTree = testPlanTree(doc);
            if (testPlanTree == null) {
                return Optional.empty();
            }
            Node first = testPlanTree.getFirstChild();
            insert(doc, testPlanTree, first, EVENT_MARKER_CLASS, "TrustLoad event marker (added by the harness: "
                    + Jtl.EVENT_COLUMN + " column)");
            if (engineLoad) {
                insert(doc, testPlanTree, first, ENGINE_LOAD_CLASS, "TrustLoad engine load (added by the harness: "
                        + ENGINE_LOAD_COLUMN + " column)");
            }
            Path copy = plan.resolveSibling("." + plan.getFileName() + ".trustload-" + ProcessHandle.current().pid() + "-"
                    + COPIES.incrementAndGet() + ".jmx.run");
            Transformer t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            try (OutputStream out = Files.newOutputStream(copy)) {
                t.transform(new DOMSource(doc), new StreamResult(out));
            } catch (IOException | TransformerException e) {
                Files.deleteIfExists(copy);
                throw e;
            }
            return Optional.of(copy);
        } catch (IOException | TransformerException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static void insert(Document doc, Element tree, Node before, String testclass, String name) {
        Element e = doc.createElement(testclass);
        // JMeter's loader requires a guiclass; it is only read by the GUI, which never opens this copy
        e.setAttribute("guiclass", testclass);
        e.setAttribute("testclass", testclass);
        e.setAttribute("testname", name);
        e.setAttribute("enabled", "true");
        tree.insertBefore(e, before);
        tree.insertBefore(doc.createElement("hashTree"), before);
    }

    private static final AtomicInteger COPIES = new AtomicInteger();

    /** The {@code hashTree} holding the test plan's children (where plan-wide elements go), or null. */
    static Element testPlanTree(Document doc) {
        for (Node n = doc.getDocumentElement().getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element root && root.getTagName().equals("hashTree")) {
                for (Node c = root.getFirstChild(); c != null; c = c.getNextSibling()) {
                    if (c instanceof Element e && "TestPlan".equals(e.getAttribute("testclass"))) {
                        return nextHashTree(e);
                    }
                }
            }
        }
        return null;
    }

    static Document parse(Path plan) throws IOException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return f.newDocumentBuilder().parse(plan.toFile());
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("cannot read " + plan + ": " + e.getMessage(), e);
        }
    }
}
