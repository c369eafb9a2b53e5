package org.trustload.testing.gmssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.gmssl.TlcpClient;
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
import org.trustload.gmssl.TongsuoCertificates;
import org.trustload.gmssl.TongsuoEngine;
import org.trustload.labkit.gmssl.TlcpPageServer;
import org.trustload.labkit.pki.TestPki;

/**
 * The tongsuo engine's per-handshake savings keep it a checking client: peer certificates decoded
 * once, a chain that passed remembered, an untrusted chain refused on every handshake.
 */
class TongsuoCachesTest {
    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki other;
    static TlcpEngine tongsuo;

    @BeforeAll
    static void setUp() throws Exception {
        pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), dir.resolve("a"));
        other = TestPki.generate(new TestPki.Spec().withSeed(2).withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), dir.resolve("b"));
        tongsuo = TlcpEngines.get("tongsuo");
        tongsuo.checkAvailable();
    }

    private static TlcpPageServer server() throws Exception {
        TlcpCredentials creds = new TlcpCredentials(pki.tlcpKey(TestPki.TLCP_SERVER, "sign"),
                pki.tlcpKey(TestPki.TLCP_SERVER, "enc"));
        return TlcpPageServer.start(tongsuo.newServer(new TlcpServerSettings().withProtocol(TlcpProtocol.TLS13)
                .withCredentials(creds).withTrustAnchors(List.of(pki.caCertificates().get(0)))),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10_000);
    }

    private static TlcpClientSettings settings(TestPki anchors) {
        return new TlcpClientSettings().withProtocol(TlcpProtocol.TLS13).withSuites(List.of(TlcpSuite.TLS_SM4_GCM_SM3))
                .withTrustAnchors(List.of(anchors.caCertificates().get(0))).withReadTimeoutMillis(5000);
    }

    @Test
    void repeatedHandshakesUseTheCachedProvider() throws Exception {
        assertThat(TongsuoEngine.certificateProviderCached()).isTrue();
        try (TlcpPageServer srv = server(); TlcpClient c = tongsuo.newClient(settings(pki))) {
            for (int i = 0; i < 5; i++) {
                try (TlcpConnection conn = c.connect("127.0.0.1", srv.port())) {
                    assertThat(conn.resumed()).as("a new session (its creation time is in whole seconds)").isFalse();
                    assertThat(new TlcpHttp(conn).get("localhost", "/1k", false).bodyBytes()).isEqualTo(1024);
                }
            }
        }
        assertThat(TongsuoCertificates.remembered()).isPositive();
    }

    @Test
    void anUntrustedChainFailsEveryHandshake() throws Exception {
        try (TlcpPageServer srv = server(); TlcpClient c = tongsuo.newClient(settings(other))) {
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> c.connect("127.0.0.1", srv.port()).close())
                        .isInstanceOf(TlcpException.class);
            }
        }
    }
}
