package org.trustload.lab.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.unboundid.util.json.JSONObject;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;

/**
 * Certificate login against the pki service (3 CAs × 1000 users): challenge–response over Rest PKI's
 * authentication routes (classic {@code /Api/Authentication}, Core {@code api/v2/authentication}, plain HTTP
 * from Lacuna's API description), and mutual TLS on {@code pki.mtls.url}.
 */
class PkiLoginTest {

    @TempDir
    static Path socketDir;

    static PkiLabService service;
    static Map<String, String> props;
    static HttpClient http;
    static List<X509Certificate> anchors;
    static Rogue rogue;
    static RestPkiHttp rest;

    /** A CA the lab does not know and a user it issued. */
    record Rogue(X509Certificate ca, X509Certificate user, PrivateKey userKey) {
    }

    @BeforeAll
    static void start() throws Exception {
        service = new PkiLabService();
        long t0 = System.nanoTime();
        service.start(new LabContext(TestPorts.freeBase(), 0, socketDir, 1000));
        System.err.printf(Locale.ROOT, "pki service (login tests) with 1000 users started in %d ms%n",
                (System.nanoTime() - t0) / 1_000_000);
        props = service.properties();
        rest = new RestPkiHttp(props);
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        anchors = new ArrayList<>();
        try (InputStream in = Files.newInputStream(Path.of(props.get("pki.trust.anchors")))) {
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                anchors.add((X509Certificate) c);
            }
        }
        rogue = rogue();
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
    }

    /* ------------------------------------------------------------------ helpers */

    static Rogue rogue() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair caKey = g.generateKeyPair();
        KeyPair userKey = g.generateKeyPair();
        Date from = new Date(System.currentTimeMillis() - 60_000);
        Date to = new Date(System.currentTimeMillis() + 86_400_000L);
        X500Name caName = new X500Name("CN=Rogue CA,O=Elsewhere");
        X509Certificate ca = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
                caName, BigInteger.ONE, from, to, caName, caKey.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKey.getPrivate())));
        X509Certificate user = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
                caName, BigInteger.TWO, from, to, new X500Name("CN=Rogue User,O=Elsewhere"), userKey.getPublic())
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKey.getPrivate())));
        return new Rogue(ca, user, userKey.getPrivate());
    }

    static String url(String key, String path) {
        return props.get(key) + path;
    }

    static HttpResponse<byte[]> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url("pki.login.url", path))).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    static HttpResponse<byte[]> postJson(String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url("pki.login.url", path)))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    static JSONObject json(HttpResponse<byte[]> r) throws Exception {
        assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
        return new JSONObject(new String(r.body(), StandardCharsets.UTF_8));
    }

    static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    static KeyMaterial key(String alias) throws Exception {
        return RestPkiHttp.key(props, alias);
    }

    static String alias(int i) {
        return String.format(Locale.ROOT, "user%04d", i);
    }

    static String firstAlias(String listKey) {
        return props.get(listKey).split(",")[0].trim();
    }

    static boolean good(int i) {
        String a = alias(i);
        return !List.of(props.get("pki.aliases.revoked").split(",")).contains(a)
                && !List.of(props.get("pki.aliases.expired").split(",")).contains(a);
    }

    /** An error of the lab's own endpoints (CRLs, admin switch, mTLS): {@code {error, message}}. */
    static void assertError(HttpResponse<byte[]> r, int status, String code) throws Exception {
        assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(status);
        JSONObject e = json(r);
        assertThat(e.getFieldAsString("error")).isEqualTo(code);
        assertThat(e.getFieldAsString("message")).isNotBlank();
        assertThat(r.headers().firstValue("X-TrustLoad-Cpu-Us")).isPresent();
    }

    /** Classic {@code GET /Api/Authentication}: the nonce. */
    static byte[] nonce() throws Exception {
        JsonNode n = RestPkiHttp.json(rest.get("/Api/Authentication", RestPkiHttp.Auth.BEARER), 200);
        assertThat(RestPkiHttp.iterable(n.fieldNames())).containsExactly("nonce");
        return RestPkiHttp.bytes(n, "nonce");
    }

    /** Classic {@code POST /Api/Authentication}'s body. */
    static String loginBody(byte[] nonce, X509Certificate cert, byte[] signature) throws Exception {
        return "{\"nonce\":\"" + b64(nonce) + "\",\"certificate\":\"" + b64(cert.getEncoded()) + "\",\"signature\":\""
                + b64(signature) + "\",\"securityContextId\":\"803517ad-3bbc-4169-b085-60053a8f6dbf\"}";
    }

    static HttpResponse<byte[]> postLogin(String body) throws Exception {
        return rest.post("/Api/Authentication", RestPkiHttp.Auth.BEARER, body);
    }

    /** nonce → sign with the user's key → classic login; the answer is always 200 with validation results. */
    static JsonNode login(KeyMaterial key) throws Exception {
        byte[] nonce = nonce();
        return RestPkiHttp.json(postLogin(loginBody(nonce, key.certificate(), key.sign("SHA256withECDSA", nonce))),
                200);
    }

    static void assertAccepted(JsonNode r, KeyMaterial key) {
        assertThat(RestPkiHttp.errorTypes(r.get("validationResults"))).isEmpty();
        assertThat(r.get("certificate").get("subjectName").get("dnString").asText())
                .isEqualTo(key.certificate().getSubjectX500Principal().getName());
    }

    static void assertRefused(JsonNode r, String type) {
        assertThat(RestPkiHttp.errorTypes(r.get("validationResults"))).containsExactly(type);
    }

    /* ------------------------------------------------ challenge–response (Rest PKI authentication) */

    @Test
    void propertiesNameTheLoginEndpoints() {
        int base = Integer.parseInt(props.get("pki.url").replaceAll(".*:", "")) - PkiLabService.HTTP_OFFSET;
        assertThat(props.get("pki.login.url")).isEqualTo(props.get("pki.url"));
        assertThat(props.get("pki.mtls.url")).isEqualTo("https://127.0.0.1:" + (base + 8444));
        assertThat(Path.of(props.get("pki.trust.anchors"))).exists();
    }

    @Test
    void nonceIs32RandomBytesAndNeedsTheAccessToken() throws Exception {
        byte[] a = nonce();
        assertThat(a).hasSize(32);
        assertThat(nonce()).isNotEqualTo(a);
        RestPkiHttp.plainError(rest.get("/Api/Authentication", RestPkiHttp.Auth.NONE), 401);
        RestPkiHttp.plainError(rest.get("/Api/Authentication", RestPkiHttp.Auth.API_KEY), 401);
        HttpResponse<byte[]> d = rest.method("DELETE", "/Api/Authentication", RestPkiHttp.Auth.BEARER);
        RestPkiHttp.plainError(d, 405);
        assertThat(d.headers().firstValue("Allow")).contains("GET, POST");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void loginWorksForAUserOfEachCa(int ca) throws Exception {
        KeyMaterial key = key(alias(ca)); // user i belongs to CA ((i-1) % 3) + 1
        JsonNode r = login(key);
        assertAccepted(r, key);
        assertThat(RestPkiHttp.iterable(r.fieldNames())).containsExactly("certificate", "validationResults");
        assertThat(r.get("certificate").get("issuer").get("subjectName").get("dnString").asText())
                .isEqualTo(anchors.get(ca - 1).getSubjectX500Principal().getName());
        assertThat(r.get("validationResults").get("passedChecks").size()).isPositive();
    }

    @Test
    void coreLoginOverPlainHttpWithATrailingSlash() throws Exception {
        KeyMaterial key = key(alias(4));
        JsonNode p = RestPkiHttp.json(rest.post("/api/v2/authentication/", RestPkiHttp.Auth.API_KEY, "{}"), 200);
        assertThat(p.get("toSignHash").get("algorithm").asText()).isEqualTo("SHA256");
        byte[] hash = RestPkiHttp.bytes(p.get("toSignHash"), "value");
        assertThat(hash).isEqualTo(java.security.MessageDigest.getInstance("SHA-256")
                .digest(RestPkiHttp.bytes(p.get("toSign"), "data")));
        String body = "{\"state\":\"" + p.get("state").asText() + "\",\"certificate\":\""
                + b64(key.certificate().getEncoded())
                + "\",\"signature\":\"" + b64(key.signHash("SHA-256", hash)) + "\"}";
        JsonNode r = RestPkiHttp.json(rest.post("/api/v2/authentication/completion/", RestPkiHttp.Auth.API_KEY, body),
                200);
        assertThat(r.get("success").asBoolean()).isTrue();
        assertThat(r.get("failure").isNull()).isTrue();
        r = RestPkiHttp.json(rest.post("/api/v2/authentication/completion", RestPkiHttp.Auth.API_KEY, body), 200);
        assertThat(r.get("success").asBoolean()).isFalse();
        assertThat(r.get("failure").asText()).isEqualTo("StaleSession");
        RestPkiHttp.plainError(rest.post("/api/v2/authentication/completion", RestPkiHttp.Auth.API_KEY, "{}"), 400);
        RestPkiHttp.plainError(rest.post("/api/v2/authentication", RestPkiHttp.Auth.BEARER, "{}"), 401);
    }

    @Test
    void revokedExpiredAndUnknownCaUsersAreRefusedWith200AndValidationResults() throws Exception {
        assertRefused(login(key(firstAlias("pki.aliases.revoked"))), "CertificateRevoked");
        assertRefused(login(key(firstAlias("pki.aliases.expired"))), "CertificateExpired");
        byte[] nonce = nonce();
        java.security.Signature s = java.security.Signature.getInstance("SHA256withECDSA");
        s.initSign(rogue.userKey());
        s.update(nonce);
        assertRefused(RestPkiHttp.json(postLogin(loginBody(nonce, rogue.user(), s.sign())), 200),
                "CertificateChainRootNotTrusted");
    }

    @Test
    void wrongSignatureIsRefusedAndUsesTheNonce() throws Exception {
        KeyMaterial key = key(alias(5));
        KeyMaterial other = key(alias(6));
        byte[] nonce = nonce();
        assertRefused(RestPkiHttp.json(
                postLogin(loginBody(nonce, key.certificate(), other.sign("SHA256withECDSA", nonce))),
                200), "SignatureAlgorithmValidationFailed");
        // the right signature now comes too late: the nonce was consumed
        RestPkiHttp.apiError(postLogin(loginBody(nonce, key.certificate(), key.sign("SHA256withECDSA", nonce))),
                "EntityNotFound");
        // signed other bytes; a value that is no signature at all
        byte[] n2 = nonce();
        assertRefused(RestPkiHttp.json(postLogin(loginBody(n2, key.certificate(), key.sign("SHA256withECDSA",
                new byte[32]))), 200), "SignatureAlgorithmValidationFailed");
        byte[] n3 = nonce();
        assertRefused(RestPkiHttp.json(postLogin(loginBody(n3, key.certificate(), new byte[] {1, 2, 3})), 200),
                "SignatureAlgorithmValidationFailed");
    }

    @Test
    void reusedOrUnknownNonceIs422EntityNotFound() throws Exception {
        KeyMaterial key = key(alias(7));
        byte[] nonce = nonce();
        String body = loginBody(nonce, key.certificate(), key.sign("SHA256withECDSA", nonce));
        assertAccepted(RestPkiHttp.json(postLogin(body), 200), key);
        RestPkiHttp.apiError(postLogin(body), "EntityNotFound");
        byte[] made = new byte[32];
        new java.util.Random(7).nextBytes(made);
        RestPkiHttp.apiError(postLogin(loginBody(made, key.certificate(), key.sign("SHA256withECDSA", made))),
                "EntityNotFound");
    }

    @Test
    void malformedRequestsLeaveTheNonceUsable() throws Exception {
        KeyMaterial key = key(alias(8));
        byte[] nonce = nonce();
        String cert = b64(key.certificate().getEncoded());
        String sig = b64(key.sign("SHA256withECDSA", nonce));
        String n = b64(nonce);
        RestPkiHttp.plainError(postLogin("{not json"), 400);
        RestPkiHttp.plainError(postLogin(""), 400);
        RestPkiHttp.plainError(postLogin("[]"), 400);
        RestPkiHttp.plainError(postLogin("{\"nonce\":\"%%%\",\"certificate\":\"" + cert + "\",\"signature\":\"" + sig
                + "\"}"), 400);
        RestPkiHttp.plainError(postLogin("{\"nonce\":\"" + n + "\",\"certificate\":\"" + cert + "\",\"signature\":7}"),
                400);
        RestPkiHttp.apiError(postLogin("{\"certificate\":\"" + cert + "\",\"signature\":\"" + sig + "\"}"),
                "InvalidRequest");
        RestPkiHttp.apiError(postLogin("{\"nonce\":\"" + n + "\",\"signature\":\"" + sig + "\"}"), "InvalidRequest");
        RestPkiHttp.apiError(postLogin("{\"nonce\":\"" + n + "\",\"certificate\":\"AAAA\",\"signature\":\"" + sig
                + "\"}"), "PKCertificateMalformed");
        // none of these consumed the nonce
        assertAccepted(RestPkiHttp.json(
                postLogin(loginBody(nonce, key.certificate(), key.sign("SHA256withECDSA", nonce))),
                200), key);
    }

    @Test
    void crlServerDownGivesRevocationStatusUnknownAndBackUpWorksAgain() throws Exception {
        KeyMaterial key = key(alias(10));
        assertAccepted(login(key), key);
        try {
            HttpResponse<byte[]> off = postJson("/admin/crl", "{\"available\": false}");
            assertThat(off.statusCode()).isEqualTo(200);
            assertThat(json(off).getFieldAsBoolean("available")).isFalse();
            assertError(get("/crl/ca-1.crl"), 503, "crlUnavailable");
            assertRefused(login(key), "CertificateRevocationStatusUnknown");
            // a revoked user cannot be told apart either: the server does not know the CRL
            assertRefused(login(key(firstAlias("pki.aliases.revoked"))), "CertificateRevocationStatusUnknown");
            // validity and trust are checked before revocation
            assertRefused(login(key(firstAlias("pki.aliases.expired"))), "CertificateExpired");
            // Rest PKI's ignoreRevocationStatusUnknown: a warning instead of an error
            byte[] nonce = nonce();
            JsonNode lenient = RestPkiHttp.json(
                    postLogin(loginBody(nonce, key.certificate(), key.sign("SHA256withECDSA",
                    nonce)).replace("}", ",\"ignoreRevocationStatusUnknown\":true}")), 200);
            assertAccepted(lenient, key);
            assertThat(lenient.get("validationResults").get("warnings").get(0).get("type").asText())
                    .isEqualTo("CertificateRevocationStatusUnknown");
        } finally {
            assertThat(postJson("/admin/crl", "{\"available\": true}").statusCode()).isEqualTo(200);
        }
        assertThat(get("/crl/ca-1.crl").statusCode()).isEqualTo(200);
        assertAccepted(login(key), key);
        assertRefused(login(key(firstAlias("pki.aliases.revoked"))), "CertificateRevoked");
        assertThat(json(get("/admin/crl")).getFieldAsBoolean("available")).isTrue();
        assertError(postJson("/admin/crl", "{}"), 400, "badRequest");
        assertError(postJson("/admin/crl", "{\"available\":\"no\"}"), 400, "badRequest");
    }

    @Test
    void burstOfLoginsRightAfterTheCrlServerComesBackDoesNotStarveTheCrlDownloads() throws Exception {
        int n = 4 * PkiLabService.THREADS;
        List<KeyMaterial> keys = KeySource.pkcs12(Path.of(props.get("pki.keystore")),
                props.get("pki.keystore.password").toCharArray(), goodAliases(n)).load();
        List<String> bodies = new ArrayList<>();
        for (KeyMaterial key : keys) {
            byte[] nonce = nonce();
            bodies.add(loginBody(nonce, key.certificate(), key.sign("SHA256withECDSA", nonce)));
        }
        assertThat(postJson("/admin/crl", "{\"available\": false}").statusCode()).isEqualTo(200);
        assertThat(postJson("/admin/crl", "{\"available\": true}").statusCode()).isEqualTo(200); // cache now empty
        long t0 = System.nanoTime();
        List<java.util.concurrent.CompletableFuture<HttpResponse<byte[]>>> all = new ArrayList<>();
        for (String body : bodies) {
            all.add(http.sendAsync(HttpRequest.newBuilder(URI.create(url("pki.login.url", "/Api/Authentication")))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + props.get("pki.credential"))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofByteArray()));
        }
        for (var f : all) {
            JsonNode r = RestPkiHttp.json(f.get(30, java.util.concurrent.TimeUnit.SECONDS), 200);
            assertThat(RestPkiHttp.errorTypes(r.get("validationResults"))).isEmpty();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.err.printf(Locale.ROOT, "pki %d concurrent logins (pool parallelism %d) right after the CRL cache was"
                + " emptied: all accepted in %d ms%n", n, PkiLabService.THREADS, ms);
        assertThat(ms).as("no worker starvation (a CRL wait times out after 10 s)").isLessThan(9_000);
    }

    @Test
    void measureServerCpuPerLogin() throws Exception {
        List<KeyMaterial> keys = KeySource.pkcs12(Path.of(props.get("pki.keystore")),
                props.get("pki.keystore.password").toCharArray(), goodAliases(200)).load();
        int n = Integer.getInteger("trustload.measure.rounds", 100); // more for a profile; warm-up n/2
        long nonceCpu = 0;
        long loginCpu = 0;
        long wall0 = 0;
        for (int i = -n / 2; i < n; i++) {
            if (i == 0) {
                wall0 = System.nanoTime();
            }
            KeyMaterial key = keys.get(Math.floorMod(i, keys.size()));
            HttpResponse<byte[]> nr = rest.get("/Api/Authentication", RestPkiHttp.Auth.BEARER);
            byte[] nonce = RestPkiHttp.bytes(RestPkiHttp.json(nr, 200), "nonce");
            HttpResponse<byte[]> lr = postLogin(
                    loginBody(nonce, key.certificate(), key.sign("SHA256withECDSA", nonce)));
            assertAccepted(RestPkiHttp.json(lr, 200), key);
            if (i >= 0) {
                nonceCpu += Long.parseLong(nr.headers().firstValue("X-TrustLoad-Cpu-Us").orElseThrow());
                loginCpu += Long.parseLong(lr.headers().firstValue("X-TrustLoad-Cpu-Us").orElseThrow());
            }
        }
        double wallMs = (System.nanoTime() - wall0) / 1e6 / n;
        System.err.printf(Locale.ROOT,
                "pki Rest PKI authentication (P-256, 200 users of 3 CAs, cached CRLs): server CPU"
                + " per nonce %.3f ms, per completion %.3f ms, per authentication %.3f ms; client wall per"
                + " nonce+sign+completion %.2f ms (%d logins)%n",
                nonceCpu / 1000.0 / n, loginCpu / 1000.0 / n, (nonceCpu + loginCpu) / 1000.0 / n, wallMs, n);
        assertThat(loginCpu).isPositive();
    }

    static List<String> goodAliases(int count) {
        List<String> out = new ArrayList<>();
        for (int i = 1; out.size() < count; i++) {
            if (good(i)) {
                out.add(alias(i));
            }
        }
        return out;
    }

    /* ------------------------------------------------------------------ mutual TLS */

    /** A key manager that always offers the given key, whatever the server asks for. */
    static X509ExtendedKeyManager fixedKey(PrivateKey key, X509Certificate... chain) {
        return new X509ExtendedKeyManager() {
            @Override
            public String[] getClientAliases(String keyType, Principal[] issuers) {
                return new String[] {"me"};
            }

            @Override
            public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
                return "me";
            }

            @Override
            public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
                return "me";
            }

            @Override
            public String[] getServerAliases(String keyType, Principal[] issuers) {
                return null;
            }

            @Override
            public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
                return null;
            }

            @Override
            public X509Certificate[] getCertificateChain(String alias) {
                return chain;
            }

            @Override
            public PrivateKey getPrivateKey(String alias) {
                return key;
            }
        };
    }

    static SSLContext clientTls(X509ExtendedKeyManager km) throws Exception {
        KeyStore ts = KeyStore.getInstance("PKCS12");
        ts.load(null, null);
        for (int i = 0; i < anchors.size(); i++) {
            ts.setCertificateEntry("ca-" + (i + 1), anchors.get(i));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(ts);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(km == null ? null : new javax.net.ssl.KeyManager[] {km}, tmf.getTrustManagers(), null);
        return ssl;
    }

    static SSLContext clientTls(KeyMaterial key) throws Exception {
        return clientTls(fixedKey(key.privateKey(), key.chain().toArray(new X509Certificate[0])));
    }

    /** The JDK's own key manager over a PKCS#12 with the user's key, as a JMeter keystore config would use. */
    static SSLContext clientTlsFromKeyStore(KeyMaterial key) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("user", key.privateKey(), "pw".toCharArray(), key.chain().toArray(new X509Certificate[0]));
        javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance("SunX509");
        kmf.init(ks, "pw".toCharArray());
        KeyStore ts = KeyStore.getInstance("PKCS12");
        ts.load(null, null);
        for (int i = 0; i < anchors.size(); i++) {
            ts.setCertificateEntry("ca-" + (i + 1), anchors.get(i));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(ts);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ssl;
    }

    static HttpResponse<byte[]> mtlsGet(SSLContext ssl) throws Exception {
        HttpClient c = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        return c.send(HttpRequest.newBuilder(URI.create(url("pki.mtls.url", "/auth/mtls")))
                .timeout(Duration.ofSeconds(10))
                .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void mtlsLoginWorksForAUserOfEachCa(int ca) throws Exception {
        KeyMaterial key = key(alias(ca + 12));
        HttpResponse<byte[]> r = mtlsGet(clientTlsFromKeyStore(key));
        assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        JSONObject j = json(r);
        assertThat(j.getFieldAsString("status")).isEqualTo("OK");
        assertThat(j.getFieldAsString("subject")).isEqualTo(key.certificate().getSubjectX500Principal().getName());
        assertThat(j.getFieldAsInteger("ca")).isEqualTo(ca);
        assertThat(r.headers().firstValue("X-TrustLoad-Cpu-Us")).isPresent();
    }

    @Test
    void mtlsRevokedAndExpiredUsersGet403() throws Exception {
        assertError(mtlsGet(clientTls(key(firstAlias("pki.aliases.revoked")))), 403, "certificateRevoked");
        assertError(mtlsGet(clientTls(key(firstAlias("pki.aliases.expired")))), 403, "certificateExpired");
    }

    @Test
    void mtlsClientCertificateOfAnUnknownCaFailsTheHandshake() throws Exception {
        SSLContext ssl = clientTls(fixedKey(rogue.userKey(), rogue.user(), rogue.ca()));
        assertThatThrownBy(() -> mtlsGet(ssl)).isInstanceOf(IOException.class);
    }

    @Test
    void mtlsWithoutClientCertificateFailsTheHandshake() throws Exception {
        SSLContext ssl = clientTls((X509ExtendedKeyManager) null);
        assertThatThrownBy(() -> mtlsGet(ssl)).isInstanceOf(IOException.class);
    }

    @Test
    void mtlsEndpointOnThePlainListenersSaysWhereToGo() throws Exception {
        assertError(get("/auth/mtls"), 400, "badRequest");
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void sessionsAreResumedWhenTheClientReusesThemAndNotOtherwise(String protocol) throws Exception {
        KeyMaterial key = key(alias(20));
        SSLContext ssl = clientTls(key);
        int port = URI.create(props.get("pki.mtls.url")).getPort();
        long h0 = fullHandshakes();
        byte[] first = handshake(ssl, port, protocol);
        long h1 = fullHandshakes();
        byte[] second = handshake(ssl, port, protocol); // same context: the JDK client offers the cached session
        long h2 = fullHandshakes();
        byte[] third = handshake(clientTls(key), port, protocol); // new context, empty session cache
        long h3 = fullHandshakes();
        System.err.printf(Locale.ROOT, "mtls %s: full handshakes +%d, reused context +%d, fresh context +%d;"
                + " session ids %s / %s / %s%n", protocol, h1 - h0, h2 - h1, h3 - h2, hex(first),
                hex(second), hex(third));
        assertThat(h1 - h0).as("first connection: full handshake").isEqualTo(1);
        assertThat(h2 - h1).as("same SSLContext: resumed, no client certificate check").isZero();
        assertThat(h3 - h2).as("fresh SSLContext: full handshake").isEqualTo(1);
        if (protocol.equals("TLSv1.2")) {
            assertThat(second).isEqualTo(first); // TLS 1.3 resumption (PSK) gives the session a new id
        }
    }

    static long fullHandshakes() throws Exception {
        return json(get("/api/health")).getFieldAsLong("mtlsFullHandshakes");
    }

    static byte[] handshake(SSLContext ssl, int port, String protocol) throws Exception {
        try (SSLSocket s = (SSLSocket) ssl.getSocketFactory().createSocket("127.0.0.1", port)) {
            SSLParameters p = s.getSSLParameters();
            p.setProtocols(new String[] {protocol});
            s.setSSLParameters(p);
            s.setSoTimeout(10_000);
            s.setTcpNoDelay(true);
            s.startHandshake();
            s.getOutputStream().write("GET /auth/mtls HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 200");
            return s.getSession().getId();
        }
    }

    static String hex(byte[] b) {
        return b.length == 0 ? "-" : new BigInteger(1, b).toString(16);
    }

    @Test
    void measureMtlsFullHandshakes() throws Exception {
        List<KeyMaterial> keys = KeySource.pkcs12(Path.of(props.get("pki.keystore")),
                props.get("pki.keystore.password").toCharArray(), goodAliases(60)).load();
        int port = URI.create(props.get("pki.mtls.url")).getPort();
        int n = 100;
        long cpu = 0;
        long wall0 = 0;
        java.lang.management.ThreadMXBean tmx = java.lang.management.ManagementFactory.getThreadMXBean();
        long clientCpu0 = 0;
        for (int i = -30; i < n; i++) {
            if (i == 0) {
                wall0 = System.nanoTime();
                clientCpu0 = tmx.getCurrentThreadCpuTime();
            }
            SSLContext ssl = clientTls(keys.get(Math.floorMod(i, keys.size()))); // new context: no resumption
            cpu += handshakeCpu(ssl, port, i >= 0);
        }
        double wallMs = (System.nanoTime() - wall0) / 1e6 / n;
        double clientMs = (tmx.getCurrentThreadCpuTime() - clientCpu0) / 1e6 / n;
        System.err.printf(Locale.ROOT,
                "pki mTLS login, full handshake each (TLS 1.3, P-256 client keys): server handler"
                + " CPU %.3f ms (excluding the handshake); client wall %.2f ms, client thread CPU %.2f"
                + " ms per login (%d)%n",
                cpu / 1000.0 / n, wallMs, clientMs, n);
    }

    static long handshakeCpu(SSLContext ssl, int port, boolean count) throws Exception {
        try (SSLSocket s = (SSLSocket) ssl.getSocketFactory().createSocket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.setTcpNoDelay(true);
            s.getOutputStream().write("GET /auth/mtls HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 200");
            if (!count) {
                return 0;
            }
            String h = answer.lines().filter(l -> l.toLowerCase(Locale.ROOT).startsWith("x-trustload-cpu-us:"))
                    .findFirst().orElseThrow();
            return Long.parseLong(h.substring(h.indexOf(':') + 1).trim());
        }
    }
}
