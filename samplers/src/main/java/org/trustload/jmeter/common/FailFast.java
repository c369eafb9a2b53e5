package org.trustload.jmeter.common;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.threads.JMeterContextService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.trustload.common.ClientException;

/**
 * Configuration errors stop a run instead of flooding it with failed samples ("fail fast" on each element's
 * page in docs/elements/; exit status 3, docs/results.md). Each distinct error is logged once per test as one
 * ERROR line that tools can find:
 * {@code TrustLoad configuration error in <element>, property <p>, file <f>: <message>}.
 */
public final class FailFast {
    /** The words every configuration-error line in jmeter.log starts with. */
    public static final String LOG_MARKER = "TrustLoad configuration error";

    private static final Logger log = LoggerFactory.getLogger(FailFast.class);
    /** What was logged, keyed by test start time and message: one line per error per test. */
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

    private FailFast() {
    }

    /** Logs the error once for this test; returns true the first time. */
    public static boolean report(String element, ClientException e) {
        String key = JMeterContextService.getTestStartTime() + "\u0000" + e.getMessage();
        if (!LOGGED.add(key)) {
            return false;
        }
        if (LOGGED.size() > 1000) {
            LOGGED.clear(); // a long GUI session: forget old tests, never grow without bound
            LOGGED.add(key);
        }
        String line = LOG_MARKER + " in " + element + ", property " + (e.setting().isEmpty() ? "-" : e.setting())
                + ", file " + (e.file().isEmpty() ? "-" : e.file()) + ": " + e.detail().replace('\n', ' ');
        log.error(line);
        if (JMeter.isNonGUI()) {
            System.out.println(line); // NOSONAR the console of jmeter -n is where its user looks
        }
        return true;
    }

    /**
     * Stops the whole test the JMeter way (as a Stop button or a thread group's "Stop Test" does):
     * no new thread group starts, running threads end after their current sample, test listeners get
     * testEnded, and {@code jmeter -n} exits. Safe to call from testStarted and from samples.
     */
    public static void stopTest() {
        StandardJMeterEngine.stopEngine();
    }
}
