package org.trustload.testing;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One Toxiproxy proxy ({@link Toxiproxy#proxy}) between a client and a server on loopback, with the faults a
 * network gives a load test, each named after the Toxiproxy toxic it adds. Faults apply to the server's answers
 * (Toxiproxy's downstream) unless said otherwise; several can be active at once; {@link #heal()} removes them
 * all and restores the link. Not thread-safe: one test drives it.
 */
public final class FaultProxy {

    private static final ToxicDirection DOWN = ToxicDirection.DOWNSTREAM;

    private final Proxy proxy;
    private final int port;
    private final String upstream;
    private int toxics;

    FaultProxy(Proxy proxy, int port) {
        this.proxy = proxy;
        this.port = port;
        this.upstream = proxy.getUpstream();
    }

    /** The port clients connect to (127.0.0.1). */
    public int port() {
        return port;
    }

    public String host() {
        return "127.0.0.1";
    }

    /** Every answer delayed by {@code ms}, ± {@code jitterMs} at random. */
    public FaultProxy latency(long ms, long jitterMs) {
        return io(() -> proxy.toxics().latency(name("latency"), DOWN, ms).setJitter(jitterMs));
    }

    /** Answers at most {@code kilobytesPerSecond} KB/s. */
    public FaultProxy bandwidth(long kilobytesPerSecond) {
        return io(() -> proxy.toxics().bandwidth(name("bandwidth"), DOWN, kilobytesPerSecond));
    }

    /**
     * The server's answers held: no data reaches the client, and after {@code ms} the connection is closed
     * (0: held until the fault is removed). The connection stays open: a hung server as the client sees it.
     */
    public FaultProxy timeout(long ms) {
        return io(() -> proxy.toxics().timeout(name("timeout"), DOWN, ms));
    }

    /** Connections reset (TCP RST) after {@code ms} (0: at once, as data arrives). */
    public FaultProxy resetPeer(long ms) {
        return io(() -> proxy.toxics().resetPeer(name("reset"), DOWN, ms));
    }

    /** Answers cut into packets of about {@code averageBytes} (± {@code variationBytes}), {@code delayMicros} apart. */
    public FaultProxy slicer(long averageBytes, long variationBytes, long delayMicros) {
        return io(() -> proxy.toxics().slicer(name("slicer"), DOWN, averageBytes, delayMicros)
                .setSizeVariation(variationBytes));
    }

    /** Each connection closed once {@code bytes} of answer have passed. */
    public FaultProxy limitData(long bytes) {
        return io(() -> proxy.toxics().limitData(name("limit"), DOWN, bytes));
    }

    /**
     * The link cut: the proxy stops listening (new connections are refused) and closes the open ones, as a
     * server killed or a port closed does.
     */
    public FaultProxy cut() {
        return io(proxy::disable);
    }

    /**
     * Forwards new connections to {@code host:port} from now on (e.g. a {@link FaultServer}); the open ones are
     * closed. The link is cut while the upstream changes: Toxiproxy restarts an enabled proxy's listener for it and
     * waits for its links (measured: 25 s per call with LDAP connections held open, then an error).
     */
    public FaultProxy upstream(String host, int port) {
        return io(() -> {
            proxy.disable();
            proxy.setUpstream(host + ":" + port);
            proxy.enable();
        });
    }

    /**
     * Every toxic removed, the link up again and pointed at its first upstream (switched back as {@link #upstream}).
     */
    public FaultProxy heal() {
        return io(() -> {
            for (Toxic t : proxy.toxics().getAll()) {
                t.remove();
            }
            if (!proxy.getUpstream().equals(upstream)) {
                proxy.disable();
                proxy.setUpstream(upstream);
            }
            proxy.enable(); // idempotent
        });
    }

    private String name(String kind) {
        return kind + "-" + (++toxics);
    }

    /** One call of Toxiproxy's API. */
    @FunctionalInterface
    private interface Call {
        void call() throws IOException;
    }

    private FaultProxy io(Call c) {
        try {
            c.call();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException("toxiproxy refused a call on " + proxy.getName(), e);
        }
    }

    @Override
    public String toString() {
        return "FaultProxy[127.0.0.1:" + port + " -> " + upstream + "]";
    }
}
