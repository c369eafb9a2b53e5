package org.trustload.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.common.ChildProcess;

/**
 * The fault harness against a real HTTP server: each Toxiproxy toxic, a cut link and a switched upstream do to a
 * client what they say, and the link heals; the misbehaving servers and the process faults too. One Toxiproxy
 * and one HTTP server for the class (about 10 s, most of it the toxics' own delays and the client timeouts).
 */
class FaultHarnessIT {

    private static final byte[] BIG = new byte[200_000];
    private static Toxiproxy toxiproxy;
    private static TestHttpServer http;
    private static FaultProxy proxy;

    @BeforeAll
    static void start() throws IOException {
        Toxiproxy.assumeOrFailInCi();
        Arrays.fill(BIG, (byte) 'x');
        http = new TestHttpServer()
                .on("/small", (body, ex) -> TestHttpServer.reply(ex, 200, "text/plain", "ok".getBytes()))
                .on("/big", (body, ex) -> TestHttpServer.reply(ex, 200, "application/octet-stream", BIG));
        toxiproxy = Toxiproxy.start(Path.of("target/toxiproxy-it.log"));
        proxy = toxiproxy.proxy("http", "127.0.0.1", http.uri("/").getPort());
    }

    @AfterAll
    static void stop() {
        if (toxiproxy != null) {
            toxiproxy.close();
        }
        if (http != null) {
            http.close();
        }
    }

    /** One GET on a new connection through the proxy, at most {@code timeoutMs}. */
    private static HttpResponse<byte[]> get(String path, long timeoutMs) throws IOException, InterruptedException {
        HttpClient c = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(timeoutMs)).build();
        return c.send(java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path))
                .timeout(Duration.ofMillis(timeoutMs)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static long millis(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    void eachToxicDoesWhatItSaysAndHealRestoresTheLink() throws Exception {
        assertThat(get("/small", 5000).statusCode()).isEqualTo(200);

        long t0 = System.nanoTime();
        proxy.latency(300, 0);
        assertThat(get("/small", 10_000).body()).isEqualTo("ok".getBytes());
        assertThat(millis(t0)).as("300 ms of latency cannot be faster").isGreaterThanOrEqualTo(300);
        proxy.heal();

        proxy.bandwidth(100); // KB/s: 200 KB take about 2 s
        t0 = System.nanoTime();
        assertThat(get("/big", 30_000).body()).hasSize(BIG.length);
        assertThat(millis(t0)).as("200 KB at 100 KB/s").isGreaterThanOrEqualTo(1500);
        proxy.heal();

        proxy.slicer(64, 32, 100);
        assertThat(get("/big", 30_000).body()).as("sliced, not changed").isEqualTo(BIG);
        proxy.heal();

        proxy.timeout(0); // answers held, connection open: a hung server
        t0 = System.nanoTime();
        assertThatThrownBy(() -> get("/small", 1000)).isInstanceOf(HttpTimeoutException.class);
        assertThat(millis(t0)).as("held until the client's own timeout").isGreaterThanOrEqualTo(1000);
        proxy.heal();
        assertThat(get("/small", 5000).statusCode()).isEqualTo(200);

        proxy.resetPeer(0);
        assertThatThrownBy(() -> get("/small", 5000)).isInstanceOf(IOException.class);
        proxy.heal();

        proxy.limitData(1000); // the big answer cut after 1,000 bytes
        assertThatThrownBy(() -> get("/big", 5000)).isInstanceOf(IOException.class);
        proxy.heal();

        proxy.cut();
        assertThatThrownBy(() -> get("/small", 5000)).isInstanceOf(ConnectException.class);
        proxy.heal();
        assertThat(get("/small", 5000).statusCode()).isEqualTo(200);
    }

    @Test
    void theProxyCanBePointedAtAMisbehavingServerMidRunAndBack() throws Exception {
        try (FaultServer silent = FaultServer.silent();
             FaultServer garbage = FaultServer.answering(FaultServer.Garbage.json("{\"not\":\"the answer\"}"))) {
            proxy.upstream(silent.host(), silent.port());
            assertThatThrownBy(() -> get("/small", 800)).isInstanceOf(HttpTimeoutException.class);
            assertThat(silent.accepted()).isPositive();
            proxy.upstream(garbage.host(), garbage.port());
            assertThat(new String(get("/small", 5000).body())).isEqualTo("{\"not\":\"the answer\"}");
            proxy.heal();
            assertThat(get("/small", 5000).body()).isEqualTo("ok".getBytes());
        }
    }

    @Test
    void aBlackholeTimesOutTheConnectAndASilentServerTheRead() throws Exception {
        try (FaultServer hole = FaultServer.blackhole(); FaultServer silent = FaultServer.silent();
             FaultServer ldap = FaultServer.answering(FaultServer.Garbage.LDAP)) {
            try (Socket s = new Socket()) {
                assertThatThrownBy(() -> s.connect(new InetSocketAddress(hole.host(), hole.port()), 300))
                        .isInstanceOf(SocketTimeoutException.class);
            }
            try (Socket s = new Socket(silent.host(), silent.port())) {
                s.setSoTimeout(300);
                s.getOutputStream().write("hello".getBytes());
                assertThatThrownBy(() -> s.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            }
            try (Socket s = new Socket(ldap.host(), ldap.port())) {
                s.setSoTimeout(5000);
                s.getOutputStream().write(new byte[] {0x30, 0x00});
                InputStream in = s.getInputStream();
                assertThat(in.readAllBytes()).isEqualTo(FaultServer.Garbage.LDAP);
            }
        }
    }

    @Test
    void aPausedProcessHasEveryThreadStoppedUntilResumedAndAKilledOneIsGone() throws Exception {
        try (ChildProcess p = ChildProcess.launch("sleep", List.of("sleep", "300"), null, Map.of(), null, null, null)) {
            long pid = p.handle().pid();
            ProcessFaults.pause(pid);
            assertThat(ProcessFaults.threadStates(pid)).matches("T+");
            ProcessFaults.resume(pid);
            assertThat(ProcessFaults.threadStates(pid)).doesNotContain("T");
            ProcessFaults.kill(pid);
            // gone for the kernel once kill returns; the JVM's own Process learns it when its reaper thread has run
            assertThat(p.waitFor(Duration.ofSeconds(60))).isTrue();
            assertThat(p.isAlive()).isFalse();
        }
    }
}
