package org.trustload.jmeter.jvmstats;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** The generated GUI of {@link JvmStats}, with the help link and the target fields only where they apply. */
public class JvmStatsBeanInfo extends BeanInfoHelper {

    public JvmStatsBeanInfo() {
        super(JvmStats.class, Form.class);
        createPropertyGroup("target", new String[] {"source", "target", "username", "password"});
        createPropertyGroup("polling", new String[] {"intervalMs", "connectTimeoutMs", "callTimeoutMs"});
        createPropertyGroup("output", new String[] {"variablePrefix", "summaryFile"});

        choice("source", "self", "self", "jmx", "jvm-pid", "process", "prometheus");
        text("target", "");
        text("username", "");
        password("password");
        // long properties need Long defaults: a String default makes JMeter's GenericTestBeanCustomizer
        // log a warning for each of them whenever the GUI opens
        text("intervalMs", 1000L);
        text("connectTimeoutMs", 5000L);
        text("callTimeoutMs", 5000L);
        text("variablePrefix", "jvm");
        // Browse... like every TrustLoad file field; the extensions (.txt, .json) are added to the name
        file("summaryFile");
        property("summaryFile").setValue(DEFAULT, "jvm-stats-summary");
        shownWhen("source", when("jmx", "jvm-pid", "process", "prometheus"), "target");
        shownWhen("source", when("jmx"), "username", "password");
        // Visualizer.isStats() reads as a bean property; it is no setting
        property("stats").setHidden(true);
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(JvmStats.class, "jvm-stats");
        }
    }
}
