package org.trustload.testing.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigInteger;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.tsp.TimeStampRequest;
import org.bouncycastle.tsp.TimeStampRequestGenerator;
import org.bouncycastle.tsp.TimeStampResponse;
import org.bouncycastle.tsp.TimeStampToken;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.labkit.pki.TestPki;
import org.trustload.labkit.pki.TimestampResponder;
import org.trustload.pki.KeyStores;
import org.trustload.pki.PkiException;
import org.trustload.pki.TimestampClient;
import org.trustload.pki.TimestampSource;
import org.trustload.testing.TestHttpServer;

class TimestampClientTest {

    @TempDir
    static Path tmp;

    static TestPki pki;
    static TimestampResponder responder;
    static TestHttpServer server;

    static final Duration CONNECT = Duration.ofSeconds(2);
    static final Duration RESPONSE = Duration.ofMillis(700);

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.generate(new TestPki.Spec().withUsers(2), tmp.resolve("pki"));
        responder = new TimestampResponder(pki.tsaKey(), TimestampResponder.DEFAULT_POLICY);
        server = new TestHttpServer()
                .on("/tsa", (body, ex) -> TestHttpServer.reply(ex, 200, "application/timestamp-reply",
                        responder.respond(body)))
                .on("/garbage", (body, ex) -> TestHttpServer.reply(ex, 200, "application/timestamp-reply",
                        "<html>hello</html>".getBytes(StandardCharsets.UTF_8)))
                .on("/empty", (body, ex) -> TestHttpServer.reply(ex, 200, "application/timestamp-reply", new byte[0]))
                .on("/huge", (body, ex) -> TestHttpServer.reply(ex, 200,
                        "application/timestamp-reply", new byte[3 << 20]))
                .on("/error", (body, ex) -> TestHttpServer.reply(ex, 500, "text/plain",
                        "boom".getBytes(StandardCharsets.UTF_8)))
                .on("/slow", (body, ex) -> {
                    sleep(3000);
                    TestHttpServer.reply(ex, 200, "application/timestamp-reply", responder.respond(body));
                })
                .on("/drip", (body, ex) -> {
                    // headers at once, then the body too slowly: only a whole-answer deadline catches it
                    byte[] answer = responder.respond(body);
                    ex.sendResponseHeaders(200, answer.length);
                    try (var out = ex.getResponseBody()) {
                        for (byte b : answer) {
                            out.write(b);
                            out.flush();
                            sleep(50);
                        }
                    }
                })
                .on("/other", (body, ex) -> {
                    // a valid answer to somebody else's request (different imprint and nonce)
                    TimeStampRequest other = new TimeStampRequestGenerator().generate(
                            new org.bouncycastle.asn1.x509.AlgorithmIdentifier(
                                    org.bouncycastle.asn1.nist.NISTObjectIdentifiers.id_sha256),
                            new byte[32], BigInteger.TEN);
                    TestHttpServer.reply(ex, 200, "application/timestamp-reply", responder.respond(other.getEncoded()));
                });
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static byte[] sha256(byte[] data) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(data);
    }

    TimestampClient client(String path) {
        return new TimestampClient(server.uri(path), CONNECT, RESPONSE);
    }

    @Test
    void grantedTokenVerifiesWithTheTsaCertificate() throws Exception {
        byte[] imprint = sha256("document".getBytes(StandardCharsets.UTF_8));
        byte[] der = client("/tsa").timestamp(imprint, "SHA-256");
        TimeStampToken token = new TimeStampToken(new org.bouncycastle.cms.CMSSignedData(der));
        assertThat(token.getTimeStampInfo().getMessageImprintDigest()).isEqualTo(imprint);
        assertThat(token.getTimeStampInfo().getPolicy().getId()).isEqualTo(TimestampResponder.DEFAULT_POLICY);
        assertThat(token.getTimeStampInfo().getNonce()).isNotNull();
        assertThat(token.getCertificates().getMatches(null)).hasSize(2); // certReq=true: TSA + CA
        token.validate(new JcaSimpleSignerInfoVerifierBuilder().build(pki.tsaKey().certificate()));
    }

    @Test
    void theTokenIsCutFromTheAnswerAsTheTsaEncodedIt() throws Exception {
        byte[] answer = responder.respond(new TimeStampRequestGenerator().generate(
                new org.bouncycastle.asn1.x509.AlgorithmIdentifier(
                        org.bouncycastle.asn1.nist.NISTObjectIdentifiers.id_sha256),
                new byte[32], BigInteger.TEN).getEncoded());
        assertThat(TimestampClient.tokenBytes(answer))
                .isEqualTo(new TimeStampResponse(answer).getTimeStampToken().getEncoded());
        // not a definite-length TimeStampResp with a token: none (the client encodes the parsed token instead)
        assertThat(TimestampClient.tokenBytes(new byte[0])).isNull();
        assertThat(TimestampClient.tokenBytes("<html>hello</html>".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(TimestampClient.tokenBytes(new byte[] {0x30, (byte) 0x80, 0x30, 0x03, 0x02, 0x01, 0x00, 0, 0}))
                .isNull();
        // rejection: no token
        assertThat(TimestampClient.tokenBytes(new byte[] {0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x02})).isNull();
        assertThat(TimestampClient.tokenBytes(Arrays.copyOf(answer, answer.length - 1))).isNull();
        TimestampClient.Granted g = client("/tsa").request(sha256(new byte[] {7}), "SHA-256");
        assertThat(new TimeStampToken(new org.bouncycastle.cms.CMSSignedData(g.token()))
                .getTimeStampInfo().getSerialNumber())
                .isEqualTo(g.serial());
    }

    @Test
    void manyTokensFromSeveralThreads() throws Exception {
        // a loaded CI machine can hold a token past RESPONSE (meant for the slow-TSA tests); this test is about threads
        TimestampClient c = new TimestampClient(server.uri("/tsa"), CONNECT, Duration.ofSeconds(30));
        var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            var futures = new java.util.ArrayList<java.util.concurrent.Future<byte[]>>();
            for (int i = 0; i < 40; i++) {
                int n = i;
                futures.add(pool.submit(() -> c.timestamp(sha256(new byte[] {(byte) n}), "SHA-256")));
            }
            for (var f : futures) {
                assertThat(f.get()).isNotEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void sha512AndSm3Imprints() throws Exception {
        byte[] imprint = MessageDigest.getInstance("SHA-512").digest(new byte[] {1});
        assertThat(client("/tsa").timestamp(imprint, "SHA-512")).isNotEmpty();
        byte[] sm3 = MessageDigest.getInstance("SM3", KeyStores.bouncyCastle()).digest(new byte[] {1});
        assertThat(client("/tsa").timestamp(sm3, "SM3")).isNotEmpty();
    }

    @Test
    void inProcessResponderIsATimestampSource() throws Exception {
        TimestampSource source = responder;
        byte[] imprint = sha256(new byte[] {7});
        TimeStampToken token = new TimeStampToken(
                new org.bouncycastle.cms.CMSSignedData(source.timestamp(imprint, "SHA-256")));
        assertThat(token.getTimeStampInfo().getMessageImprintDigest()).isEqualTo(imprint);
    }

    @Test
    void responderRejectsGarbageWithAResponseNotAnException() throws Exception {
        TimeStampResponse r = new TimeStampResponse(responder.respond("junk".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.getStatus()).isEqualTo(2);
        assertThat(r.getFailInfo().intValue()).isEqualTo(org.bouncycastle.asn1.cmp.PKIFailureInfo.badDataFormat);
        TimeStampRequest md5 = new TimeStampRequestGenerator().generate(
                new org.bouncycastle.asn1.x509.AlgorithmIdentifier(
                        org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers.md5),
                new byte[16]);
        assertThat(new TimeStampResponse(responder.respond(md5.getEncoded())).getStatus()).isEqualTo(2);
    }

    @Test
    void refusedRequestReportsTheStatus() {
        TimestampClient c = new TimestampClient(server.uri("/tsa"), CONNECT, RESPONSE, "1.2.3.4.5");
        assertTsaError(() -> c.timestamp(new byte[32], "SHA-256"), "TSA refused the request (status 2)");
    }

    @Test
    void garbageAnswers() {
        assertTsaError(() -> client("/garbage").timestamp(new byte[32], "SHA-256"),
                "TSA answer is not a timestamp response");
        assertTsaError(() -> client("/empty").timestamp(new byte[32], "SHA-256"),
                "TSA answer is not a timestamp response");
        assertTsaError(() -> client("/huge").timestamp(new byte[32], "SHA-256"),
                "TSA answer is not a timestamp response");
        assertTsaError(() -> client("/other").timestamp(sha256(new byte[] {1}), "SHA-256"),
                "TSA answer does not match the request");
    }

    @Test
    void httpError() {
        PkiException e = assertTsaError(() -> client("/error").timestamp(new byte[32], "SHA-256"),
                "TSA answered HTTP 500");
        assertThat(e.detail()).contains(server.uri("/error").toString());
        assertTsaError(() -> client("/nowhere").timestamp(new byte[32], "SHA-256"), "TSA answered HTTP 404");
    }

    @Test
    void slowAnswersTimeOutInBoundedTime() {
        for (String path : new String[] {"/slow", "/drip"}) {
            long t0 = System.nanoTime();
            assertTsaError(() -> client(path).timestamp(new byte[32], "SHA-256"), "TSA timed out");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).as(path).isLessThan(CONNECT.plus(RESPONSE).toMillis() + 1500);
        }
    }

    @Test
    void connectionRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        TimestampClient c = new TimestampClient(URI.create("http://127.0.0.1:" + port + "/tsa"), CONNECT, RESPONSE);
        assertTsaError(() -> c.timestamp(new byte[32], "SHA-256"), "TSA unreachable");
    }

    @Test
    void badSettings() {
        PkiException e = catchThrowableOfType(() -> client("/tsa").timestamp(new byte[32], "NOPE-1"),
                PkiException.class);
        assertThat(e.category()).isEqualTo(PkiException.CONFIG_ERROR);
        assertThat(catchThrowableOfType(() -> new TimestampClient(URI.create("ftp://127.0.0.1/"), CONNECT, RESPONSE),
                IllegalArgumentException.class)).isNotNull();
        assertThat(catchThrowableOfType(() -> new TimestampClient(server.uri("/tsa"), Duration.ZERO, RESPONSE),
                IllegalArgumentException.class)).isNotNull();
    }

    /** {@code openssl ts -verify} accepts a response of our responder, as an independent check. */
    @Test
    void opensslAcceptsOurResponses() throws Exception {
        TestPkiTest.assumeOpenssl();
        byte[] data = "data to timestamp".getBytes(StandardCharsets.UTF_8);
        Path dataFile = tmp.resolve("data.txt");
        Files.write(dataFile, data);
        TimeStampRequestGenerator g = new TimeStampRequestGenerator();
        g.setCertReq(true);
        byte[] response = responder.respond(g.generate(TimestampClient.digestAlgorithm("SHA-256"), sha256(data),
                BigInteger.valueOf(42)).getEncoded());
        Path tsr = tmp.resolve("response.tsr");
        Files.write(tsr, response);
        String out = TestPkiTest.run("openssl", "ts", "-verify", "-data", dataFile.toString(), "-in", tsr.toString(),
                "-CAfile", pki.dir().resolve("ca-1.pem").toString(), "-untrusted",
                pki.dir().resolve("tsa.pem").toString());
        assertThat(out).startsWith("0:").contains("Verification: OK");
        // and it notices tampering
        Files.write(dataFile, Arrays.copyOf(data, data.length - 1));
        assertThat(TestPkiTest.run("openssl", "ts", "-verify", "-data", dataFile.toString(), "-in", tsr.toString(),
                "-CAfile", pki.dir().resolve("ca-1.pem").toString(), "-untrusted",
                pki.dir().resolve("tsa.pem").toString()))
                .doesNotStartWith("0:");
    }

    static PkiException assertTsaError(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
        PkiException e = catchThrowableOfType(call, PkiException.class);
        assertThat(e).as("expected " + message).isNotNull();
        assertThat(e.category()).isEqualTo(PkiException.TSA_ERROR);
        assertThat(e.getMessage()).isEqualTo(message);
        return e;
    }
}
