package org.trustload.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.trustload.common.ChildProcess;

/**
 * A throwaway InfluxDB 1.x (Debian's {@code influxdb} package, {@code /usr/bin/influxd}) on loopback, for the
 * tests of {@code -Jinflux.url}: never the system service. Its own configuration file in a private temporary
 * directory holds its meta, data and WAL directories; every listener it has is either on 127.0.0.1 (the HTTP
 * API and the RPC service of backup/restore, on free ports) or off (graphite, collectd, opentsdb, udp, ifql,
 * the pprof endpoints); it reports nothing home, keeps no {@code _internal} statistics and logs warnings only.
 * Environment variables {@code INFLUXDB_*}, which influxd reads as configuration, are cleared.
 */
public final class InfluxDb implements AutoCloseable {

    public static final Path BINARY = Path.of("/usr/bin/influxd");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ChildProcess process;
    private final Path dir;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private InfluxDb(ChildProcess process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    public static boolean isAvailable() {
        return Files.isExecutable(BINARY);
    }

    /** Skips the calling test where the package is missing, fails it in CI ({@code CI=true}). */
    public static void assumeOrFailInCi() {
        Requirements.assumeOrFailInCi(isAvailable(),
                "the InfluxDB fixture needs " + BINARY + " (apt-get install influxdb)");
    }

    /** Starts it on free loopback ports and waits (at most 60 s) until {@code /ping} answers. */
    public static InfluxDb start() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "influx");
        int port = FixturePorts.free("127.0.0.1");
        int rpc = FixturePorts.free("127.0.0.1");
        Files.writeString(dir.resolve("influxdb.conf"), config(dir, port, rpc));
        Map<String, String> unset = new HashMap<>();
        System.getenv().keySet().stream().filter(k -> k.startsWith("INFLUXDB_")).forEach(k -> unset.put(k, null));
        InfluxDb db = new InfluxDb(ChildProcess.launch("influxd", List.of(BINARY.toString(), "run", "-config",
                dir.resolve("influxdb.conf").toString()), null, unset, dir.resolve("influxd.log"), null, null), dir,
                port);
        try {
            if (!db.process.awaitReady(db::pings, Duration.ofSeconds(60))) {
                throw new IOException("influxd exited (status " + db.process.exitValue() + "): " + db.log());
            }
        } catch (IOException | RuntimeException e) {
            db.close();
            throw e;
        }
        return db;
    }

    /**
     * The configuration: every section that can listen is either bound to 127.0.0.1 or disabled (and its
     * address set to loopback all the same); storage in {@code dir}; no reporting, monitoring store,
     * retention or precreation services.
     */
    static String config(Path dir, int httpPort, int rpcPort) {
        StringBuilder off = new StringBuilder();
        for (String listener : List.of("[ifql]", "[[graphite]]", "[[collectd]]", "[[opentsdb]]", "[[udp]]")) {
            off.append(listener).append("\n  enabled = false\n  bind-address = \"127.0.0.1:0\"\n");
        }
        return """
                reporting-enabled = false
                reporting-disabled = true
                bind-address = "127.0.0.1:%3$d"
                [meta]
                  dir = "%1$s/meta"
                  logging-enabled = false
                [data]
                  dir = "%1$s/data"
                  wal-dir = "%1$s/wal"
                  index-version = "inmem"
                  query-log-enabled = false
                [retention]
                  enabled = false
                [shard-precreation]
                  enabled = false
                [monitor]
                  store-enabled = false
                [subscriber]
                  enabled = false
                [continuous_queries]
                  enabled = false
                [http]
                  enabled = true
                  bind-address = "127.0.0.1:%2$d"
                  auth-enabled = false
                  log-enabled = false
                  pprof-enabled = false
                  https-enabled = false
                  unix-socket-enabled = false
                [logging]
                  level = "warn"
                """.formatted(dir, httpPort, rpcPort) + off;
    }

    private boolean pings() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base() + "/ping"))
                    .timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 204;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("influxd.log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String base() {
        return "http://127.0.0.1:" + port;
    }

    /** The write URL of {@code database}, as JMeter's Backend Listener and {@code -Jinflux.url} take it. */
    public String writeUrl(String database) {
        return base() + "/write?db=" + URLEncoder.encode(database, StandardCharsets.UTF_8);
    }

    /** {@code CREATE DATABASE name}. */
    public void createDatabase(String name) throws IOException, InterruptedException {
        JsonNode r = post("CREATE DATABASE \"" + name.replace("\"", "") + "\"");
        if (r.path("results").path(0).has("error")) {
            throw new IOException("CREATE DATABASE " + name + ": " + r);
        }
    }

    /**
     * Runs an InfluxQL query in {@code database} and returns InfluxDB's JSON answer
     * ({@code results[0].series[i].{name, tags, columns, values}}).
     */
    public JsonNode query(String database, String influxQl) throws IOException, InterruptedException {
        URI u = URI.create(base() + "/query?db=" + URLEncoder.encode(database, StandardCharsets.UTF_8) + "&q="
                + URLEncoder.encode(influxQl, StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("query " + influxQl + ": HTTP " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private JsonNode post(String influxQl) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + "/query"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("q=" + URLEncoder.encode(influxQl, StandardCharsets.UTF_8)))
                .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(influxQl + ": HTTP " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    public long pid() {
        return process.handle().pid();
    }

    /** Its private directory (configuration, log, data). */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        try {
            process.stop(Duration.ofSeconds(15));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Slapd.deleteTree(dir);
    }
}
