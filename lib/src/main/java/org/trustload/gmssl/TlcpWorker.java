package org.trustload.gmssl;

import java.util.ArrayList;
import java.util.List;

/**
 * The TLCP mode machine of one thread ({@link TlcpMode}): {@link #run} takes a sample through three
 * named steps — {@link #open} a connection (a new one, or the thread's kept one in throughput mode),
 * {@link #exchange} (the GET of the modes that fetch a page), {@link #settle} (close it, keep it for
 * the next sample, or hold it) — and returns what happened. Not thread-safe: one per thread. Kept and
 * held connections are registered with the {@link TlcpTarget}, which closes them at test end even
 * when the thread never finished.
 */
public final class TlcpWorker implements AutoCloseable {
    private final TlcpTarget target;
    /** The kept-alive connection of throughput mode, or null. */
    private TlcpHttp kept;
    private final List<TlcpConnection> held = new ArrayList<>();
    private volatile TlcpConnection inFlight;
    private boolean reached;

    TlcpWorker(TlcpTarget target) {
        this.target = target;
    }

    /** The target this worker samples. */
    public TlcpTarget target() {
        return target;
    }

    /**
     * True once this thread, or another of the test, completed a handshake with the server: a later refusal is an
     * outage or load, not a wrong target (a thread that starts during an outage must not stop for good).
     */
    public boolean reached() {
        return reached || target.reached();
    }

    /** Connections this thread holds (hold mode). */
    public int held() {
        return held.size();
    }

    /**
     * One sample: open, exchange, settle. On failure the connection is closed (a kept one too) and
     * the next sample starts afresh.
     *
     * @param path the page to GET in the modes that fetch one
     */
    public TlcpOutcome run(TlcpMode mode, String path) throws TlcpException {
        Step step = open(mode);
        boolean done = false;
        try {
            TlcpHttp.Response response = mode.fetches() ? exchange(step, mode, path) : null;
            settle(step, mode, response);
            done = true;
            TlcpConnection c = step.http.connection();
            return new TlcpOutcome(mode, step.fresh, c.protocol(), c.cipherSuite(), c.resumed(),
                    step.fresh ? c.connectNanos() : 0, step.fresh ? c.handshakeNanos() : 0, response,
                    mode == TlcpMode.HOLD ? held.size() : 0);
        } finally {
            inFlight = null;
            if (!done) {
                drop(step.http);
            }
        }
    }

    /** The connection a sample works on: the connection and whether this sample opened it. */
    private static final class Step {
        final TlcpHttp http;
        final boolean fresh;

        Step(TlcpHttp http, boolean fresh) {
            this.http = http;
            this.fresh = fresh;
        }
    }

    /** Step 1: the thread's kept connection (throughput), else a new connection and handshake. */
    private Step open(TlcpMode mode) throws TlcpException {
        if (!mode.alwaysNew() && kept != null && !kept.connection().isClosed()) {
            inFlight = kept.connection();
            return new Step(kept, false);
        }
        if (kept != null) {
            drop(kept);
        }
        TlcpConnection c = target.connect();
        inFlight = c;
        reached = true;
        target.markReached();
        return new Step(new TlcpHttp(c), true);
    }

    /** Step 2: {@code GET path}, keep-alive in throughput mode, {@code Connection: close} otherwise. */
    private TlcpHttp.Response exchange(Step step, TlcpMode mode, String path) throws TlcpException {
        return step.http.get(target.host(), path, mode == TlcpMode.THROUGHPUT);
    }

    /** Step 3: keep the connection for the next sample, hold it, or close it. */
    private void settle(Step step, TlcpMode mode, TlcpHttp.Response response) {
        TlcpConnection c = step.http.connection();
        if (mode == TlcpMode.HOLD) {
            held.add(c);
            target.keep(c);
        } else if (mode == TlcpMode.THROUGHPUT && response != null && response.keepAlive()) {
            if (step.fresh) {
                kept = step.http;
                target.keep(c);
            }
        } else {
            if (kept == step.http) {
                kept = null;
            }
            target.release(c);
        }
    }

    private void drop(TlcpHttp http) {
        if (kept == http) {
            kept = null;
        }
        target.release(http.connection());
    }

    /** Stop Test Now: closes the connection in use so a blocked read returns at once. */
    public boolean interrupt() {
        TlcpConnection c = inFlight;
        if (c != null) {
            c.close();
            return true;
        }
        return false;
    }

    /** Thread end: closes the kept and the held connections. */
    @Override
    public void close() {
        if (kept != null) {
            drop(kept);
        }
        for (TlcpConnection c : held) {
            target.release(c);
        }
        held.clear();
    }
}
