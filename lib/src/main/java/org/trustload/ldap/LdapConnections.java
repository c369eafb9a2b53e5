package org.trustload.ldap;

import com.unboundid.ldap.sdk.ResultCode;

import javax.net.ssl.SSLContext;
import java.io.Closeable;
import java.io.File;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The LDAP connections of one configuration for the length of a test: settings checked once, TLS
 * context built once, connections opened per iteration or kept one per thread, and every connection
 * still open closed by {@link #close()}. Thread-safe; each connection is used by one thread at a time.
 * Also the test's value patterns ({@link LdapValue}), one per text, shared by every thread.
 */
public final class LdapConnections implements Closeable, LdapValue.Source {

    /** When connections are opened. */
    public enum Mode {
        /** Connect, bind, operate and unbind within every sample (the reference script's way). */
        PER_ITERATION("per-iteration"),
        /** One connection per thread, bound once, reopened after a failure. */
        PER_THREAD("per-thread");

        private final String id;

        Mode(String id) {
            this.id = id;
        }

        /** The name used in properties. */
        public String id() {
            return id;
        }

        /** Parses {@code per-iteration} or {@code per-thread}; blank means per-iteration. */
        public static Mode parse(String text) throws LdapClientException {
            return Ids.parse(values(), Mode::id, text, PER_ITERATION, "connection mode", "connectionMode");
        }
    }

    private final LdapConnectionSettings settings;
    private final Mode mode;
    /** Options, address, socket factory and TLS context every connection shares (built once). */
    private final LdapClient.Endpoint endpoint;
    private final Set<LdapClient> open = ConcurrentHashMap.newKeySet();
    private final Map<Thread, LdapClient> perThread = new ConcurrentHashMap<>();
    /** Each thread's SDK request objects, kept across its connections (see {@link LdapClient.Requests}). */
    private final ThreadLocal<LdapClient.Requests> requests = ThreadLocal.withInitial(LdapClient.Requests::new);
    private final Map<String, LdapValue> patterns = new ConcurrentHashMap<>();
    private final Map<String, EntryRule> entryRules = new ConcurrentHashMap<>();
    /** Each thread's newest connection while it has had no answer yet ({@link #release}). */
    private final Map<Thread, LdapClient> unanswered = new ConcurrentHashMap<>();
    /** Each thread's pause before its next connect, after new connections the server closed unanswered. */
    private final Map<Thread, Long> backOff = new ConcurrentHashMap<>();
    /** Keeps UnboundID's write-timeout timer thread from being ended and restarted per connection. */
    private final WriteTimerPin timerPin;
    private volatile boolean closed;
    /**
     * Whether a connection of this test ever reached the server: a refusal after that is an outage, not a wrong
     * target.
     */
    private volatile boolean reached;

    private LdapConnections(LdapConnectionSettings settings, Mode mode, LdapClient.Endpoint endpoint) {
        this.settings = settings;
        this.mode = mode;
        this.endpoint = endpoint;
        this.timerPin = WriteTimerPin.acquire();
    }

    /**
     * Checks what can be checked before any connection and prepares what every connection shares:
     * the trust store is read and the TLS context built, the host name resolved (once: every connection
     * of the test uses that address), the ldapi socket found, the connection options and socket factories built.
     * Each failure is a configuration error naming the setting and the file.
     */
    public static LdapConnections start(LdapConnectionSettings s, Mode mode) throws LdapClientException {
        InetAddress address = null;
        if (s.scheme() == LdapScheme.LDAPI) {
            File socket = new File(s.socketPath());
            if (!socket.exists()) {
                throw LdapClientException.config("socketPath", socket.getPath(), "no such socket", null);
            }
        } else {
            try {
                address = InetAddress.getByName(s.host());
            } catch (UnknownHostException e) {
                throw LdapClientException.config("host", "", "unknown host '" + s.host() + "'", null);
            }
        }
        SSLContext tls = s.usesTls() ? LdapTls.create(s) : null;
        return new LdapConnections(s, mode, LdapClient.Endpoint.of(s, tls, address));
    }

    /** The settings every connection uses. */
    public LdapConnectionSettings settings() {
        return settings;
    }

    /** The connection mode. */
    public Mode mode() {
        return mode;
    }

    /**
     * The connection for the calling thread's next operation: per thread, the thread's open and bound
     * connection when it has one; otherwise a new one, bound unless {@code bind} is false (the bind
     * itself is the operation to time).
     */
    public LdapClient acquire(boolean bind) throws LdapClientException {
        if (closed) {
            throw LdapClientException.of(ResultCode.CONNECT_ERROR, "closed at test end", settings.target());
        }
        if (mode == Mode.PER_THREAD) {
            LdapClient current = perThread.get(Thread.currentThread());
            if (current != null && current.isConnected() && current.isBound()) {
                return current;
            }
            if (current != null) {
                discard(current);
            }
        }
        pauseBeforeConnect();
        LdapClient c;
        try {
            c = connect();
        } catch (LdapClientException e) {
            if (reached && !e.isRefusal()) {
                // ldaps behind a proxy whose server is down: the connect is accepted, the TLS handshake closed
                slowDown(Thread.currentThread());
            }
            throw e;
        }
        open.add(c);
        unanswered.put(Thread.currentThread(), c);
        try {
            if (bind) {
                c.bind();
            }
        } catch (LdapClientException e) {
            lost(c);
            discard(c);
            throw e;
        }
        if (mode == Mode.PER_THREAD) {
            perThread.put(Thread.currentThread(), c);
        }
        return c;
    }

    /**
     * Longest pause between two connects while the server refuses: about its restart time, well under a connect
     * timeout.
     */
    static final long MAX_RETRY_PAUSE_MS = 1000;
    /**
     * First pause between two connects while the server refuses; doubled each time up to {@link #MAX_RETRY_PAUSE_MS}.
     */
    static final long FIRST_RETRY_PAUSE_MS = 50;

    /**
     * Opens a connection. Once this test has reached the server, a refused connect (the port closed, the ldapi
     * socket gone: a server stopped or restarting) is tried again, with growing pauses, until the connect timeout
     * has passed since the first try; then the refusal is the sample's failure. A user's client waits for its
     * directory so, as a connection pool does; a thread that retried at once would fill the results with
     * thousands of refusals a second (16,581 in a 6-s slapd restart at 4 threads), an error rate that measures
     * how fast a port refuses rather than how long the outage lasted. Before the first success a refusal fails
     * at once: a wrong port or socket is a setting to fix, not an outage to wait out.
     */
    private LdapClient connect() throws LdapClientException {
        long deadline = System.nanoTime() + settings.connectTimeoutMs() * 1_000_000L;
        long pause = FIRST_RETRY_PAUSE_MS;
        while (true) {
            try {
                LdapClient c = LdapClient.connect(endpoint, requests.get());
                reached = true;
                return c;
            } catch (LdapClientException e) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000;
                if (!reached || closed || !e.isRefusal() || leftMs <= 0) {
                    throw e;
                }
                try {
                    Thread.sleep(Math.min(pause, leftMs));
                } catch (InterruptedException stop) {
                    Thread.currentThread().interrupt(); // the test is stopping
                    throw e;
                }
                pause = Math.min(pause * 2, MAX_RETRY_PAUSE_MS);
            }
        }
    }

    /**
     * Waits, before a thread's new connect, the pause its last new connections earned by being closed by the server
     * before any answer ({@link #lost}): a server behind a proxy or a load balancer that is down (restarting)
     * accepts each connect and closes it at once, which no refused connect shows. A thread that reconnected at
     * once would fail hundreds of times a second (1,537 in a 2-s slapd restart behind Toxiproxy at 2 threads), as
     * with refusals; a client's pool waits for its server instead. A connect that fails otherwise than refused once
     * the test reached the server (an ldaps handshake the proxy closes) earns the same pause. The pause grows like the
     * refusal's (50 ms, doubling, at most 1 s) and ends with the thread's first answer.
     */
    private void pauseBeforeConnect() {
        Long pause = backOff.get(Thread.currentThread());
        if (pause != null && !closed) {
            try {
                Thread.sleep(pause);
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt(); // the test is stopping: connect at once and let it end
            }
        }
    }

    /** Counts {@code c} as closed unanswered when it is the thread's new connection and the server closed it. */
    private void lost(LdapClient c) {
        Thread t = Thread.currentThread();
        if (unanswered.remove(t, c) && !c.isConnected()) {
            slowDown(t);
        }
    }

    /** Doubles the thread's pause before connects (the first: {@link #FIRST_RETRY_PAUSE_MS}), at most 1 s. */
    private void slowDown(Thread t) {
        backOff.merge(t, FIRST_RETRY_PAUSE_MS, (was, first) -> Math.min(was * 2, MAX_RETRY_PAUSE_MS));
    }

    /** Whether a connection of this test ever reached the server (then refusals are waited out: {@link #connect()}). */
    public boolean reachedServer() {
        return reached;
    }

    /** True when {@link #acquire} will reuse the calling thread's connection instead of opening one. */
    public boolean hasReusable() {
        if (mode != Mode.PER_THREAD) {
            return false;
        }
        LdapClient c = perThread.get(Thread.currentThread());
        return c != null && c.isConnected() && c.isBound();
    }

    /**
     * Hands a connection back after an operation: per iteration it is closed (the unbind is part of
     * the measured iteration); per thread it is kept unless {@code broken}. Not broken means the server answered:
     * that ends the thread's pause before connects ({@link #pauseBeforeConnect}).
     */
    public void release(LdapClient c, boolean broken) {
        if (broken) {
            lost(c);
        } else {
            Thread t = Thread.currentThread();
            unanswered.remove(t);
            backOff.remove(t);
        }
        if (mode == Mode.PER_ITERATION || broken || !c.isConnected()) {
            discard(c);
        }
    }

    /**
     * The value of {@code text} for this test: one pattern per text, shared by every thread and request that
     * uses it (a sequential range counts across threads).
     */
    @Override
    public LdapValue value(String property, String text) throws LdapClientException {
        LdapValue v = patterns.get(text);
        if (v == null) {
            v = LdapValue.of(property, text);
            LdapValue before = patterns.putIfAbsent(text, v);
            v = before == null ? v : before;
        }
        return v;
    }

    /**
     * The expected-entries rule of {@code search} (as written, before its patterns are drawn) for this test:
     * one per base, scope, filter and minimum, shared by every thread and request that searches the same, so
     * that what one thread found counts for all.
     */
    public EntryRule entryRule(LdapRequest search, int minEntries) {
        String key = search.scope() + "\0" + search.baseDn() + "\0" + search.filter() + "\0" + minEntries;
        return entryRules.computeIfAbsent(key, k -> new EntryRule(search, minEntries, settings.target()));
    }

    /** Closes the calling thread's connection (at thread end). */
    public void closeThread() {
        unanswered.remove(Thread.currentThread());
        backOff.remove(Thread.currentThread());
        requests.remove();
        LdapClient c = perThread.remove(Thread.currentThread());
        if (c != null) {
            discard(c);
        }
    }

    /** Closes a connection and forgets it. */
    public void discard(LdapClient c) {
        if (mode == Mode.PER_THREAD) {
            perThread.remove(Thread.currentThread(), c);
        }
        open.remove(c);
        c.close();
    }

    /** Connections opened and not yet closed. */
    public int openCount() {
        return open.size();
    }

    /** Closes every connection still open; later {@link #acquire} calls fail. */
    @Override
    public void close() {
        closed = true;
        for (LdapClient c : open) {
            c.close();
        }
        open.clear();
        perThread.clear();
        unanswered.clear();
        backOff.clear();
        timerPin.close();
    }

    /** True while UnboundID's write-timeout timer is held for this test (see {@link WriteTimerPin}). */
    boolean timerPinned() {
        return timerPin.active();
    }

    @Override
    public String toString() {
        return settings + " " + mode.id().toLowerCase(Locale.ROOT);
    }
}
