package org.trustload.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The body deadline and limit against a real loopback HTTP server (the JDK's). */
class BoundedBodyTest {
    private HttpServer server;
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpClient http;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/ok", ex -> {
            byte[] b = "hello".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(b);
            }
        });
        server.createContext("/big", ex -> {
            byte[] b = new byte[64 * 1024];
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(b);
            }
        });
        server.createContext("/stall", ex -> {
            // the headers and a first byte at once, then nothing until the test ends
            ex.sendResponseHeaders(200, 100);
            OutputStream o = ex.getResponseBody();
            o.write('{');
            o.flush();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.start();
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
                .timeout(Duration.ofSeconds(5)).GET().build();
    }

    @Test
    void readsAWholeAnswer() throws Exception {
        HttpResponse<byte[]> r = http.send(get("/ok"), BoundedBody.handler(Duration.ofSeconds(5), 1024));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
        HttpResponse<byte[]> big = http.send(get("/big"), BoundedBody.handler(Duration.ofSeconds(5), 64 * 1024));
        assertThat(big.body()).hasSize(64 * 1024);
    }

    @Test
    void aStalledBodyEndsAtItsDeadlineThoughTheHeadersCameInTime() {
        long t0 = System.nanoTime();
        Throwable e = catchThrowable(() -> http.send(get("/stall"), BoundedBody.handler(Duration.ofMillis(500), 1024)));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(e).isInstanceOf(HttpTimeoutException.class).hasMessageContaining("not complete within 500 ms");
        // the request timeout (5 s) would not have fired: the headers came at once
        assertThat(ms).isGreaterThanOrEqualTo(500).isLessThan(2500);
    }

    @Test
    void anAnswerOverTheLimitFailsWithTooLarge() {
        Throwable e = catchThrowable(() -> http.send(get("/big"), BoundedBody.handler(Duration.ofSeconds(5), 1000)));
        assertThat(e).isInstanceOf(IOException.class);
        boolean tooLarge = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            tooLarge |= t instanceof BoundedBody.TooLarge;
        }
        assertThat(tooLarge).as(String.valueOf(e)).isTrue();
    }

    @Test
    void theWatchdogStopsWhenNoBodyIsInFlight() throws Exception {
        http.send(get("/ok"), BoundedBody.handler(Duration.ofSeconds(5), 1024));
        assertThat(BoundedBody.inFlight()).isZero();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (watchdogAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(watchdogAlive()).isFalse();
    }

    @Test
    void oneWatchdogServesSuccessiveRequestsWithGapsLongerThanItsTick() throws Exception {
        Set<Thread> seen = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            http.send(get("/ok"), BoundedBody.handler(Duration.ofSeconds(5), 1024));
            watchdog().ifPresent(seen::add);
            Thread.sleep(BoundedBody.TICK_MS * 3L);
        }
        assertThat(seen).hasSize(1);
    }

    private static java.util.Optional<Thread> watchdog() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("trustload-http-body-deadline") && t.isAlive()).findFirst();
    }

    private static boolean watchdogAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("trustload-http-body-deadline") && t.isAlive());
    }
}
