package org.trustload.jmeter.kms;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** The generated GUI of {@link KmsRequestSampler}: the config it uses, then the request. */
public class KmsRequestSamplerBeanInfo extends BeanInfoHelper {

    public KmsRequestSamplerBeanInfo() {
        super(KmsRequestSampler.class, Form.class);

        createPropertyGroup("config", new String[] {"configName"});
        createPropertyGroup("request", new String[] {"operation", "keyId", "dataSize", "algorithm", "messageType",
                "secretName", "dataKeyBytes", "encryptionContext"});

        text("configName", "kms");
        choice("operation", "encrypt", "encrypt", "decrypt", "sign", "verify", "get_secret_value", "generate_data_key",
                "generate_data_key_without_plaintext", "re_encrypt", "generate_random", "get_public_key",
                "describe_key",
                "generate_mac", "verify_mac");
        text("keyId", "");
        text("dataSize", "32");
        text("algorithm", "");
        choice("messageType", "RAW", "RAW", "DIGEST");
        text("secretName", "");
        text("dataKeyBytes", "32");
        text("encryptionContext", "");

        // the form shows only the chosen operation's fields (docs/elements/kms-request.md, "reads")
        shownWhen("operation", when("encrypt", "decrypt", "sign", "verify", "generate_data_key",
                "generate_data_key_without_plaintext", "re_encrypt", "get_public_key", "describe_key", "generate_mac",
                "verify_mac"), "keyId");
        shownWhen("operation", when("encrypt", "decrypt", "re_encrypt", "sign", "verify", "generate_mac", "verify_mac"),
                "dataSize");
        shownWhen("operation", when("sign", "verify", "generate_mac", "verify_mac"), "algorithm");
        shownWhen("operation", when("sign", "verify"), "messageType");
        shownWhen("operation", when("get_secret_value"), "secretName");
        shownWhen("operation", when("generate_data_key", "generate_data_key_without_plaintext", "generate_random"),
                "dataKeyBytes");
        shownWhen("operation", when("encrypt", "decrypt", "re_encrypt", "generate_data_key",
                "generate_data_key_without_plaintext"), "encryptionContext");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(KmsRequestSampler.class, "kms-request");
        }
    }
}
