package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.testing.InfluxDb;

/**
 * {@code ./trustload run PLAN -Jinflux.url=…} against a real InfluxDB (Debian's influxd, started on loopback by
 * the test): a few seconds of {@code jvmstats/jvm-stats-demo}, then its series are read back. JMeter's Backend
 * Listener wrote every label's samples (the counts equal the results file's), the thread metrics and the test's
 * start and end events; JVM Stats wrote both of its elements' series; the token from the {@code -q} file was
 * sent and appears in no file of the run; and every query of the Grafana dashboard (docs/grafana) runs against
 * these series, names measurements and fields InfluxDB holds, and finds data — but the two error panels, as
 * this run has no errors.
 */
class InfluxDbIT {

    private static final Path OUT = Plans.DIR.resolve("target/influxdb");
    private static final String PLAN = "jvmstats/jvm-stats-demo";
    private static final String DB = "trustload";

    @Test
    void aRunsSamplesAndJvmStatsSeriesAreReadBackFromInfluxDbAndEveryDashboardQueryFindsThem() throws Exception {
        InfluxDb.assumeOrFailInCi();
        Files.createDirectories(OUT);
        String token = "tl-token-" + UUID.randomUUID();
        Path secrets = OUT.resolve("influx.properties");
        Files.writeString(secrets, "influx.token=" + token + "\n");
        try (InfluxDb influx = InfluxDb.start()) {
            influx.createDatabase(DB);
            Path dir = OUT.resolve("run");
            Run.Result r = Run.execute(Plans.JMETER, RunSpec.of(Plans.LAYOUT, Plans.catalog().get(PLAN))
                    .args(List.of("-Jinflux.url=" + influx.writeUrl(DB), "-q", secrets.toString(), "-Jthreads=2",
                            "-Jloops=150", "-Jpace_ms=10", "-Jjvmstats.interval_ms=500", "-Jduration=60"))
                    .dir(dir).timeout(Duration.ofMinutes(5)).echo(false), System.out);
            assertThat(r.status()).as(r.message() + ", see " + dir).isEqualTo(ExitStatus.OK);
            for (String f : List.of("console.txt", "jmeter.log", "summary.txt")) {
                assertThat(Files.readString(dir.resolve(f))).as(f).doesNotContain(token);
            }
            assertThat(Files.readString(dir.resolve("jmeter.log")))
                    .contains("writing its series to InfluxDB at " + influx.base() + "/write");

            // JMeter's listener: every label with the results file's count
            Map<String, Long> jtl = new HashMap<>();
            for (Jtl.Sample s : Jtl.read(dir.resolve("results.jtl"))) {
                jtl.merge(s.label(), 1L, Long::sum);
            }
            assertThat(jtl).containsKeys("debug 1", "debug 2", "transaction");
            JsonNode perLabel = influx.query(DB,
                    "SELECT sum(\"count\") FROM \"jmeter\" WHERE \"application\" = '" + PLAN
                    + "' AND \"statut\" = 'all' GROUP BY \"transaction\"");
            Map<String, Long> written = new HashMap<>();
            for (JsonNode s : perLabel.path("results").path(0).path("series")) {
                written.put(s.path("tags").path("transaction").asText(), s.path("values").path(0).path(1).asLong());
            }
            assertThat(written.remove("all")).as("every sample, in the listener's transaction 'all'")
                    .isEqualTo(jtl.values().stream().mapToLong(Long::longValue).sum());
            assertThat(written).as("samples per label in InfluxDB: " + perLabel).isEqualTo(jtl);
            assertThat(value(influx.query(DB,
                    "SELECT max(\"maxAT\") FROM \"jmeter\" WHERE \"transaction\" = 'internal'"))).isEqualTo(2);
            assertThat(influx.query(DB, "SELECT \"text\" FROM \"events\"").toString())
                    .contains(PLAN + " started", PLAN + " ended");

            // JVM Stats: both elements, every variable this source reads
            JsonNode names = influx.query(DB, "SHOW TAG VALUES FROM \"jvmstats\" WITH KEY = \"name\"");
            assertThat(names.toString()).contains("JVM Stats (load generator)", "JVM Stats (target)");
            assertThat(fieldKeys(influx, "jvmstats"))
                    .contains("cpu_ms", "cpu_pct", "heap_used_mb", "gc_count", "gc_time_ms",
                    "threads");
            assertThat(value(
                    influx.query(DB, "SELECT count(\"heap_used_mb\") FROM \"jvmstats\" WHERE \"application\" = '" + PLAN
                    + "'"))).as("polls every 500 ms, two elements").isGreaterThanOrEqualTo(2);

            // the dashboard
            checkDashboard(influx);
        }
    }

    private static void checkDashboard(InfluxDb influx) throws Exception {
        JsonNode d = new ObjectMapper().readTree(Plans.ROOT.resolve("docs/grafana/trustload-influxdb.json").toFile());
        Set<String> measurements = new HashSet<>();
        for (JsonNode v : influx.query(DB, "SHOW MEASUREMENTS").path("results").path(0).path("series").path(0)
                .path("values")) {
            measurements.add(v.path(0).asText());
        }
        Map<String, Set<String>> fields = new HashMap<>();
        for (String m : measurements) {
            fields.put(m, fieldKeys(influx, m));
        }
        List<String> queries = new ArrayList<>();
        for (JsonNode p : d.path("panels")) {
            p.path("targets").forEach(t -> queries.add(t.path("query").asText()));
        }
        d.path("templating").path("list").forEach(v -> {
            if (v.path("type").asText().equals("query")) {
                queries.add(v.path("query").asText());
            }
        });
        d.path("annotations").path("list").forEach(a -> {
            if (a.has("query")) {
                queries.add(a.path("query").asText());
            }
        });
        assertThat(queries).hasSizeGreaterThanOrEqualTo(12);
        for (String q : queries) {
            Matcher from = Pattern.compile("FROM \"([^\"]+)\"").matcher(q);
            assertThat(from.find()).as(q).isTrue();
            assertThat(measurements).as("measurement of " + q).contains(from.group(1));
            Matcher f = Pattern.compile("\\w+\\(\\s*(?:\\w+\\(\\s*)?\"([^\"]+)\"").matcher(q);
            while (f.find()) {
                assertThat(fields.get(from.group(1))).as("field of " + q).contains(f.group(1));
            }
            // as Grafana sends it: one application (a multi-value variable, regex-escaped), every transaction and JVM
            String sent = q.replace("$timeFilter", "time > now() - 1h").replace("$__interval", "1s")
                    .replace("${send_interval}", "5").replace("$send_interval", "5")
                    .replace("$application", "(" + PLAN.replace("/", "\\/").replace("-", "\\-") + ")")
                    .replace("$transaction", ".*").replace("$jvm", ".*");
            JsonNode answer = influx.query(DB, sent);
            assertThat(answer.path("results").path(0).has("error")).as(sent + " -> " + answer).isFalse();
            boolean errorsOnly = q.contains("'ko'") || q.contains("\"responseCode\"");
            if (!errorsOnly) {
                assertThat(answer.path("results").path(0).path("series").size()).as("data for " + sent).isPositive();
            }
        }
    }

    private static Set<String> fieldKeys(InfluxDb influx, String measurement) throws Exception {
        Set<String> out = new HashSet<>();
        for (JsonNode v : influx.query(DB, "SHOW FIELD KEYS FROM \"" + measurement + "\"").path("results").path(0)
                .path("series").path(0).path("values")) {
            out.add(v.path(0).asText());
        }
        return out;
    }

    /** The first value of the first series. */
    private static long value(JsonNode answer) {
        return answer.path("results").path(0).path("series").path(0).path("values").path(0).path(1).asLong();
    }
}
