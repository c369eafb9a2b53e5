package org.trustload.gmssl;

import java.net.Socket;

/**
 * The server side of an engine for one protocol. The caller listens and accepts plain TCP sockets
 * (one port may serve several protocols, as Tongsuo's {@code enable_ntls} does: the first bytes of the
 * client's hello tell TLCP from TLS, see {@link TlcpProtocol#ofRecordHeader}); {@link #accept} then
 * runs the handshake on one of them.
 */
public interface TlcpServer extends AutoCloseable {

    /** The protocol this server speaks. */
    TlcpProtocol protocol();

    /**
     * Runs the server side of a handshake on an accepted TCP socket and returns the connection. On
     * failure the socket is closed.
     *
     * @param consumed bytes a dispatcher already read from the socket (the start of the client's first
     *     record), replayed before the socket's own
     */
    TlcpConnection accept(Socket socket, byte[] consumed) throws TlcpException;

    @Override
    void close();
}
