package org.trustload.harness.run;

import org.trustload.harness.jmx.PlanTree;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.jmeter.config.Argument;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.TestElementProperty;
import org.apache.jorphan.collections.HashTree;
import org.trustload.influx.InfluxWriter;

/**
 * {@code -Jinflux.url=http://HOST:8086/write?db=NAME} on any plan: the run's copy of the plan gets JMeter's own
 * InfluxDB Backend Listener ({@value #CLIENT}, InfluxDB 1.x line protocol), as a user would add it in the GUI,
 * and JVM Stats elements write their series to the same URL (they read {@value #URL} themselves). The
 * listener's parameters name JMeter properties ({@code ${__P(influx.url)}}, {@code ${__P(influx.token,)}}), so
 * neither the URL nor the token is written into the copy, and the token comes from a {@code -q} file: JMeter
 * puts {@code -J} values on its command line. docs/influxdb.md shows the series and the Grafana dashboard.
 */
public final class Influx {
    /** The write URL, as the Backend Listener's {@code influxdbUrl}. */
    static final String URL = "influx.url";
    /** Sent as {@code Authorization: Token …} (InfluxDB 2's token, or 1.8+'s {@code user:password}). */
    static final String TOKEN = "influx.token";
    /** The {@code application} tag (default: the plan id). */
    static final String APPLICATION = "influx.application";
    /** The Backend Listener's measurement (default {@value #MEASUREMENT_DEFAULT}, JMeter's). */
    static final String MEASUREMENT = "influx.measurement";
    static final String MEASUREMENT_DEFAULT = "jmeter";
    static final String CLIENT = "org.apache.jmeter.visualizers.backend.influxdb.InfluxdbBackendListenerClient";
    static final String SENDER = "org.apache.jmeter.visualizers.backend.influxdb.HttpMetricsSender";
    /** The percentiles the listener writes ({@code pct90.0}, {@code pct95.0}, {@code pct99.0}): the summary's. */
    static final String PERCENTILES = "90;95;99";

    private Influx() {
    }

    /** Whether the run streams to InfluxDB: {@value #URL} is set. */
    public static boolean wanted(Map<String, String> props) {
        return !props.getOrDefault(URL, "").isBlank();
    }

    /**
     * When {@value #URL} is set: the JMeter arguments that name the application ({@code -J}, and {@code -G} for
     * engines' JVM Stats), the Backend Listener being in {@code copy} (the run's copy of the plan, {@link
     * #addBackendListener}); nothing otherwise. Without a copy (the plan's folder is not writable) it says that nothing
     * is streamed.
     */
    public static List<String> stream(RunSpec spec, Optional<Path> copy, boolean distributed, PrintStream log) {
        Map<String, String> props = spec.properties();
        if (!wanted(props)) {
            return List.of();
        }
        String where = where(props.get(URL).strip());
        if (copy.isEmpty()) {
            log.println("trustload: " + URL + " is set, but the plan runs without its working copy (is its folder"
                    + " writable?): nothing is streamed to InfluxDB; add JMeter's Backend Listener to the plan instead"
                    + " (docs/influxdb.md)");
            return List.of();
        }
        if (spec.jmeterArgs().stream().anyMatch(a -> a.startsWith("-J" + TOKEN + "="))) {
            log.println("trustload: " + TOKEN + " given with -J is on JMeter's command line for anyone to see: put it"
                    + " in a properties file and pass -q FILE");
        }
        String application = props.getOrDefault(APPLICATION, spec.planId());
        log.println("trustload: streaming results to InfluxDB at " + where + " (measurement "
                + props.getOrDefault(MEASUREMENT, MEASUREMENT_DEFAULT) + ", application " + application
                + "; JVM Stats elements: measurement jvmstats)");
        List<String> args = new ArrayList<>();
        if (!props.containsKey(APPLICATION)) {
            args.add("-J" + APPLICATION + "=" + application);
            if (distributed) {
                args.add("-G" + APPLICATION + "=" + application);
            }
        }
        return args;
    }

    /** The server as messages name it: never the query, which may hold {@code u=}/{@code p=} credentials. */
    static String where(String url) {
        try {
            return InfluxWriter.where(URI.create(url));
        } catch (IllegalArgumentException e) {
            return "(not a URL)";
        }
    }

    /** The listener's parameters, in the order JMeter's GUI shows them. */
    static Map<String, String> parameters(String planId) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("influxdbMetricsSender", SENDER);
        p.put("influxdbUrl", "${__P(" + URL + ",)}");
        p.put("application", "${__P(" + APPLICATION + "," + planId + ")}");
        p.put("measurement", "${__P(" + MEASUREMENT + "," + MEASUREMENT_DEFAULT + ")}");
        p.put("summaryOnly", "false");
        p.put("samplersRegex", ".*");
        p.put("percentiles", PERCENTILES);
        p.put("testTitle", planId);
        p.put("eventTags", "");
        p.put("influxdbToken", "${__P(" + TOKEN + ",)}");
        return p;
    }

    /** Adds the Backend Listener last under the test plan of {@code tree}. */
    public static void addBackendListener(HashTree tree, String planId) {
        Arguments arguments = PlanTree.element(new Arguments(), "org.apache.jmeter.config.gui.ArgumentsPanel", "");
        parameters(planId).forEach((name, value) -> arguments.addArgument(new Argument(name, value, "=")));
        TestElement listener = PlanTree.element("org.apache.jmeter.visualizers.backend.BackendListener",
                "org.apache.jmeter.visualizers.backend.BackendListenerGui", "InfluxDB (added by ./trustload run: -J"
                        + URL + ")",
                "classname", CLIENT, "QUEUE_SIZE", "5000");
        listener.setProperty(new TestElementProperty("arguments", arguments));
        PlanTree.planNode(tree).add(listener);
    }
}
