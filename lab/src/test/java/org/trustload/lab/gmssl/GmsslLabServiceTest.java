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

/**
 * Starts the gmssl service in-process and fetches its pages with the protocol's default engine (bc for
 * TLCP, tongsuo for TLS 1.3), as the sampler does, on the one gateway port for both protocols.
 */
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
        assertThat(socketDir.resolve("gmssl-pki")).as("the service removes its key material").doesNotExist();
        assertThat(service.openConnections()).isZero();
    }

    static TlcpClient client(TlcpSuite suite, boolean withCerts) throws TlcpException {
        TlcpClientSettings s = new TlcpClientSettings().withProtocol(suite.protocol()).withSuites(List.of(suite))
                .withTrustAnchors(ca).withCredentials(withCerts ? client : null);
        return TlcpEngines.forProtocol(suite.protocol()).newClient(s);
    }

    /** One port for every suite: the gateway tells the protocols apart by the client's hello. */
    static int port(TlcpSuite suite) {
        return Integer.parseInt(p.get("gmssl.tlcp.port"));
    }

    @Test
    void onePortServesBothProtocolsAndThePerProtocolNamesPointAtIt() throws Exception {
        assertThat(p.get("gmssl.tls13.port")).isEqualTo(p.get("gmssl.tlcp.port"));
        assertThat(p.get("gmssl.tlcp.mtls.port")).isEqualTo(p.get("gmssl.mtls.port"));
        assertThat(p.get("gmssl.tls13.engine")).isIn("tongsuo", "bgm");
        int before = service.handshakes()[0];
        for (TlcpSuite suite : List.of(TlcpSuite.ECC_SM4_GCM_SM3, TlcpSuite.TLS_SM4_GCM_SM3)) {
            try (TlcpConnection c = client(suite, false).connect("127.0.0.1", port(suite))) {
                assertThat(c.protocol()).isEqualTo(suite.protocol().label());
            }
        }
        // the server counts a handshake once its thread is done with it, maybe after the client closed
        for (long end = System.nanoTime() + 5_000_000_000L; service.handshakes()[0] - before < 2
                && System.nanoTime() < end;) {
            Thread.sleep(10);
        }
        assertThat(service.handshakes()[0] - before).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(TlcpSuite.class)
    void servesEveryPageOnOneKeptAliveConnectionForEverySuite(TlcpSuite suite) throws Exception {
        try (TlcpConnection c = client(suite, suite.needsClientCertificates())
                .connect(p.get("gmssl.host"), port(suite))) {
            TlcpHttp http = new TlcpHttp(c);
            for (Map.Entry<String, Integer> page : org.trustload.labkit.gmssl.TlcpPageServer.PAGES.entrySet()) {
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

    /** Every TLCP/TLS listener the service opens, with a suite it serves (the mutual-TLS one needs the pair). */
    static List<Object[]> listeners() {
        List<Object[]> out = new java.util.ArrayList<>();
        out.add(new Object[] {"gmssl.tlcp.port", TlcpSuite.ECC_SM4_CBC_SM3});
        out.add(new Object[] {"gmssl.tlcp.port", TlcpSuite.TLS_SM4_GCM_SM3});
        out.add(new Object[] {"gmssl.mtls.port", TlcpSuite.ECC_SM4_CBC_SM3});
        out.add(new Object[] {"gmssl.mtls.port", TlcpSuite.TLS_SM4_GCM_SM3});
        return out;
    }

    /** Sends {@code request} and reads the answer until the server closes (a read timeout fails the test). */
    static String exchangeUntilClosed(TlcpConnection c, String request) throws Exception {
        c.output().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        c.output().flush();
        return new String(c.input().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    @Test
    void http10ClientsGetThePageAndTheConnectionClosedOnEveryListener() throws Exception {
        assertThat(listeners()).hasSize(4);
        for (Object[] l : listeners()) {
            String key = (String) l[0];
            TlcpSuite suite = (TlcpSuite) l[1];
            int port = Integer.parseInt(p.get(key));
            // ab's request: HTTP/1.0, no Connection header; the answer must end with the connection
            TlcpClientSettings s = new TlcpClientSettings().withProtocol(suite.protocol()).withSuites(List.of(suite))
                    .withTrustAnchors(ca).withCredentials(client).withReadTimeoutMillis(10_000);
            try (TlcpClient cl = TlcpEngines.forProtocol(suite.protocol()).newClient(s);
                    TlcpConnection c = cl.connect("127.0.0.1", port)) {
                String answer = exchangeUntilClosed(c,
                        "GET /1k HTTP/1.0\r\nHost: 127.0.0.1\r\nUser-Agent: ApacheBench/2.3\r\n"
                        + "Accept: */*\r\n\r\n");
                assertThat(answer).as(key).startsWith("HTTP/1.1 200 OK\r\n").contains("\r\nConnection: close\r\n");
                assertThat(answer.length() - answer.indexOf("\r\n\r\n") - 4).as(key).isEqualTo(1024);
            }
        }
    }

    @Test
    void http10KeepAliveAndHttp11DefaultKeepTheConnection() throws Exception {
        try (TlcpClient cl = client(TlcpSuite.ECC_SM4_CBC_SM3, false);
                TlcpConnection c = cl.connect("127.0.0.1", port(TlcpSuite.ECC_SM4_CBC_SM3))) {
            // HTTP/1.0 asking for keep-alive, then HTTP/1.1 without a Connection header, then close
            String r1 = "GET /64b HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n";
            String r2 = "GET /64b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
            String r3 = "GET /64b HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
            String answer = exchangeUntilClosed(c, r1 + r2 + r3);
            assertThat(answer.split("HTTP/1.1 200 OK", -1)).hasSize(4);
            assertThat(answer.split("Connection: keep-alive", -1)).hasSize(3);
            assertThat(answer.substring(answer.lastIndexOf("Connection: "))).startsWith("Connection: close\r\n");
        }
    }

    @Test
    void listensOnLoopbackOnly() throws Exception {
        assertThat(p.get("gmssl.host")).isEqualTo("127.0.0.1");
        assertThat(KeyStore.class).isNotNull();
    }
}
