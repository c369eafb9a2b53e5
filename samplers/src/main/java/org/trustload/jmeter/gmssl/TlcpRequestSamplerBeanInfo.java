package org.trustload.jmeter.gmssl;

import org.trustload.gmssl.TlcpMode;
import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** The generated GUI of {@link TlcpRequestSampler}: the config it uses, the mode and the page. */
public class TlcpRequestSamplerBeanInfo extends BeanInfoHelper {

    public TlcpRequestSamplerBeanInfo() {
        super(TlcpRequestSampler.class, Form.class);

        createPropertyGroup("config", new String[] {"configName"});
        createPropertyGroup("load", new String[] {"mode", "path"});

        text("configName", "tlcp");
        choice("mode", TlcpMode.CPS.id(), TlcpMode.HANDSHAKE.id(), TlcpMode.CPS.id(), TlcpMode.THROUGHPUT.id(),
                TlcpMode.HOLD.id());
        choice("path", "/1k", "/64b", "/1k", "/1m");
        shownWhen("mode", when(TlcpMode.CPS.id(), TlcpMode.THROUGHPUT.id()), "path");
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(TlcpRequestSampler.class, "tlcp-request");
        }
    }
}
