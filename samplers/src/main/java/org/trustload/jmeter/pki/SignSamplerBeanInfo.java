package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;

/** GUI shared by CAdES Sign and PAdES Sign. */
abstract class SignSamplerBeanInfo extends BeanInfoHelper {
    protected SignSamplerBeanInfo(Class<? extends AbstractSignSampler> beanClass, boolean withAttached) {
        super(beanClass);
        createPropertyGroup("signature", withAttached
                ? new String[] {"keyPool", "level", "digest", "attached", "tsaUrl"}
                : new String[] {"keyPool", "level", "digest", "tsaUrl"});
        createPropertyGroup("server", new String[] {"mode", "serverUrl", "connectTimeout", "responseTimeout"});
        createPropertyGroup("io", new String[] {"inputFile", "inputVariable", "outputVariable", "outputFile"});
        text("keyPool", "default");
        choice("level", "B", "B", "T");
        choice("digest", "SHA-256", "SHA-256", "SHA-384", "SHA-512", "SM3");
        if (withAttached) {
            text("attached", Boolean.TRUE);
        }
        text("tsaUrl", "");
        choice("mode", "local", "local", "remote");
        text("serverUrl", "");
        text("connectTimeout", "5000");
        text("responseTimeout", "60000");
        file("inputFile");
        text("inputVariable", "");
        text("outputVariable", "");
        text("outputFile", "");
    }
}
