package org.trustload.jmeter.ldap;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;
import org.trustload.ldap.LdapConnections;

/** The generated GUI of {@link LdapConnectionConfig}: groups, defaults, drop-downs, file and password fields. */
public class LdapConnectionConfigBeanInfo extends BeanInfoHelper {

    public LdapConnectionConfigBeanInfo() {
        super(LdapConnectionConfig.class, Form.class);

        clientConfig(new LdapConnectionConfig());
        createPropertyGroup("server", new String[] {"scheme", "host", "port", "socketPath", "startTls"});
        createPropertyGroup("tls", new String[] {"trustMode", "trustStore", "trustStorePassword", "trustStoreType",
                "verifyHostname", "tlsSessionResumption"});
        createPropertyGroup("bind", new String[] {"bindType", "bindDn", "bindPassword", "authzId"});
        createPropertyGroup("connection", new String[] {"connectionMode", "connectTimeout", "responseTimeout"});

        // Drop-downs that still accept ${...} expressions, so plans can take them from properties.
        choice("scheme", "ldap", "ldap", "ldaps", "ldapi");
        text("host", "127.0.0.1");
        text("port", "");
        file("socketPath");
        flag("startTls");

        choice("trustMode", "jvm-default", "jvm-default", "trust-store", "trust-all");
        file("trustStore");
        password("trustStorePassword");
        choice("trustStoreType", "PKCS12", "PKCS12", "JKS");
        flag("verifyHostname");
        flag("tlsSessionResumption");

        choice("bindType", "anonymous", "none", "anonymous", "simple", "sasl-external");
        text("bindDn", "");
        password("bindPassword");
        text("authzId", "");

        choice("connectionMode", LdapConnections.Mode.PER_ITERATION.id(), LdapConnections.Mode.PER_ITERATION.id(),
                LdapConnections.Mode.PER_THREAD.id());

        shownWhen("scheme", when("ldap", "ldaps"), "host", "port");
        shownWhen("scheme", when("ldapi"), "socketPath");
        shownWhen("scheme", when("ldap", "ldapi"), "startTls");
        shownWhen("trustMode", when("trust-store"), "trustStore", "trustStorePassword", "trustStoreType");
        shownWhen("bindType", when("simple"), "bindDn", "bindPassword");
        shownWhen("bindType", when("sasl-external"), "authzId");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(LdapConnectionConfig.class, "ldap-connection-config");
        }
    }
}
