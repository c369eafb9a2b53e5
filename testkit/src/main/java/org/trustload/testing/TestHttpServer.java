package org.trustload.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;

/**
 * A tiny HTTP server on 127.0.0.1 (random port) for tests: register handlers that map a request
 * body to a response. Uses the JDK's {@code com.sun.net.httpserver}; Nagle is switched off
 * ({@code sun.net.httpserver.nodelay}) before the server class loads, else small answers wait
 * ~40 ms for delayed ACKs and latency measurements mean nothing.
 */
public final class TestHttpServer implements AutoCloseable {

    static {
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    /** Answers one exchange. */
    @FunctionalInterface
    public interface Handler {
        void handle(byte[] requestBody, HttpExchange exchange) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-http");
        t.setDaemon(true);
        return t;
    });

    public TestHttpServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(executor);
        server.start();
    }

    /** Registers {@code handler} for requests under {@code path}. */
    public TestHttpServer on(String path, Handler handler) {
        server.createContext(path, exchange -> {
            try (exchange) {
                byte[] body;
                try (InputStream in = exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                handler.handle(body, exchange);
            } catch (IOException | RuntimeException e) {
                // the client went away (e.g. after its timeout); nothing to answer
            }
        });
        return this;
    }

    /** Request headers the JDK's HTTP client sets itself and refuses to copy. */
    private static final Set<String> HOP_HEADERS = Set.of("host", "content-length", "connection",
            "expect", "upgrade", "transfer-encoding", "keep-alive", "te", "trailer");

    /**
     * Relays requests under {@code path} to the real server at {@code upstream} ({@code http://host:port}, no
     * path: the request's own path and query are kept) and hands each answer body to {@code rewrite} (request
     * path, answer) before sending it on with the server's status and content type: a real server whose
     * answers a test changes, e.g. a signature server that "succeeds" without the signature.
     */
    public TestHttpServer relay(String path, URI upstream, BiFunction<String, byte[], byte[]> rewrite) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        return on(path, (body, exchange) -> {
            HttpRequest.Builder b = HttpRequest.newBuilder(
                    URI.create(upstream.toString().replaceAll("/+$", "") + exchange.getRequestURI().getRawPath()
                            + (exchange.getRequestURI().getRawQuery() == null ? ""
                                    : "?" + exchange.getRequestURI().getRawQuery())))
                    .timeout(Duration.ofSeconds(60))
                    .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                    values.forEach(v -> b.header(name, v));
                }
            });
            HttpResponse<byte[]> answer;
            try {
                answer = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            reply(exchange, answer.statusCode(),
                    answer.headers().firstValue("Content-Type").orElse("application/octet-stream"),
                    rewrite.apply(exchange.getRequestURI().getPath(), answer.body()));
        });
    }

    /** Sends a complete answer. */
    public static void reply(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
