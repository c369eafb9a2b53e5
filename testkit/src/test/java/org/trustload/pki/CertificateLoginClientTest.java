package org.trustload.pki;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.trustload.testing.TestHttpServer;

/** The login client against tiny local servers: the happy path, refusals, garbage, timeouts, no server. */
class CertificateLoginClientTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static byte[] json(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A login server that really verifies the signature over the nonce it handed out. */
    private static TestHttpServer verifyingServer(String nonceField, String sigField, AtomicReference<JsonNode> seen)
            throws Exception {
        byte[] nonce = new byte[32];
        new java.security.SecureRandom().nextBytes(nonce);
        String b64 = Base64.getEncoder().encodeToString(nonce);
        return new TestHttpServer()
                .on("/auth/nonce", (body, ex) -> TestHttpServer.reply(ex, 200, "application/json",
                        json("{\"" + nonceField + "\":\"" + b64 + "\",\"expiresIn\":120}")))
                .on("/auth/login", (body, ex) -> {
                    JsonNode r = JSON.readTree(body);
                    seen.set(r);
                    try {
                        X509Certificate c = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
                                new ByteArrayInputStream(Base64.getDecoder().decode(r.get("certificate").asText())));
                        Signature s = Signature.getInstance(r.get("signatureAlgorithm").asText());
                        s.initVerify(c.getPublicKey());
                        s.update(Base64.getDecoder().decode(r.get(nonceField).asText()));
                        boolean ok = r.get(nonceField).asText().equals(b64)
                                && s.verify(Base64.getDecoder().decode(r.get(sigField).asText()));
                        TestHttpServer.reply(ex, ok ? 200 : 401, "application/json", json(ok
                                ? "{\"status\":\"OK\",\"subject\":\"" + c.getSubjectX500Principal().getName() + "\",\"ca\":1,\"sessionId\":\"s1\"}"
                                : "{\"error\":\"invalidSignature\",\"message\":\"bad\"}"));
                    } catch (Exception e) {
                        TestHttpServer.reply(ex, 400, "application/json", json("{\"error\":\"badRequest\",\"message\":\"" + e + "\"}"));
                    }
                });
    }

    @Test
    void challengeResponseSignsTheRawNonceAndReportsThreeSteps() throws Exception {
        KeyMaterial key = TestKeys.user(TestKeys.Type.P256);
        AtomicReference<JsonNode> seen = new AtomicReference<>();
        try (TestHttpServer server = verifyingServer("nonce", "signature", seen)) {
            CertificateLoginClient c = CertificateLoginClient.builder().loginUrl(server.uri("/")).build();
            CertificateLoginClient.Login login = c.challengeResponse(key);
            assertThat(login.failure()).isNull();
            assertThat(login.status()).isEqualTo(200);
            assertThat(login.subject()).isEqualTo(key.certificate().getSubjectX500Principal().getName());
            assertThat(login.steps()).extracting(CertificateLoginClient.Step::name).containsExactly("nonce", "sign", "login");
            assertThat(login.steps()).allMatch(CertificateLoginClient.Step::ok);
            assertThat(seen.get().get("signatureAlgorithm").asText()).isEqualTo("SHA256withECDSA");
            assertThat(seen.get().get("chain").size()).isEqualTo(key.chain().size());
        }
    }

    @Test
    void fieldNamesAndNonceMethodAreConfigurable() throws Exception {
        KeyMaterial key = TestKeys.user(TestKeys.Type.P256);
        AtomicReference<JsonNode> seen = new AtomicReference<>();
        try (TestHttpServer server = verifyingServer("challenge", "sig", seen)) {
            CertificateLoginClient c = CertificateLoginClient.builder().loginUrl(server.uri("/"))
                    .nonceMethod("POST").fields(new CertificateLoginClient.Fields("challenge", "certificate", "",
                            "sig", "signatureAlgorithm")).build();
            assertThat(c.challengeResponse(key).failure()).isNull();
            assertThat(seen.get().has("chain")).isFalse();
        }
    }

    @Test
    void theServersRefusalBecomesItsCodeWithAStableMessage() throws Exception {
        try (TestHttpServer server = new TestHttpServer()
                .on("/auth/nonce", (b, ex) -> TestHttpServer.reply(ex, 200, "application/json", json("{\"nonce\":\"AAECAw==\"}")))
                .on("/auth/login", (b, ex) -> TestHttpServer.reply(ex, 403, "application/json",
                        json("{\"error\":\"certificateRevoked\",\"message\":\"serial 1f on CRL of CA 2\"}")))) {
            CertificateLoginClient.Login login = CertificateLoginClient.builder().loginUrl(server.uri("/")).build()
                    .challengeResponse(TestKeys.user(TestKeys.Type.P256));
            assertThat(login.code()).isEqualTo("certificateRevoked");
            assertThat(login.failure().getMessage()).isEqualTo("HTTP 403 certificateRevoked");
            assertThat(login.failure().detail()).contains("serial 1f on CRL of CA 2");
            assertThat(login.steps()).extracting(CertificateLoginClient.Step::name).containsExactly("nonce", "sign", "login");
            assertThat(login.steps().get(2).ok()).isFalse();
        }
    }

    @Test
    void garbageNonceAnswersAreServerErrors() throws Exception {
        for (String garbage : new String[] {"<html>hello</html>", "{\"nonce\":\"***not base64***\"}", "{\"other\":1}", "[1,2]"}) {
            try (TestHttpServer server = new TestHttpServer().on("/auth/nonce",
                    (b, ex) -> TestHttpServer.reply(ex, 200, "application/json", json(garbage)))) {
                CertificateLoginClient.Login login = CertificateLoginClient.builder().loginUrl(server.uri("/")).build()
                        .challengeResponse(TestKeys.user(TestKeys.Type.P256));
                assertThat(login.code()).as(garbage).isEqualTo(PkiException.SERVER_ERROR);
                assertThat(login.steps()).extracting(CertificateLoginClient.Step::name).containsExactly("nonce");
            }
        }
        try (TestHttpServer server = new TestHttpServer().on("/auth/nonce",
                (b, ex) -> TestHttpServer.reply(ex, 502, "text/html", json("<h1>bad gateway</h1>")))) {
            CertificateLoginClient.Login login = CertificateLoginClient.builder().loginUrl(server.uri("/")).build()
                    .challengeResponse(TestKeys.user(TestKeys.Type.P256));
            assertThat(login.code()).isEqualTo(PkiException.SERVER_ERROR);
            assertThat(login.failure().getMessage()).isEqualTo("HTTP 502 serverError");
        }
    }

    @Test
    void aSlowServerHitsTheResponseTimeout() throws Exception {
        try (TestHttpServer server = new TestHttpServer().on("/auth/nonce", (b, ex) -> {
            try {
                Thread.sleep(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })) {
            long t = System.nanoTime();
            CertificateLoginClient.Login login = CertificateLoginClient.builder().loginUrl(server.uri("/"))
                    .responseTimeout(Duration.ofMillis(300)).build().challengeResponse(TestKeys.user(TestKeys.Type.P256));
            assertThat(login.code()).isEqualTo(PkiException.CONNECT_ERROR);
            assertThat(login.failure().getMessage()).isEqualTo("login server did not answer in time");
            assertThat(Duration.ofNanos(System.nanoTime() - t)).isLessThan(Duration.ofMillis(2500));
        }
    }

    @Test
    void aBodyThatStallsAfterTheHeadersHitsTheDeadline() throws Exception {
        // JDK 17's request timeout stops at the headers: only the body's own deadline ends this one
        try (TestHttpServer server = new TestHttpServer().on("/auth/nonce", (b, ex) -> {
            ex.sendResponseHeaders(200, 100);
            var out = ex.getResponseBody();
            out.write('{');
            out.flush();
            try {
                Thread.sleep(4000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })) {
            long t = System.nanoTime();
            CertificateLoginClient.Login login = CertificateLoginClient.builder().loginUrl(server.uri("/"))
                    .connectTimeout(Duration.ofMillis(300)).responseTimeout(Duration.ofMillis(300)).build()
                    .challengeResponse(TestKeys.user(TestKeys.Type.P256));
            assertThat(login.code()).isEqualTo(PkiException.CONNECT_ERROR);
            assertThat(login.failure().getMessage()).isEqualTo("login server did not answer in time");
            assertThat(Duration.ofNanos(System.nanoTime() - t)).isLessThan(Duration.ofMillis(2500));
        }
    }

    @Test
    void noServerIsAConnectErrorForBothMethods() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        CertificateLoginClient c = CertificateLoginClient.builder().loginUrl(URI.create("http://127.0.0.1:" + port))
                .mtlsUrl(URI.create("https://127.0.0.1:" + port + "/auth/mtls")).build();
        KeyMaterial key = TestKeys.user(TestKeys.Type.P256);
        assertThat(c.challengeResponse(key).code()).isEqualTo(PkiException.CONNECT_ERROR);
        CertificateLoginClient.Login m = c.mutualTls(key);
        assertThat(m.code()).isEqualTo(PkiException.CONNECT_ERROR);
        assertThat(m.failure().getMessage()).isEqualTo("login server unreachable");
        assertThat(m.steps()).extracting(CertificateLoginClient.Step::name).containsExactly("handshake");
    }

    @Test
    void mtlsAgainstAPlainHttpServerFailsTheHandshake() throws Exception {
        try (TestHttpServer server = new TestHttpServer().on("/", (b, ex) ->
                TestHttpServer.reply(ex, 200, "text/plain", json("plain")))) {
            URI u = server.uri("/auth/mtls");
            CertificateLoginClient.Login m = CertificateLoginClient.builder()
                    .mtlsUrl(URI.create("https://127.0.0.1:" + u.getPort() + "/auth/mtls"))
                    .handshakeTimeout(Duration.ofSeconds(3)).build().mutualTls(TestKeys.user(TestKeys.Type.P256));
            assertThat(m.code()).isIn(CertificateLoginClient.HANDSHAKE_FAILED, PkiException.CONNECT_ERROR);
            assertThat(m.steps()).extracting(CertificateLoginClient.Step::name).containsExactly("handshake");
        }
    }

    @Test
    void badSettingsAreConfigErrors() throws Exception {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CertificateLoginClient.builder().nonceMethod("PUT").build())
                .isInstanceOf(PkiException.class).extracting(e -> ((PkiException) e).category())
                .isEqualTo(PkiException.CONFIG_ERROR);
        KeyMaterial key = TestKeys.user(TestKeys.Type.P256);
        CertificateLoginClient c = CertificateLoginClient.builder().build();
        assertThat(c.challengeResponse(key).code()).isEqualTo(PkiException.CONFIG_ERROR);
        assertThat(c.mutualTls(key).code()).isEqualTo(PkiException.CONFIG_ERROR);
        java.nio.file.Path empty = java.nio.file.Files.createTempFile("anchors", ".pem");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KeyStores.certificates(empty, "trust anchors file"))
                .isInstanceOf(PkiException.class);
    }
}
