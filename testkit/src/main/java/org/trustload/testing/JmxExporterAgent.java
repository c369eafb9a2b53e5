package org.trustload.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The Prometheus JMX exporter agent ({@code io.prometheus.jmx:jmx_prometheus_javaagent} 1.0.1 from Maven
 * Central, copied by the testkit build to {@code testkit/target/agents/}) for a JVM that tests or the
 * sizing examples start: {@link #jvmArgs()} is the {@code -javaagent} option that makes the JVM serve
 * its JVM and process metrics on {@code http://127.0.0.1:PORT/metrics}, with a configuration that
 * exports only the {@code java.lang} MBeans (cheap to scrape).
 */
public final class JmxExporterAgent {

    /**
     * System property naming the agent jar; default
     * {@code <trustload.root>/testkit/target/agents/jmx_prometheus_javaagent.jar}.
     */
    public static final String JAR_PROPERTY = "trustload.jmx_exporter.jar";
    private final int port;
    private final Path config;

    private JmxExporterAgent(int port, Path config) {
        this.port = port;
        this.config = config;
    }

    /** The agent jar. */
    public static Path jar() {
        String p = System.getProperty(JAR_PROPERTY);
        if (p != null && !p.isBlank()) {
            return Path.of(p);
        }
        Path root = Path.of(System.getProperty("trustload.root", "."));
        Path jar = root.resolve("testkit/target/agents/jmx_prometheus_javaagent.jar");
        // tests run with the module as working directory
        return Files.exists(jar) ? jar : Path.of("target/agents/jmx_prometheus_javaagent.jar").toAbsolutePath();
    }

    /** A free loopback port and a configuration file in {@code dir}. */
    public static JmxExporterAgent prepare(Path dir) throws IOException {
        if (!Files.exists(jar())) {
            throw new IOException("no JMX exporter agent at " + jar()
                    + " (the testkit build copies it: mvn -pl testkit package)");
        }
        int port = FixturePorts.free("127.0.0.1");
        Path config = dir.resolve("jmx-exporter.yaml");
        Files.writeString(config, "includeObjectNames: [\"java.lang:type=OperatingSystem\"]\n"
                + "lowercaseOutputName: true\n");
        return new JmxExporterAgent(port, config);
    }

    /** The JVM options that load the agent: {@code -javaagent:JAR=127.0.0.1:PORT:CONFIG}. */
    public List<String> jvmArgs() {
        return List.of("-javaagent:" + jar() + "=127.0.0.1:" + port + ":" + config);
    }

    public String url() {
        return "http://127.0.0.1:" + port + "/metrics";
    }
}
