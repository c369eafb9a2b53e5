package org.trustload.lab.gmssl;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngine;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServer;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.lab.EndpointInUseException;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabService;
import org.trustload.pki.TestPki;

/**
 * The {@code gmssl} lab service: a GM-SSL HTTPS server on 127.0.0.1 with SM2 double certificates
 * (an SM2 test PKI: one CA, server and client sign+enc pairs, an expired client pair), serving
 * {@code /64b}, {@code /1k} and {@code /1m} with HTTP/1.1 keep-alive:
 * <ul>
 *   <li>base+{@value #TLCP_OFFSET}: TLCP (engine {@code bgm}), all four suites, no client certificate required;</li>
 *   <li>base+{@value #TLS13_OFFSET}: TLS 1.3 with the RFC 8998 suites (engine {@code bgm});</li>
 *   <li>base+{@value #TLCP_MTLS_OFFSET}: TLCP requiring a client certificate pair.</li>
 * </ul>
 * (+8702 is reserved for TLS 1.3 served by the {@code tongsuo} engine.)
 * One thread per connection, because the max-connections plan holds idle connections open.
 */
public final class GmsslLabService implements LabService {
    /** Port offset of the TLCP listener. */
    public static final int TLCP_OFFSET = 8700;
    /** Port offset of the TLS 1.3 SM listener (bgm). */
    public static final int TLS13_OFFSET = 8701;
    /** Port offset of the TLCP listener that requires client authentication. */
    public static final int TLCP_MTLS_OFFSET = 8703;
    /** The pages served, path to size in bytes. */
    public static final Map<String, Integer> PAGES = Map.of("/64b", 64, "/1k", 1024, "/1m", 1024 * 1024);
    /** How long an idle kept-alive connection stays open (the max-connections plan holds them idle). */
    static final int IDLE_TIMEOUT_MILLIS = 600_000;

    private static final byte[] BODY = body(1024 * 1024);

    private final List<ServerSocket> listeners = new ArrayList<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final Map<String, String> props = new LinkedHashMap<>();
    private ExecutorService pool;
    private volatile boolean closed;

    @Override
    public String name() {
        return "gmssl";
    }

    @Override
    public void start(LabContext ctx) throws Exception {
        Path dir = ctx.socketDir().resolve("gmssl-pki");
        TestPki pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), dir);
        TlcpEngine bgm = TlcpEngines.get("bgm");
        bgm.checkAvailable();
        TlcpCredentials server = new TlcpCredentials(pki.tlcpKey(TestPki.TLCP_SERVER, "sign"),
                pki.tlcpKey(TestPki.TLCP_SERVER, "enc"));
        TlcpServerSettings base = new TlcpServerSettings().withCredentials(server)
                .withTrustAnchors(pki.caCertificates()).withHandshakeTimeoutMillis(10_000);
        pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "gmssl-lab-" + accepted.get());
            t.setDaemon(true);
            return t;
        });
        listen(ctx, TLCP_OFFSET, bgm.newServer(base.withProtocol(TlcpProtocol.TLCP)));
        listen(ctx, TLS13_OFFSET, bgm.newServer(base.withProtocol(TlcpProtocol.TLS13)));
        listen(ctx, TLCP_MTLS_OFFSET, bgm.newServer(base.withProtocol(TlcpProtocol.TLCP)
                .withClientAuth(TlcpServerSettings.ClientAuth.NEED)));

        String d = dir.toAbsolutePath().toString() + "/";
        props.put("gmssl.host", LabContext.HOST);
        props.put("gmssl.tlcp.port", String.valueOf(ctx.port(TLCP_OFFSET)));
        props.put("gmssl.tls13.port", String.valueOf(ctx.port(TLS13_OFFSET)));
        props.put("gmssl.tlcp.mtls.port", String.valueOf(ctx.port(TLCP_MTLS_OFFSET)));
        props.put("gmssl.ca.file", d + "ca-1.pem");
        props.put("gmssl.client.keystore", d + "tlcp-client.p12");
        props.put("gmssl.client.password", TestPki.PASSWORD);
        props.put("gmssl.client.sign.alias", "sign");
        props.put("gmssl.client.enc.alias", "enc");
        props.put("gmssl.client.expired.keystore", d + "tlcp-client-expired.p12");
        for (String party : new String[] {"client", "server"}) {
            for (String use : new String[] {"sign", "enc"}) {
                props.put("gmssl." + party + "." + use + ".cert", d + "tlcp-" + party + "-" + use + ".pem");
                props.put("gmssl." + party + "." + use + ".key", d + "tlcp-" + party + "-" + use + ".key");
            }
        }
        props.put("gmssl.pages", "/64b,/1k,/1m");
    }

    private void listen(LabContext ctx, int offset, TlcpServer server) throws Exception {
        int port = ctx.port(offset);
        ServerSocket ss;
        try {
            ss = server.bind(new InetSocketAddress(ctx.bindAddress(), port), 1024);
        } catch (TlcpException e) {
            if (e.getCause() instanceof BindException) {
                throw new EndpointInUseException(LabContext.HOST + ":" + port + " (gmssl)", e.getCause());
            }
            throw e;
        }
        listeners.add(ss);
        Thread acceptor = new Thread(() -> acceptLoop(ss, server), "gmssl-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptLoop(ServerSocket ss, TlcpServer server) {
        while (!closed) {
            Socket s;
            try {
                s = ss.accept();
            } catch (IOException e) {
                if (closed || ss.isClosed()) {
                    return;
                }
                continue;
            }
            accepted.incrementAndGet();
            open.add(s);
            try {
                pool.execute(() -> serve(s, server));
            } catch (RuntimeException e) {
                close(s);
            }
        }
    }

    private void serve(Socket s, TlcpServer server) {
        try {
            server.handshake(s);
            s.setSoTimeout(IDLE_TIMEOUT_MILLIS);
            InputStream in = new BufferedInputStream(s.getInputStream(), 8192);
            OutputStream out = s.getOutputStream();
            while (!closed) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                String[] line = head.substring(0, head.indexOf("\r\n") < 0 ? head.length() : head.indexOf("\r\n"))
                        .split(" ");
                boolean keepAlive = !head.toLowerCase(Locale.ROOT).contains("\r\nconnection: close");
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
        } catch (TlcpException | IOException e) {
            // a client that fails its handshake or goes away: nothing to answer
        } finally {
            close(s);
        }
    }

    /** The request head up to the blank line, or null when the client closed the connection first. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            b.append((char) c);
            int n = b.length();
            if (n >= 4 && b.charAt(n - 1) == '\n' && b.charAt(n - 2) == '\r' && b.charAt(n - 3) == '\n'
                    && b.charAt(n - 4) == '\r') {
                return b.toString();
            }
            if (n > 16 * 1024) {
                throw new SocketException("request header too long");
            }
        }
        return null;
    }

    /** Connections currently open (tests check that held connections are released). */
    public int openConnections() {
        return open.size();
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

    @Override
    public Map<String, String> properties() {
        return props;
    }

    @Override
    public void close() {
        closed = true;
        for (ServerSocket ss : listeners) {
            try {
                ss.close();
            } catch (IOException ignored) {
                // best effort
            }
        }
        listeners.clear();
        for (Socket s : open) {
            close(s);
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
