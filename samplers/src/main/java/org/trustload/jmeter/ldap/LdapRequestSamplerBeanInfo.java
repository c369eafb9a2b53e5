package org.trustload.jmeter.ldap;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.apache.jmeter.testbeans.gui.TextAreaEditor;

import java.beans.PropertyDescriptor;

/** The generated GUI of {@link LdapRequestSampler}: groups, defaults, drop-downs, password fields. */
public class LdapRequestSamplerBeanInfo extends BeanInfoHelper {

    public LdapRequestSamplerBeanInfo() {
        super(LdapRequestSampler.class);

        createPropertyGroup("connection", new String[] {"scheme", "host", "port", "socketPath", "startTls",
                "connectionMode", "connectTimeout", "responseTimeout"});
        createPropertyGroup("tls", new String[] {"trustMode", "trustStore", "trustStorePassword", "trustStoreType",
                "verifyHostname"});
        createPropertyGroup("bind", new String[] {"bindType", "bindDn", "bindPassword", "authzId"});
        createPropertyGroup("operation", new String[] {"operation", "baseDn", "scope", "filter", "attributes",
                "sizeLimit", "timeLimit", "entryDn", "compareAttribute", "compareValue", "ldif",
                "maxEntriesShown"});

        // Drop-downs that still accept ${...} expressions, so plans can take them from properties.
        choice("scheme", "ldap", "ldap", "ldaps", "ldapi");
        text("host", "127.0.0.1");
        text("port", "");
        text("socketPath", "");
        flag("startTls");
        choice("connectionMode", LdapRequestSampler.MODE_PER_ITERATION, LdapRequestSampler.MODE_PER_ITERATION,
                LdapRequestSampler.MODE_PER_THREAD);
        text("connectTimeout", "5000");
        text("responseTimeout", "30000");

        choice("trustMode", "jvm-default", "jvm-default", "trust-store", "trust-all");
        text("trustStore", "");
        password("trustStorePassword");
        choice("trustStoreType", "PKCS12", "PKCS12", "JKS");
        flag("verifyHostname");

        choice("bindType", "anonymous", "none", "anonymous", "simple", "sasl-external");
        text("bindDn", "");
        password("bindPassword");
        text("authzId", "");

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
    }

    private void flag(String name) {
        text(name, Boolean.FALSE);
    }
}
