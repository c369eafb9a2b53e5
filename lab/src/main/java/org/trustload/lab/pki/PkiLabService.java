package org.trustload.lab.pki;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.security.cert.Certificate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManager;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabFiles;

import org.trustload.lab.LabHttp;
import org.trustload.lab.LabSecrets;
import org.trustload.lab.LabService;
import org.trustload.pki.KeyStores;
import org.trustload.pki.PkiException;
import org.trustload.labkit.pki.SamplePdf;
import org.trustload.labkit.pki.TestPki;
import org.trustload.labkit.pki.TimestampResponder;

/**
 * The {@code pki} lab service: a test PKI (3 CAs, N users, CRLs) behind Lacuna Rest PKI's classic and Core APIs
 * ({@link RestPkiApi}), an RFC 3161 TSA, CRLs over HTTP and a mutual-TLS login, on 127.0.0.1:
 * base+{@value #HTTP_OFFSET} (HTTP), base+{@value #HTTPS_OFFSET} (HTTPS), base+{@value #MTLS_OFFSET} (mutual
 * TLS). Routes and what is faithful: docs/lab.md, "The pki service".
 */
public final class PkiLabService implements LabService {
    static {
        LabHttp.noDelay();
    }

    /** Port offset of the HTTP listener. */
    public static final int HTTP_OFFSET = 8080;
    /** Port offset of the HTTPS listener. */
    public static final int HTTPS_OFFSET = 8443;
    /** Port offset of the mutual-TLS listener (client certificate required); the highest lab offset. */
    public static final int MTLS_OFFSET = 8444;
    /** Seed of the test PKI: the same seed and user count give the same keys and certificates. */
    public static final long SEED = 3161L;
    /** Number of CAs. */
    public static final int CAS = 3;
    /** Size of {@code /documents/sample.pdf}. */
    public static final int SAMPLE_PDF_BYTES = 137 * 1024;
    /** Largest request body accepted (base64 of a ~48 MiB document). */
    static final int MAX_BODY = RestPkiApi.MAX_BODY;
    /** The API flavour {@code lab.properties} announces as {@code pki.api} (both are served). */
    public static final String DEFAULT_API = "rest-pki-core";
    /**
     * Parallelism of the workers of the HTTP(S) servers; {@code -Dtrustload.lab.pki.threads=N} overrides.
     * A worker blocked on a CRL download is compensated by a spare thread (ForkJoinPool managed blocking),
     * so a burst of checks cannot starve the {@code /crl/} requests those checks wait for.
     */
    static final int THREADS = Integer.getInteger("trustload.lab.pki.threads",
            Math.max(16, 4 * Runtime.getRuntime().availableProcessors()));
    /** Marker of the spec a cached PKI directory was generated with. */
    static final String SPEC_FILE = "lab-spec.properties";
    /**
     * Bumped when the generated layout or certificate profile changes, so old caches are regenerated.
     * 2: end-entity certificates without the empty critical BasicConstraints, CA certificates with an
     * AKI, a distinct localKeyID per key in the PKCS#12 files (issue 16).
     */
    static final String LAYOUT = "2";

    private final Map<String, String> properties = new LinkedHashMap<>();
    private HttpServer http;
    private HttpsServer https;
    private HttpsServer mtls;
    private ExecutorService workers;
    private CertificateLogin login;
    private volatile boolean crlAvailable = true;
    private ScheduledExecutorService janitor;
    private CrlCache crlCache;
    private SignatureFlow flow;
    private RestPkiApi restPki;
    private TimestampResponder responder;
    private TestPki pki;
    private final String usersPassword = LabSecrets.generate();
    /** The Rest PKI access token / API key of this start ({@code pki.credential}). */
    private final String credential = LabSecrets.generate();
    private Path usersFile;
    private final Map<String, byte[]> crlFiles = new LinkedHashMap<>();
    private byte[] samplePdf;
    private long pkiMillis;
    private boolean pkiGenerated;
    private boolean closed;

    @Override
    public String name() {
        return "pki";
    }

    @Override
    public synchronized void start(LabContext ctx) throws Exception {
        int httpPort = ctx.port(HTTP_OFFSET);
        int httpsPort = ctx.port(HTTPS_OFFSET);
        int mtlsPort = ctx.port(MTLS_OFFSET);
        // Bind first: a port in use should fail fast, before seconds of key generation.
        http = LabHttp.bind(HttpServer.create(), ctx, httpPort, "pki");
        https = LabHttp.bind(HttpsServer.create(), ctx, httpsPort, "pki");
        mtls = LabHttp.bind(HttpsServer.create(), ctx, mtlsPort, "pki");
        String base = "http://" + ctx.authority(httpPort);
        String crlBase = base + "/crl/";

        Path dir = ctx.socketDir().resolve("pki");
        long t0 = System.nanoTime();
        pki = loadOrGenerate(dir, ctx.pkiUsers(), crlBase);
        pkiMillis = (System.nanoTime() - t0) / 1_000_000;
        System.err.printf(Locale.ROOT, "trustload-lab: pki %s %d users in %d ms (%s)%n",
                pkiGenerated ? "generated" : "loaded cached", ctx.pkiUsers(), pkiMillis, dir);

        // The cache's stores share TestPki's fixed internal password; plans get a copy of the users'
        // store under a password random per start, so a leak of it is told from ordinary text.
        usersFile = ctx.socketDir().resolve("pki-users.p12");
        LabSecrets.reexport(pki.usersKeyStore(), pki.password().toCharArray(), usersFile, usersPassword.toCharArray());

        List<X509Certificate> cas = pki.caCertificates();
        for (int n = 1; n <= cas.size(); n++) {
            crlFiles.put("ca-" + n + ".crl", crlBytes(n));
        }
        samplePdf = SamplePdf.generate(SAMPLE_PDF_BYTES);
        Path pdf = dir.resolve("sample.pdf");
        Files.write(pdf, samplePdf);

        responder = new TimestampResponder(pki.tsaKey(), TimestampResponder.DEFAULT_POLICY);
        crlCache = new CrlCache();
        CertificateChecker checker = new CertificateChecker(cas, crlCache, crlBase);
        // CAdES-T/PAdES-T get their tokens from the same responder in-process: an HTTP call to our own
        // /tsa would hold a second pool thread per completion and can deadlock the pool under load.
        CertificateModels models = new CertificateModels();
        flow = new SignatureFlow(checker, responder, seconds("trustload.lab.pki.token.seconds",
                SignatureFlow.DEFAULT_TOKEN_TTL));
        login = new CertificateLogin(checker, models, KeyStores.bouncyCastle(),
                seconds("trustload.lab.pki.nonce.seconds",
                CertificateLogin.DEFAULT_NONCE_TTL));
        restPki = new RestPkiApi(credential, flow, login, models, responder);

        workers = new ForkJoinPool(THREADS, pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName("pki-lab-http-" + t.getPoolIndex());
            t.setDaemon(true);
            return t;
        }, null, true);
        janitor = Executors.newSingleThreadScheduledExecutor(LabHttp.daemon("pki-lab-tokens"));
        janitor.scheduleWithFixedDelay(flow::expire, 30, 30, TimeUnit.SECONDS);
        janitor.scheduleWithFixedDelay(login::expire, 30, 30, TimeUnit.SECONDS);
        for (HttpServer s : new HttpServer[] {http, https}) {
            s.setExecutor(workers);
            // "/" also takes the Rest PKI routes: Lacuna's servers match paths in any case (/Api/, /api/)
            s.createContext("/", this::root);
            s.createContext("/crl/", this::crl);
            s.createContext("/tsa", this::tsa);
            s.createContext("/api/health", this::health);
            s.createContext("/documents/", this::documents);
            s.createContext("/auth/mtls", this::mtlsLogin);
            s.createContext("/admin/crl", this::adminCrl);
        }
        mtls.setExecutor(workers);
        mtls.createContext("/", this::notFound);
        mtls.createContext("/auth/mtls", this::mtlsLogin);
        mtls.createContext("/api/health", this::health);
        https.setHttpsConfigurator(new HttpsConfigurator(serverTls(null)));
        SSLContext mtlsContext = serverTls(new TrustManager[] {login.trustManager()});
        mtls.setHttpsConfigurator(new HttpsConfigurator(mtlsContext) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = getSSLContext().getDefaultSSLParameters();
                p.setNeedClientAuth(true);
                params.setSSLParameters(p);
            }
        });
        http.start();
        https.start();
        mtls.start();
        // Warm the CRL cache the way a client would reach it, so the first signatures do not wait.
        for (int n = 1; n <= cas.size(); n++) {
            crlCache.get(crlBase + "ca-" + n + ".crl", cas.get(n - 1));
        }

        String httpsBase = "https://" + ctx.authority(httpsPort);
        properties.put("pki.url", base);
        properties.put("pki.api", DEFAULT_API);
        properties.put("pki.credential", credential);
        properties.put("pki.https.url", httpsBase);
        properties.put("pki.login.url", base);
        properties.put("pki.mtls.url", "https://" + ctx.authority(mtlsPort));
        properties.put("pki.tsa.url", base + "/tsa");
        properties.put("pki.crl.url", crlBase);
        properties.put("pki.keystore", usersFile.toAbsolutePath().toString());
        properties.put("pki.keystore.password", usersPassword);
        properties.put("pki.keystore.type", "PKCS12");
        properties.put("pki.users", String.valueOf(pki.userAliases().size()));
        properties.put("pki.aliases.revoked", String.join(",", pki.revokedAliases()));
        properties.put("pki.aliases.expired", String.join(",", pki.expiredAliases()));
        properties.put("pki.trust.anchors", dir.resolve("trust-anchors.pem").toAbsolutePath().toString());
        properties.put("pki.document", pdf.toAbsolutePath().toString());
        properties.put("pki.dir", dir.toAbsolutePath().toString());
    }

    /* ---------------------------------------------------------------- the PKI and its cache */

    private TestPki loadOrGenerate(Path dir, int users, String crlBase) throws IOException, PkiException {
        Properties want = new Properties();
        want.setProperty("layout", LAYOUT);
        want.setProperty("seed", String.valueOf(SEED));
        want.setProperty("cas", String.valueOf(CAS));
        want.setProperty("users", String.valueOf(users));
        want.setProperty("keyType", "EC-P256");
        want.setProperty("crlBaseUrl", crlBase);
        Path marker = dir.resolve(SPEC_FILE);
        if (Files.isRegularFile(marker)) {
            Properties have = new Properties();
            try (InputStream in = Files.newInputStream(marker)) {
                have.load(in);
            }
            if (have.equals(want)) {
                try {
                    TestPki cached = TestPki.load(dir);
                    if (fresh(cached)) {
                        return cached;
                    }
                    System.err.println("trustload-lab: cached pki in " + dir
                            + " has outdated CRLs or CAs; regenerating");
                } catch (PkiException | RuntimeException e) {
                    System.err.println("trustload-lab: cached pki in " + dir + " is unusable (" + e
                            + "); regenerating");
                }
            }
        }
        LabFiles.deleteTree(dir);
        Files.createDirectories(dir);
        TestPki.generate(spec(SEED, users, crlBase), dir);
        TestPki generated = TestPki.load(dir);
        try (var out = Files.newBufferedWriter(marker, StandardCharsets.UTF_8)) {
            want.store(out, "spec of the cached test PKI in this directory; delete the directory to regenerate");
        }
        pkiGenerated = true;
        return generated;
    }

    /** The test PKI of the lab: {@value #CAS} CAs, P-256 users, CRLs served under {@code crlBaseUrl}. */
    static TestPki.Spec spec(long seed, int users, String crlBaseUrl) {
        return new TestPki.Spec().withSeed(seed).withCas(CAS).withUsers(users).withKeyType(TestPki.KeyType.P256)
                .withCrlBaseUrl(crlBaseUrl);
    }

    /** CAs still valid for a day, CRLs not due within an hour. */
    private static boolean fresh(TestPki p) throws PkiException {
        long soon = System.currentTimeMillis() + 3_600_000L;
        for (X509Certificate ca : p.caCertificates()) {
            if (ca.getNotAfter().getTime() < soon + 86_400_000L) {
                return false;
            }
        }
        for (int n = 1; n <= p.caCertificates().size(); n++) {
            X509CRL crl = p.crl(n);
            if (crl.getNextUpdate() != null && crl.getNextUpdate().getTime() < soon) {
                return false;
            }
        }
        return true;
    }

    private byte[] crlBytes(int n) throws IOException {
        return Files.readAllBytes(pki.crlFile(n));
    }

    private SSLContext serverTls(TrustManager[] trust) throws Exception {
        KeyStore ks = pki.serverKeyStore();
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(ks, pki.password().toCharArray());
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), trust, null);
        return ssl;
    }

    /* ---------------------------------------------------------------- HTTP */

    private static void exactPath(HttpExchange ex, String path) throws ApiException {
        if (!ex.getRequestURI().getPath().equals(path)) {
            throw new ApiException(404, ApiException.NOT_FOUND, "no resource at " + ex.getRequestURI().getPath());
        }
    }


    private void root(HttpExchange ex) throws IOException {
        if (RestPkiApi.owns(ex.getRequestURI().getPath())) {
            LabHttp.serve("pki", ex, restPki::handle);
        } else {
            notFound(ex);
        }
    }

    private void notFound(HttpExchange ex) throws IOException {
        LabHttp.serve("pki", ex, e -> {
            throw new ApiException(404, ApiException.NOT_FOUND, "no resource at " + e.getRequestURI().getPath());
        });
    }

    private void crl(HttpExchange ex) throws IOException {
        LabHttp.serve("pki", ex, e -> {
            LabHttp.method(e, "GET");
            if (!crlAvailable) {
                throw new ApiException(503, ApiException.CRL_UNAVAILABLE,
                        "the CRL server is switched off (POST /admin/crl {\"available\": true} switches it on)");
            }
            String name = e.getRequestURI().getPath().substring("/crl/".length());
            byte[] crl = crlFiles.get(name);
            if (crl == null) {
                throw new ApiException(404, ApiException.NOT_FOUND,
                        "no CRL " + name + " (have " + crlFiles.keySet() + ")");
            }
            return new LabHttp.Reply(200, "application/pkix-crl", crl);
        });
    }

    private void tsa(HttpExchange ex) throws IOException {
        LabHttp.serve("pki", ex, e -> {
            if (!e.getRequestURI().getPath().equals("/tsa")) {
                throw new ApiException(404, ApiException.NOT_FOUND, "no resource at " + e.getRequestURI().getPath());
            }
            LabHttp.method(e, "POST");
            byte[] req = LabHttp.body(e, MAX_BODY);
            // like a real TSA, a garbled request gets a TimeStampResp with status "rejection", not an HTTP error
            return new LabHttp.Reply(200, "application/timestamp-reply", responder.respond(req));
        });
    }

    private void health(HttpExchange ex) throws IOException {
        LabHttp.serve("pki", ex, e -> {
            exactPath(e, "/api/health");
            LabHttp.method(e, "GET");
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", "UP");
            m.put("cas", pki.caCertificates().size());
            m.put("users", pki.userAliases().size());
            m.put("pendingSignatures", flow.pendingCount());
            m.put("crlDownloads", crlCache.downloads());
            m.put("crlAvailable", crlAvailable);
            m.put("outstandingNonces", login.outstandingNonces());
            m.put("logins", login.logins());
            m.put("mtlsFullHandshakes", login.fullHandshakes());
            return LabHttp.Reply.json(200, m);
        });
    }

    private void documents(HttpExchange ex) throws IOException {
        LabHttp.serve("pki", ex, e -> {
            LabHttp.method(e, "GET");
            if (!e.getRequestURI().getPath().equals("/documents/sample.pdf")) {
                throw new ApiException(404, ApiException.NOT_FOUND, "no document at " + e.getRequestURI().getPath());
            }
            return new LabHttp.Reply(200, "application/pdf", samplePdf);
        });
    }

    private void mtlsLogin(HttpExchange ex) throws IOException {
        LabHttp.serve("pki", ex, e -> {
            exactPath(e, "/auth/mtls");
            LabHttp.method(e, "GET");
            Certificate[] peer = null;
            if (e instanceof HttpsExchange hx) {
                try {
                    peer = hx.getSSLSession().getPeerCertificates();
                } catch (SSLPeerUnverifiedException none) {
                    // not the mTLS listener
                }
            }
            if (peer == null || peer.length == 0 || !(peer[0] instanceof X509Certificate)) {
                throw ApiException.badRequest("no client certificate on this connection: certificate login by TLS is on"
                        + " the mutual-TLS listener (pki.mtls.url, port base+" + MTLS_OFFSET + ")");
            }
            X509Certificate[] chain = new X509Certificate[peer.length];
            for (int i = 0; i < peer.length; i++) {
                chain[i] = (X509Certificate) peer[i];
            }
            return LabHttp.Reply.json(200, login.mtls(chain));
        });
    }

    private void adminCrl(HttpExchange ex) throws IOException {
        LabHttp.serve("pki", ex, e -> {
            exactPath(e, "/admin/crl");
            LabHttp.method(e, "GET", "POST");
            if (!e.getRemoteAddress().getAddress().isLoopbackAddress()) {
                throw new ApiException(403, ApiException.FORBIDDEN, "the admin switch answers loopback clients only");
            }
            if (e.getRequestMethod().equals("POST")) {
                boolean available;
                try {
                    available = Json.parse(LabHttp.body(e, MAX_BODY)).requiredBool("available");
                } catch (Json.Invalid bad) {
                    throw ApiException.badRequest(bad.getMessage());
                }
                setCrlAvailable(available);
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("available", crlAvailable);
            m.put("crlDownloads", crlCache.downloads());
            return LabHttp.Reply.json(200, m);
        });
    }

    /**
     * Switches the CRL server ({@code GET /crl/...}) on or off. Switching it off also empties the
     * revocation cache, so every check that needs a CRL gets 503 {@code revocationUnavailable} until it is
     * switched on again.
     */
    void setCrlAvailable(boolean available) {
        crlAvailable = available;
        if (!available) {
            crlCache.clear();
        }
        System.err.println("trustload-lab: pki CRL server switched " + (available ? "on" : "off"));
    }

    /** A lifetime in seconds from a system property, else {@code otherwise}. */
    private static java.time.Duration seconds(String property, java.time.Duration otherwise) {
        Integer s = Integer.getInteger(property);
        if (s == null) {
            return otherwise;
        }
        if (s < 1) {
            throw new IllegalArgumentException("-D" + property + " must be at least 1 (seconds), not " + s);
        }
        return java.time.Duration.ofSeconds(s);
    }

    /** Lets a signature token expire now (tests of Rest PKI's answer to an expired token). */
    void expireSignatureToken(String token) {
        flow.expireNow(token);
    }

    /* ---------------------------------------------------------------- results */

    @Override
    public synchronized Map<String, String> properties() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** Milliseconds spent generating or loading the PKI at start. */
    public long pkiMillis() {
        return pkiMillis;
    }

    /** Whether the last start generated the PKI (false: loaded from the cache). */
    public boolean pkiGenerated() {
        return pkiGenerated;
    }

    /**
     * Stops the servers. The PKI directory stays as a cache for the next start (regenerating 1000
     * users costs seconds); delete {@code <socket-dir>/pki} to force a new one.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (janitor != null) {
            janitor.shutdownNow();
        }
        LabHttp.stop(workers, http, https, mtls);
        if (crlCache != null) {
            crlCache.close();
        }
        if (usersFile != null) {
            try {
                Files.deleteIfExists(usersFile);
            } catch (IOException e) {
                System.err.println("trustload-lab: cannot remove " + usersFile + ": " + e);
            }
        }
    }
}
