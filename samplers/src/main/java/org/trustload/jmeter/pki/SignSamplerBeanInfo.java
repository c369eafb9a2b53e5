package org.trustload.jmeter.pki;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** GUI shared by CAdES Sign and PAdES Sign. */
abstract class SignSamplerBeanInfo extends BeanInfoHelper {
    protected SignSamplerBeanInfo(Class<? extends AbstractSignSampler> beanClass, Class<? extends ElementForm> form,
            boolean withAttached) {
        super(beanClass, form);
        createPropertyGroup("signature", withAttached
                ? new String[] {"keyPool", "level", "digest", "attached"}
                : new String[] {"keyPool", "level", "digest"});
        createPropertyGroup("server", new String[] {"mode", "configName", "signaturePolicy", "serverKeyAlias"});
        createPropertyGroup("io", new String[] {"inputFile", "inputVariable", "outputVariable", "outputFile",
                "outputDirectory"});
        text("keyPool", "default");
        choice("level", "B", "B", "T");
        choice("digest", "SHA-256", "SHA-256", "SHA-384", "SHA-512", "SM3");
        if (withAttached) {
            text("attached", Boolean.TRUE);
        }
        choice("mode", AbstractSignSampler.MODE_LOCAL, AbstractSignSampler.MODE_LOCAL, AbstractSignSampler.MODE_REMOTE,
                AbstractSignSampler.MODE_SERVER_KEY);
        text("configName", SignatureServerConfig.DEFAULT_NAME);
        text("signaturePolicy", "");
        text("serverKeyAlias", "");
        shownWhen("mode", when(AbstractSignSampler.MODE_REMOTE, AbstractSignSampler.MODE_SERVER_KEY),
                "signaturePolicy");
        shownWhen("mode", when(AbstractSignSampler.MODE_SERVER_KEY), "serverKeyAlias");
        file("inputFile");
        text("inputVariable", "");
        text("outputVariable", "");
        file("outputFile");
        text("outputDirectory", "");
    }
}
