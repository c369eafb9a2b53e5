package org.trustload.gmssl;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared client of one TLCP Client Config for one test: the engine's {@link TlcpClient} for one
 * server, and every connection its {@link TlcpWorker}s keep open between samples (throughput and hold
 * modes). Thread-safe. {@link #close()} closes them all, including those of threads that never
 * finished (a stopped test), then the client.
 */
public final class TlcpTarget implements AutoCloseable {
    private final TlcpClient client;
    private final String host;
    private final int port;
    private final String engine;
    /** Connections kept between samples, by any worker. */
    private final Set<TlcpConnection> kept = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    /** Whether any worker of this test completed a handshake: a refusal after that is an outage, not a wrong target. */
    private volatile boolean reached;

    /**
     * @param client the engine's client; closed with this target
     * @param engine the engine's name, for {@link #describe()}
     */
    public TlcpTarget(TlcpClient client, String host, int port, String engine) {
        this.client = client;
        this.host = host;
        this.port = port;
        this.engine = engine;
    }

    /** True once a worker of this test completed a handshake with the server. */
    public boolean reached() {
        return reached;
    }

    void markReached() {
        reached = true;
    }

    /** A new per-thread mode machine on this target. */
    public TlcpWorker worker() {
        return new TlcpWorker(this);
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** The settings the client was built with. */
    public TlcpClientSettings settings() {
        return client.settings();
    }

    /** Connections kept open right now (throughput and hold modes). */
    public int keptConnections() {
        return kept.size();
    }

    /** What the request tab shows: engine-independent settings, never a key or password. */
    public String describe() {
        TlcpClientSettings s = client.settings();
        return "target: " + host + ":" + port + "\nengine: " + engine + "\nprotocol: " + s.protocol().label()
                + "\nsuite: " + s.suites().get(0) + "\nclient certificates: "
                + (s.credentials() == null ? "none" : "yes")
                + "\nsession reuse: " + s.sessionReuse() + "\nclient crypto: " + s.clientCrypto().id() + "\n";
    }

    /** Opens a new connection (connect + handshake). */
    TlcpConnection connect() throws TlcpException {
        if (closed) {
            throw new TlcpException(TlcpException.IO_ERROR, "test ended",
                    host + ":" + port + ": the client is closed", null);
        }
        return client.connect(host, port);
    }

    /** Tracks a connection kept after its sample; closes it at once when the target is already closed. */
    void keep(TlcpConnection c) {
        kept.add(c);
        if (closed && kept.remove(c)) {
            c.close();
        }
    }

    /** Closes a connection this target kept. */
    void release(TlcpConnection c) {
        kept.remove(c);
        c.close();
    }

    /** Closes every kept connection and the client. Idempotent. */
    @Override
    public void close() {
        closed = true;
        for (TlcpConnection c : kept) {
            release(c);
        }
        client.close();
    }
}
