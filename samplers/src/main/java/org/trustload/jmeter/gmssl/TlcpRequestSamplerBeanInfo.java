package org.trustload.jmeter.gmssl;

import org.trustload.jmeter.common.BeanInfoHelper;

/** The generated GUI of {@link TlcpRequestSampler}. */
public class TlcpRequestSamplerBeanInfo extends BeanInfoHelper {

    public TlcpRequestSamplerBeanInfo() {
        super(TlcpRequestSampler.class);

        createPropertyGroup("target", new String[] {"engine", "host", "port", "protocol", "suite", "connectTimeout",
                "responseTimeout"});
        createPropertyGroup("load", new String[] {"mode", "path", "sessionReuse"});
        createPropertyGroup("certificates", new String[] {"caFile", "clientKeyStore", "clientKeyStorePassword",
                "clientSignAlias", "clientEncAlias"});

        choice("engine", "bgm", "bgm", "tongsuo");
        text("host", "127.0.0.1");
        text("port", "");
        choice("protocol", "TLCP", "TLCP", "TLSv1.3");
        choice("suite", "ECC_SM4_CBC_SM3", "ECC_SM4_CBC_SM3", "ECDHE_SM4_CBC_SM3", "ECC_SM4_GCM_SM3",
                "ECDHE_SM4_GCM_SM3", "TLS_SM4_GCM_SM3", "TLS_SM4_CCM_SM3");
        text("connectTimeout", "5000");
        text("responseTimeout", "10000");

        choice("mode", TlcpRequestSampler.MODE_CPS, TlcpRequestSampler.MODE_HANDSHAKE, TlcpRequestSampler.MODE_CPS,
                TlcpRequestSampler.MODE_THROUGHPUT, TlcpRequestSampler.MODE_HOLD);
        choice("path", "/1k", "/64b", "/1k", "/1m");
        text("sessionReuse", Boolean.FALSE);

        file("caFile");
        file("clientKeyStore");
        password("clientKeyStorePassword");
        text("clientSignAlias", "sign");
        text("clientEncAlias", "enc");
    }
}
