package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;

/** GUI of {@link PadesSignSampler}. */
public class PadesSignSamplerBeanInfo extends SignSamplerBeanInfo {
    public PadesSignSamplerBeanInfo() {
        super(PadesSignSampler.class, false);
    }
}
