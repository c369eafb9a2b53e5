package org.trustload.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.trustload.common.Closeables;

/**
 * A server on 127.0.0.1 that misbehaves on purpose, for the fault tests: one that accepts and never answers
 * ({@link #silent()}), one that answers every request with garbage of a given protocol ({@link #answering}; the
 * answers are in {@link Garbage}), and one whose connects are never completed ({@link #blackhole()}: its accept
 * queue is full, so the kernel drops new SYNs silently and a client's connect times out, as behind a firewall
 * that drops packets). Point a plan at it directly, or a {@link FaultProxy} at it mid-run.
 */
public final class FaultServer implements AutoCloseable {

    /** Per-protocol answers that are not what the client asked for. */
    public static final class Garbage {
        private Garbage() {
        }

        /** A BER SEQUENCE where an LDAPMessage's protocol operation should be: a decoding error. */
        public static final byte[] LDAP = {0x30, 0x05, 0x02, 0x01, 0x01, 0x04, 0x00};

        /** A TLS handshake record (TLS 1.2 record version) whose body is no handshake message. */
        public static final byte[] TLS_RECORD = {0x16, 0x03, 0x03, 0x00, 0x04, (byte) 0xde, (byte) 0xad, (byte) 0xbe,
                (byte) 0xef};

        /** A TLCP handshake record (version 1.1, GM/T 0024) whose body is no handshake message. */
        public static final byte[] TLCP_RECORD = {0x16, 0x01, 0x01, 0x00, 0x04, (byte) 0xde, (byte) 0xad, (byte) 0xbe,
                (byte) 0xef};

        /** HTTP 200 with {@code body} as {@code contentType}, the connection closed after it. */
        public static byte[] http(int status, String contentType, byte[] body) {
            String head = "HTTP/1.1 " + status + " Garbage\r\nContent-Type: " + contentType + "\r\nContent-Length: "
                    + body.length + "\r\nConnection: close\r\n\r\n";
            byte[] h = head.getBytes(StandardCharsets.US_ASCII);
            byte[] out = new byte[h.length + body.length];
            System.arraycopy(h, 0, out, 0, h.length);
            System.arraycopy(body, 0, out, h.length, body.length);
            return out;
        }

        /** HTTP 200, {@code application/json}, a JSON text that is not the API's answer (or no JSON at all). */
        public static byte[] json(String text) {
            return http(200, "application/json", text.getBytes(StandardCharsets.UTF_8));
        }

        /** HTTP 200, {@code application/timestamp-reply}, bytes that are no TimeStampResp. */
        public static final byte[] RFC3161 = http(200, "application/timestamp-reply", new byte[] {0x30, 0x03, 0x02,
                0x01, 0x07});
    }

    private enum Mode { SILENT, ANSWER, BLACKHOLE }

    private final ServerSocket server;
    private final Mode mode;
    private final byte[] answer;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final List<Socket> filler = new ArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final Thread acceptor;
    private volatile boolean closed;

    private FaultServer(Mode mode, byte[] answer) {
        this.mode = mode;
        this.answer = answer;
        int port = FixturePorts.free("127.0.0.1");
        try {
            // a backlog of 1: the blackhole fills it; the others accept at once
            server = new ServerSocket(port, mode == Mode.BLACKHOLE ? 1 : 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (mode == Mode.BLACKHOLE) {
            fillBacklog();
            acceptor = null;
        } else {
            acceptor = new Thread(this::acceptLoop, "fault-server-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
        }
    }

    /** Accepts connections, reads what arrives, never answers, never closes. */
    public static FaultServer silent() {
        return new FaultServer(Mode.SILENT, null);
    }

    /** Accepts connections and answers the first bytes of each with {@code answer}, then closes it. */
    public static FaultServer answering(byte[] answer) {
        return new FaultServer(Mode.ANSWER, answer.clone());
    }

    /** A port whose connects never complete: the kernel drops the SYNs (a full accept queue). */
    public static FaultServer blackhole() {
        return new FaultServer(Mode.BLACKHOLE, null);
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far (none for a blackhole). */
    public int accepted() {
        return accepted.get();
    }

    private void fillBacklog() {
        // Linux queues backlog + 1 connections; after that a connect waits for a SYN/ACK that never comes
        for (int i = 0; i < 16; i++) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port()), 300);
                filler.add(s);
            } catch (SocketTimeoutException full) {
                Closeables.closeQuietly(s);
                return;
            } catch (IOException e) {
                Closeables.closeQuietly(s);
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("the accept queue of port " + port() + " never filled");
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted.incrementAndGet();
            open.add(s);
            Thread t = new Thread(() -> serve(s), "fault-server-conn");
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket s) {
        try (InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            byte[] buf = new byte[16384];
            int n = in.read(buf);
            if (mode == Mode.ANSWER && n > 0) {
                out.write(answer);
                out.flush();
                return;
            }
            while (n >= 0 && !closed) {
                n = in.read(buf); // silent: read and drop until the client gives up
            }
        } catch (IOException gone) {
            // the client went away
        } finally {
            open.remove(s);
            Closeables.closeQuietly(s);
        }
    }

    @Override
    public void close() {
        closed = true;
        Closeables.closeQuietly(server);
        open.forEach(Closeables::closeQuietly);
        filler.forEach(Closeables::closeQuietly);
    }

    @Override
    public String toString() {
        return "FaultServer[" + mode + " 127.0.0.1:" + port() + "]";
    }
}
