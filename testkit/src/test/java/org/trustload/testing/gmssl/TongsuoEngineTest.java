package org.trustload.testing.gmssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.Provider;
import java.security.Security;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
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
import org.trustload.labkit.gmssl.TlcpPageServer;
import org.trustload.labkit.pki.TestPki;

/**
 * tongsuo client against tongsuo server (RFC 8998 TLS 1.3), in one JVM beside SunJSSE, bgm and
 * BouncyCastle; TLCP refused as a configError. The interop with other implementations is in
 * {@link NativeInteropIT}.
 */
class TongsuoEngineTest {
    @TempDir
    static Path dir;
    static TestPki pki;
    static TlcpEngine tongsuo;
    static TlcpCredentials server;
    static TlcpCredentials client;

    @BeforeAll
    static void setUp() throws Exception {
        pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), dir);
        tongsuo = TlcpEngines.get("tongsuo");
        tongsuo.checkAvailable();
        server = new TlcpCredentials(pki.tlcpKey(TestPki.TLCP_SERVER, "sign"), pki.tlcpKey(TestPki.TLCP_SERVER, "enc"));
        client = new TlcpCredentials(pki.tlcpKey(TestPki.TLCP_CLIENT, "sign"), null);
    }

    private static TlcpServerSettings serverSettings(TlcpServerSettings.ClientAuth auth) {
        return new TlcpServerSettings().withProtocol(TlcpProtocol.TLS13).withCredentials(server)
                .withTrustAnchors(List.of(pki.caCertificates().get(0))).withClientAuth(auth);
    }

    private static TlcpClientSettings clientSettings(TlcpSuite suite) {
        return new TlcpClientSettings().withProtocol(suite.protocol()).withSuites(List.of(suite))
                .withTrustAnchors(List.of(pki.caCertificates().get(0)));
    }

    @Test
    void isFoundByNameAndSpeaksOnlyTls13() throws Exception {
        assertThat(TlcpEngines.names()).contains("bc", "bgm", "tongsuo");
        assertThat(tongsuo.protocols()).containsExactly(TlcpProtocol.TLS13);
    }

    @ParameterizedTest
    @EnumSource(value = TlcpSuite.class, names = {"TLS_SM4_GCM_SM3", "TLS_SM4_CCM_SM3"})
    void servesPagesWithAndWithoutClientAuth(TlcpSuite suite) throws Exception {
        for (TlcpServerSettings.ClientAuth auth : List.of(TlcpServerSettings.ClientAuth.NONE,
                TlcpServerSettings.ClientAuth.NEED)) {
            try (TlcpPageServer srv = TlcpPageServer.start(tongsuo.newServer(serverSettings(auth)),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10_000);
                    TlcpClient c = tongsuo.newClient(clientSettings(suite).withCredentials(client)
                            .withReadTimeoutMillis(5000));
                    TlcpConnection conn = c.connect("127.0.0.1", srv.port())) {
                assertThat(conn.protocol()).isEqualTo("TLSv1.3");
                assertThat(conn.cipherSuite()).isEqualTo(suite.name());
                TlcpHttp http = new TlcpHttp(conn);
                assertThat(http.get("localhost", "/1k", true).bodyBytes()).isEqualTo(1024);
                assertThat(http.get("localhost", "/1m", false).bodyBytes()).isEqualTo(1 << 20);
            }
        }
    }

    @Test
    void tlcpIsAConfigErrorNamingBc() {
        for (TlcpSuite suite : TlcpSuite.values()) {
            if (suite.protocol() != TlcpProtocol.TLCP) {
                continue;
            }
            assertThatThrownBy(() -> tongsuo.newClient(clientSettings(suite)))
                    .isInstanceOfSatisfying(TlcpException.class, e -> {
                        assertThat(e.category()).isEqualTo(TlcpException.CONFIG_ERROR);
                        assertThat(e.getMessage()).isEqualTo("tongsuo engine has no TLCP; use engine bc");
                    });
        }
        assertThatThrownBy(() -> tongsuo.newServer(serverSettings(TlcpServerSettings.ClientAuth.NONE)
                .withProtocol(TlcpProtocol.TLCP)))
                .isInstanceOfSatisfying(TlcpException.class,
                        e -> assertThat(e.category()).isEqualTo(TlcpException.CONFIG_ERROR));
    }

    @Test
    void neverRegistersItselfSoTheDefaultTlsStaysSunJsse() throws Exception {
        tongsuo.newClient(clientSettings(TlcpSuite.TLS_SM4_GCM_SM3)).close();
        if (Runtime.version().feature() <= 21) {
            TlcpEngines.get("bgm").checkAvailable();
        }
        for (Provider p : Security.getProviders()) {
            assertThat(p.getClass().getName()).doesNotStartWith("net.tongsuo").doesNotStartWith("org.conscrypt");
        }
        assertThat(SSLContext.getDefault().getProvider().getName()).isEqualTo("SunJSSE");
        assertThat(SSLContext.getInstance("TLSv1.3").getProvider().getName()).isEqualTo("SunJSSE");
    }
}
