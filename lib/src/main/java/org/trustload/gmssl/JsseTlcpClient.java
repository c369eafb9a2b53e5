package org.trustload.gmssl;

import static org.trustload.common.Closeables.closeQuietly;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

/**
 * A {@link TlcpClient} over any JSSE-style provider's {@link SSLContext} (bgm and tongsuo-openjdk both are):
 * plain TCP connect first, so connect and handshake are timed apart, then the handshake on the layered socket.
 * Without session reuse each handshake borrows a context of its own from a pool, so no other thread can
 * resume its session; why (issue 16): docs/scenarios/gmssl.md, "Fixed on 2026-11-24: handshake failures
 * that were not there".
 */
public final class JsseTlcpClient implements TlcpClient {

    /** Builds a new context of the engine, initialised with the key and trust managers. */
    @FunctionalInterface
    public interface ContextFactory {
        SSLContext newContext() throws TlcpException;
    }

    private final TlcpClientSettings settings;
    private final ContextFactory contexts;
    /** The context every connection uses with session reuse on; null without. */
    private final SSLContext shared;
    /** Idle contexts without session reuse, each lent to one handshake at a time. */
    private final Deque<SSLContext> idle = new ConcurrentLinkedDeque<>();
    private final String[] protocols;
    private final String[] suites;
    private final UnaryOperator<String> protocolLabel;

    /**
     * @param contexts builds the engine's contexts (one shared with session reuse, one per concurrent
     *     handshake without)
     * @param protocols the engine's names of the protocols to enable
     * @param suites the engine's names of the suites to enable
     * @param protocolLabel maps the engine's negotiated protocol name to {@link TlcpProtocol#label()}
     */
    public JsseTlcpClient(TlcpClientSettings settings, ContextFactory contexts, String[] protocols, String[] suites,
            UnaryOperator<String> protocolLabel) throws TlcpException {
        this.settings = settings;
        this.contexts = contexts;
        this.protocols = protocols.clone();
        this.suites = suites.clone();
        this.protocolLabel = protocolLabel;
        // built now: a bad configuration fails here, not in the first connection
        SSLContext first = contexts.newContext();
        if (settings.sessionReuse()) {
            shared = first;
        } else {
            shared = null;
            idle.push(first);
        }
    }

    @Override
    public TlcpClientSettings settings() {
        return settings;
    }

    @Override
    public TlcpConnection connect(String host, int port) throws TlcpException {
        if (shared != null) {
            return connect(shared, host, port);
        }
        SSLContext context = idle.poll();
        if (context == null) {
            context = contexts.newContext();
        }
        try {
            return connect(context, host, port);
        } finally {
            // its session, if any, is invalidated by now: the next handshake on it starts afresh
            idle.push(context);
        }
    }

    /** Builds the contexts of this client (tests). */
    public ContextFactory contextFactory() {
        return contexts;
    }

    /** Contexts built so far without session reuse (at most the number of concurrent handshakes). */
    public int pooledContexts() {
        return idle.size();
    }

    private TlcpConnection connect(SSLContext context, String host, int port) throws TlcpException {
        long startMillis = System.currentTimeMillis();
        long t0 = System.nanoTime();
        Socket tcp = AbstractTlcpConnection.connectTcp(host, port, settings.connectTimeoutMillis());
        long t1 = System.nanoTime();
        SSLSocket ssl = null;
        try {
            tcp.setSoTimeout(settings.readTimeoutMillis());
            ssl = (SSLSocket) context.getSocketFactory().createSocket(tcp, host, port, true);
            ssl.setUseClientMode(true);
            ssl.setEnabledProtocols(protocols);
            ssl.setEnabledCipherSuites(suites);
            if (settings.serverName() != null && !settings.serverName().isEmpty()) {
                SSLParameters p = ssl.getSSLParameters();
                p.setServerNames(java.util.List.of(new javax.net.ssl.SNIHostName(settings.serverName())));
                ssl.setSSLParameters(p);
            }
            ssl.startHandshake();
        } catch (IOException | RuntimeException e) {
            closeQuietly(ssl != null ? ssl : tcp);
            closeQuietly(tcp);
            if (e instanceof RuntimeException && !(e.getCause() instanceof IOException)) {
                // providers throw IllegalArgumentException for suites or protocols they do not know
                throw new TlcpException(TlcpException.CONFIG_ERROR, "engine refused the settings",
                        TlcpErrors.chain(e), e);
            }
            throw TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, host + ":" + port, e);
        }
        long t2 = System.nanoTime();
        SSLSession session = ssl.getSession();
        if (!session.isValid() && noSession(session)) {
            // a failed handshake can leave the invalid null session without an exception. An invalid
            // session with a suite is not a failure: isValid() only says whether the session may still
            // be resumed, and the connection that negotiated it works (SSLSession.invalidate()).
            closeQuietly(ssl);
            throw noSession(host + ":" + port, session);
        }
        // a resumed session was created by an earlier connection (never without session reuse: no
        // other handshake can see this context's sessions)
        boolean resumed = createdBefore(session.getCreationTime(), startMillis);
        if (!settings.sessionReuse()) {
            // an invalidated session is never offered again: the next connection does a full handshake
            session.invalidate();
        }
        return new JsseConnection(ssl, protocolLabel.apply(session.getProtocol()), session.getCipherSuite(),
                resumed, t1 - t0, t2 - t1);
    }

    /**
     * Whether a session created at {@code created} predates a connection started at {@code startMillis}.
     * tongsuo-openjdk reports creation times in whole seconds (OpenSSL's session time × 1000), so a
     * session made by this very handshake looks up to 999 ms older: a whole-second time is compared
     * with the start's whole second.
     */
    static boolean createdBefore(long created, long startMillis) {
        return created % 1000 == 0 ? created < startMillis - startMillis % 1000 : created < startMillis;
    }

    /** True for the null session a handshake that negotiated nothing leaves behind. */
    static boolean noSession(SSLSession session) {
        // not the session id: a server without a session cache sends an empty one, and such a
        // session, never resumable, is never "valid" either
        String suite = session.getCipherSuite();
        return suite == null || suite.endsWith("_NULL_WITH_NULL_NULL");
    }

    /** The failure for a handshake that returned without an exception but negotiated no session. */
    static TlcpException noSession(String target, SSLSession session) {
        return new TlcpException(TlcpException.HANDSHAKE_FAILED, "handshake failure: no session negotiated",
                target + ": the handshake returned without an exception but left the session " + session.getProtocol()
                + " " + session.getCipherSuite()
                + " (the server closed the connection or the engine dropped the error)",
                null);
    }

    @Override
    public void close() {
        // nothing held beyond the contexts, which the garbage collector reclaims
        idle.clear();
    }

    /** A handshaken JSSE socket. */
    static final class JsseConnection extends AbstractTlcpConnection {
        private final SSLSocket socket;
        private final InputStream in;
        private final OutputStream out;

        JsseConnection(SSLSocket socket, String protocol, String suite, boolean resumed, long connectNanos,
                long handshakeNanos) throws TlcpException {
            super(protocol, suite, resumed, connectNanos, handshakeNanos);
            this.socket = socket;
            try {
                this.in = socket.getInputStream();
                this.out = socket.getOutputStream();
            } catch (IOException e) {
                closeQuietly(socket);
                throw TlcpErrors.map(TlcpErrors.Phase.EXCHANGE, String.valueOf(socket.getRemoteSocketAddress()), e);
            }
        }

        @Override
        public InputStream input() {
            return in;
        }

        @Override
        public OutputStream output() {
            return out;
        }

        @Override
        public boolean isClosed() {
            return socket.isClosed();
        }

        @Override
        public void close() {
            closeQuietly(socket);
        }
    }
}
