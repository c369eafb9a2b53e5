package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;
import org.trustload.harness.Layout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * JVM Stats end to end in the assembled JMeter, as users run it: the demo plan watches a JVM this
 * test starts (jvm-pid) and the load generator; with bin/trustload.properties the values land in
 * results.jtl, the dashboard draws the custom graphs, and the summaries agree with jstat.
 */
class JvmStatsIT {

    static final Path PLAN = Plans.DIR.resolve("jvmstats/jvm-stats-demo.jmx");

    /** A JVM that collects a few times and then sleeps (its counters stay still for the comparison). */
    static Process idleJvm(Path dir) throws IOException {
        Path src = dir.resolve("Idle.java");
        Files.createDirectories(dir);
        Files.writeString(src, """
                public class Idle {
                    public static void main(String[] a) throws Exception {
                        java.util.List<byte[]> keep = new java.util.ArrayList<>();
                        for (int i = 0; i < 300; i++) { keep.add(new byte[64 * 1024]); \
                if (keep.size() > 40) keep.remove(0); }
                        System.gc();
                        System.out.println("READY");
                        System.out.flush();
                        Thread.sleep(600_000);
                    }
                }
                """);
        Process p = new ProcessBuilder(Layout.java(), "-Xmx64m", "-XX:+UseSerialGC", src.toString())
                .redirectErrorStream(true).start();
        String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).as("idle JVM started").isEqualTo("READY");
        return p;
    }

    @Test
    void demoPlanWritesVariablesDashboardGraphsAndSummariesThatMatchJstat() throws Exception {
        Path dir = Plans.DIR.resolve("target/jvmstats-it/demo");
        Layout.deleteRecursively(dir);
        Process idle = idleJvm(dir.resolveSibling("idle"));
        try {
            String pid = Long.toString(idle.pid());
            // the harness passes bin/trustload.properties, which sets no sample_variables: the element adds its columns
            org.trustload.harness.run.Run.Result result = Plans.run(PLAN, dir, List.of(
                    "-q", Plans.DIR.resolve("jvmstats/jvm-stats-demo.smoke.properties").toString(),
                    "-Jjvmstats.source=jvm-pid", "-Jjvmstats.target=" + pid), Duration.ofMinutes(3));
            List<String> jstat = run("jstat", "-gc", pid);

            List<String> rows = Files.readAllLines(dir.resolve("results.jtl"));
            List<String> header = Arrays.asList(rows.get(0).replace("\"", "").split(","));
            for (String prefix : List.of("jvm", "load")) {
                for (String v : List.of("cpu_ms", "cpu_pct", "heap_used_mb", "gc_count", "gc_time_ms", "ygc", "fgc",
                        "rss_mb", "threads")) {
                    assertThat(header).contains(prefix + "_" + v);
                }
            }
            int gcCol = header.indexOf("jvm_gc_time_ms");
            List<String[]> fields =
                    rows.stream().skip(1).map(r -> r.split(JvmStatsDistributedIT.CSV_COMMA, -1)).toList();
            long filled = fields.stream().filter(f -> !f[gcCol].isEmpty()).count();
            assertThat(filled).as("rows carrying the target's GC time").isEqualTo(rows.size() - 1);
            // the idle JVM collected before the test: its GC time in the results still starts at 0
            assertThat(fields.get(0)[gcCol]).as("GC time of the first row, since the test started").isEqualTo("0.0");
            assertThat(result.summaryText()).as("the run summary shows both JVM Stats summaries")
                    .contains("JVM Stats summary (jvm-stats-summary.txt):",
                            "JVM Stats summary (jvm-stats-summary-load.txt):",
                            "JVM pid " + pid, "JVM Stats polls");

            String summary = Files.readString(dir.resolve("jvm-stats-summary.txt"));
            assertThat(summary).contains("JVM pid " + pid + " (hsperfdata",
                    "requests           600 (transaction-controller rows, setUp and tearDown excluded)");
            assertThat(Files.readString(dir.resolve("jvm-stats-summary-load.txt")))
                    .contains("this JVM", "requests           600");
            JsonNode after =
                    new ObjectMapper().readTree(dir.resolve("jvm-stats-summary.json").toFile()).get("jstatAfter");
            List<String> cols = Arrays.asList(jstat.get(0).trim().split("\\s+"));
            List<String> vals = Arrays.asList(jstat.get(1).trim().split("\\s+"));
            for (String c : List.of("S0C", "S1C", "EC", "OC", "MC", "CCSC", "YGC", "YGCT", "FGC", "FGCT", "GCT",
                    "OU")) {
                // the JSON keeps full precision; jstat rounds KB to 0.1 and seconds to 0.001
                assertThat(after.get(c).asDouble()).as("%s after the run vs jstat -gc of the idle JVM", c)
                        .isCloseTo(Double.parseDouble(vals.get(cols.indexOf(c))),
                                org.assertj.core.data.Offset.offset(0.051));
            }

            String graphs = Files.readString(dir.resolve("report/content/js/customGraph.js"));
            for (String series : List.of("jvm_gc_time_ms", "jvm_heap_used_mb", "jvm_cpu_pct", "load_cpu_pct")) {
                assertThat(graphs).as("dashboard series " + series)
                        .containsPattern("\"series\": \\[\\{\"data\": \\[\\[[0-9.E]+, [0-9.E]+\\][^\\]]*\\]*, "
                                + "\"isOverall\": false, \"label\": \"" + series + "\"");
            }
            String page = Files.readString(dir.resolve("report/content/pages/CustomsGraphs.html"));
            assertThat(page).contains("JVM Stats (watched JVM): GC time over time",
                    "JVM Stats (watched JVM): Heap used over time",
                    "JVM Stats (watched JVM): CPU over time", "JVM Stats (load generator): CPU over time");
            assertThat(page).as("every custom graph open").doesNotContain("collapse out")
                    .contains("collapse in portlet-content");
            assertThat(graphs).as("every custom graph drawn on load").contains("draw every custom graph on load");
        } finally {
            idle.destroyForcibly();
            idle.waitFor(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPlanWithoutJvmStatsHasNoJvmStatsColumnsAndItsDashboardNoJvmStatsGraphs() throws Exception {
        Path dir = Plans.DIR.resolve("target/jvmstats-it/without");
        Layout.deleteRecursively(dir);
        // the demo plan without its two JVM Stats elements: Debug Samplers only
        String plan = Files.readString(PLAN).replaceAll("(?s)\\s*<org\\.trustload\\.jmeter\\.jvmstats\\.JvmStats .*?"
                + "</org\\.trustload\\.jmeter\\.jvmstats\\.JvmStats>\\s*<hashTree/>", "");
        assertThat(plan).doesNotContain("JvmStats").contains("DebugSampler");
        Path jmx = Files.createDirectories(dir.resolveSibling("without-plan")).resolve("no-jvm-stats.jmx");
        Files.writeString(jmx, plan);
        org.trustload.harness.run.Run.Result result = Plans.run(jmx, dir, List.of(
                "-q", Plans.DIR.resolve("jvmstats/jvm-stats-demo.smoke.properties").toString()), Duration.ofMinutes(3));
        assertThat(result.status()).isEqualTo(org.trustload.harness.ExitStatus.OK);
        String header = Files.readAllLines(dir.resolve("results.jtl")).get(0);
        assertThat(header).as("results header").contains("timeStamp", "elapsed");
        assertThat(header.replace("\"", "").split(","))
                .as("no JVM Stats column (the harness adds only trustload_event)")
                .noneMatch(c -> c.startsWith("jvm_") || c.startsWith("load_"));
        assertThat(dir.resolve("report/index.html")).as("dashboard generated").exists();
        assertThat(Files.readString(dir.resolve("report/content/pages/CustomsGraphs.html")))
                .doesNotContain("JVM Stats");
        assertThat(result.summaryText()).doesNotContain("JVM Stats summary");
    }

    static List<String> run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor()).as(String.join(" ", cmd) + ": " + lines).isZero();
        return lines;
    }
}
