package org.trustload.ldap;

import com.unboundid.ldap.sdk.BindRequest;
import com.unboundid.ldap.sdk.CompareResult;
import com.unboundid.ldap.sdk.EXTERNALBindRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultListener;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import com.unboundid.ldif.LDIFChangeRecord;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFModifyChangeRecord;
import com.unboundid.ldif.LDIFReader;
import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import com.unboundid.util.ssl.SSLSocketVerifier;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.trustload.common.Closeables;

import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * One LDAP connection on the UnboundID SDK, over TCP, TLS, StartTLS or a Unix domain socket.
 * Not thread-safe: one client per load-test thread. Connect and response timeouts are always set,
 * so no call blocks for longer than the settings allow. Every failure is an
 * {@link LdapClientException} with a stable category.
 */
public final class LdapClient implements Closeable {
    /** Host and port given to UnboundID for a Unix socket, where the socket factory ignores them. */
    private static final String LDAPI_DUMMY_HOST = "localhost";

    private final LdapConnectionSettings settings;
    private final LDAPConnection connection;
    private final long connectNanos;
    private boolean bound;
    /** The request objects this connection sends, kept across the connections of one thread. */
    private final Requests requests;

    private LdapClient(LdapConnectionSettings settings, LDAPConnection connection, long connectNanos,
            Requests requests) {
        this.settings = settings;
        this.connection = connection;
        this.connectNanos = connectNanos;
        this.requests = requests;
    }

    /**
     * The SDK request objects one thread sends again and again, kept across its connections: per iteration
     * every connection is new, and each UnboundID request builds its own response queue (a lock, two
     * conditions) and, for a search, parses its filter. Only the base DN and filter of a search change per
     * search. Not thread-safe: one per thread ({@link LdapConnections} keeps one per thread of the test).
     */
    static final class Requests {
        private BindType bindType;
        private BindRequest bind;
        private String bindSummary;
        private SearchRequest search;
        private List<String> searchAttributes = List.of();
    }

    /**
     * Opens a connection (and performs StartTLS when asked). Does not bind: call {@link #bind()}.
     */
    public static LdapClient connect(LdapConnectionSettings s) throws LdapClientException {
        return connect(s, s.usesTls() ? LdapTls.context(s) : null);
    }

    /**
     * Opens a connection with a TLS context built beforehand (by {@link LdapTls#create}, once per
     * test): {@code tls} is used for ldaps and StartTLS and ignored otherwise.
     */
    public static LdapClient connect(LdapConnectionSettings s, SSLContext tls) throws LdapClientException {
        return connect(Endpoint.of(s, tls, null), new Requests());
    }

    /**
     * What every connection of one configuration shares, built once ({@link LdapConnections} builds it at test
     * start): the connection options, the resolved address or the ldapi socket address, the TLS socket factory.
     * Per iteration these were rebuilt for every connection, and UnboundID resolved the host name again.
     * Immutable; shared by the test's threads.
     */
    static final class Endpoint {
        final LdapConnectionSettings settings;
        final SSLContext tls;
        /** The TLS sockets of ldaps and StartTLS (null without TLS): one factory for the test. */
        final SSLSocketFactory tlsSockets;
        /** The options every connection copies (UnboundID duplicates them per connection). */
        final LDAPConnectionOptions options;
        /**
         * The host's address, resolved once; null when it could not be (the connect then fails as UnboundID
         * reports it).
         */
        final InetAddress address;
        /** TCP: the address and port the sampler's thread connects to. */
        final InetSocketAddress tcp;
        /** ldapi: the socket's address and file. */
        final AFUNIXSocketAddress unix;
        final File socketFile;
        /** ldaps: sockets whose handshake is bounded by the connect timeout. */
        final SocketFactory ldapsSockets;

        private Endpoint(LdapConnectionSettings s, SSLContext tls, InetAddress address, AFUNIXSocketAddress unix,
                File socketFile) {
            this.settings = s;
            this.tls = tls;
            this.tlsSockets = tls == null ? null : tls.getSocketFactory();
            this.options = options(s);
            this.address = address;
            this.tcp = address == null || s.scheme() == LdapScheme.LDAPI ? null
                    : new InetSocketAddress(address, s.port());
            this.unix = unix;
            this.socketFile = socketFile;
            this.ldapsSockets = s.scheme() == LdapScheme.LDAPS
                    ? new HandshakeTimeoutSocketFactory(tlsSockets, s.connectTimeoutMs()) : null;
        }

        /**
         * Builds the endpoint; {@code resolved} is the host's address when the caller has resolved it already
         * (null: resolved here). A missing ldapi socket fails as "no such socket"; an unknown host is left to
         * the connect, which fails as it always did.
         */
        static Endpoint of(LdapConnectionSettings s, SSLContext tls, InetAddress resolved) throws LdapClientException {
            if (s.usesTls() && tls == null) {
                tls = LdapTls.context(s);
            }
            if (s.scheme() == LdapScheme.LDAPI) {
                File socket = new File(s.socketPath());
                if (!socket.exists()) {
                    throw LdapClientException.of(ResultCode.CONNECT_ERROR, "no such socket", s.target());
                }
                AFUNIXSocketAddress unix;
                try {
                    unix = AFUNIXSocketAddress.of(socket);
                } catch (IOException e) {
                    unix = null; // every connect fails with "cannot use the socket", as it always did
                }
                return new Endpoint(s, tls, InetAddress.getLoopbackAddress(), unix, socket);
            }
            InetAddress address = resolved;
            if (address == null) {
                try {
                    address = InetAddress.getByName(s.host());
                } catch (UnknownHostException e) {
                    address = null; // the connect reports it, as UnboundID words it
                }
            }
            return new Endpoint(s, tls, address, null, null);
        }

        private static LDAPConnectionOptions options(LdapConnectionSettings s) {
            LDAPConnectionOptions options = new LDAPConnectionOptions();
            options.setConnectTimeoutMillis(s.connectTimeoutMs());
            options.setResponseTimeoutMillis(s.responseTimeoutMs());
            // Request/response use: no reader thread per connection (measured 30-40% less client CPU per operation).
            options.setUseSynchronousMode(true);
            // Avoid the Nagle stall after the TLS handshake that dominates naive LDAPS numbers.
            options.setUseTCPNoDelay(true);
            // UnboundID's defaults add three socket options per connection that a load client does not
            // want: SO_LINGER (5 s) makes close() wait for the unbind to be acknowledged inside the
            // measured iteration, SO_KEEPALIVE probes after hours of idleness, and SO_REUSEADDR only
            // matters to a socket that binds a port. Off: close() returns like the reference Perl script's.
            options.setUseLinger(false, 0);
            options.setUseKeepAlive(false);
            options.setUseReuseAddress(false);
            options.setAutoReconnect(false);
            // Both verifiers wait for the handshake, so a failed or stuck one fails the connect (connectError).
            SSLSocketVerifier verifier = s.verifyHostname() ? new HostNameSSLSocketVerifier(true)
                    : HandshakeCompletedVerifier.INSTANCE;
            options.setSSLSocketVerifier(s.tlsSessionResumption() ? verifier : new FullHandshakes(verifier));
            return options;
        }
    }

    /**
     * Opens a connection of an endpoint (and performs StartTLS when asked) that sends the thread's kept
     * {@code requests}. Does not bind.
     */
    static LdapClient connect(Endpoint e, Requests requests) throws LdapClientException {
        LdapConnectionSettings s = e.settings;
        long start = System.nanoTime();
        String host = s.scheme() == LdapScheme.LDAPI ? LDAPI_DUMMY_HOST : s.host();
        int port = s.scheme() == LdapScheme.LDAPI ? 389 : s.port();
        SocketFactory factory = s.scheme() == LdapScheme.LDAPS ? e.ldapsSockets : new ConnectedSocket(connectHere(e));
        LDAPConnection c;
        try {
            if (e.address == null) {
                c = new LDAPConnection(factory, e.options, host, port);
            } else {
                c = new LDAPConnection(factory, e.options);
                c.connect(host, e.address, port, s.connectTimeoutMs());
            }
        } catch (LDAPException x) {
            throw withTarget(x, s);
        }
        if (s.startTls()) {
            try {
                ExtendedResult r = c.processExtendedOperation(new StartTLSExtendedRequest(e.tlsSockets));
                if (r.getResultCode() != ResultCode.SUCCESS) {
                    c.close();
                    throw LdapClientException.from(new LDAPException(r));
                }
            } catch (LDAPException x) {
                c.close();
                // A handshake that fails (untrusted certificate, wrong host name) is a failure to
                // connect, as it is for ldaps; UnboundID reports it as serverDown.
                throw withTarget(x.getResultCode() == ResultCode.SERVER_DOWN
                        ? new LDAPException(ResultCode.CONNECT_ERROR, x.getExceptionMessage(), x) : x, s);
            }
        }
        return new LdapClient(s, c, System.nanoTime() - start, requests);
    }

    /**
     * Opens the TCP or ldapi socket in the calling thread, bounded by the connect timeout. UnboundID
     * 7.0.3 always connects in a new "Background connect thread"; a socket opened there pays, besides
     * the thread, the set-up of every thread-local the socket code keeps (junixsocket's address buffers
     * and object pools), once per connection. Opened here, in the sampler's long-lived thread, it pays
     * them once per thread, and UnboundID's connect thread only hands the socket over
     * ({@link ConnectedSocket}). A failure is mapped as UnboundID maps its own connect failures.
     */
    private static Socket connectHere(Endpoint e) throws LdapClientException {
        LdapConnectionSettings s = e.settings;
        AFUNIXSocketAddress unix = e.unix;
        if (e.socketFile != null && unix == null) {
            try {
                unix = AFUNIXSocketAddress.of(e.socketFile);
            } catch (IOException x) {
                throw LdapClientException.of(ResultCode.CONNECT_ERROR, "cannot use the socket",
                        s.target() + ": " + LdapClientException.readable(x));
            }
        }
        if (unix == null && e.tcp == null) {
            // an unknown host: UnboundID's connect reports it as it always did
            return null;
        }
        Socket socket = null;
        try {
            if (unix != null) {
                socket = AFUNIXSocket.newInstance();
                socket.connect(unix, s.connectTimeoutMs());
            } else {
                socket = new Socket();
                socket.connect(e.tcp, s.connectTimeoutMs());
            }
            return socket;
        } catch (IOException | RuntimeException x) {
            Closeables.closeQuietly(socket); // nothing was connected
            if (e.socketFile != null && !e.socketFile.exists()) {
                // the ldapi socket went away since the test started (found only now: no file check per connection)
                throw LdapClientException.of(ResultCode.CONNECT_ERROR, "no such socket", s.target());
            }
            throw withTarget(new LDAPException(ResultCode.CONNECT_ERROR,
                    "An error occurred while attempting to connect to server "
                    + s.target() + ": " + LdapClientException.readable(x), x), s);
        }
    }

    /**
     * Hands UnboundID the socket {@link #connectHere} connected. It makes no unconnected socket, like
     * the JDK's default {@link SocketFactory#createSocket()}: UnboundID's connect thread then asks for a
     * connected one and takes it as it is (its documented way with such factories), so nothing is
     * connected twice and the connect thread does no socket work.
     */
    private static final class ConnectedSocket extends SocketFactory {
        /** Thrown without a stack trace: it is part of every connection's path, not an error. */
        private static final SocketException NO_UNCONNECTED = new SocketException("connected by the caller") {
            private static final long serialVersionUID = 1L;

            @Override
            public synchronized Throwable fillInStackTrace() {
                return this;
            }
        };

        private final Socket socket;

        ConnectedSocket(Socket socket) {
            this.socket = socket;
        }

        @Override
        public Socket createSocket() throws SocketException {
            throw NO_UNCONNECTED;
        }

        @Override
        public Socket createSocket(String host, int port) {
            return socket;
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) {
            return socket;
        }

        @Override
        public Socket createSocket(InetAddress host, int port) {
            return socket;
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) {
            return socket;
        }
    }

    private static LdapClientException withTarget(LDAPException e, LdapConnectionSettings s) {
        return LdapClientException.from(e, s.target());
    }

    /** The settings this connection was opened with. */
    public LdapConnectionSettings settings() {
        return settings;
    }

    /** Nanoseconds spent in TCP connect, TLS handshake and StartTLS. */
    public long connectNanos() {
        return connectNanos;
    }

    /** True while the connection is usable as far as the client knows. */
    public boolean isConnected() {
        return connection.isConnected();
    }

    /** True once {@link #bind()} succeeded (or nothing had to be sent). */
    public boolean isBound() {
        return bound;
    }

    /** Sends the bind the settings ask for; {@link BindType#NONE} sends nothing. */
    public LdapOutcome bind() throws LdapClientException {
        BindType type = settings.bindType();
        if (type == BindType.NONE) {
            bound = true;
            return new LdapOutcome(LdapOperation.BIND, ResultCode.SUCCESS, null, 0, "bind: none (anonymous session)");
        }
        return doBind(type);
    }

    private LdapOutcome doBind(BindType type) throws LdapClientException {
        Requests q = requests;
        if (q.bind == null || q.bindType != type) {
            String who;
            switch (type) {
                case SIMPLE:
                    q.bind = new SimpleBindRequest(settings.bindDn(), settings.bindPassword());
                    who = settings.bindDn();
                    break;
                case SASL_EXTERNAL:
                    // The empty authzId form: OpenLDAP 2.5 answers the no-argument form with result 14.
                    q.bind = new EXTERNALBindRequest(settings.authzId());
                    who = "SASL EXTERNAL";
                    break;
                default:
                    q.bind = new SimpleBindRequest();
                    who = "anonymous";
            }
            q.bindType = type;
            q.bindSummary = "bind: success as " + who;
        }
        try {
            LDAPResult r = connection.bind(q.bind);
            bound = true;
            return new LdapOutcome(LdapOperation.BIND, r.getResultCode(), null, 0, q.bindSummary);
        } catch (LDAPException e) {
            bound = false;
            throw failed(e);
        }
    }

    /**
     * Runs one operation. For a search at most {@code keepEntries} entries are kept in the outcome
     * (all are counted), so a large result set does not fill the heap of a load generator.
     */
    public LdapOutcome execute(LdapRequest r, int keepEntries) throws LdapClientException {
        try {
            switch (r.operation()) {
                case BIND:
                    return doBind(settings.bindType() == BindType.NONE ? BindType.ANONYMOUS : settings.bindType());
                case SEARCH:
                    return search(r, keepEntries);
                case COMPARE:
                    return compare(r);
                case ADD:
                    return add(r);
                case MODIFY:
                    return modify(r);
                case DELETE:
                    requireDn(r);
                    connection.delete(r.entryDn());
                    return new LdapOutcome(LdapOperation.DELETE, ResultCode.SUCCESS, null, 0, "delete: " + r.entryDn());
                case WHOAMI:
                    return whoAmI();
                default:
                    throw LdapClientException.config("unsupported operation " + r.operation());
            }
        } catch (LDAPException e) {
            throw failed(e);
        }
    }

    /**
     * Maps a failure and closes the connection when it can no longer be used: in synchronous mode
     * UnboundID would otherwise keep reporting it as connected after the server went away.
     */
    private LdapClientException failed(LDAPException e) {
        LdapClientException x = LdapClientException.from(e, settings.target());
        if (x.connectionLost()) {
            connection.close();
        }
        return x;
    }

    private LdapOutcome search(LdapRequest r, int keepEntries) throws LDAPException, LdapClientException {
        SearchRequest sr = searchRequest(r);
        EntryCollector collector = (EntryCollector) sr.getSearchResultListener();
        collector.reset(keepEntries);
        ResultCode code;
        try {
            SearchResult res = connection.search(sr);
            code = res.getResultCode();
        } catch (LDAPSearchException e) {
            // Hitting a limit the user set on purpose is a result, not an error.
            if (e.getResultCode() == ResultCode.SIZE_LIMIT_EXCEEDED && r.sizeLimit() > 0) {
                code = e.getResultCode();
            } else {
                throw e;
            }
        }
        String summary = "search: " + collector.count + (collector.count == 1 ? " entry" : " entries")
                + (code == ResultCode.SUCCESS ? "" : " (" + LdapClientException.codeName(code) + ")");
        return new LdapOutcome(LdapOperation.SEARCH, code, collector.kept, collector.count, summary);
    }

    /**
     * The search to send: one SDK request per thread ({@link Requests}), its base DN and filter set anew for each
     * search
     * and rebuilt only when the scope, attributes or limits change (as UnboundID's searchrate does; a new
     * request per search, with its response queue and listener, showed in the per-thread profile).
     */
    private SearchRequest searchRequest(LdapRequest r) throws LDAPException, LdapClientException {
        Requests q = requests;
        SearchRequest sr = q.search;
        SearchScope scope = r.searchScope();
        int sizeLimit = Math.max(0, r.sizeLimit());
        int timeLimit = Math.max(0, r.timeLimitSeconds());
        if (sr == null || !sr.getScope().equals(scope) || sr.getSizeLimit() != sizeLimit
                || sr.getTimeLimitSeconds() != timeLimit
                || !q.searchAttributes.equals(r.attributes())) {
            sr = new SearchRequest(new EntryCollector(), r.baseDn(), scope, r.filter(),
                    r.attributes().toArray(new String[0]));
            sr.setSizeLimit(sizeLimit);
            sr.setTimeLimitSeconds(timeLimit);
            q.search = sr;
            q.searchAttributes = r.attributes();
        } else {
            sr.setBaseDN(r.baseDn());
            sr.setFilter(r.filter());
        }
        return sr;
    }

    private LdapOutcome compare(LdapRequest r) throws LDAPException, LdapClientException {
        requireDn(r);
        if (r.compareAttribute().isEmpty()) {
            throw LdapClientException.config("compare needs an attribute");
        }
        CompareResult res = connection.compare(r.entryDn(), r.compareAttribute(), r.compareValue());
        return new LdapOutcome(LdapOperation.COMPARE, res.getResultCode(), null, 0,
                "compare: " + LdapClientException.codeName(res.getResultCode()));
    }

    private LdapOutcome add(LdapRequest r) throws LDAPException, LdapClientException {
        Entry entry;
        try {
            entry = LDIFReader.decodeEntry(true, null, lines(r.ldif()));
        } catch (LDIFException e) {
            throw LdapClientException.config("the LDIF of the entry to add cannot be parsed", e);
        }
        connection.add(entry);
        return new LdapOutcome(LdapOperation.ADD, ResultCode.SUCCESS, null, 0, "add: " + entry.getDN());
    }

    private LdapOutcome modify(LdapRequest r) throws LDAPException, LdapClientException {
        String text = r.ldif().strip();
        if (!text.regionMatches(true, 0, "dn:", 0, 3)) {
            requireDn(r);
            text = "dn: " + r.entryDn() + "\nchangetype: modify\n" + text;
        }
        LDIFChangeRecord record;
        try {
            record = LDIFReader.decodeChangeRecord(true, lines(text));
        } catch (LDIFException e) {
            throw LdapClientException.config("the LDIF of the modification cannot be parsed", e);
        }
        if (!(record instanceof LDIFModifyChangeRecord)) {
            throw LdapClientException.config("the LDIF of a modify must be a modify change record");
        }
        LDIFModifyChangeRecord mod = (LDIFModifyChangeRecord) record;
        List<Modification> mods = List.of(mod.getModifications());
        connection.modify(new ModifyRequest(mod.getDN(), mods));
        return new LdapOutcome(LdapOperation.MODIFY, ResultCode.SUCCESS, null, 0,
                "modify: " + mod.getDN() + " (" + mods.size() + " change" + (mods.size() == 1 ? ")" : "s)"));
    }

    private LdapOutcome whoAmI() throws LDAPException {
        ExtendedResult res = connection.processExtendedOperation(new WhoAmIExtendedRequest());
        if (res.getResultCode() != ResultCode.SUCCESS) {
            throw new LDAPException(res);
        }
        String authz = res instanceof WhoAmIExtendedResult ? ((WhoAmIExtendedResult) res).getAuthorizationID() : null;
        return new LdapOutcome(LdapOperation.WHOAMI, ResultCode.SUCCESS, null, 0,
                "whoami: " + (authz == null || authz.isEmpty() ? "(anonymous)" : authz));
    }

    private static void requireDn(LdapRequest r) throws LdapClientException {
        if (r.entryDn().isEmpty()) {
            throw LdapClientException.config(r.operation().id() + " needs an entry DN");
        }
    }

    private static String[] lines(String ldif) {
        return ldif.strip().split("\\r?\\n");
    }

    /** Sends an unbind and closes the socket; never throws. */
    @Override
    public void close() {
        connection.close();
    }

    /**
     * ldaps sockets whose TLS handshake is bounded by the connect timeout. UnboundID bounds only the
     * TCP connect by it and, when the handshake is still running, hands the socket on to the first
     * request, which then waits up to the response timeout. UnboundID replaces the socket timeout
     * with the response timeout once the connection is set up.
     */
    private static final class HandshakeTimeoutSocketFactory extends SocketFactory {
        private final SSLSocketFactory tls;
        private final int timeoutMs;

        HandshakeTimeoutSocketFactory(SSLSocketFactory tls, int timeoutMs) {
            this.tls = tls;
            this.timeoutMs = timeoutMs;
        }

        private Socket bounded(Socket socket) throws IOException {
            socket.setSoTimeout(timeoutMs);
            return socket;
        }

        @Override
        public Socket createSocket() throws IOException {
            return bounded(tls.createSocket());
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return bounded(tls.createSocket(host, port));
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            return bounded(tls.createSocket(host, port, localHost, localPort));
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return bounded(tls.createSocket(host, port));
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            return bounded(tls.createSocket(address, port, localAddress, localPort));
        }
    }

    /** No host-name check, but waits for the handshake and fails the connect when it did not complete. */
    private static final class HandshakeCompletedVerifier extends SSLSocketVerifier {
        static final HandshakeCompletedVerifier INSTANCE = new HandshakeCompletedVerifier();

        @Override
        public void verifySSLSocket(String host, int port, SSLSocket socket) throws LDAPException {
            // getSession() blocks until the handshake ends; a failed one yields the null cipher suite.
            SSLSession session = socket.getSession();
            if (session == null || "SSL_NULL_WITH_NULL_NULL".equals(session.getCipherSuite())) {
                throw new LDAPException(ResultCode.CONNECT_ERROR,
                        "TLS handshake with " + host + ":" + port + " did not complete");
            }
        }
    }

    /**
     * A full TLS handshake on every connection although the test shares one TLS context: once the handshake is
     * verified, its session is invalidated, so the context's client cache neither offers it (TLS 1.2 session id)
     * nor keeps the tickets the server sends for it (TLS 1.3). Runs for ldaps and StartTLS alike (UnboundID
     * verifies both); without it the JDK resumes sessions whenever a context is reused.
     */
    private static final class FullHandshakes extends SSLSocketVerifier {
        private final SSLSocketVerifier verified;

        FullHandshakes(SSLSocketVerifier verified) {
            this.verified = verified;
        }

        @Override
        public void verifySSLSocket(String host, int port, SSLSocket socket) throws LDAPException {
            verified.verifySSLSocket(host, port, socket);
            socket.getSession().invalidate();
        }
    }

    /** Keeps the first entries and counts the rest; {@link #reset} before each search. */
    private static final class EntryCollector implements SearchResultListener {
        private static final long serialVersionUID = 1L;
        private int keep;
        List<SearchResultEntry> kept = new ArrayList<>(1);
        int count;

        /** A new search: a new list (the last outcome keeps its own), nothing counted. */
        void reset(int keepEntries) {
            keep = Math.max(0, keepEntries);
            kept = new ArrayList<>(1);
            count = 0;
        }

        @Override
        public void searchEntryReturned(SearchResultEntry entry) {
            if (count < keep) {
                kept.add(entry);
            }
            count++;
        }

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {
            // References are not followed in a load test; they are not entries.
        }
    }
}
