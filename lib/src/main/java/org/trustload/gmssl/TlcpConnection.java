package org.trustload.gmssl;

import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;

/** One handshaken GM-SSL connection with what it negotiated and what its opening cost. */
public interface TlcpConnection extends Closeable {

    /** Application data from the peer. */
    InputStream input();

    /** Application data to the peer. */
    OutputStream output();

    /** The negotiated protocol as a name users recognise: {@code TLCP} or {@code TLSv1.3}. */
    String protocol();

    /** The negotiated suite, as named in {@link TlcpSuite} when known to it, else the engine's name. */
    String cipherSuite();

    /** True when the handshake resumed an earlier session. */
    boolean resumed();

    /** Nanoseconds the TCP connect took. */
    long connectNanos();

    /** Nanoseconds the handshake took (after the TCP connect). */
    long handshakeNanos();

    /** True once {@link #close()} ran or the peer closed the connection. */
    boolean isClosed();

    /** Closes the connection (close_notify when possible) without throwing. */
    @Override
    void close();
}
