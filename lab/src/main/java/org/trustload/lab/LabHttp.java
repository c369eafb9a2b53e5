package org.trustload.lab;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every lab service built on the JDK's {@code com.sun.net.httpserver} server shares: the
 * TCP_NODELAY switch, binding to 127.0.0.1 with the lab's "in use" error, its worker threads, and
 * sending an answer with the request's CPU time ({@code X-TrustLoad-Cpu-Us}) and
 * {@code Cache-Control: no-store}; for the services whose own errors are
 * {@code {"error": code, "message": message}} (pki, pdp), the handler template ({@link #serve}).
 */
public final class LabHttp {
    private static final ThreadMXBean THREAD_CPU = ManagementFactory.getThreadMXBean();
    private static final ObjectMapper JSON = new ObjectMapper();

    private LabHttp() {
    }

    /** An answer: status, content type and body. */
    public record Reply(int status, String contentType, byte[] body) {
        /** A JSON answer of a map, list, tree, string, number, boolean or byte array (base64). */
        public static Reply json(int status, Object value) {
            return new Reply(status, "application/json", LabHttp.json(value));
        }

        public static Reply text(int status, String text) {
            return new Reply(status, "text/plain; charset=UTF-8", text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Answers one request; an answer other than success is a {@link Refusal}. */
    @FunctionalInterface
    public interface Handler {
        Reply handle(HttpExchange ex) throws Exception;
    }

    /**
     * An answer other than success: an HTTP status and a stable code, sent as {@code {"error": code, "message":
     * message}}.
     */
    public static class Refusal extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;
        private final String code;

        public Refusal(int status, String code, String message) {
            this(status, code, message, null);
        }

        public Refusal(int status, String code, String message, Throwable cause) {
            super(message, cause);
            this.status = status;
            this.code = code;
        }

        public int status() {
            return status;
        }

        public String code() {
            return code;
        }
    }

    /**
     * Runs a handler and sends its answer ({@link #send}): a {@link Refusal} as its JSON error, anything
     * else thrown as {@code 500 internalError}, logged with the {@code service}'s name.
     */
    public static void serve(String service, HttpExchange ex, Handler h) throws IOException {
        long cpu0 = threadCpu();
        Reply r;
        try {
            r = h.handle(ex);
        } catch (Refusal e) {
            r = error(e.status(), e.code(), e.getMessage());
        } catch (Exception | Error e) {
            System.err.println("trustload-lab: " + service + " " + ex.getRequestMethod() + " "
                    + ex.getRequestURI().getPath()
                    + ": " + e);
            r = error(500, "internalError", String.valueOf(e));
        }
        send(ex, cpu0, r.status(), r.contentType(), r.body());
    }

    private static Reply error(int status, String code, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", code);
        m.put("message", message);
        return Reply.json(status, m);
    }

    /** Refuses any other request method: 405 with {@code Allow}. */
    public static void method(HttpExchange ex, String... allowed) throws Refusal {
        for (String m : allowed) {
            if (ex.getRequestMethod().equals(m)) {
                return;
            }
        }
        ex.getResponseHeaders().set("Allow", String.join(", ", allowed));
        throw new Refusal(405, "methodNotAllowed", ex.getRequestMethod() + " is not allowed here; use "
                + String.join(" or ", allowed));
    }

    /** A request body of at most {@code max} bytes (413 beyond); the rest is left for {@link #send} to read. */
    public static byte[] body(HttpExchange ex, int max) throws IOException, Refusal {
        byte[] b = ex.getRequestBody().readNBytes(max + 1);
        if (b.length > max) {
            throw new Refusal(413, "requestTooLarge", "the request body exceeds " + max + " bytes");
        }
        return b;
    }

    /** {@code value} as JSON (Jackson's defaults). */
    public static byte[] json(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write an answer: " + e.getMessage(), e);
        }
    }

    /**
     * Sets {@code sun.net.httpserver.nodelay=true} unless given on the command line. Without it the
     * JDK server waits for Nagle + delayed ACK, a ~40 ms floor per keep-alive request. Must run before
     * {@code sun.net.httpserver.ServerConfig} loads, i.e. in a service's static initialiser.
     */
    public static void noDelay() {
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    /**
     * Binds {@code server} to 127.0.0.1:port; a taken port is an {@link EndpointInUseException}. The backlog
     * (1024) holds the burst of new connections a load test's threads open at once.
     */
    public static <S extends HttpServer> S bind(S server, LabContext ctx, int port, String service) throws IOException {
        try {
            server.bind(new InetSocketAddress(ctx.bindAddress(), port), 1024);
            return server;
        } catch (BindException e) {
            throw new EndpointInUseException(ctx.authority(port) + " (" + service + ")", e);
        }
    }

    /** Daemon threads called {@code name-1}, {@code name-2}, …: a service's workers never keep the lab's JVM up. */
    public static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The current thread's CPU time in ns; pass it to {@link #send} to report the request's CPU. */
    public static long threadCpu() {
        return THREAD_CPU.getCurrentThreadCpuTime();
    }

    /**
     * The most of a request body {@link #drainRequestBody} reads: the lab services' own body limit (64 MiB) and one
     * byte.
     */
    static final long DRAIN_LIMIT = 64L * 1024 * 1024 + 1;

    /**
     * Reads what the handler left of the request body (up to {@link #DRAIN_LIMIT} bytes), so that no
     * answer leaves ahead of an unread body. Without it the JDK server drains only
     * {@code sun.net.httpserver.drainAmount} (64 KiB) after the answer and then closes the connection with
     * the rest unread; Linux answers such a close with a reset, which can destroy the answer in the
     * client's receive buffer (the client sees the headers and then "fixed content-length: 99, bytes
     * received: 0"), and the client loses its keep-alive connection. Real servers read on (nginx's
     * lingering close, Tomcat's swallowing of an unread body). When the rest cannot be read (too long, or
     * the handler closed the stream early) the answer says {@code Connection: close}. Call before
     * {@code sendResponseHeaders}.
     */
    public static void drainRequestBody(HttpExchange ex) {
        if (!drained(ex)) {
            ex.getResponseHeaders().set("Connection", "close");
        }
    }

    private static boolean drained(HttpExchange ex) {
        try {
            InputStream in = ex.getRequestBody();
            if (in.read() < 0) {
                return true; // the usual case: the handler read it all; no buffer on the hot path
            }
            byte[] buf = new byte[16 * 1024];
            long left = DRAIN_LIMIT - 1;
            while (left > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    return true;
                }
                left -= n;
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Reads what the handler left of the request body ({@link #drainRequestBody}), sends the whole answer
     * and closes the exchange, so the connection stays reusable.
     */
    public static void send(HttpExchange ex, long cpuStart, int status, String contentType, byte[] body)
            throws IOException {
        try (ex) {
            drainRequestBody(ex);
            ex.getResponseHeaders().set("X-TrustLoad-Cpu-Us", String.valueOf((threadCpu() - cpuStart) / 1000));
            ex.getResponseHeaders().set("Content-Type", contentType);
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /** Stops the servers that were created (nulls are skipped), then their worker pool (waits up to 2 s). */
    public static void stop(ExecutorService workers, HttpServer... servers) {
        for (HttpServer s : servers) {
            if (s != null) {
                s.stop(0);
            }
        }
        if (workers != null) {
            workers.shutdownNow();
            try {
                workers.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
