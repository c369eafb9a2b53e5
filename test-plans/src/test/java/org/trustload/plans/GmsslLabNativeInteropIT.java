package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpHttp;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.pki.KeyStores;
import org.trustload.testing.NativeTlcpPeer;

/**
 * The lab's gmssl service against an independent implementation: the native Tongsuo peer
 * ({@code tlcp-peer}) as client of both gateway ports (four TLCP suites, client authentication, TLS 1.3
 * SM on the same ports), and the Java TLS 1.3 engines on them. Here, not in the lab module: the lab never
 * depends on testkit, where the native peer lives; so the lab runs as users start it, in its own process.
 */
class GmsslLabNativeInteropIT {
    private static final Duration RUN = Duration.ofSeconds(30);

    private static final Path OUT = Plans.DIR.resolve("target/gmssl-lab-native-interop-it");
    static Lab lab;
    static final Map<String, String> p = new HashMap<>();

    @BeforeAll
    static void start() throws Exception {
        NativeTlcpPeer.assumeOrFailInCi();
        NativeTlcpPeer.binary();
        Layout.deleteRecursively(OUT);
        Files.createDirectories(OUT);
        lab = PlanRunIT.startLab("gmssl", OUT.resolve("lab.properties"), OUT.resolve("lab.log"));
        Properties props = new Properties();
        try (var in = Files.newBufferedReader(OUT.resolve("lab.properties"))) {
            props.load(in);
        }
        props.forEach((k, v) -> p.put((String) k, (String) v));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (lab != null) {
            lab.close();
        }
    }

    private static List<String> args(String portKey, String proto, String cipher, boolean clientCerts) {
        List<String> a = new ArrayList<>(List.of("--host", p.get("gmssl.host"), "--port", p.get(portKey),
                "--proto", proto, "--cipher", cipher, "--ca", p.get("gmssl.ca.file"), "--path", "/1k"));
        if (clientCerts) {
            for (String use : new String[] {"sign", "enc"}) {
                if (proto.equals("tls13") && use.equals("enc")) {
                    continue;
                }
                a.addAll(List.of("--" + use + "-cert", p.get("gmssl.client." + use + ".cert"),
                        "--" + use + "-key", p.get("gmssl.client." + use + ".key")));
            }
        }
        return a;
    }

    private static void assertServed(NativeTlcpPeer.Result r, String negotiated) {
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.line("NEGOTIATED")).isEqualTo(negotiated);
        assertThat(r.line("RESPONSE")).isEqualTo("200 1024");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"ECC-SM2-SM4-CBC-SM3", "ECC-SM2-SM4-GCM-SM3", "ECDHE-SM2-SM4-CBC-SM3", "ECDHE-SM2-SM4-GCM-SM3"})
    void nativeClientGetsPagesOverTlcpWithAndWithoutClientAuth(String cipher) {
        boolean ecdhe = cipher.startsWith("ECDHE");
        // ECDHE key exchange uses the client's encryption pair: it always sends its certificates
        assertServed(NativeTlcpPeer.client(args("gmssl.tlcp.port", "tlcp", cipher, ecdhe), RUN), "NTLSv1.1 " + cipher);
        assertServed(NativeTlcpPeer.client(args("gmssl.mtls.port", "tlcp", cipher, true), RUN), "NTLSv1.1 " + cipher);
    }

    @Test
    void mutualTlcpPortRefusesANativeClientWithoutCertificates() {
        NativeTlcpPeer.Result r =
                NativeTlcpPeer.client(args("gmssl.mtls.port", "tlcp", "ECC-SM2-SM4-CBC-SM3", false), RUN);
        assertThat(r.exit()).as(r.toString()).isIn(4, 5);
        assertThat(r.stderr()).contains("FAILED");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gmssl.tlcp.port", "gmssl.mtls.port"})
    void nativeClientGetsPagesOverTls13OnTheSamePorts(String portKey) {
        assertServed(NativeTlcpPeer.client(args(portKey, "tls13", "TLS_SM4_GCM_SM3", portKey.equals("gmssl.mtls.port")),
                RUN),
                "TLSv1.3 TLS_SM4_GCM_SM3");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tongsuo:gmssl.tlcp.port", "bgm:gmssl.tlcp.port"})
    void javaTls13EnginesGetPagesOnTheGatewayPort(String enginePort) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(!enginePort.startsWith("bgm") || Runtime.version().feature() <= 21,
                "bgm runs on Java 17 to 21");
        String[] ep = enginePort.split(":");
        X509Certificate ca;
        try (InputStream in = Files.newInputStream(Path.of(p.get("gmssl.ca.file")))) {
            ca = (X509Certificate) CertificateFactory.getInstance("X.509", KeyStores.bouncyCastle())
                    .generateCertificate(in);
        }
        TlcpClientSettings s = new TlcpClientSettings().withProtocol(TlcpProtocol.TLS13)
                .withSuites(List.of(TlcpSuite.TLS_SM4_GCM_SM3)).withTrustAnchors(List.of(ca));
        try (TlcpClient c = TlcpEngines.get(ep[0]).newClient(s);
                TlcpConnection conn = c.connect(p.get("gmssl.host"), Integer.parseInt(p.get(ep[1])))) {
            assertThat(conn.cipherSuite()).isEqualTo("TLS_SM4_GCM_SM3");
            TlcpHttp http = new TlcpHttp(conn);
            assertThat(http.get("127.0.0.1", "/1m", true).bodyBytes()).isEqualTo(1 << 20);
            assertThat(http.get("127.0.0.1", "/64b", false).bodyBytes()).isEqualTo(64);
        }
    }
}
