package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;

/** GUI of {@link TimestampRequestSampler}. */
public class TimestampRequestSamplerBeanInfo extends BeanInfoHelper {
    public TimestampRequestSamplerBeanInfo() {
        super(TimestampRequestSampler.class);
        createPropertyGroup("tsa", new String[] {"tsaUrl", "digest", "connectTimeout", "responseTimeout"});
        createPropertyGroup("io", new String[] {"inputFile", "inputVariable", "randomBytes", "outputVariable"});
        text("tsaUrl", "");
        choice("digest", "SHA-256", "SHA-256", "SHA-384", "SHA-512");
        text("connectTimeout", "5000");
        text("responseTimeout", "30000");
        file("inputFile");
        text("inputVariable", "");
        text("randomBytes", "1024");
        text("outputVariable", "");
    }
}
