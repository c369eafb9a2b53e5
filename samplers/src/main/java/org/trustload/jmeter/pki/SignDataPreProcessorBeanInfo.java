package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** GUI of {@link SignDataPreProcessor}. */
public class SignDataPreProcessorBeanInfo extends BeanInfoHelper {
    public SignDataPreProcessorBeanInfo() {
        super(SignDataPreProcessor.class, Form.class);
        createPropertyGroup("sign", new String[] {"keyPool", "inputVariable", "inputEncoding", "inputKind", "digest",
                "outputVariable", "certificateVariable"});
        text("keyPool", "default");
        text("inputVariable", "toBeSigned");
        choice("inputEncoding", "base64", "base64", "hex", "text");
        choice("inputKind", "data", "data", "hash");
        choice("digest", "SHA-256", "SHA-256", "SHA-384", "SHA-512", "SM3");
        text("outputVariable", "signature");
        text("certificateVariable", "signerCertificate");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(SignDataPreProcessor.class, "sign-data");
        }
    }
}
