package org.trustload.testing.gmssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientCrypto;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpErrors;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpHttp;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServer;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.labkit.pki.TestPki;
import org.trustload.testing.NativeTlcpPeer;

/**
 * Interoperability with an independent implementation: our TLCP engines ({@code bc} on every Java,
 * {@code bgm} on Java 17 to 21) and {@code tongsuo} against {@code tlcp-peer}, a C program compiled
 * here against native Tongsuo (NTLS), in both directions, for the four TLCP suites with and without
 * client authentication (bc in both client modes), bc against bgm both ways, TLS 1.3 SM between the
 * Java engines both ways, a chunked HTTP answer, and the failures users meet (wrong suite, wrong CA,
 * expired certificate, a plain TLS server, a protocol mismatch), each failing with a clear category
 * and message.
 */
class NativeInteropIT {
    private static final Duration RUN = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    static TestPki pki;
    static TlcpCredentials server;
    static TlcpCredentials client;
    static TlcpCredentials expiredClient;
    static Path ca1;
    static Path ca2;
    static PlainTlsServer plainTls;

    @BeforeAll
    static void setUp() throws Exception {
        NativeTlcpPeer.assumeOrFailInCi();
        NativeTlcpPeer.binary();
        pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(2).withUsers(0)
                .withNotBefore(java.time.Instant.now().minus(Duration.ofDays(60))), dir.resolve("sm2"));
        server = credentials(TestPki.TLCP_SERVER);
        client = credentials(TestPki.TLCP_CLIENT);
        expiredClient = credentials(TestPki.TLCP_CLIENT_EXPIRED);
        ca1 = pki.dir().resolve("ca-1.pem");
        ca2 = pki.dir().resolve("ca-2.pem");
        plainTls = new PlainTlsServer(
                TestPki.generate(new TestPki.Spec().withCas(1).withUsers(0), dir.resolve("p256")));
    }

    @AfterAll
    static void tearDown() {
        if (plainTls != null) {
            plainTls.close();
        }
    }

    private static TlcpCredentials credentials(String party) throws Exception {
        return new TlcpCredentials(pki.tlcpKey(party, "sign"), pki.tlcpKey(party, "enc"));
    }

    /** The TLCP engines that run on this Java: bc always, bgm on 17 to 21. */
    static List<String> tlcpEngines() {
        return Runtime.version().feature() <= 21 ? List.of("bc", "bgm") : List.of("bc");
    }

    static Stream<Arguments> tlcpCases() {
        List<Arguments> out = new ArrayList<>();
        for (String engine : tlcpEngines()) {
            for (TlcpSuite s : TlcpSuite.values()) {
                if (s.protocol() == TlcpProtocol.TLCP) {
                    // ECDHE needs the client's two certificates: it is always a client-auth case
                    if (!s.needsClientCertificates()) {
                        out.add(Arguments.of(engine, s, false));
                    }
                    out.add(Arguments.of(engine, s, true));
                }
            }
        }
        return out.stream();
    }

    /** Every TLCP suite with and without client certificates, in both client modes of bc. */
    static Stream<Arguments> bcModeCases() {
        List<Arguments> out = new ArrayList<>();
        for (TlcpClientCrypto crypto : TlcpClientCrypto.values()) {
            for (TlcpSuite s : TlcpSuite.values()) {
                if (s.protocol() == TlcpProtocol.TLCP) {
                    if (!s.needsClientCertificates()) {
                        out.add(Arguments.of(crypto, s, false));
                    }
                    out.add(Arguments.of(crypto, s, true));
                }
            }
        }
        return out.stream();
    }

    /** bc against bgm, both ways (the cases skip themselves on Java 22 and later). */
    static Stream<Arguments> bcBgmCases() {
        List<Arguments> out = new ArrayList<>();
        for (String server : List.of("bc", "bgm")) {
            String clientEngine = server.equals("bc") ? "bgm" : "bc";
            for (TlcpSuite s : TlcpSuite.values()) {
                if (s.protocol() == TlcpProtocol.TLCP) {
                    if (!s.needsClientCertificates()) {
                        out.add(Arguments.of(server, clientEngine, s, false));
                    }
                    out.add(Arguments.of(server, clientEngine, s, true));
                }
            }
        }
        return out.stream();
    }

    /** The C program's (OpenSSL) name of a suite. */
    static String nativeName(TlcpSuite s) {
        return switch (s) {
            case ECC_SM4_CBC_SM3 -> "ECC-SM2-SM4-CBC-SM3";
            case ECC_SM4_GCM_SM3 -> "ECC-SM2-SM4-GCM-SM3";
            case ECDHE_SM4_CBC_SM3 -> "ECDHE-SM2-SM4-CBC-SM3";
            case ECDHE_SM4_GCM_SM3 -> "ECDHE-SM2-SM4-GCM-SM3";
            default -> s.name();
        };
    }

    private static List<String> nativeCredentials(String party) {
        Path d = pki.dir();
        return List.of("--sign-cert", d.resolve("tlcp-" + party + "-sign.pem").toString(),
                "--sign-key", d.resolve("tlcp-" + party + "-sign.key").toString(),
                "--enc-cert", d.resolve("tlcp-" + party + "-enc.pem").toString(),
                "--enc-key", d.resolve("tlcp-" + party + "-enc.key").toString());
    }

    private static List<String> args(Object... parts) {
        List<String> out = new ArrayList<>();
        for (Object p : parts) {
            if (p instanceof List<?> l) {
                l.forEach(x -> out.add(x.toString()));
            } else {
                out.add(p.toString());
            }
        }
        return out;
    }

    private static TlcpClientSettings clientSettings(TlcpProtocol protocol, TlcpSuite suite, TlcpCredentials creds,
            Path caFile) throws Exception {
        return new TlcpClientSettings().withProtocol(protocol).withSuites(List.of(suite))
                .withTrustAnchors(caFile.equals(ca1) ? List.of(pki.caCertificates().get(0))
                        : List.of(pki.caCertificates().get(1)))
                .withCredentials(creds).withConnectTimeoutMillis(5000).withReadTimeoutMillis(10000);
    }

    private static TlcpServerSettings serverSettings(TlcpProtocol protocol, boolean clientAuth) {
        return new TlcpServerSettings().withProtocol(protocol).withCredentials(server)
                .withTrustAnchors(List.of(pki.caCertificates().get(0)))
                .withClientAuth(clientAuth ? TlcpServerSettings.ClientAuth.NEED : TlcpServerSettings.ClientAuth.NONE)
                .withHandshakeTimeoutMillis(10000);
    }

    /** GET {@code path} with Connection: close; returns the status line and body length. */
    static String get(TlcpConnection c, String path) throws IOException {
        c.output().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        c.output().flush();
        byte[] all = c.input().readAllBytes();
        String text = new String(all, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        return text.substring(0, text.indexOf("\r\n")) + " body=" + (end < 0 ? -1 : all.length - end - 4);
    }

    // ---- TLCP: C client -> our servers, our clients -> C server, bc <-> bgm ----

    @ParameterizedTest(name = "{0} {1} client-auth={2}")
    @MethodSource("tlcpCases")
    void nativeClientHandshakesWithOurServer(String engine, TlcpSuite suite, boolean clientAuth) throws Exception {
        try (JavaHttpsServer s = new JavaHttpsServer(TlcpEngines.get(engine).newServer(
                serverSettings(TlcpProtocol.TLCP, clientAuth)))) {
            NativeTlcpPeer.Result r = NativeTlcpPeer.client(args("--port", s.port(), "--cipher", nativeName(suite),
                    "--ca", ca1, "--path", "/1k", "--count", 3,
                    clientAuth || suite.needsClientCertificates() ? nativeCredentials(TestPki.TLCP_CLIENT) : List.of()),
                    RUN);
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.line("NEGOTIATED")).isEqualTo("NTLSv1.1 " + nativeName(suite));
            assertThat(r.line("RESPONSE")).isEqualTo("200 1024");
            assertThat(s.negotiated(3)).containsOnly("TLCP " + suite.name()).hasSize(3);
        }
    }

    @ParameterizedTest(name = "{0} {1} client-auth={2}")
    @MethodSource("tlcpCases")
    void ourClientHandshakesWithNativeServer(String engine, TlcpSuite suite, boolean clientAuth) throws Exception {
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--port", 0, nativeCredentials(TestPki.TLCP_SERVER),
                clientAuth ? List.of("--ca", ca1.toString(), "--require-client-cert") : List.of()))) {
            try (TlcpClient c = TlcpEngines.get(engine).newClient(
                    clientSettings(TlcpProtocol.TLCP, suite, clientAuth || suite.needsClientCertificates()
                            ? client : null, ca1));
                    TlcpConnection conn = c.connect("127.0.0.1", s.port())) {
                assertThat(conn.protocol()).isEqualTo("TLCP");
                assertThat(conn.cipherSuite()).isEqualTo(suite.name());
                TlcpHttp http = new TlcpHttp(conn);
                assertThat(http.get("localhost", "/1m", true).bodyBytes()).isEqualTo(1 << 20);
                assertThat(http.get("localhost", "/1k", false).bodyBytes()).isEqualTo(1024);
            }
            assertThat(s.awaitLine("ACCEPTED", Duration.ofSeconds(5)))
                    .isEqualTo("ACCEPTED NTLSv1.1 " + nativeName(suite));
        }
    }

    @ParameterizedTest(name = "{0} {1} client-auth={2}")
    @MethodSource("bcModeCases")
    void bcClientInEitherModeCompletesEveryHandshakeWithNativeServer(TlcpClientCrypto crypto, TlcpSuite suite,
            boolean clientAuth) throws Exception {
        int n = 5;
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--port", 0, nativeCredentials(TestPki.TLCP_SERVER),
                clientAuth ? List.of("--ca", ca1.toString(), "--require-client-cert") : List.of()))) {
            try (TlcpClient c = TlcpEngines.get("bc").newClient(clientSettings(TlcpProtocol.TLCP, suite,
                    clientAuth || suite.needsClientCertificates() ? client : null, ca1).withClientCrypto(crypto))) {
                for (int i = 0; i < n; i++) {
                    try (TlcpConnection conn = c.connect("127.0.0.1", s.port())) {
                        assertThat(new TlcpHttp(conn).get("localhost", "/64b", false).status()).isEqualTo(200);
                    }
                }
            }
            // the server logs each handshake it completed: every one of ours, none failed
            assertThat(s.awaitLines("ACCEPTED", n, Duration.ofSeconds(5))).hasSize(n)
                    .containsOnly("ACCEPTED NTLSv1.1 " + nativeName(suite));
            assertThat(s.lines()).noneMatch(l -> l.startsWith("HANDSHAKE-FAILED"));
        }
    }

    @ParameterizedTest(name = "{0} server, {1} client, {2} client-auth={3}")
    @MethodSource("bcBgmCases")
    void bcAndBgmInteroperateBothWays(String serverEngine, String clientEngine, TlcpSuite suite, boolean clientAuth)
            throws Exception {
        BgmSupport.assumeJava17To21();
        try (JavaHttpsServer s = new JavaHttpsServer(TlcpEngines.get(serverEngine).newServer(
                serverSettings(TlcpProtocol.TLCP, clientAuth)));
                TlcpClient c = TlcpEngines.get(clientEngine).newClient(clientSettings(TlcpProtocol.TLCP, suite,
                        clientAuth || suite.needsClientCertificates() ? client : null, ca1));
                TlcpConnection conn = c.connect("127.0.0.1", s.port())) {
            assertThat(conn.cipherSuite()).isEqualTo(suite.name());
            assertThat(new TlcpHttp(conn).get("localhost", "/1m", false).bodyBytes()).isEqualTo(1 << 20);
            assertThat(s.negotiated()).containsExactly("TLCP " + suite.name());
        }
    }

    @Test
    void aChunkedAnswerIsRead() throws Exception {
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--port", 0, nativeCredentials(TestPki.TLCP_SERVER)));
                TlcpClient c = TlcpEngines.get("bc").newClient(
                        clientSettings(TlcpProtocol.TLCP, TlcpSuite.ECC_SM4_GCM_SM3, null, ca1));
                TlcpConnection conn = c.connect("127.0.0.1", s.port())) {
            TlcpHttp http = new TlcpHttp(conn);
            TlcpHttp.Response chunked = http.get("localhost", "/chunked/1m", true);
            assertThat(chunked.headers()).containsIgnoringCase("Transfer-Encoding: chunked");
            assertThat(chunked.bodyBytes()).isEqualTo(1 << 20);
            assertThat(chunked.keepAlive()).isTrue();
            // the same connection carries the next request: the chunked body ended where it should
            assertThat(http.get("localhost", "/chunked/1k", false).bodyBytes()).isEqualTo(1024);
        }
    }

    @Test
    void aProtocolMismatchIsNamedSoThreadsCanStop() throws Exception {
        // a TLS 1.3 client at a TLCP-only port: the TLCP server's answer is no TLS record
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--port", 0, nativeCredentials(TestPki.TLCP_SERVER)));
                TlcpClient c = TlcpEngines.get("tongsuo").newClient(
                        clientSettings(TlcpProtocol.TLS13, TlcpSuite.TLS_SM4_GCM_SM3, null, ca1))) {
            assertThatThrownBy(() -> c.connect("127.0.0.1", s.port())).isInstanceOfSatisfying(TlcpException.class,
                    e -> assertThat(TlcpErrors.isProtocolMismatch(e)).as(e.getMessage() + " / " + e.detail()).isTrue());
        }
        // a TLCP client at a JSSE TLS port: alert protocol_version
        try (TlcpClient c = TlcpEngines.get("bc").newClient(
                clientSettings(TlcpProtocol.TLCP, TlcpSuite.ECC_SM4_CBC_SM3, null, ca1))) {
            assertThatThrownBy(() -> c.connect("127.0.0.1", plainTls.port()))
                    .isInstanceOfSatisfying(TlcpException.class,
                    e -> assertThat(TlcpErrors.isProtocolMismatch(e)).as(e.getMessage() + " / " + e.detail()).isTrue());
        }
        // a TLCP client at an OpenSSL TLS 1.3 port: closed without an answer, as a server shedding load
        // closes: said as it is, and not taken for a mismatch
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--proto", "tls13", "--port", 0,
                "--sign-cert", pki.dir().resolve("tlcp-server-sign.pem"), "--sign-key",
                pki.dir().resolve("tlcp-server-sign.key")));
                TlcpClient c = TlcpEngines.get("bc").newClient(
                        clientSettings(TlcpProtocol.TLCP, TlcpSuite.ECC_SM4_CBC_SM3, null, ca1))) {
            assertThatThrownBy(() -> c.connect("127.0.0.1", s.port()))
                    .isInstanceOfSatisfying(TlcpException.class, e -> {
                assertThat(e.getMessage()).isEqualTo("connection closed by peer without answering the hello");
                assertThat(TlcpErrors.isProtocolMismatch(e)).isFalse();
            });
            assertThat(s.awaitLine("HANDSHAKE-FAILED", Duration.ofSeconds(5))).contains("wrong version number");
        }
    }

    @Test
    void oneGatewayPortServesBothProtocols() throws Exception {
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--proto", "any", "--port", 0,
                nativeCredentials(TestPki.TLCP_SERVER)))) {
            try (TlcpClient c = TlcpEngines.get("bc").newClient(
                    clientSettings(TlcpProtocol.TLCP, TlcpSuite.ECC_SM4_GCM_SM3, null, ca1));
                    TlcpConnection conn = c.connect("127.0.0.1", s.port())) {
                assertThat(conn.protocol()).isEqualTo("TLCP");
            }
            try (TlcpClient c = TlcpEngines.get("tongsuo").newClient(
                    clientSettings(TlcpProtocol.TLS13, TlcpSuite.TLS_SM4_GCM_SM3, null, ca1));
                    TlcpConnection conn = c.connect("127.0.0.1", s.port())) {
                assertThat(conn.protocol()).isEqualTo("TLSv1.3");
            }
            assertThat(s.awaitLines("ACCEPTED", 2, Duration.ofSeconds(5)))
                    .containsExactly("ACCEPTED NTLSv1.1 ECC-SM2-SM4-GCM-SM3", "ACCEPTED TLSv1.3 TLS_SM4_GCM_SM3");
        }
    }

    // ---- TLS 1.3 SM: bgm <-> tongsuo both ways, and each against the C peer ----

    @Test
    void tongsuoClientHandshakesWithBgmServerOverTls13() throws Exception {
        BgmSupport.assumeJava17To21();
        javaTls13("bgm", "tongsuo");
    }

    @Test
    void bgmClientHandshakesWithTongsuoServerOverTls13() throws Exception {
        BgmSupport.assumeJava17To21();
        javaTls13("tongsuo", "bgm");
    }

    private static void javaTls13(String serverEngine, String clientEngine) throws Exception {
        try (JavaHttpsServer s = new JavaHttpsServer(TlcpEngines.get(serverEngine).newServer(
                serverSettings(TlcpProtocol.TLS13, true)));
                TlcpClient c = TlcpEngines.get(clientEngine).newClient(
                        clientSettings(TlcpProtocol.TLS13, TlcpSuite.TLS_SM4_GCM_SM3, client, ca1));
                TlcpConnection conn = c.connect("127.0.0.1", s.port())) {
            assertThat(conn.protocol()).isEqualTo("TLSv1.3");
            assertThat(conn.cipherSuite()).isEqualTo("TLS_SM4_GCM_SM3");
            assertThat(get(conn, "/64b")).isEqualTo("HTTP/1.1 200 OK body=64");
            assertThat(s.negotiated()).containsExactly("TLSv1.3 TLS_SM4_GCM_SM3");
        }
    }

    @Test
    void tongsuoClientHandshakesWithNativeServerOverTls13() throws Exception {
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--proto", "tls13", "--port", 0,
                "--sign-cert", pki.dir().resolve("tlcp-server-sign.pem"), "--sign-key",
                pki.dir().resolve("tlcp-server-sign.key"),
                "--ca", ca1, "--require-client-cert"));
                TlcpClient c = TlcpEngines.get("tongsuo").newClient(
                        clientSettings(TlcpProtocol.TLS13, TlcpSuite.TLS_SM4_GCM_SM3, client, ca1));
                TlcpConnection conn = c.connect("127.0.0.1", s.port())) {
            assertThat(conn.cipherSuite()).isEqualTo("TLS_SM4_GCM_SM3");
            assertThat(get(conn, "/1k")).isEqualTo("HTTP/1.1 200 OK body=1024");
        }
    }

    @Test
    void nativeClientHandshakesWithTongsuoServerOverTls13() throws Exception {
        try (JavaHttpsServer s = new JavaHttpsServer(TlcpEngines.get("tongsuo").newServer(
                serverSettings(TlcpProtocol.TLS13, false)))) {
            NativeTlcpPeer.Result r = NativeTlcpPeer.client(args("--proto", "tls13", "--port", s.port(),
                    "--cipher", "TLS_SM4_GCM_SM3", "--ca", ca1), RUN);
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.line("NEGOTIATED")).isEqualTo("TLSv1.3 TLS_SM4_GCM_SM3");
        }
    }

    @Test
    void tongsuoEngineRefusesTlcpWithConfigError() {
        assertThatThrownBy(() -> TlcpEngines.get("tongsuo").newClient(
                clientSettings(TlcpProtocol.TLCP, TlcpSuite.ECC_SM4_CBC_SM3, null, ca1)))
                .isInstanceOfSatisfying(TlcpException.class, e -> {
                    assertThat(e.category()).isEqualTo(TlcpException.CONFIG_ERROR);
                    assertThat(e.getMessage()).contains("no TLCP").contains("bc");
                });
    }

    // ---- failures: each fails clearly, in both directions ----

    @Test
    void wrongSuiteFailsBothWays() throws Exception {
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--port", 0, "--cipher", "ECC-SM2-SM4-CBC-SM3",
                nativeCredentials(TestPki.TLCP_SERVER)));
                TlcpClient c = TlcpEngines.get("bc").newClient(
                        clientSettings(TlcpProtocol.TLCP, TlcpSuite.ECC_SM4_GCM_SM3, null, ca1))) {
            assertHandshakeFails(() -> c.connect("127.0.0.1", s.port()), "alert");
        }
        try (JavaHttpsServer s = new JavaHttpsServer(TlcpEngines.get("bc").newServer(
                serverSettings(TlcpProtocol.TLCP, false).withSuites(List.of(TlcpSuite.ECC_SM4_CBC_SM3))))) {
            NativeTlcpPeer.Result r = NativeTlcpPeer.client(args("--port", s.port(), "--cipher", "ECC-SM2-SM4-GCM-SM3",
                    "--ca", ca1), RUN);
            assertThat(r.exit()).as(r.toString()).isEqualTo(4);
            assertThat(r.stderr()).contains("HANDSHAKE-FAILED").contains("handshake failure");
        }
    }

    @Test
    void wrongCaFailsBothWays() throws Exception {
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--port", 0, nativeCredentials(TestPki.TLCP_SERVER)));
                TlcpClient c = TlcpEngines.get("bc").newClient(
                        clientSettings(TlcpProtocol.TLCP, TlcpSuite.ECC_SM4_CBC_SM3, null, ca2))) {
            assertHandshakeFails(() -> c.connect("127.0.0.1", s.port()), "untrusted certificate");
        }
        try (JavaHttpsServer s = new JavaHttpsServer(TlcpEngines.get("bc").newServer(
                serverSettings(TlcpProtocol.TLCP, false)))) {
            NativeTlcpPeer.Result r = NativeTlcpPeer.client(args("--port", s.port(), "--cipher", "ECC-SM2-SM4-CBC-SM3",
                    "--ca", ca2), RUN);
            assertThat(r.exit()).as(r.toString()).isEqualTo(4);
            assertThat(r.stderr()).contains("certificate verify failed");
        }
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--proto", "tls13", "--port", 0,
                "--sign-cert", pki.dir().resolve("tlcp-server-sign.pem"), "--sign-key",
                pki.dir().resolve("tlcp-server-sign.key")));
                TlcpClient c = TlcpEngines.get("tongsuo").newClient(
                        clientSettings(TlcpProtocol.TLS13, TlcpSuite.TLS_SM4_GCM_SM3, null, ca2))) {
            assertHandshakeFails(() -> c.connect("127.0.0.1", s.port()), "untrusted certificate");
        }
    }

    @Test
    void expiredClientCertificateFailsBothWays() throws Exception {
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--port", 0, nativeCredentials(TestPki.TLCP_SERVER),
                "--ca", ca1, "--require-client-cert"));
                TlcpClient c = TlcpEngines.get("bc").newClient(
                        clientSettings(TlcpProtocol.TLCP, TlcpSuite.ECC_SM4_CBC_SM3, expiredClient, ca1))) {
            assertHandshakeFails(() -> c.connect("127.0.0.1", s.port()), "alert certificate_expired");
            assertThat(s.awaitLine("HANDSHAKE-FAILED", Duration.ofSeconds(5))).contains("certificate has expired");
        }
        try (JavaHttpsServer s = new JavaHttpsServer(TlcpEngines.get("bc").newServer(
                serverSettings(TlcpProtocol.TLCP, true)))) {
            NativeTlcpPeer.Result r = NativeTlcpPeer.client(args("--port", s.port(), "--cipher", "ECC-SM2-SM4-CBC-SM3",
                    "--ca", ca1, nativeCredentials(TestPki.TLCP_CLIENT_EXPIRED)), RUN);
            assertThat(r.exit()).as(r.toString()).isIn(4, 5);
            assertThat(s.failures()).singleElement().asString().contains("certificate expired");
        }
        try (JavaHttpsServer s = new JavaHttpsServer(TlcpEngines.get("tongsuo").newServer(
                serverSettings(TlcpProtocol.TLS13, true)));
                TlcpClient c = TlcpEngines.get("tongsuo").newClient(
                        clientSettings(TlcpProtocol.TLS13, TlcpSuite.TLS_SM4_GCM_SM3, expiredClient, ca1))) {
            // TLS 1.3: the client finishes before the server judges its certificate; the refusal comes with the
            // response
            try (TlcpConnection conn = c.connect("127.0.0.1", s.port())) {
                assertThatThrownBy(() -> get(conn, "/64b")).isInstanceOf(IOException.class);
            } catch (TlcpException e) {
                assertThat(e.category()).isEqualTo(TlcpException.HANDSHAKE_FAILED);
            }
            assertThat(s.failures()).singleElement().asString().contains("certificate expired");
        }
    }

    @Test
    void expiredServerCertificateFailsTheTongsuoClientClearly() throws Exception {
        // the expired client pair serves as an expired server certificate here (same CA, dates past)
        try (NativeTlcpPeer.Server s = NativeTlcpPeer.server(args("--proto", "tls13", "--port", 0,
                "--sign-cert", pki.dir().resolve("tlcp-client-expired-sign.pem"),
                "--sign-key", pki.dir().resolve("tlcp-client-expired-sign.key")));
                TlcpClient c = TlcpEngines.get("tongsuo").newClient(
                        clientSettings(TlcpProtocol.TLS13, TlcpSuite.TLS_SM4_GCM_SM3, null, ca1))) {
            assertHandshakeFails(() -> c.connect("127.0.0.1", s.port()), "certificate expired");
        }
    }

    @Test
    void plainTlsServerFailsClearly() throws Exception {
        try (TlcpClient c = TlcpEngines.get("bc").newClient(
                clientSettings(TlcpProtocol.TLCP, TlcpSuite.ECC_SM4_CBC_SM3, null, ca1))) {
            assertHandshakeFails(() -> c.connect("127.0.0.1", plainTls.port()), TlcpErrors.PROTOCOL_MISMATCH);
        }
        try (TlcpClient c = TlcpEngines.get("tongsuo").newClient(
                clientSettings(TlcpProtocol.TLS13, TlcpSuite.TLS_SM4_GCM_SM3, null, ca1))) {
            assertHandshakeFails(() -> c.connect("127.0.0.1", plainTls.port()), "");
        }
        NativeTlcpPeer.Result r = NativeTlcpPeer.client(
                args("--port", plainTls.port(), "--cipher", "ECC-SM2-SM4-CBC-SM3",
                "--ca", ca1), RUN);
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(r.stderr()).contains("HANDSHAKE-FAILED");
    }

    interface Connect {
        TlcpConnection run() throws Exception;
    }

    private static void assertHandshakeFails(Connect connect, String messagePart) {
        assertThatThrownBy(() -> connect.run().close()).isInstanceOfSatisfying(TlcpException.class, e -> {
            assertThat(e.category()).as(e.getMessage() + " / " + e.detail()).isEqualTo(TlcpException.HANDSHAKE_FAILED);
            assertThat(e.getMessage()).as(e.detail()).contains(messagePart);
        });
    }

    /**
     * A minimal HTTPS responder over one of our engines' {@link TlcpServer}: one thread per
     * connection, /64b, /1k, /1m, Connection: close; records what each handshake negotiated or why it failed.
     */
    static final class JavaHttpsServer implements AutoCloseable {
        private final ServerSocket socket;
        private final TlcpServer server;
        private final List<String> negotiated = java.util.Collections.synchronizedList(new ArrayList<>());
        private final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());

        JavaHttpsServer(TlcpServer server) throws IOException {
            this.server = server;
            this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(this::acceptLoop, "tlcp-test-server");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void acceptLoop() {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    Thread t = new Thread(() -> serve(s), "tlcp-test-conn");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket s) {
            try (s) {
                TlcpConnection c;
                try {
                    c = server.accept(s, new byte[0]);
                    negotiated.add(c.protocol() + " " + c.cipherSuite());
                } catch (TlcpException e) {
                    failures.add(e.getMessage() + " / " + e.detail());
                    return;
                }
                try (c) {
                    InputStream in = c.input();
                    StringBuilder head = new StringBuilder();
                    while (head.indexOf("\r\n\r\n") < 0) {
                        int b = in.read();
                        if (b < 0) {
                            return;
                        }
                        head.append((char) b);
                    }
                    String path = head.toString().split(" ")[1];
                    int size = path.equals("/1k") ? 1024 : path.equals("/1m") ? 1 << 20 : 64;
                    OutputStream out = c.output();
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.write(new byte[size]);
                    out.flush();
                }
            } catch (IOException e) {
                failures.add("exchange: " + e);
            }
        }

        List<String> negotiated() {
            return waitForOne(negotiated);
        }

        /** Waits until {@code n} handshakes completed (or 10 s). */
        List<String> negotiated(int n) {
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (negotiated.size() < n && System.nanoTime() < end) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            synchronized (negotiated) {
                return List.copyOf(negotiated);
            }
        }

        List<String> failures() {
            return waitForOne(failures);
        }

        private static List<String> waitForOne(List<String> list) {
            long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (list.isEmpty() && System.nanoTime() < end) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            synchronized (list) {
                return List.copyOf(list);
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
            server.close();
        }
    }

    /** An ordinary TLS server (SunJSSE, P-256 certificate): what a GM client meets at a non-GM port. */
    static final class PlainTlsServer implements AutoCloseable {
        private final SSLServerSocket socket;

        PlainTlsServer(TestPki p256) throws Exception {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(p256.serverKeyStore(), TestPki.PASSWORD.toCharArray());
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            socket = (SSLServerSocket) ctx.getServerSocketFactory()
                    .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                while (!socket.isClosed()) {
                    try (Socket s = socket.accept()) {
                        s.setSoTimeout(5000);
                        ((javax.net.ssl.SSLSocket) s).startHandshake();
                    } catch (IOException ignored) {
                        // the GM clients fail the handshake: that is the point
                    }
                }
            }, "plain-tls-server");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // test teardown
            }
        }
    }
}
