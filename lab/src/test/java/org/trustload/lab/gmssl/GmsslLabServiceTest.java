package org.trustload.lab.gmssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpHttp;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;

/** Starts the gmssl service in-process and fetches its pages with the bgm client, as the sampler does. */
class GmsslLabServiceTest {
    @TempDir
    static Path socketDir;
    static GmsslLabService service;
    static Map<String, String> p;
    static List<X509Certificate> ca;
    static TlcpCredentials client;

    @BeforeAll
    static void start() throws Exception {
        service = new GmsslLabService();
        service.start(new LabContext(TestPorts.freeBase(), 10, socketDir));
        p = service.properties();
        try (InputStream in = Files.newInputStream(Path.of(p.get("gmssl.ca.file")))) {
            ca = List.of((X509Certificate) CertificateFactory.getInstance("X.509", KeyStores.bouncyCastle())
                    .generateCertificate(in));
        }
        char[] pw = p.get("gmssl.client.password").toCharArray();
        Path ks = Path.of(p.get("gmssl.client.keystore"));
        client = new TlcpCredentials(KeySource.pkcs12(ks, pw, List.of("sign")).load().get(0),
                KeySource.pkcs12(ks, pw, List.of("enc")).load().get(0));
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    static TlcpClient client(TlcpSuite suite, boolean withCerts) throws TlcpException {
        TlcpClientSettings s = new TlcpClientSettings().withProtocol(suite.protocol()).withSuites(List.of(suite))
                .withTrustAnchors(ca).withCredentials(withCerts ? client : null);
        return TlcpEngines.get("bgm").newClient(s);
    }

    static int port(TlcpSuite suite) {
        return Integer.parseInt(p.get(suite.protocol() == org.trustload.gmssl.TlcpProtocol.TLCP
                ? "gmssl.tlcp.port" : "gmssl.tls13.port"));
    }

    @ParameterizedTest
    @EnumSource(TlcpSuite.class)
    void servesEveryPageOnOneKeptAliveConnectionForEverySuite(TlcpSuite suite) throws Exception {
        try (TlcpConnection c = client(suite, suite.needsClientCertificates()).connect(p.get("gmssl.host"), port(suite))) {
            TlcpHttp http = new TlcpHttp(c);
            for (Map.Entry<String, Integer> page : org.trustload.gmssl.TlcpPageServer.PAGES.entrySet()) {
                TlcpHttp.Response r = http.get("127.0.0.1", page.getKey(), true);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.bodyBytes()).isEqualTo(page.getValue().longValue());
                assertThat(r.keepAlive()).isTrue();
            }
            assertThat(c.cipherSuite()).isEqualTo(suite.name());
        }
    }

    @Test
    void mutualTlsPortNeedsTheClientPair() throws Exception {
        int port = Integer.parseInt(p.get("gmssl.tlcp.mtls.port"));
        try (TlcpConnection c = client(TlcpSuite.ECC_SM4_CBC_SM3, true).connect("127.0.0.1", port)) {
            assertThat(new TlcpHttp(c).get("127.0.0.1", "/64b", false).status()).isEqualTo(200);
        }
        assertThatThrownBy(() -> {
            try (TlcpConnection c = client(TlcpSuite.ECC_SM4_CBC_SM3, false).connect("127.0.0.1", port)) {
                new TlcpHttp(c).get("127.0.0.1", "/64b", false);
            }
        }).isInstanceOf(TlcpException.class);
    }

    @Test
    void listensOnLoopbackOnly() throws Exception {
        assertThat(p.get("gmssl.host")).isEqualTo("127.0.0.1");
        assertThat(KeyStore.class).isNotNull();
    }
}
