package org.trustload.jvmstats;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A server seen through a Prometheus exporter's {@code /metrics} page, so CPU per operation works for remote
 * and non-JVM servers: node_exporter's page gives the host's CPU, a JMX exporter agent's (or any in-process
 * exporter's) that process's CPU, memory, files and JVM GC. Every poll is one HTTP GET bounded by the config's
 * timeouts. Which metrics and what they mean: docs/elements/jvm-stats.md, "Prometheus exporters".
 */
public final class PrometheusSource implements StatsSource {

    private final URI url;
    private final HttpClient http;
    private final Duration callTimeout;

    public PrometheusSource(SourceConfig config) throws StatsException {
        String t = config.target();
        if (t.isEmpty()) {
            throw new StatsException("prometheus needs the exporter's metrics URL as target, e.g."
                    + " http://127.0.0.1:9100/metrics", false);
        }
        if (!t.contains("://")) {
            t = "http://" + t + "/metrics"; // host:port, the exporters' usual path
        }
        try {
            url = URI.create(t);
        } catch (IllegalArgumentException e) {
            throw new StatsException("not a URL: '" + config.target() + "'", false);
        }
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
            throw new StatsException("prometheus target must be an http(s) URL, not '" + config.target() + "'", false);
        }
        callTimeout = Duration.ofMillis(config.callTimeoutMs());
        http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(config.connectTimeoutMs()))
                .followRedirects(HttpClient.Redirect.NEVER).build();
        poll(); // an unreachable exporter or a page in another format is a configuration error, said at start
    }

    @Override
    public StatsSnapshot poll() throws StatsException {
        String body;
        long now;
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(url).timeout(callTimeout)
                    .header("Accept", "text/plain;version=0.0.4").GET().build(), HttpResponse.BodyHandlers.ofString());
            now = System.currentTimeMillis();
            if (r.statusCode() != 200) {
                throw new StatsException("exporter " + url + " answered HTTP " + r.statusCode(), false);
            }
            body = r.body();
        } catch (IOException e) {
            throw new StatsException("cannot read exporter " + url, false, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StatsException("interrupted reading exporter " + url, false, e);
        }
        return snapshot(PrometheusText.parse(body), now);
    }

    /** The counters of one scrape (tests feed it exporter pages). */
    static StatsSnapshot snapshot(List<PrometheusText.Sample> samples, long epochMillis) throws StatsException {
        StatsSnapshot.Builder b = StatsSnapshot.builder(epochMillis);
        boolean node = samples.stream().anyMatch(s -> s.name().equals("node_cpu_seconds_total"));
        if (node) {
            double busy = 0;
            Set<String> cpus = new HashSet<>();
            for (PrometheusText.Sample s : samples) {
                if (s.name().equals("node_cpu_seconds_total")) {
                    cpus.add(s.label("cpu"));
                    String mode = s.label("mode");
                    if (!mode.equals("idle") && !mode.equals("iowait")) {
                        busy += s.value();
                    }
                }
            }
            return b.cpuMs(busy * 1000).cpuCount(cpus.size()).build();
        }
        double cpu = Double.NaN;
        double heapUsed = Double.NaN;
        double heapCommitted = Double.NaN;
        long rss = -1;
        long fds = -1;
        long threads = -1;
        GcNames.Totals gc = new GcNames.Totals();
        boolean sawGc = false;
        java.util.Map<String, double[]> gcs = new java.util.LinkedHashMap<>();
        for (PrometheusText.Sample s : samples) {
            switch (s.name()) {
                case "process_cpu_seconds_total" -> cpu = s.value() * 1000;
                case "process_resident_memory_bytes" -> rss = (long) s.value();
                case "process_open_fds" -> fds = (long) s.value();
                case "jvm_threads_current" -> threads = (long) s.value();
                case "jvm_memory_used_bytes", "jvm_memory_bytes_used" -> {
                    if (s.label("area").equals("heap")) {
                        heapUsed = s.value();
                    }
                }
                case "jvm_memory_committed_bytes", "jvm_memory_bytes_committed" -> {
                    if (s.label("area").equals("heap")) {
                        heapCommitted = s.value();
                    }
                }
                case "jvm_gc_collection_seconds_count" ->
                        gcs.computeIfAbsent(s.label("gc"), k -> new double[2])[0] = s.value();
                case "jvm_gc_collection_seconds_sum" ->
                        gcs.computeIfAbsent(s.label("gc"), k -> new double[2])[1] = s.value();
                default -> {
                    // other metrics are not ours to read
                }
            }
        }
        if (Double.isNaN(cpu)) {
            throw new StatsException("the exporter's page has neither node_cpu_seconds_total (node_exporter) nor"
                    + " process_cpu_seconds_total (JMX exporter agent, client libraries): nothing to measure CPU with",
                    false);
        }
        for (java.util.Map.Entry<String, double[]> e : gcs.entrySet()) {
            gc.add(e.getKey(), (long) e.getValue()[0], Math.round(e.getValue()[1] * 1000));
            sawGc = true;
        }
        if (sawGc) {
            gc.fill(b);
        }
        b.cpuMs(cpu).heap(heapUsed, heapCommitted).process(rss, threads, fds);
        return b.build();
    }

    @Override
    public String describe() {
        return "prometheus exporter " + url;
    }

    @Override
    public void close() {
        // one request per poll, nothing held open
    }

    /** Factory for {@code prometheus}. */
    public static final class Factory implements StatsSourceFactory {
        @Override
        public String name() {
            return "prometheus";
        }

        @Override
        public StatsSource open(SourceConfig config) throws StatsException {
            return new PrometheusSource(config);
        }
    }
}
