package org.trustload.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * What the harness needs to know of a plan without JMeter's classes: its enabled thread groups, their
 * threads, loops and scheduler, and whether they hold a sampler. A {@code .jmx} is JMeter's XML: each
 * element is followed by a {@code hashTree} sibling holding its children.
 */
public final class Jmx {

    private static final Pattern P_FUNCTION = Pattern.compile("\\$\\{__(?:P|property)\\(\\s*([^,)]+?)\\s*(?:,([^)]*))?\\)}");

    /**
     * An enabled thread group.
     *
     * @param kind {@code ThreadGroup}, {@code SetupThreadGroup}, {@code PostThreadGroup}, ...
     * @param threads as written (e.g. {@code ${__P(threads,20)}})
     * @param scheduled the scheduler (duration) is on
     * @param hasSampler an enabled sampler somewhere beneath it (a group without one never writes samples)
     */
    public record ThreadGroup(String name, String kind, String threads, String loops, boolean scheduled,
                              String duration, String delay, boolean hasSampler) {

        /** The number of threads with {@code props} applied; empty when it cannot be told. */
        public OptionalLong threads(Map<String, String> props) {
            return Jmx.resolve(threads, props);
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
                        prop(e, "ThreadGroup.delay"), children != null && hasSampler(children)));
            } else if (children != null) {
                collect(children, out);
            }
        }
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
     * {@code ${__property(name,,default)}} looked up in {@code props}; empty when it is anything else.
     */
    static OptionalLong resolve(String value, Map<String, String> props) {
        String v = value == null ? "" : value.strip();
        Matcher m = P_FUNCTION.matcher(v);
        if (m.matches()) {
            String name = m.group(1).strip();
            String def = m.group(2) == null ? "" : m.group(2);
            if (v.startsWith("${__property(")) { // __property(name,variable,default)
                int comma = def.indexOf(',');
                def = comma < 0 ? "" : def.substring(comma + 1);
            }
            v = props.containsKey(name) ? props.get(name).strip() : def.strip();
        }
        try {
            return OptionalLong.of(Long.parseLong(v));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static Document parse(Path plan) throws IOException {
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
