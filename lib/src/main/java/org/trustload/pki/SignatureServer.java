package org.trustload.pki;

import java.net.URI;
import java.net.http.HttpClient;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.trustload.pki.api.ApiSettings;
import org.trustload.pki.api.SignatureApi;
import org.trustload.pki.api.SignatureApiClient;
import org.trustload.pki.api.SignatureApis;

/**
 * A signature server as load tests reach it: which API it speaks ({@link SignatureApi}: {@code dss},
 * {@code rest-pki}, {@code rest-pki-core}) at which base URL with which credential, its RFC 3161 TSA, its
 * certificate-login endpoints (the API's challenge–response at the login URL, mutual TLS at the mTLS
 * URL), how its TLS certificate is trusted, and the timeouts. Holds the one HTTP client (and its
 * connection pool and threads) that the API, timestamp and login clients of a test share, and closes it
 * with {@link #close()}. Thread-safe.
 */
public final class SignatureServer implements AutoCloseable {
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Settings settings;
    private final SignatureApi api;
    private final ExecutorService executor;
    private final HttpClient http;
    private final SignatureApiClient signatures;
    private final SignatureApiClient logins;
    private final TimestampClient timestamps;
    private final Map<String, CertificateLoginClient> mtls = new ConcurrentHashMap<>();
    /** The endpoints ({@code scheme://host:port}) that answered a request of this test: see {@link #answered}. */
    private final Set<String> answered = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * Validated settings; URLs may be null where the server does not offer that endpoint.
     *
     * @param api             the API's name ({@link SignatureApis})
     * @param serverUrl       the API's base URL
     * @param credential      the API credential ("" for none); never printed
     * @param securityContext Rest PKI's security context id, or ""
     * @param loginUrl        the base URL of the API's certificate login (null: the server URL)
     * @param mtlsUrl         the mutual-TLS login URL (null: the login URL when it is https)
     */
    public record Settings(String api, URI serverUrl, String credential, String securityContext, URI tsaUrl,
            URI loginUrl, URI mtlsUrl, List<X509Certificate> trustAnchors, boolean trustAll, Duration connectTimeout,
            Duration handshakeTimeout, Duration responseTimeout) {
        public Settings {
            trustAnchors = List.copyOf(trustAnchors);
            credential = credential == null ? "" : credential;
            securityContext = securityContext == null ? "" : securityContext;
        }

        /** The URL challenge–response logins go to: the login URL, else the server URL. */
        public URI apiLoginUrl() {
            return loginUrl != null ? loginUrl : serverUrl;
        }

        /** The URL mTLS logins go to: the mTLS URL, else an https login URL (one server for both methods). */
        public URI effectiveMtlsUrl() {
            if (mtlsUrl != null) {
                return mtlsUrl;
            }
            URI l = loginUrl != null ? loginUrl : serverUrl;
            return l != null && "https".equalsIgnoreCase(l.getScheme()) ? l : null;
        }

        @Override
        public String toString() {
            return "Settings[" + api + " " + serverUrl + ", credential " + (credential.isEmpty() ? "none" : "set")
                    + ", tsa " + tsaUrl + ", login " + loginUrl + ", mtls " + mtlsUrl + "]";
        }
    }

    /**
     * Builds the shared HTTP client and opens the API; nothing is sent until a client is used.
     *
     * @throws PkiException {@code configError} about {@code api} for an unknown API
     */
    public SignatureServer(Settings settings) throws PkiException {
        this.settings = settings;
        this.api = SignatureApis.byName(settings.api());
        int n = INSTANCES.incrementAndGet();
        // Our own executor so close() ends the client's worker threads (Java 17's HttpClient has no close()).
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "trustload-signature-server-" + n);
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor)
                .connectTimeout(settings.connectTimeout()).followRedirects(HttpClient.Redirect.NEVER)
                .sslContext(ServerTrust.context(null,
                        ServerTrust.trustManager(settings.trustAnchors(), settings.trustAll())))
                .build();
        this.signatures = settings.serverUrl() == null ? null : open(settings.serverUrl());
        URI login = settings.apiLoginUrl();
        this.logins = login == null ? null : login.equals(settings.serverUrl()) ? signatures : open(login);
        this.timestamps = settings.tsaUrl() == null ? null
                : new TimestampClient(http, settings.tsaUrl(), settings.connectTimeout(),
                        settings.responseTimeout(), null);
    }

    private SignatureApiClient open(URI base) throws PkiException {
        return api.open(new ApiSettings(base, settings.credential(), settings.securityContext(),
                settings.responseTimeout()),
                http);
    }

    public Settings settings() {
        return settings;
    }

    /** The API this server speaks. */
    public SignatureApi api() {
        return api;
    }

    /**
     * The API client at the server URL (signatures, the API's timestamps).
     *
     * @throws PkiException {@code configError} naming {@code serverUrl} when the server has none
     */
    public SignatureApiClient signatures() throws PkiException {
        open();
        if (signatures == null) {
            throw PkiException.setting("serverUrl", "is empty: signatures through the " + api.name()
                    + " API need the server's URL");
        }
        return signatures;
    }

    /**
     * The API client certificate logins by challenge–response use (the login URL, else the server URL).
     *
     * @throws PkiException {@code configError} naming {@code loginUrl} when there is neither
     */
    public SignatureApiClient logins() throws PkiException {
        open();
        if (logins == null) {
            throw PkiException.setting("loginUrl", "is empty: challenge-response login through the " + api.name()
                    + " API needs the login URL (or the server URL)");
        }
        return logins;
    }

    /**
     * The RFC 3161 client of the server's TSA.
     *
     * @throws PkiException {@code configError} naming {@code tsaUrl} when the server has none
     */
    public TimestampClient timestamps() throws PkiException {
        open();
        if (timestamps == null) {
            throw PkiException.setting("tsaUrl", "is empty: timestamps need the TSA's URL");
        }
        return timestamps;
    }

    /**
     * The mutual-TLS login client for a session-reuse choice and a path, one per distinct pair, closed
     * with this server. {@code path} applies to an mTLS URL that has none (the lab's {@code pki.mtls.url} is
     * {@code https://host:port}); a login URL used for mTLS (one server for both methods) is taken as it is.
     *
     * @throws PkiException {@code configError} naming {@code mtlsUrl} when the server has no https login URL
     */
    public CertificateLoginClient mtls(boolean sessionReuse, String path) throws PkiException {
        open();
        URI url = settings.effectiveMtlsUrl();
        if (url == null) {
            throw PkiException.setting("mtlsUrl",
                    "is empty: mTLS login needs an https URL (the mTLS URL, or an https login URL)");
        }
        String p = path == null ? "" : path.trim();
        String rawPath = url.getRawPath() == null ? "" : url.getRawPath();
        if (url.equals(settings.mtlsUrl()) && !p.isEmpty() && (rawPath.isEmpty() || rawPath.equals("/"))) {
            url = url.resolve(p.startsWith("/") ? p : "/" + p);
        }
        String key = sessionReuse + " " + url;
        CertificateLoginClient c = mtls.get(key);
        if (c == null) {
            CertificateLoginClient built = CertificateLoginClient.builder().mtlsUrl(url)
                    .trustAnchors(settings.trustAnchors())
                    .trustAll(settings.trustAll()).sessionReuse(sessionReuse).connectTimeout(settings.connectTimeout())
                    .handshakeTimeout(settings.handshakeTimeout()).responseTimeout(settings.responseTimeout()).build();
            CertificateLoginClient prev = mtls.putIfAbsent(key, built);
            c = prev != null ? prev : built;
        }
        return c;
    }

    /**
     * Records that {@code endpoint} (its scheme, host and port) answered a request of this test, an error answer
     * included: a refused connect there later is an outage (a restart), not a wrong URL. Null is ignored.
     */
    public void answered(URI endpoint) {
        String k = endpointKey(endpoint);
        if (k != null) {
            answered.add(k);
        }
    }

    /** Whether {@code endpoint} answered some request of this test ({@link #answered(URI)}); false for null. */
    public boolean hasAnswered(URI endpoint) {
        String k = endpointKey(endpoint);
        return k != null && answered.contains(k);
    }

    private static String endpointKey(URI u) {
        return u == null || u.getScheme() == null || u.getRawAuthority() == null ? null
                : u.getScheme().toLowerCase(java.util.Locale.ROOT) + "://" + u.getRawAuthority();
    }

    private void open() throws PkiException {
        if (closed) {
            throw new PkiException(PkiException.CONFIG_ERROR, "the signature server client was closed at test end");
        }
    }

    /** True after {@link #close()}. */
    public boolean isClosed() {
        return closed;
    }

    /** True once the HTTP client's worker threads have ended (after {@link #close()}). */
    public boolean awaitTerminated(Duration timeout) throws InterruptedException {
        return executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Closes the login clients and ends the shared HTTP client's threads; later calls fail with configError. */
    @Override
    public void close() {
        closed = true;
        mtls.values().forEach(CertificateLoginClient::close);
        mtls.clear();
        executor.shutdownNow();
    }
}
