package org.trustload.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

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
