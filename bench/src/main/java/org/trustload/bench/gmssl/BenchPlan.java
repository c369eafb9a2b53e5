package org.trustload.bench.gmssl;

import java.util.Properties;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpSuite;

/** The bench's JMeter plan: thread groups run one after the other, each a TLCP Client Config and a TLCP Request for a fixed time. */
final class BenchPlan {
    private BenchPlan() {
    }

    static String plan(String groups) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<jmeterTestPlan version=\"1.2\" properties=\"5.0\" jmeter=\"5.6.3\">\n<hashTree>\n"
                + "<TestPlan guiclass=\"TestPlanGui\" testclass=\"TestPlan\" testname=\"gmssl-bench\" enabled=\"true\">\n"
                + "<boolProp name=\"TestPlan.serialize_threadgroups\">true</boolProp>\n"
                + "<elementProp name=\"TestPlan.user_defined_variables\" elementType=\"Arguments\"><collectionProp name=\"Arguments.arguments\"/></elementProp>\n"
                + "</TestPlan>\n<hashTree>\n" + groups + "</hashTree>\n</hashTree>\n</jmeterTestPlan>\n";
    }

    static String group(String label, int threads, int seconds, Properties p, TlcpSuite suite, String mode) {
        String port = p.getProperty(suite.protocol() == TlcpProtocol.TLCP ? "gmssl.tlcp.port" : "gmssl.tls13.port");
        return "<ThreadGroup guiclass=\"ThreadGroupGui\" testclass=\"ThreadGroup\" testname=\"" + label + "\" enabled=\"true\">\n"
                + "<stringProp name=\"ThreadGroup.on_sample_error\">continue</stringProp>\n"
                + "<elementProp name=\"ThreadGroup.main_controller\" elementType=\"LoopController\" guiclass=\"LoopControlPanel\" testclass=\"LoopController\">"
                + "<stringProp name=\"LoopController.loops\">-1</stringProp><boolProp name=\"LoopController.continue_forever\">false</boolProp></elementProp>\n"
                + "<stringProp name=\"ThreadGroup.num_threads\">" + threads + "</stringProp>\n"
                + "<stringProp name=\"ThreadGroup.ramp_time\">0</stringProp>\n"
                + "<boolProp name=\"ThreadGroup.scheduler\">true</boolProp>\n"
                + "<stringProp name=\"ThreadGroup.duration\">" + seconds + "</stringProp>\n"
                + "<stringProp name=\"ThreadGroup.delay\"></stringProp>\n"
                + "</ThreadGroup>\n<hashTree>\n"
                // a config per group (named after it), then the request that uses it
                + "<org.trustload.jmeter.gmssl.TlcpClientConfig guiclass=\"TestBeanGUI\" testclass=\"org.trustload.jmeter.gmssl.TlcpClientConfig\" testname=\"" + label + " client\" enabled=\"true\">\n"
                + prop("configName", label) + prop("engine", "bgm") + prop("host", p.getProperty("gmssl.host"))
                + prop("port", port) + prop("protocol", "") + prop("suite", suite.name())
                + prop("connectTimeout", "5000") + prop("responseTimeout", "20000")
                + "<boolProp name=\"sessionReuse\">false</boolProp>\n"
                + prop("caFile", p.getProperty("gmssl.ca.file")) + prop("clientKeyStore", p.getProperty("gmssl.client.keystore"))
                + prop("clientKeyStorePassword", p.getProperty("gmssl.client.password"))
                + prop("clientSignAlias", "sign") + prop("clientEncAlias", "enc")
                + "</org.trustload.jmeter.gmssl.TlcpClientConfig>\n<hashTree/>\n"
                + "<org.trustload.jmeter.gmssl.TlcpRequestSampler guiclass=\"TestBeanGUI\" testclass=\"org.trustload.jmeter.gmssl.TlcpRequestSampler\" testname=\"" + label + "\" enabled=\"true\">\n"
                + prop("configName", label) + prop("mode", mode) + prop("path", "/1m")
                + "</org.trustload.jmeter.gmssl.TlcpRequestSampler>\n<hashTree/>\n</hashTree>\n";
    }

    private static String prop(String name, String value) {
        return "<stringProp name=\"" + name + "\">" + value.replace("&", "&amp;").replace("<", "&lt;") + "</stringProp>\n";
    }
}
