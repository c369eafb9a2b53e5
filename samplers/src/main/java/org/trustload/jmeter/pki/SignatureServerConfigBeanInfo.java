package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;
import org.trustload.pki.api.SignatureApis;

/** The generated GUI of {@link SignatureServerConfig}. */
public class SignatureServerConfigBeanInfo extends BeanInfoHelper {

    public SignatureServerConfigBeanInfo() {
        super(SignatureServerConfig.class, Form.class);
        clientConfig(new SignatureServerConfig());
        createPropertyGroup("signatureApi", new String[] {"api", "serverUrl", "credential", "securityContext"});
        createPropertyGroup("server", new String[] {"tsaUrl", "loginUrl", "mtlsUrl"});
        createPropertyGroup("tls", new String[] {"trustAnchorsFile", "trustAll"});
        createPropertyGroup("timeouts", new String[] {"connectTimeout", "handshakeTimeout", "responseTimeout"});
        choice("api", SignatureApis.REST_PKI, SignatureApis.REST_PKI, SignatureApis.REST_PKI_CORE, SignatureApis.DSS);
        text("serverUrl", "");
        password("credential");
        text("securityContext", "");
        text("tsaUrl", "");
        text("loginUrl", "");
        text("mtlsUrl", "");
        file("trustAnchorsFile");
        flag("trustAll");
        text("handshakeTimeout", "10000");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(SignatureServerConfig.class, "signature-server-config");
        }
    }
}
