package org.trustload.jmeter.gmssl;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** The generated GUI of {@link TlcpClientConfig}: groups, defaults, drop-downs, file and password fields. */
public class TlcpClientConfigBeanInfo extends BeanInfoHelper {

    public TlcpClientConfigBeanInfo() {
        super(TlcpClientConfig.class, Form.class);

        clientConfig(new TlcpClientConfig());
        createPropertyGroup("server", new String[] {"engine", "host", "port", "protocol", "suite"});
        createPropertyGroup("certificates", new String[] {"caFile", "clientKeyStore", "clientKeyStorePassword",
                "clientSignAlias", "clientEncAlias"});
        createPropertyGroup("connection",
                new String[] {"sessionReuse", "clientCrypto", "connectTimeout", "responseTimeout"});

        choice("engine", "auto", "auto", "bc", "tongsuo", "bgm");
        text("host", "127.0.0.1");
        text("port", "");
        choice("protocol", "TLCP", "TLCP", "TLSv1.3");
        choice("suite", "ECC_SM4_CBC_SM3", "ECC_SM4_CBC_SM3", "ECDHE_SM4_CBC_SM3", "ECC_SM4_GCM_SM3",
                "ECDHE_SM4_GCM_SM3", "TLS_SM4_GCM_SM3", "TLS_SM4_CCM_SM3");

        file("caFile");
        file("clientKeyStore");
        password("clientKeyStorePassword");
        text("clientSignAlias", "sign");
        text("clientEncAlias", "enc");

        flag("sessionReuse");
        choice("clientCrypto", "full", "full", "minimal");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(TlcpClientConfig.class, "tlcp-client-config");
        }
    }
}
