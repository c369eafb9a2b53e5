package org.trustload.gmssl;

/**
 * Opens connected, handshaken GM-SSL connections. Thread-safe: one client serves every thread of a
 * test. Close it at the end of the test.
 */
public interface TlcpClient extends AutoCloseable {

    /**
     * TCP connect (connect timeout) then a full or — with session reuse on — possibly abbreviated
     * handshake (read timeout). Never returns a half-open connection: on failure the socket is closed.
     *
     * @throws TlcpException {@link TlcpException#CONNECT_ERROR}, {@link TlcpException#TIMEOUT},
     *     {@link TlcpException#HANDSHAKE_FAILED}
     */
    TlcpConnection connect(String host, int port) throws TlcpException;

    /** The settings the client was built with. */
    TlcpClientSettings settings();

    @Override
    void close();
}
