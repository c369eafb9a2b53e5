package org.trustload.jmeter.jvmstats;

import java.beans.PropertyDescriptor;
import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.apache.jmeter.testbeans.gui.FileEditor;
import org.apache.jmeter.testbeans.gui.PasswordEditor;

/**
 * The generated GUI of {@link JvmStats}. Listeners cannot use the samplers' BeanInfoHelper (the
 * listeners module depends only on lib and JMeter), hence the two small helpers here.
 */
public class JvmStatsBeanInfo extends BeanInfoSupport {

    public JvmStatsBeanInfo() {
        super(JvmStats.class);
        createPropertyGroup("target", new String[] {"source", "target", "username", "password"});
        createPropertyGroup("polling", new String[] {"intervalMs", "connectTimeoutMs", "callTimeoutMs"});
        createPropertyGroup("output", new String[] {"variablePrefix", "summaryFile"});

        PropertyDescriptor p = field("source", "self");
        p.setValue(TAGS, new String[] {"self", "jmx", "jvm-pid", "process"});
        p.setValue(NOT_OTHER, Boolean.FALSE);
        field("target", "");
        field("username", "");
        field("password", "").setPropertyEditorClass(PasswordEditor.class);
        // long properties need Long defaults: a String default makes JMeter's GenericTestBeanCustomizer
        // log a warning for each of them whenever the GUI opens
        field("intervalMs", 1000L);
        field("connectTimeoutMs", 5000L);
        field("callTimeoutMs", 5000L);
        field("variablePrefix", "jvm");
        // Browse... like every TrustLoad file field; the extensions (.txt, .json) are added to the name
        field("summaryFile", "jvm-stats-summary").setPropertyEditorClass(FileEditor.class);
        // Visualizer.isStats() reads as a bean property; it is no setting
        property("stats").setHidden(true);
    }

    private PropertyDescriptor field(String name, Object def) {
        PropertyDescriptor p = property(name);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, def);
        return p;
    }
}
