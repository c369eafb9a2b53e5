package org.trustload.gmssl;

import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * The server side of an engine. {@link #bind} returns a listening socket whose accepted sockets
 * speak GM-SSL: the handshake runs on their first read or write (or on {@link #handshake}).
 */
public interface TlcpServer extends AutoCloseable {

    /** Listens on {@code address} (loopback in the lab). */
    ServerSocket bind(InetSocketAddress address, int backlog) throws TlcpException;

    /**
     * Runs the handshake of an accepted socket now, so failures surface before HTTP parsing, and
     * returns the negotiated protocol and suite as {@code "<protocol> <suite>"}.
     */
    String handshake(java.net.Socket accepted) throws TlcpException;

    @Override
    void close();
}
