package org.trustload.harness.run;

import org.trustload.harness.Layout;
import org.trustload.harness.TestHome;
import org.trustload.harness.jmx.PlanFile;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.jmeter.jvmstats.JvmStats;

/**
 * {@code -Jinflux.url} without a server: the run's copy of a plan gets JMeter's InfluxDB Backend Listener naming
 * properties (never the URL or the token), the application defaults to the plan id, and the Grafana dashboard
 * parses and asks only for measurements and fields that JMeter's listener and JVM Stats write. InfluxDbIT reads
 * a real run's series back from a real InfluxDB and runs every query of the dashboard against it.
 */
class InfluxTest {

    private static final Path ROOT = Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
    static final Path DASHBOARD = ROOT.resolve("docs/grafana/trustload-influxdb.json");
    /** What InfluxdbBackendListenerClient (JMeter 5.6.3) writes, with percentiles 90;95;99. */
    static final Set<String> JMETER_FIELDS = Set.of("count", "countError", "avg", "min", "max", "hit", "sb", "rb",
            "pct90.0", "pct95.0", "pct99.0", "minAT", "maxAT", "meanAT", "startedT", "endedT");

    @BeforeAll
    static void jmeter() {
        TestHome.init();
    }

    @Test
    void theCopyOfThePlanGetsJMetersBackendListenerNamingPropertiesNotValues(@TempDir Path dir) throws Exception {
        Path plan = Files.copy(ROOT.resolve("test-plans/ldap/ldap-search-500x25.jmx"), dir.resolve("plan.jmx"));
        RunSpec o = RunSpec.of(new Layout(ROOT, dir), "ldap/ldap-search-500x25", plan)
                .args(List.of("-Jinflux.url=http://127.0.0.1:8086/write?db=tl&u=me&p=secret-in-url",
                        "-Jinflux.token=tok-123")).build();
        Path copy = o.plan().runCopy(false, t -> Influx.addBackendListener(t, o.planId())).orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = Influx.stream(o, Optional.of(copy), true, new PrintStream(out, true,
                StandardCharsets.UTF_8));
        assertThat(args).containsExactly("-Jinflux.application=ldap/ldap-search-500x25",
                "-Ginflux.application=ldap/ldap-search-500x25");
        String said = out.toString(StandardCharsets.UTF_8);
        assertThat(said).contains("streaming results to InfluxDB at http://127.0.0.1:8086/write (measurement jmeter,"
                + " application ldap/ldap-search-500x25").contains("influx.token given with -J")
                .doesNotContain("secret-in-url").doesNotContain("tok-123");
        String text = Files.readString(copy);
        assertThat(text).contains("guiclass=\"BackendListenerGui\"", "testclass=\"BackendListener\"",
                Influx.CLIENT, Influx.SENDER, "${__P(influx.url,)}", "${__P(influx.token,)}",
                "${__P(influx.application,ldap/ldap-search-500x25)}",
                        "<stringProp name=\"Argument.value\">90;95;99</stringProp>")
                .doesNotContain("8086").doesNotContain("tok-123");
        assertThat(text.indexOf("BackendListener")).as("under the test plan, after its elements")
                .isGreaterThan(text.indexOf("ThreadGroup"));
        assertThat(PlanFile.threadGroups(copy)).isEqualTo(PlanFile.threadGroups(plan));
        Files.delete(copy);
    }

    @Test
    void nothingChangesWithoutInfluxUrlAndAGivenApplicationIsKept(@TempDir Path dir) throws Exception {
        Path plan = Files.copy(ROOT.resolve("test-plans/ldap/ldap-search-500x25.jmx"), dir.resolve("plan.jmx"));
        Path copy = PlanFile.of(plan).runCopy(false, t -> { }).orElseThrow();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThat(Influx.stream(RunSpec.of(new Layout(ROOT, dir), "x", plan).build(), Optional.of(copy), false, quiet))
                .isEmpty();
        assertThat(Files.readString(copy)).doesNotContain("BackendListener");
        RunSpec named = RunSpec.of(new Layout(ROOT, dir), "x", plan)
                .args(List.of("-Jinflux.url=http://127.0.0.1:8086/write?db=tl", "-Jinflux.application=nightly"))
                        .build();
        Files.delete(copy);
        copy = named.plan().runCopy(false, t -> Influx.addBackendListener(t, named.planId())).orElseThrow();
        assertThat(Influx.stream(named, Optional.of(copy), false, quiet)).isEmpty();
        assertThat(Files.readString(copy)).contains("BackendListener");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(Influx.stream(named, Optional.empty(), false, new PrintStream(out, true, StandardCharsets.UTF_8)))
                .isEmpty();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("nothing is streamed to InfluxDB");
    }

    @Test
    void theGrafanaDashboardParsesAndAsksOnlyForWhatJMeterAndJvmStatsWrite() throws Exception {
        JsonNode d = new ObjectMapper().readTree(DASHBOARD.toFile());
        assertThat(d.path("__inputs").path(0).path("pluginId").asText()).isEqualTo("influxdb");
        List<String> queries = queries(d);
        assertThat(queries).hasSizeGreaterThanOrEqualTo(12);
        Set<String> jvmFields = Set.copyOf(JvmStats.VARIABLES);
        for (String q : queries) {
            Matcher from = Pattern.compile("FROM \"([^\"]+)\"").matcher(q);
            assertThat(from.find()).as(q).isTrue();
            String measurement = from.group(1);
            assertThat(measurement).as(q).isIn("jmeter", "jvmstats", "events");
            for (String field : fields(q)) {
                assertThat(field).as(q).isIn(measurement.equals("jmeter") ? JMETER_FIELDS
                        : measurement.equals("jvmstats") ? jvmFields : Set.of("text"));
            }
        }
        assertThat(String.join("\n", queries)).contains("\"cpu_pct\"", "\"gc_time_ms\"", "\"heap_used_mb\"",
                "\"pct99.0\"",
                "\"maxAT\"", "'ko'", "\"responseCode\"");
    }

    /** Every InfluxQL query of the dashboard: panels' targets, template variables and annotations. */
    static List<String> queries(JsonNode dashboard) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : dashboard.path("panels")) {
            for (JsonNode t : p.path("targets")) {
                out.add(t.path("query").asText());
            }
        }
        for (JsonNode v : dashboard.path("templating").path("list")) {
            if (v.path("type").asText().equals("query")) {
                out.add(v.path("query").asText());
            }
        }
        for (JsonNode a : dashboard.path("annotations").path("list")) {
            if (a.has("query")) {
                out.add(a.path("query").asText());
            }
        }
        return out;
    }

    /**
     * The fields a query selects: the quoted names inside function calls ({@code mean("pct95.0")}) and a plain {@code
     * SELECT "text"}.
     */
    static List<String> fields(String query) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\\w+\\(\\s*(?:\\w+\\(\\s*)?\"([^\"]+)\"").matcher(query);
        while (m.find()) {
            out.add(m.group(1));
        }
        Matcher plain = Pattern.compile("^SELECT \"([^\"]+)\" FROM").matcher(query);
        if (plain.find()) {
            out.add(plain.group(1));
        }
        return out;
    }
}
