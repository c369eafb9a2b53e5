package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;
import org.trustload.harness.Layout;
import org.trustload.harness.engine.Engines;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * JVM Stats in JMeter's distributed mode: two engines and a controller on loopback, RMI over SSL
 * (keystore from keytool), {@code java.rmi.server.hostname=127.0.0.1} everywhere, so nothing listens
 * beyond 127.0.0.1. The load-generator source runs on every engine with that engine's own values; the
 * watched JVM is polled by exactly one engine (the one {@code trustload.jvmstats.remote_poller} names).
 *
 * <p>Engines come from the shared {@link Engines} of the harness.
 */
class JvmStatsDistributedIT {

    @Test
    void loadGeneratorPerEngineRemoteTargetPolledOnce() throws Exception {
        Path dir = Plans.DIR.resolve("target/jvmstats-it/distributed");
        Layout.deleteRecursively(dir);
        Files.createDirectories(dir);
        Process idle = JvmStatsIT.idleJvm(dir.resolve("idle"));
        try (Engines engines = Plans.startEngines(2, dir.resolve("engines"))) {
            String first = engines.hosts().get(0);
            String second = engines.hosts().get(1);
            for (ProcessHandle engine : engines.processes()) {
                assertThat(listeningAddresses(engine.pid())).as("engine sockets").isNotEmpty()
                        .allMatch(a -> a.startsWith("127.0.0.1:") || a.startsWith("[::ffff:127.0.0.1]:"),
                                "loopback only");
            }
            Path client = dir.resolve("client");
            Path results = dir.resolve("results");
            List<String> args = new ArrayList<>(engines.controllerArgs());
            // the controller does not run JVM Stats: it lists the columns itself (./trustload run --engines N does
            // the same) and JMeter sends the list to the engines
            org.trustload.harness.jmx.PlanTree.init(Plans.HOME);
            String columns = org.trustload.harness.jmx.PlanFile.jvmStatsColumns(JvmStatsIT.PLAN).orElseThrow();
            assertThat(columns.split(",")).hasSize(18);
            args.addAll(List.of("-Jsample_variables=" + columns,
                    "-Gthreads=2", "-Gloops=100", "-Gpace_ms=10", "-Gjvmstats.interval_ms=500",
                    "-Gjvmstats.source=jvm-pid", "-Gjvmstats.target=" + idle.pid(),
                    "-Gtrustload.jvmstats.remote_poller=" + first, "-Gtrustload.results.dir=" + results));
            Plans.runWithoutReport(JvmStatsIT.PLAN, client, args, Duration.ofMinutes(4));

            // 2 engines x 2 threads x 100 iterations x (2 samples + 1 transaction row)
            List<String> rows = Files.readAllLines(client.resolve("results.jtl"));
            assertThat(rows).hasSize(1 + 1200);
            List<String> header = Arrays.asList(rows.get(0).replace("\"", "").split(","));
            int thread = header.indexOf("threadName");
            int target = header.indexOf("jvm_gc_time_ms");
            int load = header.indexOf("load_cpu_ms");
            for (String row : rows.subList(1, rows.size())) {
                String[] f = row.split(CSV_COMMA, -1); // transaction rows quote their message, which has a comma
                boolean fromFirst = f[thread].startsWith(first + "-");
                assertThat(f[target].isEmpty()).as("target values only from the polling engine: " + row)
                        .isEqualTo(!fromFirst);
                assertThat(f[load]).as("load-generator values from every engine: " + row).isNotEmpty();
            }
            try (var files = Files.list(results)) {
                assertThat(files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".txt")))
                        .as("one target summary, one load-generator summary per engine")
                        .containsExactlyInAnyOrder("jvm-stats-summary.txt",
                                "jvm-stats-summary-load-" + first.replace(':', '_') + ".txt",
                                "jvm-stats-summary-load-" + second.replace(':', '_') + ".txt");
            }
            assertThat(Files.readString(results.resolve("jvm-stats-summary.txt")))
                    .contains("JVM pid " + idle.pid(), "requests           400",
                            "counted on this engine (" + first + ")");
            for (int i = 0; i < 2; i++) {
                String name = "jvm-stats-summary-load-" + engines.hosts().get(i).replace(':', '_') + ".txt";
                assertThat(Files.readString(results.resolve(name))).as("engine-local load-generator summary")
                        .contains("this JVM (pid " + engines.processes().get(i).pid() + ",", "requests           400");
            }
            assertThat(Files.readString(engines.logs().get(1))).contains("not polled on engine " + second);
        } finally {
            idle.destroyForcibly();
            idle.waitFor(20, TimeUnit.SECONDS);
        }
    }

    /** A comma outside double quotes. */
    static final String CSV_COMMA = ",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)";

    /** Local addresses of the TCP sockets a process listens on (from ss). */
    static List<String> listeningAddresses(long pid) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : JvmStatsIT.run("ss", "-Hltnp")) {
            if (line.contains("pid=" + pid + ",")) {
                out.add(line.trim().split("\\s+")[3]);
            }
        }
        return out;
    }
}
