package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;
import org.trustload.pki.LoginRefusal;

/** GUI of {@link CertificateLoginSampler}. */
public class CertificateLoginSamplerBeanInfo extends BeanInfoHelper {
    public CertificateLoginSamplerBeanInfo() {
        super(CertificateLoginSampler.class, Form.class);
        createPropertyGroup("login", new String[] {"configName", "keyPool", "method"});
        createPropertyGroup("mtls", new String[] {"mtlsPath", "sessionReuse"});
        createPropertyGroup("refusal", new String[] {"expectRefusedAliases", "refusalStatuses", "refusalBody",
                "refusalTlsAlert"});
        text("configName", SignatureServerConfig.DEFAULT_NAME);
        text("keyPool", "default");
        choice("method", CertificateLoginSampler.METHOD_CHALLENGE_RESPONSE,
                CertificateLoginSampler.METHOD_CHALLENGE_RESPONSE, CertificateLoginSampler.METHOD_MTLS);
        text("mtlsPath", "");
        choice("sessionReuse", "false", "false", "true");
        text("expectRefusedAliases", "");
        text("refusalStatuses", LoginRefusal.DEFAULT_STATUSES);
        text("refusalBody", "");
        choice("refusalTlsAlert", "true", "true", "false");
        shownWhen("method", when(CertificateLoginSampler.METHOD_MTLS), "mtlsPath", "sessionReuse");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(CertificateLoginSampler.class, "certificate-login");
        }
    }
}
