package org.trustload.jmeter.kms;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;
import org.trustload.kms.KmsBackends;

/** The generated GUI of {@link KmsClientConfig}: groups, defaults, drop-downs, file and password fields. */
public class KmsClientConfigBeanInfo extends BeanInfoHelper {

    public KmsClientConfigBeanInfo() {
        super(KmsClientConfig.class, Form.class);

        clientConfig(new KmsClientConfig());
        createPropertyGroup("server", new String[] {"backend", "endpoint", "region"});
        createPropertyGroup("credentials", new String[] {"accessKeyId", "secretAccessKey", "clientKeyFile",
                "clientKeyPassword"});
        createPropertyGroup("tls", new String[] {"caFile", "trustAll"});
        createPropertyGroup("connection", new String[] {"connectTimeout", "responseTimeout", "maxConnections",
                "retries"});

        // Drop-down that still accepts ${...} expressions, so plans can take it from properties.
        choice("backend", KmsBackends.AWS, KmsBackends.AWS, KmsBackends.ALIYUN);
        text("endpoint", "");
        text("region", "");

        text("accessKeyId", "");
        password("secretAccessKey");
        file("clientKeyFile");
        password("clientKeyPassword");

        file("caFile");
        flag("trustAll");

        text("maxConnections", "32");
        text("retries", "0");

        shownWhen("backend", when(KmsBackends.AWS), "region", "accessKeyId", "secretAccessKey");
        shownWhen("backend", when(KmsBackends.ALIYUN), "clientKeyFile", "clientKeyPassword");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(KmsClientConfig.class, "kms-client-config");
        }
    }
}
