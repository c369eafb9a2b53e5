package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** GUI of {@link CertificateLoginSampler}. */
public class CertificateLoginSamplerBeanInfo extends BeanInfoHelper {
    public CertificateLoginSamplerBeanInfo() {
        super(CertificateLoginSampler.class, Form.class);
        createPropertyGroup("login", new String[] {"configName", "keyPool", "method", "expectRefusedAliases"});
        createPropertyGroup("challenge", new String[] {"nonceMethod", "noncePath", "loginPath", "digest",
                "nonceField", "certificateField", "chainField", "signatureField", "signatureAlgorithmField"});
        createPropertyGroup("mtls", new String[] {"mtlsPath", "sessionReuse"});
        text("configName", SignatureServerConfig.DEFAULT_NAME);
        text("keyPool", "default");
        choice("method", CertificateLoginSampler.METHOD_CHALLENGE_RESPONSE,
                CertificateLoginSampler.METHOD_CHALLENGE_RESPONSE, CertificateLoginSampler.METHOD_MTLS);
        text("expectRefusedAliases", "");
        choice("nonceMethod", "GET", "GET", "POST");
        text("noncePath", "/auth/nonce");
        text("loginPath", "/auth/login");
        choice("digest", "SHA-256", "SHA-256", "SHA-384", "SHA-512", "SM3");
        text("nonceField", "nonce");
        text("certificateField", "certificate");
        text("chainField", "chain");
        text("signatureField", "signature");
        text("signatureAlgorithmField", "signatureAlgorithm");
        text("mtlsPath", "/auth/mtls");
        choice("sessionReuse", "false", "false", "true");
        shownWhen("method", when(CertificateLoginSampler.METHOD_CHALLENGE_RESPONSE), "nonceMethod", "noncePath",
                "loginPath", "digest", "nonceField", "certificateField", "chainField", "signatureField",
                "signatureAlgorithmField");
        shownWhen("method", when(CertificateLoginSampler.METHOD_MTLS), "mtlsPath");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(CertificateLoginSampler.class, "certificate-login");
        }
    }
}
