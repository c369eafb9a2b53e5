package org.trustload.jmeter.jvmstats;

import java.net.URI;
import java.time.Duration;
import org.apache.jmeter.services.FileServer;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.trustload.common.ClientException;
import org.trustload.influx.InfluxWriter;
import org.trustload.influx.LinePoint;

/**
 * JVM Stats' series in InfluxDB, beside what JMeter's InfluxDB Backend Listener writes there: when the JMeter
 * property {@value #URL_PROPERTY} is set (the listener's write URL, {@code http://host:8086/write?db=NAME}),
 * every poll becomes one point of measurement {@value #MEASUREMENT}, fields {@code cpu_ms}, {@code cpu_pct},
 * {@code heap_used_mb}, {@code gc_count}, {@code gc_time_ms}, {@code ygc}, {@code fgc}, {@code rss_mb},
 * {@code threads} (the JVM Stats variables without their prefix; a value the source cannot read is left out),
 * tags {@code application} ({@value #APPLICATION_PROPERTY}, else the plan's file name), {@code name} (the
 * element's), {@code prefix} (its variable prefix), {@code source}, {@code target} and {@code engine} (the
 * engine in distributed mode, else this host). Each JVM that polls writes its own points (an engine its own
 * load generator's), so it works in distributed mode with {@code -G}. The token ({@value #TOKEN_PROPERTY},
 * from a {@code -q} file) is sent as JMeter's listener sends it, never logged.
 */
final class JvmStatsInflux {
    /** The write URL (JMeter property). */
    static final String URL_PROPERTY = "influx.url";
    /** Sent as {@code Authorization: Token …} (JMeter property; put it in a -q file, never on a command line). */
    static final String TOKEN_PROPERTY = "influx.token";
    /** The {@code application} tag, as the Backend Listener's {@code application} parameter (JMeter property). */
    static final String APPLICATION_PROPERTY = "influx.application";
    /** The measurement JVM Stats writes. */
    static final String MEASUREMENT = "jvmstats";

    private static final Logger log = LoggerFactory.getLogger(JvmStatsInflux.class);

    private final InfluxWriter writer;
    private final String application;
    private final String name;
    private final String source;
    private final String target;
    private final String prefix;
    private final String engine;

    private JvmStatsInflux(InfluxWriter writer, String application, String name, String source,
            String target, String prefix,
            String engine) {
        this.writer = writer;
        this.application = application;
        this.name = name;
        this.source = source;
        this.target = target;
        this.prefix = prefix;
        this.engine = engine;
    }

    /**
     * The writer of one JVM Stats element, or null when {@value #URL_PROPERTY} is not set or not a URL (said
     * once in the log; the element works on without it).
     */
    static JvmStatsInflux open(String name, String source, String target, String prefix, String engineHost) {
        String url = JMeterUtils.getPropDefault(URL_PROPERTY, "").trim();
        if (url.isEmpty()) {
            return null;
        }
        // JMeter's own listener's interval and timeouts, so both series arrive at the same pace
        Duration every = Duration.ofSeconds(
                Math.max(1, JMeterUtils.getPropDefault("backend_influxdb.send_interval", 5)));
        Duration timeout = Duration.ofMillis(
                Math.max(1000, JMeterUtils.getPropDefault("backend_influxdb.socket_timeout", 3000)));
        InfluxWriter w;
        try {
            w = InfluxWriter.start(url, JMeterUtils.getPropDefault(TOKEN_PROPERTY, ""), every, timeout, 10_000,
                    message -> log.warn("JVM Stats {}: {}", name, message));
        } catch (ClientException e) {
            log.error("JVM Stats {}: {}: {}; its series are not written to InfluxDB", name,
                    URL_PROPERTY, e.getMessage());
            return null;
        }
        String engine = engineHost != null && !engineHost.isBlank() ? engineHost : JMeterUtils.getLocalHostName();
        log.info("JVM Stats {}: writing its series to InfluxDB at {} (measurement {}, every {} s)", name,
                InfluxWriter.where(URI.create(url)), MEASUREMENT, every.toSeconds());
        return new JvmStatsInflux(w, application(), name, source, target, prefix, engine);
    }

    /** {@value #APPLICATION_PROPERTY}, else the plan's file name without {@code .jmx}, else {@code jmeter}. */
    static String application() {
        String a = JMeterUtils.getPropDefault(APPLICATION_PROPERTY, "").trim();
        if (!a.isEmpty()) {
            return a;
        }
        String script = FileServer.getFileServer().getScriptName();
        if (script != null && !script.isBlank()) {
            return script.endsWith(".jmx") ? script.substring(0, script.length() - 4) : script;
        }
        return "jmeter";
    }

    /** Queues one poll's values (in {@link JvmStats#VARIABLES} order; "" where unknown). */
    void write(long epochMillis, String[] values) {
        LinePoint p = new LinePoint(MEASUREMENT, epochMillis).tag("application", application).tag("name", name)
                .tag("prefix", prefix).tag("source", source).tag("target", target).tag("engine", engine);
        for (int i = 0; i < values.length && i < JvmStats.VARIABLES.size(); i++) {
            if (!values[i].isEmpty()) {
                p.field(JvmStats.VARIABLES.get(i), Double.parseDouble(values[i]));
            }
        }
        writer.add(p);
    }

    /** Sends what is left and stops. */
    void close() {
        writer.close();
    }
}
