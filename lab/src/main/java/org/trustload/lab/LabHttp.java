package org.trustload.lab;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What every lab service built on the JDK's {@code com.sun.net.httpserver} server shares: the
 * TCP_NODELAY switch, binding to 127.0.0.1 with the lab's "in use" error, and sending an answer with
 * the request's CPU time ({@code X-TrustLoad-Cpu-Us}) and {@code Cache-Control: no-store}.
 */
public final class LabHttp {
    private static final ThreadMXBean THREAD_CPU = ManagementFactory.getThreadMXBean();

    private LabHttp() {
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

    /** Binds {@code server} to 127.0.0.1:port (backlog 256); a taken port is an {@link EndpointInUseException}. */
    public static <S extends HttpServer> S bind(S server, LabContext ctx, int port, String service) throws IOException {
        try {
            server.bind(new InetSocketAddress(ctx.bindAddress(), port), 256);
            return server;
        } catch (BindException e) {
            throw new EndpointInUseException(LabContext.HOST + ":" + port + " (" + service + ")", e);
        }
    }

    /** The current thread's CPU time in ns; pass it to {@link #send} to report the request's CPU. */
    public static long threadCpu() {
        return THREAD_CPU.getCurrentThreadCpuTime();
    }

    /** The most of a request body {@link #drainRequestBody} reads: the lab services' own body limit (64 MiB) and one byte. */
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
    public static void send(HttpExchange ex, long cpuStart, int status, String contentType, byte[] body) throws IOException {
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
