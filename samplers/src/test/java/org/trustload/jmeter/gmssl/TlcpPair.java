package org.trustload.jmeter.gmssl;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.samplers.SampleResult;

/**
 * A TLCP Client Config and a TLCP Request that names it, driven as JMeter drives them: the config is
 * started before the first sample (test start), the request samples, the thread ends, the config is
 * closed (test end). Tests set properties on {@link #config} and {@link #request} as in the GUI.
 */
final class TlcpPair {
    private static final AtomicInteger NAMES = new AtomicInteger();

    final TlcpClientConfig config = new TlcpClientConfig();
    final TlcpRequestSampler request = new TlcpRequestSampler();
    private boolean started;

    TlcpPair(String name) {
        String configName = "tlcp-" + NAMES.incrementAndGet();
        config.setName(name + " client");
        config.setConfigName(configName);
        request.setName(name);
        request.setConfigName(configName);
    }

    /** Starts the config (test start) if not yet started, then samples. */
    SampleResult sample() {
        start();
        return request.sample(null);
    }

    void start() {
        if (!started) {
            config.testStarted();
            started = true;
        }
    }

    /** What JMeter does at test end: the thread ends, then the config closes its client and connections. */
    void end() {
        request.threadFinished();
        if (started) {
            config.testEnded();
            started = false;
        }
    }
}
