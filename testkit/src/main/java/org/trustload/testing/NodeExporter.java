package org.trustload.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.trustload.common.ChildProcess;

/**
 * A throwaway Prometheus {@code node_exporter} (Debian's {@code prometheus-node-exporter}) on loopback,
 * for tests, the sizing examples and {@code ./trustload fixture node-exporter}: never the system
 * service. Only the CPU collectors run ({@code cpu}, {@code stat}, {@code loadavg}, {@code meminfo}), so
 * a scrape is cheap. {@link #url()} is the metrics page the JVM Stats {@code prometheus} source reads.
 */
public final class NodeExporter implements AutoCloseable {

    private static final Path BINARY = Path.of("/usr/bin/prometheus-node-exporter");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ChildProcess process;
    private final int port;
    private final Path log;

    private NodeExporter(ChildProcess process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    public static boolean isAvailable() {
        return Files.isExecutable(BINARY);
    }

    /** Skips the calling test where the package is missing, fails it in CI ({@code CI=true}). */
    public static void assumeOrFailInCi() {
        Requirements.assumeOrFailInCi(isAvailable(),
                "node_exporter fixture needs " + BINARY + " (apt-get install prometheus-node-exporter)");
    }

    /** Starts it on a free loopback port and waits (at most 15 s) until its metrics page answers. */
    public static NodeExporter start() throws IOException, InterruptedException {
        int port = FixturePorts.free("127.0.0.1");
        Path log = Files.createTempFile("trustload-node-exporter", ".log");
        List<String> cmd = List.of(BINARY.toString(), "--web.listen-address=127.0.0.1:" + port,
                "--collector.disable-defaults",
                "--collector.cpu", "--collector.stat", "--collector.loadavg", "--collector.meminfo");
        String url = "http://127.0.0.1:" + port + "/metrics";
        return new NodeExporter(ChildProcess.start("node_exporter", cmd, null, log, null, null, () -> serves(url),
                Duration.ofSeconds(15)), port, log);
    }

    private static boolean serves(String url) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().contains("node_cpu_seconds_total");
        } catch (IOException e) {
            return false; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The metrics page, {@code http://127.0.0.1:PORT/metrics}. */
    public String url() {
        return "http://127.0.0.1:" + port + "/metrics";
    }

    public long pid() {
        return process.handle().pid();
    }

    @Override
    public void close() {
        try {
            process.stop(Duration.ofSeconds(10));
            Files.deleteIfExists(log);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // a temporary log left behind
        }
    }

    /** {@code ./trustload fixture node-exporter}: runs until Ctrl-C and prints the JVM Stats settings. */
    public static void main(String[] args) throws Exception {
        NodeExporter n = start();
        Runtime.getRuntime().addShutdownHook(new Thread(n::close, "node-exporter-stop"));
        System.out.println("node_exporter (pid " + n.pid() + ") serving " + n.url());
        System.out.println("JVM Stats: source=prometheus target=" + n.url()
                + "   ./trustload size PLAN --server prometheus:" + n.url());
        System.out.println("Ctrl-C stops it");
        n.process.waitFor();
    }
}
