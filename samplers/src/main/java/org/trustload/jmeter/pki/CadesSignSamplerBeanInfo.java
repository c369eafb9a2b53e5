package org.trustload.jmeter.pki;

/** GUI of {@link CadesSignSampler}. */
public class CadesSignSamplerBeanInfo extends SignSamplerBeanInfo {
    public CadesSignSamplerBeanInfo() {
        super(CadesSignSampler.class, true);
    }
}
