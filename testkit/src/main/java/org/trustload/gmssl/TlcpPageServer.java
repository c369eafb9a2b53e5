package org.trustload.gmssl;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTPS-over-GM-SSL page server for the lab, tests and benchmarks: serves {@code /64b},
 * {@code /1k} and {@code /1m} on a {@link TlcpServer}'s listening socket, HTTP/1.1 kept alive unless
 * the client says {@code Connection: close}, HTTP/1.0 closed after the response unless it says
 * {@code Connection: keep-alive}.
 * One thread per connection, because the max-connections scenario holds idle connections open.
 */
public final class TlcpPageServer implements AutoCloseable {
    /** The pages served, path to size in bytes. */
    public static final Map<String, Integer> PAGES = Map.of("/64b", 64, "/1k", 1024, "/1m", 1024 * 1024);

    private static final byte[] BODY = body(1024 * 1024);

    private final TlcpServer server;
    private final ServerSocket listener;
    private final int idleTimeoutMillis;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger handshakeFailures = new AtomicInteger();
    private volatile String lastHandshakeFailure;
    private final ExecutorService pool;
    private volatile boolean closed;

    private TlcpPageServer(TlcpServer server, ServerSocket listener, int idleTimeoutMillis) {
        this.server = server;
        this.listener = listener;
        this.idleTimeoutMillis = idleTimeoutMillis;
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "tlcp-page-" + listener.getLocalPort() + "-" + accepted.get());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Listens on {@code address} and serves until {@link #close()}.
     *
     * @param idleTimeoutMillis how long an idle kept-alive connection stays open
     */
    public static TlcpPageServer start(TlcpServer server, InetSocketAddress address, int idleTimeoutMillis)
            throws TlcpException {
        TlcpPageServer s = new TlcpPageServer(server, server.bind(address, 1024), idleTimeoutMillis);
        Thread acceptor = new Thread(s::acceptLoop, "tlcp-accept-" + s.port());
        acceptor.setDaemon(true);
        acceptor.start();
        return s;
    }

    /** The port listened on. */
    public int port() {
        return listener.getLocalPort();
    }

    /** Connections currently open (tests check that held connections are released). */
    public int openConnections() {
        return open.size();
    }

    /** Connections accepted since the start. */
    public int acceptedConnections() {
        return accepted.get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (closed || listener.isClosed()) {
                    return;
                }
                continue;
            }
            accepted.incrementAndGet();
            try {
                // the server's handshake flight goes out in several writes: without this, Nagle holds
                // the later ones until the client's delayed ACK (~40 ms per handshake)
                s.setTcpNoDelay(true);
            } catch (IOException e) {
                close(s);
                continue;
            }
            open.add(s);
            try {
                pool.execute(() -> serve(s));
            } catch (RuntimeException e) {
                close(s);
            }
        }
    }

    private void serve(Socket s) {
        try {
            server.handshake(s);
            s.setSoTimeout(idleTimeoutMillis);
            InputStream in = new BufferedInputStream(s.getInputStream(), 8192);
            OutputStream out = s.getOutputStream();
            while (!closed) {
                String head = TlcpHttp.readHead(in, new StringBuilder());
                if (head == null) {
                    return;
                }
                int eol = head.indexOf("\r\n");
                String[] line = (eol < 0 ? head : head.substring(0, eol)).split(" ");
                boolean keepAlive = keepAlive(line.length >= 3 ? line[2] : "", head);
                Integer size = line.length >= 2 && line[0].equals("GET") ? PAGES.get(line[1]) : null;
                String status = size == null ? "404 Not Found" : "200 OK";
                int length = size == null ? 0 : size;
                String resp = "HTTP/1.1 " + status + "\r\nContent-Type: application/octet-stream\r\nContent-Length: "
                        + length + "\r\nConnection: " + (keepAlive ? "keep-alive" : "close") + "\r\n\r\n";
                out.write(resp.getBytes(StandardCharsets.US_ASCII));
                out.write(BODY, 0, length);
                out.flush();
                if (!keepAlive) {
                    return;
                }
            }
        } catch (TlcpException e) {
            // a client that fails its handshake: nothing to answer, but counted with its cause
            handshakeFailures.incrementAndGet();
            lastHandshakeFailure = e.getMessage() + (e.detail() == null ? "" : " (" + e.detail() + ")");
        } catch (IOException e) {
            // a client that goes away: nothing to answer
        } finally {
            close(s);
        }
    }

    /**
     * Whether the connection stays open after the response (RFC 9112 section 9.3): HTTP/1.1 keeps it
     * unless the request says {@code Connection: close}; HTTP/1.0 (ab and its GM derivatives) closes
     * it unless the request says {@code Connection: keep-alive}.
     */
    static boolean keepAlive(String version, String head) {
        java.util.List<String> options = new java.util.ArrayList<>();
        for (String h : head.split("\r\n")) {
            int colon = h.indexOf(':');
            if (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase("connection")) {
                for (String o : h.substring(colon + 1).split(",")) {
                    options.add(o.trim().toLowerCase(Locale.ROOT));
                }
            }
        }
        if (options.contains("close")) {
            return false;
        }
        return version.equals("HTTP/1.1") || options.contains("keep-alive");
    }

    /** Handshakes that failed on this server since the start (a load test against the lab expects 0). */
    public int handshakeFailures() {
        return handshakeFailures.get();
    }

    /** The last handshake failure's message and cause, or null. */
    public String lastHandshakeFailure() {
        return lastHandshakeFailure;
    }

    private void close(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException ignored) {
            // best effort
        }
    }

    private static byte[] body(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    /** Stops listening and closes every open connection. */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // best effort
        }
        for (Socket s : open) {
            close(s);
        }
        pool.shutdownNow();
        server.close();
    }
}
