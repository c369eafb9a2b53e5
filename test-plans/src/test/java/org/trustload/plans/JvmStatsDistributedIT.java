package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
 * <p>A minimal harness of our own (the shared engine harness of the distributed-mode work had not
 * landed when this was written).
 */
class JvmStatsDistributedIT {

    @Test
    void loadGeneratorPerEngineRemoteTargetPolledOnce() throws Exception {
        Path dir = Plans.DIR.resolve("target/jvmstats-it/distributed");
        JMeterProcess.deleteRecursively(dir);
        Files.createDirectories(dir);
        Path keystore = dir.resolve("rmi.p12");
        JvmStatsIT.run("keytool", "-genkeypair", "-alias", "rmi", "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", "2", "-dname", "CN=rmi", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", "changeit", "-keypass", "changeit");
        List<String> ssl = List.of("-Jserver.rmi.ssl.keystore.file=" + keystore, "-Jserver.rmi.ssl.keystore.type=PKCS12",
                "-Jserver.rmi.ssl.truststore.file=" + keystore, "-Jserver.rmi.ssl.truststore.type=PKCS12",
                "-Jserver.rmi.ssl.keystore.password=changeit", "-Jserver.rmi.ssl.truststore.password=changeit",
                "-Jserver.rmi.ssl.keystore.alias=rmi");
        Process idle = JvmStatsIT.idleJvm(dir.resolve("idle"));
        List<Process> engines = new ArrayList<>();
        try {
            int[] ports = {freePort(), freePort()};
            for (int i = 0; i < 2; i++) {
                Path e = Files.createDirectories(dir.resolve("engine" + (i + 1)));
                List<String> cmd = new ArrayList<>(List.of(JMeterProcess.java(), "-Xmx256m", "-Djava.rmi.server.hostname=127.0.0.1",
                        "-jar", Plans.HOME.resolve("bin/ApacheJMeter.jar").toString(), "-s", "-Jserver_port=" + ports[i],
                        "-Jserver.rmi.localport=" + freePort(), "-j", "engine.log"));
                cmd.addAll(ssl);
                engines.add(new ProcessBuilder(cmd).directory(e.toFile()).redirectErrorStream(true)
                        .redirectOutput(e.resolve("console.txt").toFile()).start());
            }
            for (int port : ports) {
                awaitListening(port, Duration.ofMinutes(3));
            }
            String first = "127.0.0.1:" + ports[0];
            String second = "127.0.0.1:" + ports[1];
            for (Process engine : engines) {
                assertThat(listeningAddresses(engine.pid())).as("engine sockets").isNotEmpty()
                        .allMatch(a -> a.startsWith("127.0.0.1:") || a.startsWith("[::ffff:127.0.0.1]:"), "loopback only");
            }
            Path client = dir.resolve("client");
            List<String> args = new ArrayList<>(List.of("-Djava.rmi.server.hostname=127.0.0.1", "-R", first + "," + second,
                    "-q", Plans.HOME.resolve("bin/trustload.properties").toString(),
                    "-Gthreads=2", "-Gloops=100", "-Gpace_ms=10", "-Gjvmstats.interval_ms=500",
                    "-Gjvmstats.source=jvm-pid", "-Gjvmstats.target=" + idle.pid(),
                    "-Gtrustload.jvmstats.remote_poller=" + first, "-X"));
            args.addAll(ssl);
            // after the plan, -D is JMeter's own option: it sets the system property before any RMI object is exported
            JMeterProcess.run(JvmStatsIT.PLAN, client, args, Duration.ofMinutes(4));

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
                assertThat(f[target].isEmpty()).as("target values only from the polling engine: " + row).isEqualTo(!fromFirst);
                assertThat(f[load]).as("load-generator values from every engine: " + row).isNotEmpty();
            }
            Path e1 = dir.resolve("engine1");
            Path e2 = dir.resolve("engine2");
            assertThat(e1.resolve("jvm-stats-summary.txt")).as("the polling engine's summary of the target").exists();
            assertThat(e2.resolve("jvm-stats-summary.txt")).as("polled once: no second summary").doesNotExist();
            assertThat(Files.readString(e1.resolve("jvm-stats-summary.txt")))
                    .contains("JVM pid " + idle.pid(), "requests           400", "counted on this engine");
            for (int i = 0; i < 2; i++) {
                Path e = dir.resolve("engine" + (i + 1));
                String name = "jvm-stats-summary-load-127.0.0.1_" + ports[i] + ".txt";
                assertThat(Files.readString(e.resolve(name))).as("engine-local load-generator summary")
                        .contains("this JVM (pid " + engines.get(i).pid() + ",", "requests           400");
            }
            assertThat(Files.readString(e2.resolve("engine.log"))).contains("not polled on engine " + second);
        } finally {
            for (Process p : engines) {
                p.destroyForcibly();
                p.waitFor(20, TimeUnit.SECONDS);
            }
            idle.destroyForcibly();
            idle.waitFor(20, TimeUnit.SECONDS);
        }
    }

    /** A comma outside double quotes. */
    static final String CSV_COMMA = ",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)";

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static void awaitListening(int port, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > end) {
                    throw new AssertionError("engine registry on port " + port + " not up in " + timeout);
                }
                Thread.sleep(500);
            }
        }
    }

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
