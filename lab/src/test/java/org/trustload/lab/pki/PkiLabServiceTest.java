package org.trustload.lab.pki;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.util.json.JSONObject;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.tsp.TimeStampToken;
import org.bouncycastle.cms.CMSSignedData;
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
import org.trustload.pki.SignatureValidator;
import org.trustload.pki.TimestampClient;
import org.trustload.pki.ValidationReport;

/**
 * Starts the pki service in-process with the default 1000 users and drives it over HTTP the way a
 * load-test client does: keys from the {@code pki.keystore} it announces, documents from
 * {@code pki.document}.
 */
class PkiLabServiceTest {

    @TempDir
    static Path socketDir;

    static PkiLabService service;
    static Map<String, String> props;
    static HttpClient http;
    static byte[] pdf;
    static List<X509Certificate> anchors;

    @BeforeAll
    static void start() throws Exception {
        service = new PkiLabService();
        long t0 = System.nanoTime();
        service.start(new LabContext(TestPorts.freeBase(), 0, socketDir, 1000));
        System.err.printf(Locale.ROOT, "pki service with 1000 users started in %d ms (pki %s in %d ms)%n",
                (System.nanoTime() - t0) / 1_000_000, service.pkiGenerated() ? "generated" : "loaded", service.pkiMillis());
        props = service.properties();
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        pdf = Files.readAllBytes(Path.of(props.get("pki.document")));
        anchors = new ArrayList<>();
        try (InputStream in = Files.newInputStream(Path.of(props.get("pki.trust.anchors")))) {
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                anchors.add((X509Certificate) c);
            }
        }
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
    }

    /* ------------------------------------------------------------------ helpers */

    static HttpResponse<byte[]> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(props.get("pki.url") + path)).GET().build());
    }

    static HttpResponse<byte[]> post(String path, String contentType, byte[] body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(props.get("pki.url") + path))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    /**
     * Sends with the shared client, once more if the pooled keep-alive connection it picked had just been
     * closed by the server ("header parser received no bytes": no answer at all, so nothing was
     * processed; seen once in CI after a run of 400 answers).
     */
    private static HttpResponse<byte[]> send(HttpRequest request) throws Exception {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (java.io.IOException e) {
            if (String.valueOf(e.getMessage()).contains("received no bytes")) {
                return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            }
            throw e;
        }
    }

    static HttpResponse<byte[]> postJson(String path, String json) throws Exception {
        return post(path, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    static JSONObject json(HttpResponse<byte[]> r) throws Exception {
        assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
        return new JSONObject(new String(r.body(), StandardCharsets.UTF_8));
    }

    static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    static KeyMaterial key(String alias) throws Exception {
        return KeySource.pkcs12(Path.of(props.get("pki.keystore")), props.get("pki.keystore.password").toCharArray(),
                List.of(alias)).load().get(0);
    }

    static String firstAlias(String listKey) {
        String list = props.get(listKey);
        assertThat(list).as(listKey).isNotBlank();
        return list.split(",")[0].trim();
    }

    static String goodAlias() {
        return String.format(Locale.ROOT, "user%04d", 1 + findGood());
    }

    private static int findGood() {
        List<String> bad = new ArrayList<>(List.of(props.get("pki.aliases.revoked").split(",")));
        bad.addAll(List.of(props.get("pki.aliases.expired").split(",")));
        for (int i = 0; ; i++) {
            if (!bad.contains(String.format(Locale.ROOT, "user%04d", i + 1))) {
                return i;
            }
        }
    }

    static String startBody(byte[] document, X509Certificate cert, boolean attached) throws Exception {
        return "{\"document\":\"" + b64(document) + "\",\"certificate\":\"" + b64(cert.getEncoded())
                + "\",\"digest\":\"SHA-256\",\"attached\":" + attached + "}";
    }

    static List<X509CRL> crls() throws Exception {
        List<X509CRL> out = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            out.add((X509CRL) CertificateFactory.getInstance("X.509")
                    .generateCRL(new ByteArrayInputStream(get("/crl/ca-" + n + ".crl").body())));
        }
        return out;
    }

    /* ------------------------------------------------------------------ tests */

    @Test
    void propertiesNameEveryEndpointAndFile() {
        assertThat(props).containsKeys("pki.url", "pki.tsa.url", "pki.keystore", "pki.keystore.password",
                "pki.keystore.type", "pki.users", "pki.aliases.revoked", "pki.aliases.expired", "pki.trust.anchors",
                "pki.document", "pki.dir");
        assertThat(props.get("pki.url")).startsWith("http://127.0.0.1:");
        assertThat(props.get("pki.tsa.url")).isEqualTo(props.get("pki.url") + "/tsa");
        assertThat(props.get("pki.users")).isEqualTo("1000");
        assertThat(props.get("pki.keystore.type")).isEqualTo("PKCS12");
        assertThat(Path.of(props.get("pki.keystore"))).isAbsolute().exists();
        assertThat(Path.of(props.get("pki.trust.anchors"))).isAbsolute().exists();
        assertThat(Path.of(props.get("pki.document"))).isAbsolute();
        // SamplePdf.generate(137 KiB) promises "within a few percent"; at e5dc74d/05a5a9c it gives 186,428 bytes
        // (reported to pkisign). Keep the check loose until that is fixed.
        System.err.printf(Locale.ROOT, "pki sample.pdf: %d bytes (target %d)%n", pdf.length, 137 * 1024);
        assertThat(pdf.length).isBetween(100 * 1024, 200 * 1024);
        assertThat(anchors).hasSize(3);
    }

    @Test
    void healthAndSampleDocument() throws Exception {
        HttpResponse<byte[]> h = get("/api/health");
        assertThat(h.statusCode()).isEqualTo(200);
        assertThat(json(h).getFieldAsString("status")).isEqualTo("UP");
        HttpResponse<byte[]> d = get("/documents/sample.pdf");
        assertThat(d.statusCode()).isEqualTo(200);
        assertThat(d.headers().firstValue("Content-Type")).contains("application/pdf");
        assertThat(d.body()).isEqualTo(pdf);
        assertThat(get("/nothing").statusCode()).isEqualTo(404);
    }

    @Test
    void httpsServesTheSameApiWithTheServerCertificateIssuedByCa1() throws Exception {
        java.security.KeyStore ts = java.security.KeyStore.getInstance("PKCS12");
        ts.load(null, null);
        for (int i = 0; i < anchors.size(); i++) {
            ts.setCertificateEntry("ca-" + (i + 1), anchors.get(i));
        }
        javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance("PKIX");
        tmf.init(ts);
        javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        HttpClient https = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).build();
        assertThat(props.get("pki.https.url")).startsWith("https://127.0.0.1:");
        HttpResponse<byte[]> r = https.send(HttpRequest.newBuilder(URI.create(props.get("pki.https.url") + "/api/health"))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).getFieldAsString("status")).isEqualTo("UP");
    }

    @Test
    void crlsAreServedSignedByTheirCaAndListTheRevokedUsers() throws Exception {
        HttpResponse<byte[]> r = get("/crl/ca-1.crl");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).contains("application/pkix-crl");
        List<X509CRL> crls = crls();
        int revokedEntries = 0;
        for (int i = 0; i < 3; i++) {
            crls.get(i).verify(anchors.get(i).getPublicKey());
            assertThat(crls.get(i).getNextUpdate()).isAfter(new Date());
            revokedEntries += crls.get(i).getRevokedCertificates() == null ? 0 : crls.get(i).getRevokedCertificates().size();
        }
        assertThat(revokedEntries).isEqualTo(props.get("pki.aliases.revoked").split(",").length);
        X509Certificate revoked = key(firstAlias("pki.aliases.revoked")).certificate();
        assertThat(crls.stream().anyMatch(c -> c.isRevoked(revoked))).isTrue();
        assertThat(get("/crl/ca-9.crl").statusCode()).isEqualTo(404);
    }

    @Test
    void tsaRoundTripWithTheLibClient() throws Exception {
        byte[] imprint = MessageDigest.getInstance("SHA-256").digest("hello".getBytes(StandardCharsets.UTF_8));
        byte[] token = new TimestampClient(URI.create(props.get("pki.tsa.url")), Duration.ofSeconds(5), Duration.ofSeconds(10)).timestamp(imprint, "SHA-256");
        TimeStampToken t = new TimeStampToken(new CMSSignedData(token));
        assertThat(t.getTimeStampInfo().getMessageImprintDigest()).isEqualTo(imprint);
        ValidationReport report = validator().validateTimestamp(token, "hello".getBytes(StandardCharsets.UTF_8));
        assertThat(report.valid()).as(report.toString()).isTrue();

        HttpResponse<byte[]> garbage = post("/tsa", "application/timestamp-query", new byte[] {1, 2, 3});
        assertThat(garbage.statusCode()).isEqualTo(200);
        assertThat(garbage.headers().firstValue("Content-Type")).contains("application/timestamp-reply");
        assertThat(new org.bouncycastle.tsp.TimeStampResponse(garbage.body()).getStatus()).isEqualTo(2); // rejection
        assertThat(get("/tsa").statusCode()).isEqualTo(405);
    }

    static SignatureValidator validator() throws Exception {
        return new SignatureValidator(anchors, crls(), java.time.Instant.now());
    }

    /** start → sign toBeSigned locally → complete; returns the completion's answer. */
    static JSONObject signRemotely(String format, KeyMaterial key, byte[] document, boolean attached) throws Exception {
        HttpResponse<byte[]> s = postJson("/api/signatures/" + format + "/start", startBody(document, key.certificate(), attached));
        assertThat(s.statusCode()).as(new String(s.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        JSONObject started = json(s);
        String token = started.getFieldAsString("token");
        byte[] tbs = Base64.getDecoder().decode(started.getFieldAsString("toBeSigned"));
        String alg = started.getFieldAsString("signatureAlgorithm");
        assertThat(alg).isEqualTo("SHA256withECDSA");
        byte[] value = key.sign(alg, tbs);
        HttpResponse<byte[]> c = postJson("/api/signatures/" + token + "/complete", "{\"signature\":\"" + b64(value) + "\"}");
        assertThat(c.statusCode()).as(new String(c.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        return json(c);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cades", "cades-t", "pades", "pades-t"})
    void fullFlowGivesASignatureOurValidatorAccepts(String format) throws Exception {
        KeyMaterial key = key(goodAlias());
        JSONObject done = signRemotely(format, key, pdf, true);
        byte[] signed = Base64.getDecoder().decode(done.getFieldAsString("signature"));
        assertThat(done.getFieldAsInteger("size")).isEqualTo(signed.length);
        assertThat(done.getFieldAsString("format")).isEqualTo(format.startsWith("pades") ? "pades" : "cades");
        ValidationReport report = format.startsWith("pades")
                ? validator().validatePades(signed)
                : validator().validateCades(signed, null);
        assertThat(report.valid()).as(report.toString()).isTrue();
        assertThat(report.signer()).isEqualTo(key.certificate().getSubjectX500Principal().getName());
        assertThat(report.timestamped()).isEqualTo(format.endsWith("-t"));
    }

    @Test
    void detachedCadesValidatesWithTheContent() throws Exception {
        KeyMaterial key = key(goodAlias());
        byte[] content = "detached content".getBytes(StandardCharsets.UTF_8);
        JSONObject done = signRemotely("cades", key, content, false);
        byte[] cms = Base64.getDecoder().decode(done.getFieldAsString("signature"));
        assertThat(new CMSSignedData(cms).getSignedContent()).isNull();
        ValidationReport report = validator().validateCades(cms, content);
        assertThat(report.valid()).as(report.toString()).isTrue();
    }

    static void assertError(HttpResponse<byte[]> r, int status, String code) throws Exception {
        assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(status);
        JSONObject e = json(r);
        assertThat(e.getFieldAsString("error")).isEqualTo(code);
        assertThat(e.getFieldAsString("message")).isNotBlank();
    }

    @Test
    void revokedUserIsRefusedWith403() throws Exception {
        KeyMaterial key = key(firstAlias("pki.aliases.revoked"));
        assertError(postJson("/api/signatures/cades/start", startBody(pdf, key.certificate(), true)), 403, "certificateRevoked");
    }

    @Test
    void expiredUserIsRefusedWith403() throws Exception {
        KeyMaterial key = key(firstAlias("pki.aliases.expired"));
        assertError(postJson("/api/signatures/pades/start", startBody(pdf, key.certificate(), true)), 403, "certificateExpired");
    }

    @Test
    void certificateFromAnUnknownCaIsUntrusted() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair kp = g.generateKeyPair();
        // same subject DN as a lab CA would be a stronger test; use the lab CA's name with another key
        X500Name issuer = X500Name.getInstance(anchors.get(0).getSubjectX500Principal().getEncoded());
        X509Certificate rogue = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
                issuer, BigInteger.valueOf(7), new Date(System.currentTimeMillis() - 60_000),
                new Date(System.currentTimeMillis() + 86_400_000L), new X500Name("CN=rogue"), kp.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(kp.getPrivate())));
        assertError(postJson("/api/signatures/cades/start", startBody(pdf, rogue, true)), 403, "untrustedCertificate");
    }

    @Test
    void wrongSignatureValueIs422AndUsesTheToken() throws Exception {
        KeyMaterial key = key(goodAlias());
        KeyMaterial other = key(String.format(Locale.ROOT, "user%04d", findGood() + 2));
        JSONObject started = json(postJson("/api/signatures/cades/start", startBody(pdf, key.certificate(), true)));
        String token = started.getFieldAsString("token");
        byte[] tbs = Base64.getDecoder().decode(started.getFieldAsString("toBeSigned"));
        byte[] wrong = other.sign(started.getFieldAsString("signatureAlgorithm"), tbs);
        String path = "/api/signatures/" + token + "/complete";
        assertError(postJson(path, "{\"signature\":\"" + b64(wrong) + "\"}"), 422, "invalidSignature");
        assertError(postJson(path, "{\"signature\":\"" + b64(key.sign("SHA256withECDSA", tbs)) + "\"}"), 404, "unknownToken");
    }

    @Test
    void reusedTokenIs404() throws Exception {
        KeyMaterial key = key(goodAlias());
        JSONObject started = json(postJson("/api/signatures/cades/start", startBody(pdf, key.certificate(), true)));
        String token = started.getFieldAsString("token");
        byte[] value = key.sign(started.getFieldAsString("signatureAlgorithm"),
                Base64.getDecoder().decode(started.getFieldAsString("toBeSigned")));
        String body = "{\"signature\":\"" + b64(value) + "\"}";
        assertThat(postJson("/api/signatures/" + token + "/complete", body).statusCode()).isEqualTo(200);
        assertError(postJson("/api/signatures/" + token + "/complete", body), 404, "unknownToken");
        assertError(postJson("/api/signatures/nosuchtoken/complete", body), 404, "unknownToken");
    }

    @Test
    void badInputIs400() throws Exception {
        X509Certificate cert = key(goodAlias()).certificate();
        assertError(postJson("/api/signatures/cades/start", "{not json"), 400, "badRequest");
        assertError(postJson("/api/signatures/cades/start", ""), 400, "badRequest");
        assertError(postJson("/api/signatures/cades/start", "{\"certificate\":\"" + b64(cert.getEncoded()) + "\"}"),
                400, "badRequest");
        assertError(postJson("/api/signatures/cades/start", "{\"document\":\"***\",\"certificate\":\""
                + b64(cert.getEncoded()) + "\"}"), 400, "invalidDocument");
        assertError(postJson("/api/signatures/cades/start", "{\"document\":\"AAAA\",\"certificate\":\"%%%\"}"),
                400, "invalidCertificate");
        assertError(postJson("/api/signatures/cades/start", "{\"document\":\"AAAA\",\"certificate\":\"AAAA\"}"),
                400, "invalidCertificate");
        assertError(postJson("/api/signatures/cades/start", startBody(pdf, cert, true).replace("SHA-256", "MD5")),
                400, "badRequest");
        byte[] notPdf = "this is not a PDF at all".getBytes(StandardCharsets.UTF_8);
        assertError(postJson("/api/signatures/pades/start", startBody(notPdf, cert, true)), 400, "invalidDocument");
        byte[] corrupt = new byte[4096];
        new java.util.Random(1).nextBytes(corrupt);
        System.arraycopy("%PDF-1.7\n".getBytes(StandardCharsets.US_ASCII), 0, corrupt, 0, 9);
        assertError(postJson("/api/signatures/pades-t/start", startBody(corrupt, cert, true)), 400, "invalidDocument");
        assertError(postJson("/api/signatures/nosuch/start", startBody(pdf, cert, true)), 404, "notFound");
        assertError(postJson("/api/signatures/sometoken/complete", "{\"signature\":\"!!\"}"), 400, "badRequest");
        assertError(get("/api/signatures/cades/start"), 405, "methodNotAllowed");
    }

    /**
     * A request rejected before its body is read (unknown format, 200 KB body) still gets its whole answer
     * and leaves the keep-alive connection usable: the server reads the rest of the body before answering.
     * Before, the JDK server drained 64 KiB, closed with the rest unread, and the kernel's reset could
     * destroy the answer in flight (CI: "fixed content-length: 99, bytes received: 0"); here the second
     * request on the same socket failed every time.
     */
    @Test
    void rejectedLargeBodyLeavesTheConnectionUsable() throws Exception {
        URI url = URI.create(props.get("pki.url"));
        byte[] body = new byte[200 * 1024];
        java.util.Arrays.fill(body, (byte) 'A');
        try (java.net.Socket s = new java.net.Socket(url.getHost(), url.getPort())) {
            s.setSoTimeout(10_000);
            var out = s.getOutputStream();
            var in = new java.io.BufferedInputStream(s.getInputStream());
            for (int i = 0; i < 3; i++) {
                out.write(("POST /api/signatures/nosuch/start HTTP/1.1\r\nHost: " + url.getAuthority()
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                String[] answer = readAnswer(in);
                assertThat(answer[0]).startsWith("HTTP/1.1 404");
                assertThat(answer[1]).contains("\"notFound\"");
            }
            out.write(("GET /api/health HTTP/1.1\r\nHost: " + url.getAuthority() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readAnswer(in)[0]).startsWith("HTTP/1.1 200");
        }
    }

    /** Reads one HTTP/1.1 answer with a Content-Length: {status line, body}. */
    private static String[] readAnswer(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            assertThat(c).as("the server closed the connection; so far: " + head).isNotEqualTo(-1);
            head.append((char) c);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        byte[] b = in.readNBytes(length);
        assertThat(b).hasSize(length);
        return new String[] {head.substring(0, head.indexOf("\r\n")), new String(b, StandardCharsets.UTF_8)};
    }

    @Test
    void measureServerCpuPerCadesComplete() throws Exception {
        KeyMaterial key = key(goodAlias());
        int n = 200;
        long startCpu = 0;
        long completeCpu = 0;
        long wall0 = 0;
        for (int i = -50; i < n; i++) { // 50 warm-up rounds
            if (i == 0) {
                wall0 = System.nanoTime();
            }
            HttpResponse<byte[]> s = postJson("/api/signatures/cades/start", startBody(pdf, key.certificate(), true));
            JSONObject started = json(s);
            byte[] value = key.sign(started.getFieldAsString("signatureAlgorithm"),
                    Base64.getDecoder().decode(started.getFieldAsString("toBeSigned")));
            HttpResponse<byte[]> c = postJson("/api/signatures/" + started.getFieldAsString("token") + "/complete",
                    "{\"signature\":\"" + b64(value) + "\"}");
            assertThat(c.statusCode()).isEqualTo(200);
            if (i >= 0) {
                startCpu += Long.parseLong(s.headers().firstValue("X-TrustLoad-Cpu-Us").orElseThrow());
                completeCpu += Long.parseLong(c.headers().firstValue("X-TrustLoad-Cpu-Us").orElseThrow());
            }
        }
        double wallMs = (System.nanoTime() - wall0) / 1e6 / n;
        System.err.printf(Locale.ROOT, "pki CAdES (137 KB PDF, attached, P-256): server CPU per start %.2f ms,"
                + " per complete %.2f ms; client wall per start+sign+complete %.2f ms (%d rounds)%n",
                startCpu / 1000.0 / n, completeCpu / 1000.0 / n, wallMs, n);
        assertThat(completeCpu).isPositive();
    }

}
