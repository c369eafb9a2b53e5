package org.trustload.jmeter.kms;

import org.trustload.jmeter.common.BeanInfoHelper;

/** The generated GUI of {@link KmsRequestSampler}: the config it uses, then the request. */
public class KmsRequestSamplerBeanInfo extends BeanInfoHelper {

    public KmsRequestSamplerBeanInfo() {
        super(KmsRequestSampler.class);

        createPropertyGroup("config", new String[] {"configName"});
        createPropertyGroup("request", new String[] {"operation", "keyId", "dataSize", "algorithm", "messageType",
                "secretName", "dataKeyBytes", "encryptionContext"});

        text("configName", "kms");
        choice("operation", "encrypt", "encrypt", "decrypt", "sign", "verify", "get_secret_value", "generate_data_key",
                "generate_data_key_without_plaintext", "re_encrypt", "generate_random", "get_public_key", "describe_key",
                "generate_mac", "verify_mac");
        text("keyId", "");
        text("dataSize", "32");
        text("algorithm", "");
        choice("messageType", "RAW", "RAW", "DIGEST");
        text("secretName", "");
        text("dataKeyBytes", "32");
        text("encryptionContext", "");
    }
}
