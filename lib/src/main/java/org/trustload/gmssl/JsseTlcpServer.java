package org.trustload.gmssl;

import static org.trustload.common.Closeables.closeQuietly;

import java.io.IOException;
import java.net.Socket;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

/**
 * A {@link TlcpServer} over a JSSE-style provider's {@link SSLContext} (bgm, tongsuo): the provider's
 * socket is layered over the accepted TCP socket in server mode, with the bytes a dispatcher already
 * read replayed first ({@link ReplaySocket}).
 */
public final class JsseTlcpServer implements TlcpServer {
    private final TlcpServerSettings settings;
    private final SSLContext context;
    private final String[] protocols;
    private final String[] suites;
    private final UnaryOperator<String> protocolLabel;

    /** See {@link JsseTlcpClient#JsseTlcpClient} for the parameters. */
    public JsseTlcpServer(TlcpServerSettings settings, SSLContext context, String[] protocols, String[] suites,
            UnaryOperator<String> protocolLabel) {
        this.settings = settings;
        this.context = context;
        this.protocols = protocols.clone();
        this.suites = suites.clone();
        this.protocolLabel = protocolLabel;
    }

    @Override
    public TlcpProtocol protocol() {
        return settings.protocol();
    }

    @Override
    public TlcpConnection accept(Socket socket, byte[] consumed) throws TlcpException {
        String peer = String.valueOf(socket.getRemoteSocketAddress());
        long t0 = System.nanoTime();
        SSLSocket s = null;
        try {
            Socket layer = consumed.length == 0 ? socket : new ReplaySocket(socket, consumed);
            s = (SSLSocket) context.getSocketFactory().createSocket(layer, socket.getInetAddress().getHostAddress(),
                    socket.getPort(), true);
            s.setUseClientMode(false);
            s.setEnabledProtocols(protocols);
            s.setEnabledCipherSuites(suites);
            switch (settings.clientAuth()) {
                case NEED:
                    s.setNeedClientAuth(true);
                    break;
                case WANT:
                    s.setWantClientAuth(true);
                    break;
                default:
                    s.setNeedClientAuth(false);
            }
            s.setSoTimeout(settings.handshakeTimeoutMillis());
            s.startHandshake();
        } catch (IOException | RuntimeException e) {
            closeQuietly(s);
            closeQuietly(socket);
            if (e instanceof IllegalArgumentException) {
                throw new TlcpException(TlcpException.CONFIG_ERROR, "engine refused the settings",
                        TlcpErrors.chain(e), e);
            }
            throw TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, peer, e);
        }
        SSLSession session = s.getSession();
        if (!session.isValid() && JsseTlcpClient.noSession(session)) {
            closeQuietly(s);
            throw new TlcpException(TlcpException.HANDSHAKE_FAILED, "handshake failure: no session negotiated",
                    peer + ": handshake returned without an exception but with session " + session.getCipherSuite()
                    + " (the client closed or sent no acceptable hello)", null);
        }
        return new JsseTlcpClient.JsseConnection(s, protocolLabel.apply(session.getProtocol()),
                session.getCipherSuite(),
                false, 0, System.nanoTime() - t0);
    }

    @Override
    public void close() {
        // nothing held beyond the context
    }
}
