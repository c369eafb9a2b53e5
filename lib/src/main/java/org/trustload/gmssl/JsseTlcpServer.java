package org.trustload.gmssl;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

/** A {@link TlcpServer} over a JSSE-style provider's {@link SSLContext}. */
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
    public ServerSocket bind(InetSocketAddress address, int backlog) throws TlcpException {
        try {
            SSLServerSocket s = (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
            s.setReuseAddress(true);
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
            s.bind(address, backlog);
            return s;
        } catch (IOException e) {
            throw new TlcpException(TlcpException.CONNECT_ERROR, "cannot listen on " + address, TlcpErrors.chain(e), e);
        } catch (IllegalArgumentException e) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "engine refused the settings", TlcpErrors.chain(e), e);
        }
    }

    @Override
    public String handshake(Socket accepted) throws TlcpException {
        SSLSocket s = (SSLSocket) accepted;
        try {
            s.setSoTimeout(settings.handshakeTimeoutMillis());
            s.startHandshake();
        } catch (IOException e) {
            throw TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, String.valueOf(accepted.getRemoteSocketAddress()), e);
        }
        SSLSession session = s.getSession();
        if (!session.isValid() && "SSL_NULL_WITH_NULL_NULL".equals(session.getCipherSuite())) {
            throw new TlcpException(TlcpException.HANDSHAKE_FAILED, "handshake failure: no session negotiated",
                    accepted.getRemoteSocketAddress() + ": handshake returned without an exception but with session "
                    + session.getCipherSuite() + " (the client closed or sent no acceptable hello)", null);
        }
        return protocolLabel.apply(session.getProtocol()) + " " + session.getCipherSuite();
    }

    @Override
    public void close() {
        // the caller closes the server sockets it bound
    }
}
