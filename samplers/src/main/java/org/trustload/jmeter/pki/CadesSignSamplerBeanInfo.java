package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.gui.ElementForm;

/** GUI of {@link CadesSignSampler}. */
public class CadesSignSamplerBeanInfo extends SignSamplerBeanInfo {
    public CadesSignSamplerBeanInfo() {
        super(CadesSignSampler.class, Form.class, true);
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(CadesSignSampler.class, "cades-sign");
        }
    }
}
