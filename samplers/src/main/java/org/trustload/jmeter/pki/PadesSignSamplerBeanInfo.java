package org.trustload.jmeter.pki;

/** GUI of {@link PadesSignSampler}. */
public class PadesSignSamplerBeanInfo extends SignSamplerBeanInfo {
    public PadesSignSamplerBeanInfo() {
        super(PadesSignSampler.class, false);
    }
}
