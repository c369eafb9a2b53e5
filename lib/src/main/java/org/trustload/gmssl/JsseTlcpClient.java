package org.trustload.gmssl;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * A {@link TlcpClient} over any JSSE-style provider's {@link SSLContext} (bgm and tongsuo-openjdk
 * both are): plain TCP connect first, so connect and handshake are timed apart, then the handshake
 * on the layered socket.
 */
public final class JsseTlcpClient implements TlcpClient {
    private final TlcpClientSettings settings;
    private final SSLSocketFactory factory;
    private final String[] protocols;
    private final String[] suites;
    private final UnaryOperator<String> protocolLabel;

    /**
     * @param context the engine's context, initialised with the key and trust managers
     * @param protocols the engine's names of the protocols to enable
     * @param suites the engine's names of the suites to enable
     * @param protocolLabel maps the engine's negotiated protocol name to {@link TlcpProtocol#label()}
     */
    public JsseTlcpClient(TlcpClientSettings settings, SSLContext context, String[] protocols, String[] suites,
            UnaryOperator<String> protocolLabel) {
        this.settings = settings;
        this.factory = context.getSocketFactory();
        this.protocols = protocols.clone();
        this.suites = suites.clone();
        this.protocolLabel = protocolLabel;
    }

    @Override
    public TlcpClientSettings settings() {
        return settings;
    }

    @Override
    public TlcpConnection connect(String host, int port) throws TlcpException {
        long startMillis = System.currentTimeMillis();
        long t0 = System.nanoTime();
        Socket tcp = new Socket();
        try {
            tcp.setTcpNoDelay(true);
            tcp.connect(new InetSocketAddress(host, port), settings.connectTimeoutMillis());
        } catch (IOException | IllegalArgumentException e) {
            closeQuietly(tcp);
            if (e instanceof IllegalArgumentException) {
                throw new TlcpException(TlcpException.CONFIG_ERROR, "bad address", host + ":" + port + ": " + e, e);
            }
            throw TlcpErrors.io(TlcpErrors.Phase.CONNECT, host, port, (IOException) e);
        }
        long t1 = System.nanoTime();
        SSLSocket ssl = null;
        try {
            tcp.setSoTimeout(settings.readTimeoutMillis());
            ssl = (SSLSocket) factory.createSocket(tcp, host, port, true);
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
        if (!session.isValid()) {
            // a failed handshake can leave an invalid null session without an exception
            closeQuietly(ssl);
            throw new TlcpException(TlcpException.HANDSHAKE_FAILED, "handshake failure", host + ":" + port, null);
        }
        boolean resumed = false;
        if (settings.sessionReuse()) {
            // a resumed session was created by an earlier connection
            resumed = session.getCreationTime() < startMillis;
        } else {
            // an invalidated session is never offered again: the next connection does a full handshake
            session.invalidate();
        }
        return new JsseConnection(ssl, protocolLabel.apply(session.getProtocol()), session.getCipherSuite(),
                resumed, t1 - t0, t2 - t1);
    }

    @Override
    public void close() {
        // nothing held beyond the context, which the garbage collector reclaims
    }

    static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException | RuntimeException ignored) {
                // closing is best effort
            }
        }
    }

    /** A handshaken JSSE socket. */
    static final class JsseConnection implements TlcpConnection {
        private final SSLSocket socket;
        private final String protocol;
        private final String suite;
        private final boolean resumed;
        private final long connectNanos;
        private final long handshakeNanos;
        private final InputStream in;
        private final OutputStream out;

        JsseConnection(SSLSocket socket, String protocol, String suite, boolean resumed, long connectNanos,
                long handshakeNanos) throws TlcpException {
            this.socket = socket;
            this.protocol = protocol;
            this.suite = suite;
            this.resumed = resumed;
            this.connectNanos = connectNanos;
            this.handshakeNanos = handshakeNanos;
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
        public String protocol() {
            return protocol;
        }

        @Override
        public String cipherSuite() {
            return suite;
        }

        @Override
        public boolean resumed() {
            return resumed;
        }

        @Override
        public long connectNanos() {
            return connectNanos;
        }

        @Override
        public long handshakeNanos() {
            return handshakeNanos;
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
