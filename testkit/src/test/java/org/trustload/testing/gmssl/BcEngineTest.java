package org.trustload.testing.gmssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
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
import org.trustload.gmssl.TlcpEngine;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpHttp;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.labkit.gmssl.TlcpPageServer;
import org.trustload.labkit.pki.TestPki;

/**
 * The {@code bc} engine against itself, in one JVM: every TLCP suite with and without client
 * certificates, in both client modes, pages of every size (several records, CBC and GCM), session
 * resumption, and the failures a user meets (untrusted CA, expired client pair, no common suite, a
 * TLS 1.3 peer). Interop with independent implementations is in {@link NativeInteropIT}.
 */
class BcEngineTest {
    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki other;
    static TlcpEngine bc;
    static TlcpCredentials server;
    static TlcpCredentials client;
    static TlcpCredentials expired;
    static TlcpPageServer open;
    static TlcpPageServer mutual;

    @BeforeAll
    static void setUp() throws Exception {
        pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withNotBefore(java.time.Instant.now().minus(java.time.Duration.ofDays(60))).withCrlBaseUrl(null),
                dir.resolve("a"));
        other = TestPki.generate(new TestPki.Spec().withSeed(2).withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), dir.resolve("b"));
        bc = TlcpEngines.get("bc");
        bc.checkAvailable();
        server = credentials(pki, TestPki.TLCP_SERVER);
        client = credentials(pki, TestPki.TLCP_CLIENT);
        expired = credentials(pki, TestPki.TLCP_CLIENT_EXPIRED);
        open = TlcpPageServer.start(bc.newServer(serverSettings(TlcpServerSettings.ClientAuth.NONE)), any(), 10_000);
        mutual = TlcpPageServer.start(bc.newServer(serverSettings(TlcpServerSettings.ClientAuth.NEED)), any(), 10_000);
    }

    @AfterAll
    static void tearDown() {
        if (open != null) {
            open.close();
        }
        if (mutual != null) {
            mutual.close();
        }
    }

    static TlcpCredentials credentials(TestPki p, String party) throws Exception {
        return new TlcpCredentials(p.tlcpKey(party, "sign"), p.tlcpKey(party, "enc"));
    }

    static InetSocketAddress any() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    static TlcpServerSettings serverSettings(TlcpServerSettings.ClientAuth auth) {
        return new TlcpServerSettings().withProtocol(TlcpProtocol.TLCP).withCredentials(server)
                .withTrustAnchors(pki.caCertificates()).withClientAuth(auth);
    }

    static TlcpClientSettings clientSettings(TlcpSuite suite, TlcpClientCrypto crypto) {
        return new TlcpClientSettings().withProtocol(TlcpProtocol.TLCP).withSuites(List.of(suite))
                .withTrustAnchors(pki.caCertificates()).withClientCrypto(crypto).withReadTimeoutMillis(10_000);
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (TlcpSuite s : List.of(TlcpSuite.ECC_SM4_CBC_SM3, TlcpSuite.ECC_SM4_GCM_SM3, TlcpSuite.ECDHE_SM4_CBC_SM3,
                TlcpSuite.ECDHE_SM4_GCM_SM3)) {
            for (TlcpClientCrypto c : TlcpClientCrypto.values()) {
                if (!s.needsClientCertificates()) {
                    out.add(Arguments.of(s, c, false));
                }
                out.add(Arguments.of(s, c, true));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} client certificates {2}")
    @MethodSource("cases")
    void handshakesAndServesPages(TlcpSuite suite, TlcpClientCrypto crypto, boolean clientAuth) throws Exception {
        TlcpPageServer srv = clientAuth ? mutual : open;
        TlcpClientSettings s = clientSettings(suite, crypto);
        if (clientAuth || suite.needsClientCertificates()) {
            s = s.withCredentials(client);
        }
        int before = srv.completedHandshakes();
        try (TlcpClient c = bc.newClient(s)) {
            for (int i = 0; i < 3; i++) {
                try (TlcpConnection conn = c.connect("127.0.0.1", srv.port())) {
                    assertThat(conn.protocol()).isEqualTo("TLCP");
                    assertThat(conn.cipherSuite()).isEqualTo(suite.name());
                    assertThat(conn.resumed()).isFalse();
                    TlcpHttp http = new TlcpHttp(conn);
                    assertThat(http.get("localhost", "/64b", true).bodyBytes()).isEqualTo(64);
                    TlcpHttp.Response big = http.get("localhost", "/1m", false);
                    assertThat(big.status()).isEqualTo(200);
                    assertThat(big.bodyBytes()).isEqualTo(1 << 20);
                    assertThat(big.keepAlive()).isFalse();
                }
            }
        }
        assertThat(srv.completedHandshakes() - before).isEqualTo(3);
    }

    @Test
    void resumesSessionsOnlyWithSessionReuse() throws Exception {
        TlcpClientSettings s = clientSettings(TlcpSuite.ECC_SM4_GCM_SM3, TlcpClientCrypto.FULL);
        try (TlcpClient c = bc.newClient(s.withSessionReuse(true))) {
            try (TlcpConnection first = c.connect("127.0.0.1", open.port())) {
                assertThat(first.resumed()).isFalse();
            }
            try (TlcpConnection second = c.connect("127.0.0.1", open.port())) {
                assertThat(second.resumed()).isTrue();
                assertThat(new TlcpHttp(second).get("localhost", "/1k", false).bodyBytes()).isEqualTo(1024);
            }
        }
        try (TlcpClient c = bc.newClient(s)) {
            c.connect("127.0.0.1", open.port()).close();
            try (TlcpConnection again = c.connect("127.0.0.1", open.port())) {
                assertThat(again.resumed()).isFalse();
            }
        }
    }

    @Test
    void anUntrustedServerIsRefusedInBothModes() throws Exception {
        for (TlcpClientCrypto crypto : TlcpClientCrypto.values()) {
            try (TlcpClient c = bc.newClient(clientSettings(TlcpSuite.ECC_SM4_CBC_SM3, crypto)
                    .withTrustAnchors(other.caCertificates()))) {
                assertThatThrownBy(() -> c.connect("127.0.0.1", open.port()))
                        .isInstanceOfSatisfying(TlcpException.class, e -> {
                            assertThat(e.category()).isEqualTo(TlcpException.HANDSHAKE_FAILED);
                            assertThat(e.getMessage()).isEqualTo("untrusted certificate");
                        });
            }
        }
    }

    @Test
    void theServerRefusesExpiredAndMissingClientCertificates() throws Exception {
        int failures = mutual.handshakeFailures();
        try (TlcpClient c = bc.newClient(clientSettings(TlcpSuite.ECC_SM4_CBC_SM3, TlcpClientCrypto.FULL)
                .withCredentials(expired))) {
            assertThatThrownBy(() -> c.connect("127.0.0.1", mutual.port()))
                    .isInstanceOfSatisfying(TlcpException.class,
                            e -> assertThat(e.getMessage()).isEqualTo("alert certificate_expired"));
        }
        try (TlcpClient c = bc.newClient(clientSettings(TlcpSuite.ECC_SM4_CBC_SM3, TlcpClientCrypto.FULL))) {
            assertThatThrownBy(() -> c.connect("127.0.0.1", mutual.port()))
                    .isInstanceOfSatisfying(TlcpException.class,
                            e -> assertThat(e.getMessage()).isEqualTo("alert handshake_failure"));
        }
        assertThat(awaitFailures(mutual, failures + 2) - failures).isEqualTo(2);
    }

    @Test
    void noCommonSuiteIsSaid() throws Exception {
        try (TlcpPageServer gcmOnly = TlcpPageServer.start(
                bc.newServer(serverSettings(TlcpServerSettings.ClientAuth.NONE)
                .withSuites(List.of(TlcpSuite.ECC_SM4_GCM_SM3))), any(), 10_000);
                TlcpClient c = bc.newClient(clientSettings(TlcpSuite.ECC_SM4_CBC_SM3, TlcpClientCrypto.FULL))) {
            assertThatThrownBy(() -> c.connect("127.0.0.1", gcmOnly.port()))
                    .isInstanceOfSatisfying(TlcpException.class,
                            e -> assertThat(e.getMessage()).isEqualTo("alert handshake_failure"));
            awaitFailures(gcmOnly, 1);
            assertThat(gcmOnly.lastHandshakeFailure()).startsWith("no common cipher suite");
        }
    }

    /** The server counts a failure once its thread handled it, after the client already saw the alert. */
    static int awaitFailures(TlcpPageServer server, int expected) throws InterruptedException {
        for (long end = System.nanoTime() + 5_000_000_000L; server.handshakeFailures() < expected
                && System.nanoTime() < end;) {
            Thread.sleep(10);
        }
        return server.handshakeFailures();
    }

    @Test
    void speaksOnlyTlcpAndRunsWithoutJvmFlags() throws Exception {
        assertThat(bc.protocols()).containsExactly(TlcpProtocol.TLCP);
        assertThat(TlcpEngines.forProtocol(TlcpProtocol.TLCP).name()).isEqualTo("bc");
        assertThatThrownBy(() -> bc.newClient(new TlcpClientSettings().withProtocol(TlcpProtocol.TLS13)
                .withSuites(List.of(TlcpSuite.TLS_SM4_GCM_SM3)).withTrustAnchors(pki.caCertificates())))
                .isInstanceOfSatisfying(TlcpException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("bc engine has no TLSv1.3; use engine tongsuo"));
    }
}
