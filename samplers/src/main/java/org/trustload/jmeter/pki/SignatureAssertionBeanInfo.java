package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** GUI of {@link SignatureAssertion}. */
public class SignatureAssertionBeanInfo extends BeanInfoHelper {
    public SignatureAssertionBeanInfo() {
        super(SignatureAssertion.class, Form.class);
        createPropertyGroup("check", new String[] {"format", "trustAnchorsFile", "crlFiles", "signatureSource",
                "signatureVariable", "requireTimestamp"});
        choice("format", "auto", "auto", "cades", "pades", "timestamp");
        choice("signatureSource", SignatureAssertion.SOURCE_AUTO, SignatureAssertion.SOURCE_AUTO,
                SignatureAssertion.SOURCE_RESPONSE);
        file("trustAnchorsFile");
        file("crlFiles");
        text("signatureVariable", "");
        text("requireTimestamp", Boolean.FALSE);
        shownWhen("signatureSource", when(SignatureAssertion.SOURCE_AUTO), "signatureVariable");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(SignatureAssertion.class, "signature-assertion");
        }
    }
}
