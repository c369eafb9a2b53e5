package org.trustload.pki;

import java.net.URI;
import java.net.http.HttpClient;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A signature server as load tests reach it: its endpoints (signature API, TSA, certificate login
 * over HTTP and over mutual TLS), how its TLS certificate is trusted, and the timeouts. Holds the one
 * HTTP client (and its connection pool and threads) that the signature, timestamp and login clients
 * of a test share, and closes it with {@link #close()}. Thread-safe.
 */
public final class SignatureServer implements AutoCloseable {
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Settings settings;
    private final ExecutorService executor;
    private final HttpClient http;
    private final SignatureServiceClient signatures;
    private final TimestampClient timestamps;
    private final Map<LoginOptions, CertificateLoginClient> logins = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** Validated settings; URLs may be null where the server does not offer that endpoint. */
    public record Settings(URI serverUrl, URI tsaUrl, URI loginUrl, URI mtlsUrl, List<X509Certificate> trustAnchors,
            boolean trustAll, Duration connectTimeout, Duration handshakeTimeout, Duration responseTimeout) {
        public Settings {
            trustAnchors = List.copyOf(trustAnchors);
        }
    }

    /** What a Certificate Login request varies (paths, fields, digest, session reuse). */
    public record LoginOptions(String nonceMethod, String noncePath, String loginPath, String digest,
            CertificateLoginClient.Fields fields, String mtlsPath, boolean sessionReuse) {
    }

    /** Builds the shared HTTP client; nothing is sent until a client is used. */
    public SignatureServer(Settings settings) throws PkiException {
        this.settings = settings;
        int n = INSTANCES.incrementAndGet();
        // Our own executor so close() ends the client's worker threads (Java 17's HttpClient has no close()).
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "trustload-signature-server-" + n);
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor)
                .connectTimeout(settings.connectTimeout()).followRedirects(HttpClient.Redirect.NEVER)
                .sslContext(ServerTrust.context(null, ServerTrust.trustManager(settings.trustAnchors(), settings.trustAll())))
                .build();
        int responseMs = (int) Math.min(Integer.MAX_VALUE, settings.responseTimeout().toMillis());
        this.signatures = settings.serverUrl() == null ? null
                : new SignatureServiceClient(http, settings.serverUrl(), responseMs);
        this.timestamps = settings.tsaUrl() == null ? null
                : new TimestampClient(http, settings.tsaUrl(), settings.connectTimeout(), settings.responseTimeout(), null);
    }

    public Settings settings() {
        return settings;
    }

    /**
     * The client of the remote start → sign → complete API.
     *
     * @throws PkiException {@code configError} naming {@code serverUrl} when the server has none
     */
    public SignatureServiceClient signatures() throws PkiException {
        open();
        if (signatures == null) {
            throw PkiException.setting("serverUrl", "is empty: remote signing needs the signature server's URL");
        }
        return signatures;
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
     * The certificate-login client for these options, built once per distinct options and closed with
     * this server.
     *
     * @throws PkiException {@code configError} naming {@code loginUrl} or {@code mtlsUrl} when the
     *                      server lacks the endpoint the method needs
     */
    public CertificateLoginClient login(LoginOptions o, boolean mtls) throws PkiException {
        open();
        if (!mtls && settings.loginUrl() == null) {
            throw PkiException.setting("loginUrl", "is empty: challenge-response login needs the login URL");
        }
        if (mtls && settings.mtlsUrl() == null) {
            throw PkiException.setting("mtlsUrl", "is empty: mTLS login needs the mTLS URL");
        }
        CertificateLoginClient c = logins.get(o);
        if (c == null) {
            CertificateLoginClient.Builder b = CertificateLoginClient.builder()
                    .nonceMethod(o.nonceMethod()).noncePath(o.noncePath()).loginPath(o.loginPath()).digest(o.digest())
                    .fields(o.fields()).trustAnchors(settings.trustAnchors()).trustAll(settings.trustAll())
                    .sessionReuse(o.sessionReuse()).connectTimeout(settings.connectTimeout())
                    .handshakeTimeout(settings.handshakeTimeout()).responseTimeout(settings.responseTimeout())
                    .httpClient(http);
            if (settings.loginUrl() != null) {
                b.loginUrl(settings.loginUrl());
            }
            if (settings.mtlsUrl() != null) {
                String p = o.mtlsPath() == null ? "" : o.mtlsPath().trim();
                b.mtlsUrl(p.isEmpty() ? settings.mtlsUrl() : settings.mtlsUrl().resolve(p));
            }
            CertificateLoginClient built = b.build();
            CertificateLoginClient prev = logins.putIfAbsent(o, built);
            c = prev != null ? prev : built;
        }
        return c;
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
        logins.values().forEach(CertificateLoginClient::close);
        logins.clear();
        executor.shutdownNow();
    }
}
