package org.trustload.jmeter.gmssl;

import org.trustload.gmssl.TlcpMode;
import org.trustload.jmeter.common.BeanInfoHelper;

/** The generated GUI of {@link TlcpRequestSampler}: the config it uses, the mode and the page. */
public class TlcpRequestSamplerBeanInfo extends BeanInfoHelper {

    public TlcpRequestSamplerBeanInfo() {
        super(TlcpRequestSampler.class);

        createPropertyGroup("config", new String[] {"configName"});
        createPropertyGroup("load", new String[] {"mode", "path"});

        text("configName", "tlcp");
        choice("mode", TlcpMode.CPS.id(), TlcpMode.HANDSHAKE.id(), TlcpMode.CPS.id(), TlcpMode.THROUGHPUT.id(),
                TlcpMode.HOLD.id());
        choice("path", "/1k", "/64b", "/1k", "/1m");
    }
}
