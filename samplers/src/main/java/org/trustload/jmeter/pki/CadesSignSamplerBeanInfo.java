package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;

/** GUI of {@link CadesSignSampler}. */
public class CadesSignSamplerBeanInfo extends SignSamplerBeanInfo {
    public CadesSignSamplerBeanInfo() {
        super(CadesSignSampler.class, true);
    }
}
