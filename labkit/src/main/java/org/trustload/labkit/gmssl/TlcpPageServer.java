package org.trustload.labkit.gmssl;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.http.Header;
import org.apache.http.HttpException;
import org.apache.http.HttpRequest;
import org.apache.http.HttpVersion;
import org.apache.http.config.MessageConstraints;
import org.apache.http.entity.ContentLengthStrategy;
import org.apache.http.impl.entity.LaxContentLengthStrategy;
import org.apache.http.impl.io.ContentLengthInputStream;
import org.apache.http.impl.io.DefaultHttpRequestParser;
import org.apache.http.impl.io.DefaultHttpResponseWriter;
import org.apache.http.impl.io.HttpTransportMetricsImpl;
import org.apache.http.impl.io.SessionInputBufferImpl;
import org.apache.http.impl.io.SessionOutputBufferImpl;
import org.apache.http.message.BasicHttpResponse;
import org.trustload.common.Closeables;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpErrors;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServer;

/**
 * A small HTTPS-over-GM-SSL page server for the lab, tests and benchmarks, on one port for every
 * protocol it is given — as a Tongsuo gateway with {@code enable_ntls} serves TLCP and TLS 1.3 SM on
 * one port: the first bytes of the client's hello choose the {@link TlcpServer}
 * ({@link TlcpProtocol#ofRecordHeader}). Serves {@code /64b}, {@code /1k} and {@code /1m}, HTTP/1.1
 * kept alive unless the client says {@code Connection: close}, HTTP/1.0 closed after the response
 * unless it says {@code Connection: keep-alive} (httpcore parses the requests). One thread per
 * connection, because the max-connections scenario holds idle connections open.
 */
public final class TlcpPageServer implements AutoCloseable {
    /** The pages served, path to size in bytes. */
    public static final Map<String, Integer> PAGES = Map.of("/64b", 64, "/1k", 1024, "/1m", 1024 * 1024);
    /** How long the server waits for a new connection's first bytes. */
    static final int HELLO_TIMEOUT_MILLIS = 10_000;

    private static final byte[] BODY = body(1024 * 1024);

    private final List<TlcpServer> servers;
    private final ServerSocket listener;
    private final int idleTimeoutMillis;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger handshakes = new AtomicInteger();
    private final AtomicInteger handshakeFailures = new AtomicInteger();
    private volatile String lastHandshakeFailure;
    private final ExecutorService pool;
    private volatile boolean closed;

    private TlcpPageServer(List<TlcpServer> servers, ServerSocket listener, int idleTimeoutMillis) {
        this.servers = List.copyOf(servers);
        this.listener = listener;
        this.idleTimeoutMillis = idleTimeoutMillis;
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "tlcp-page-" + listener.getLocalPort() + "-" + accepted.get());
            t.setDaemon(true);
            return t;
        });
    }

    /** Serves one protocol; see {@link #start(List, InetSocketAddress, int)}. */
    public static TlcpPageServer start(TlcpServer server, InetSocketAddress address, int idleTimeoutMillis)
            throws TlcpException {
        return start(List.of(server), address, idleTimeoutMillis);
    }

    /**
     * Listens on {@code address} and serves until {@link #close()}, each connection with the server
     * of the protocol its client speaks (the first of {@code servers} when the bytes say neither).
     *
     * @param idleTimeoutMillis how long an idle kept-alive connection stays open
     */
    public static TlcpPageServer start(List<TlcpServer> servers, InetSocketAddress address, int idleTimeoutMillis)
            throws TlcpException {
        if (servers.isEmpty()) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "a page server needs at least one GM-SSL server");
        }
        ServerSocket listener;
        try {
            listener = new ServerSocket();
            listener.setReuseAddress(true);
            listener.bind(address, 1024);
        } catch (IOException e) {
            throw new TlcpException(TlcpException.CONNECT_ERROR, "cannot listen on " + address, TlcpErrors.chain(e), e);
        }
        TlcpPageServer s = new TlcpPageServer(servers, listener, idleTimeoutMillis);
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

    /** Handshakes completed since the start (every protocol). */
    public int completedHandshakes() {
        return handshakes.get();
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
                // the server's handshake flight may go out in several writes: without this, Nagle holds
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
            byte[] head = new byte[3];
            s.setSoTimeout(HELLO_TIMEOUT_MILLIS);
            InputStream raw = s.getInputStream();
            for (int n = 0; n < head.length;) {
                int r = raw.read(head, n, head.length - n);
                if (r < 0) {
                    return; // a port probe: nothing to answer
                }
                n += r;
            }
            TlcpConnection c = server(TlcpProtocol.ofRecordHeader(head)).accept(s, head);
            handshakes.incrementAndGet();
            s.setSoTimeout(idleTimeoutMillis);
            try {
                serveHttp(c);
            } finally {
                c.close(); // close_notify, then the socket
            }
        } catch (TlcpException e) {
            // a client that fails its handshake: nothing to answer, but counted with its cause
            // the message first: a test that sees the count must see why
            lastHandshakeFailure = e.getMessage() + (e.detail() == null ? "" : " (" + e.detail() + ")");
            handshakeFailures.incrementAndGet();
        } catch (IOException | HttpException e) {
            // a client that goes away or sends no HTTP: nothing to answer
        } finally {
            close(s);
        }
    }

    private TlcpServer server(TlcpProtocol p) {
        for (TlcpServer x : servers) {
            if (x.protocol() == p) {
                return x;
            }
        }
        return servers.get(0);
    }

    private void serveHttp(TlcpConnection c) throws IOException, HttpException {
        SessionInputBufferImpl in = new SessionInputBufferImpl(new HttpTransportMetricsImpl(), 8192, 8192,
                MessageConstraints.DEFAULT, null);
        in.bind(c.input());
        SessionOutputBufferImpl out = new SessionOutputBufferImpl(new HttpTransportMetricsImpl(), 8192);
        out.bind(c.output());
        DefaultHttpRequestParser parser = new DefaultHttpRequestParser(in);
        DefaultHttpResponseWriter writer = new DefaultHttpResponseWriter(out);
        LaxContentLengthStrategy lengths = new LaxContentLengthStrategy();
        while (!closed) {
            if (in.length() == 0 && in.fillBuffer() < 0) {
                return; // the client closed between requests
            }
            HttpRequest request = parser.parse();
            long bodyLength = lengths.determineLength(request);
            if (bodyLength > 0) {
                new ContentLengthInputStream(in, bodyLength).close(); // reads and drops a request body
            } else if (bodyLength == ContentLengthStrategy.CHUNKED) {
                return; // no page takes a body
            }
            boolean keepAlive = keepAlive(request);
            String method = request.getRequestLine().getMethod();
            Integer size = method.equals("GET") ? PAGES.get(request.getRequestLine().getUri()) : null;
            BasicHttpResponse response = new BasicHttpResponse(HttpVersion.HTTP_1_1, size == null ? 404 : 200,
                    size == null ? "Not Found" : "OK");
            int length = size == null ? 0 : size;
            response.addHeader("Content-Type", "application/octet-stream");
            response.addHeader("Content-Length", String.valueOf(length));
            response.addHeader("Connection", keepAlive ? "keep-alive" : "close");
            writer.write(response);
            out.write(BODY, 0, length);
            out.flush();
            if (!keepAlive) {
                return;
            }
        }
    }

    /**
     * Whether the connection stays open after the response (RFC 9112 section 9.3): HTTP/1.1 keeps it
     * unless the request says {@code Connection: close}; HTTP/1.0 (ab and its GM derivatives) closes
     * it unless the request says {@code Connection: keep-alive}.
     */
    static boolean keepAlive(HttpRequest request) {
        List<String> options = new ArrayList<>();
        for (Header h : request.getHeaders("Connection")) {
            for (String o : h.getValue().split(",")) {
                options.add(o.trim().toLowerCase(Locale.ROOT));
            }
        }
        if (options.contains("close")) {
            return false;
        }
        return request.getProtocolVersion().greaterEquals(HttpVersion.HTTP_1_1) || options.contains("keep-alive");
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
        Closeables.closeQuietly(s);
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
        Closeables.closeQuietly(listener);
        for (Socket s : open) {
            close(s);
        }
        pool.shutdownNow();
        for (TlcpServer x : servers) {
            x.close();
        }
    }
}
