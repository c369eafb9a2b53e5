package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** GUI of {@link TimestampRequestSampler}. */
public class TimestampRequestSamplerBeanInfo extends BeanInfoHelper {
    public TimestampRequestSamplerBeanInfo() {
        super(TimestampRequestSampler.class, Form.class);
        createPropertyGroup("tsa", new String[] {"configName", "protocol", "timestampPlan", "digest"});
        createPropertyGroup("io", new String[] {"inputFile", "inputVariable", "randomBytes", "outputVariable",
                "outputFile", "outputDirectory"});
        text("configName", SignatureServerConfig.DEFAULT_NAME);
        choice("protocol", TimestampRequestSampler.PROTOCOL_RFC3161, TimestampRequestSampler.PROTOCOL_RFC3161,
                TimestampRequestSampler.PROTOCOL_API);
        text("timestampPlan", "");
        shownWhen("protocol", when(TimestampRequestSampler.PROTOCOL_API), "timestampPlan");
        choice("digest", "SHA-256", "SHA-256", "SHA-384", "SHA-512");
        file("inputFile");
        text("inputVariable", "");
        text("randomBytes", "1024");
        text("outputVariable", "");
        file("outputFile");
        text("outputDirectory", "");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(TimestampRequestSampler.class, "timestamp-request");
        }
    }
}
