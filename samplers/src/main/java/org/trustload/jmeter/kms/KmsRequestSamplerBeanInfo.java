package org.trustload.jmeter.kms;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.kms.KmsBackends;

/** The generated GUI of {@link KmsRequestSampler}. */
public class KmsRequestSamplerBeanInfo extends BeanInfoHelper {

    public KmsRequestSamplerBeanInfo() {
        super(KmsRequestSampler.class);

        createPropertyGroup("request", new String[] {"operation", "keyId", "dataSize", "algorithm", "messageType",
                "secretName", "dataKeyBytes", "encryptionContext"});
        createPropertyGroup("connection", new String[] {"backend", "endpoint", "region", "connectTimeout",
                "responseTimeout", "maxConnections", "retries"});
        createPropertyGroup("credentials", new String[] {"accessKeyId", "secretAccessKey", "clientKeyFile",
                "clientKeyPassword"});
        createPropertyGroup("tls", new String[] {"caFile", "trustAll"});

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

        choice("backend", KmsBackends.AWS, KmsBackends.AWS, KmsBackends.ALIYUN);
        text("endpoint", "");
        text("region", "");
        text("connectTimeout", "5000");
        text("responseTimeout", "30000");
        text("maxConnections", "32");
        text("retries", "0");

        text("accessKeyId", "");
        password("secretAccessKey");
        file("clientKeyFile");
        password("clientKeyPassword");

        file("caFile");
        text("trustAll", Boolean.FALSE);
    }
}
