package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;

/** GUI of {@link SignatureAssertion}. */
public class SignatureAssertionBeanInfo extends BeanInfoHelper {
    public SignatureAssertionBeanInfo() {
        super(SignatureAssertion.class);
        createPropertyGroup("check", new String[] {"format", "trustAnchorsFile", "crlFiles", "signatureVariable",
                "requireTimestamp"});
        choice("format", "auto", "auto", "cades", "pades", "timestamp");
        file("trustAnchorsFile");
        text("crlFiles", "");
        text("signatureVariable", "");
        text("requireTimestamp", Boolean.FALSE);
    }
}
