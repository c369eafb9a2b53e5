package org.trustload.influx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.trustload.common.ClientException;

/**
 * The line protocol of a point, and the writer against a JDK HTTP server standing in for InfluxDB's write API
 * (the real InfluxDB is InfluxDbIT's): batches, the token header, one report per failure however many requests
 * fail, a full buffer that drops instead of blocking, and no secret in any report.
 */
class InfluxWriterTest {

    private HttpServer server;
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<String> auth = new CopyOnWriteArrayList<>();
    private final AtomicInteger status = new AtomicInteger(204);

    private String start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        server.createContext("/write", ex -> {
            bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            auth.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
            byte[] body = status.get() == 204 ? new byte[0]
                    : "{\"error\":\"database not found: \\\"nope\\\"\"}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(status.get(), body.length == 0 ? -1 : body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/write?db=tl&u=user&p=url-secret";
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aPointIsOneLineOfEscapedTagsAndFloatFieldsWithoutBlankTagsOrNonFiniteFields() {
        LinePoint p = new LinePoint("jvm stats", 1_700_000_000_123L)
                .tag("name", "JVM Stats, target=pdp").tag("empty", " ")
                .tag("application", "pki/cades").field("cpu_pct", 12.5).field("heap_used_mb", 1500.0)
                .field("bad", Double.NaN)
                .field("gc count", 3);
        assertThat(p.toLine(TimeUnit.NANOSECONDS))
                .isEqualTo("jvm\\ stats,name=JVM\\ Stats\\,\\ target\\=pdp,application=pki/cades"
                + " cpu_pct=12.5,heap_used_mb=1500,gc\\ count=3 1700000000123000000");
        assertThat(p.toLine(TimeUnit.MILLISECONDS)).endsWith(" 1700000000123");
        assertThat(new LinePoint("m", 1).field("x", Double.POSITIVE_INFINITY).hasFields()).isFalse();
        assertThat(InfluxWriter.precision(URI.create("http://h/write?db=x&precision=s"))).isEqualTo(TimeUnit.SECONDS);
        assertThat(InfluxWriter.precision(URI.create("http://h/write?db=x"))).isEqualTo(TimeUnit.NANOSECONDS);
    }

    @Test
    void pointsGoInBatchesWithTheTokenAndCloseSendsTheRest() throws Exception {
        String url = start();
        List<String> reports = new CopyOnWriteArrayList<>();
        InfluxWriter w = InfluxWriter.start(url, "tok-1", Duration.ofHours(1),
                Duration.ofSeconds(5), 100, reports::add);
        for (int i = 0; i < 7; i++) {
            w.add(new LinePoint("m", 1000L + i).field("v", i));
        }
        w.add(new LinePoint("m", 2000L)); // no field: not a point
        assertThat(bodies).as("nothing is sent before the interval").isEmpty();
        w.close();
        assertThat(bodies).singleElement()
                .satisfies(b -> assertThat(b.lines()).hasSize(7).first().isEqualTo("m v=0 1000000000"));
        assertThat(auth).containsExactly("Token tok-1");
        assertThat(w.written()).isEqualTo(7);
        assertThat(reports).isEmpty();
        w.add(new LinePoint("m", 3000L).field("v", 1)); // after close: ignored
        assertThat(w.written()).isEqualTo(7);
    }

    @Test
    void aFailingServerIsReportedOnceAndItsRecoveryOnceWithoutTheUrlsCredentialsOrTheToken() throws Exception {
        String url = start();
        status.set(404);
        List<String> reports = new CopyOnWriteArrayList<>();
        InfluxWriter w = InfluxWriter.start(url, "tok-2", Duration.ofMillis(100),
                Duration.ofSeconds(5), 100, reports::add);
        for (int i = 0; i < 5; i++) {
            w.add(new LinePoint("m", i).field("v", i));
            awaitRequests(i + 1);
        }
        assertThat(reports).singleElement().satisfies(r -> assertThat(r)
                .startsWith("InfluxDB at http://127.0.0.1:" + server.getAddress().getPort()
                        + "/write did not take 1 points: HTTP 404")
                .contains("database not found"));
        status.set(204);
        w.add(new LinePoint("m", 9).field("v", 9));
        awaitRequests(6);
        w.close();
        assertThat(reports).hasSize(3);
        assertThat(reports.get(1)).contains("takes points again (5 lost so far)");
        assertThat(reports.get(2)).contains("5 of 6 points not written");
        assertThat(String.join("\n", reports)).doesNotContain("url-secret").doesNotContain("tok-2")
                .doesNotContain("u=user");
    }

    @Test
    void aFullBufferDropsPointsInsteadOfBlockingAndNobodyListeningIsOneReport() throws Exception {
        List<String> reports = new CopyOnWriteArrayList<>();
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        InfluxWriter w = InfluxWriter.start("http://127.0.0.1:" + port + "/write?db=x", "", Duration.ofHours(1),
                Duration.ofSeconds(2), 10, reports::add);
        for (int i = 0; i < 25; i++) {
            w.add(new LinePoint("m", i).field("v", i)); // never waits
        }
        w.close();
        assertThat(w.notWritten()).isEqualTo(25);
        assertThat(reports).hasSize(2);
        assertThat(reports.get(0)).contains("did not take 10 points: connection refused");
        assertThat(reports.get(1)).contains("25 of 25 points not written (15 dropped from a full buffer)");
    }

    @Test
    void aWriteUrlMustBeHttpWithAHost() {
        for (String bad : new String[] {"", "localhost:8086", "ftp://h/write", "http:///write", "not a url"}) {
            assertThatThrownBy(() -> InfluxWriter.start(bad, "", Duration.ofSeconds(5),
                    Duration.ofSeconds(5), 10, r -> { }))
                    .as(bad).isInstanceOfSatisfying(ClientException.class, e -> {
                        assertThat(e.isConfigError()).isTrue();
                        assertThat(e.setting()).isEqualTo("influx.url");
                    });
        }
    }

    private void awaitRequests(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (bodies.size() < n) {
            assertThat(System.nanoTime()).as("the writer's request " + n + " within 30 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
