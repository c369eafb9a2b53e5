package org.trustload.gmssl;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.trustload.common.Closeables;

/** What every engine's {@link TlcpConnection} records about its opening, and the TCP connect they share. */
public abstract class AbstractTlcpConnection implements TlcpConnection {
    private final String protocol;
    private final String suite;
    private final boolean resumed;
    private final long connectNanos;
    private final long handshakeNanos;

    protected AbstractTlcpConnection(String protocol, String suite, boolean resumed, long connectNanos,
            long handshakeNanos) {
        this.protocol = protocol;
        this.suite = suite;
        this.resumed = resumed;
        this.connectNanos = connectNanos;
        this.handshakeNanos = handshakeNanos;
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

    /**
     * A TCP connection to {@code host:port} with Nagle off (a handshake flight is several writes), or
     * the connect failure as a {@link TlcpException}; the socket is closed on failure.
     */
    public static Socket connectTcp(String host, int port, int timeoutMillis) throws TlcpException {
        Socket tcp = new Socket();
        try {
            tcp.setTcpNoDelay(true);
            tcp.connect(new InetSocketAddress(host, port), timeoutMillis);
            return tcp;
        } catch (IOException | IllegalArgumentException e) {
            Closeables.closeQuietly(tcp);
            if (e instanceof IllegalArgumentException) {
                throw new TlcpException(TlcpException.CONFIG_ERROR, "bad address", host + ":" + port + ": " + e, e);
            }
            throw TlcpErrors.io(TlcpErrors.Phase.CONNECT, host, port, (IOException) e);
        }
    }
}
