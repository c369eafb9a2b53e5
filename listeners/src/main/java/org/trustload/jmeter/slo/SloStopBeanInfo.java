package org.trustload.jmeter.slo;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** The generated GUI of {@link SloStop}, with the help link. */
public class SloStopBeanInfo extends BeanInfoHelper {

    public SloStopBeanInfo() {
        super(SloStop.class, Form.class);
        createPropertyGroup("objective", new String[] {"objective"});
        createPropertyGroup("timing", new String[] {"windowSeconds", "breakSeconds", "minSamples", "action"});
        text("objective", "p99<=500ms,errors<=1%");
        // long properties need Long defaults (a String default makes the GUI log a warning)
        text("windowSeconds", 10L);
        text("breakSeconds", 10L);
        text("minSamples", 20L);
        choice("action", "stop", "stop", "stop-now", "log");
        // Visualizer.isStats() reads as a bean property; it is no setting
        property("stats").setHidden(true);
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(SloStop.class, "slo-stop");
        }
    }
}
