package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.gui.ElementForm;

/** GUI of {@link PadesSignSampler}. */
public class PadesSignSamplerBeanInfo extends SignSamplerBeanInfo {
    public PadesSignSamplerBeanInfo() {
        super(PadesSignSampler.class, Form.class, false);
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(PadesSignSampler.class, "pades-sign");
        }
    }
}
