package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** GUI of {@link KeyStoreConfig}. */
public class KeyStoreConfigBeanInfo extends BeanInfoHelper {
    public KeyStoreConfigBeanInfo() {
        super(KeyStoreConfig.class, Form.class);
        createPropertyGroup("keys", new String[] {"poolName", "sourceType", "keyStoreFile", "keyStorePassword",
                "aliases", "excludeAliases", "certificateFile", "pkcs11Config"});
        createPropertyGroup("use", new String[] {"assignment", "aliasVariable"});
        text("poolName", "default");
        choice("sourceType", "pkcs12", "pkcs12", "jks", "pem", "pkcs11");
        file("keyStoreFile");
        password("keyStorePassword");
        text("aliases", "");
        text("excludeAliases", "");
        file("certificateFile");
        file("pkcs11Config");
        choice("assignment", KeyStoreConfig.ASSIGN_PER_THREAD, KeyStoreConfig.ASSIGN_FIRST,
                KeyStoreConfig.ASSIGN_PER_THREAD, KeyStoreConfig.ASSIGN_PER_ITERATION);
        text("aliasVariable", "keyAlias");
        shownWhen("sourceType", when("pkcs12", "jks", "pem"), "keyStoreFile");
        shownWhen("sourceType", when("pem"), "certificateFile");
        shownWhen("sourceType", when("pkcs11"), "pkcs11Config");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(KeyStoreConfig.class, "key-store-config");
        }
    }
}
