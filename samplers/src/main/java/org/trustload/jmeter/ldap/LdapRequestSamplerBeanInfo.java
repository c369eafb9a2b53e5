package org.trustload.jmeter.ldap;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;
import org.apache.jmeter.testbeans.gui.TextAreaEditor;

import java.beans.PropertyDescriptor;

/** The generated GUI of {@link LdapRequestSampler}: groups, defaults, drop-downs, password fields. */
public class LdapRequestSamplerBeanInfo extends BeanInfoHelper {

    public LdapRequestSamplerBeanInfo() {
        super(LdapRequestSampler.class, Form.class);

        createPropertyGroup("config", new String[] {"configName"});
        createPropertyGroup("request", new String[] {"operation"});
        createPropertyGroup("search", new String[] {"baseDn", "scope", "filter", "attributes", "sizeLimit",
                "timeLimit", "minEntries", "maxEntriesShown"});
        createPropertyGroup("entry", new String[] {"entryDn", "compareAttribute", "compareValue", "ldif"});

        text("configName", "ldap");
        choice("operation", "search", "bind", "search", "compare", "add", "modify", "delete", "whoami");
        text("baseDn", "");
        choice("scope", "sub", "base", "one", "sub");
        text("filter", "(objectClass=*)");
        text("attributes", "");
        text("sizeLimit", "0");
        text("timeLimit", "0");
        text("entryDn", "");
        text("compareAttribute", "");
        text("compareValue", "");
        PropertyDescriptor ldif = property("ldif");
        ldif.setPropertyEditorClass(TextAreaEditor.class);
        ldif.setValue(NOT_UNDEFINED, Boolean.TRUE);
        ldif.setValue(DEFAULT, "");
        text("maxEntriesShown", "10");
        text("minEntries", "1");

        // the form shows only the chosen operation's fields, as JMeter's LDAP Extended Request does
        shownWhen("operation", when("search"), "baseDn", "scope", "filter", "attributes", "sizeLimit", "timeLimit",
                "minEntries", "maxEntriesShown");
        shownWhen("operation", when("compare", "modify", "delete"), "entryDn");
        shownWhen("operation", when("compare"), "compareAttribute", "compareValue");
        shownWhen("operation", when("add", "modify"), "ldif");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(LdapRequestSampler.class, "ldap-request");
        }
    }
}
