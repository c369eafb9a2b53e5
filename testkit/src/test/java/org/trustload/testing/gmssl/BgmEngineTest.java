package org.trustload.testing.gmssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.trustload.gmssl.BgmEngine;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngine;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServer;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.labkit.pki.TestPki;

/** bgm client against bgm server: every suite, with and without client auth, in one JVM beside SunJSSE. */
class BgmEngineTest {
    @TempDir
    static Path dir;
    static TestPki pki;
    static TlcpEngine bgm;
    static TlcpCredentials server;
    static TlcpCredentials client;

    @BeforeAll
    static void setUp() throws Exception {
        BgmSupport.assumeJava17To21();
        pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), dir);
        bgm = TlcpEngines.get("bgm");
        bgm.checkAvailable();
        server = new TlcpCredentials(pki.tlcpKey(TestPki.TLCP_SERVER, "sign"), pki.tlcpKey(TestPki.TLCP_SERVER, "enc"));
        client = new TlcpCredentials(pki.tlcpKey(TestPki.TLCP_CLIENT, "sign"), pki.tlcpKey(TestPki.TLCP_CLIENT, "enc"));
    }

    @AfterAll
    static void done() {
    }

    /** An echo server: handshake, read five bytes, write them back, close. */
    static ServerSocket echo(TlcpServerSettings s) throws Exception {
        TlcpServer srv = bgm.newServer(s);
        ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!ss.isClosed()) {
                try (Socket a = ss.accept()) {
                    try (TlcpConnection c = srv.accept(a, new byte[0])) {
                        byte[] buf = new byte[5];
                        int n = c.input().readNBytes(buf, 0, 5);
                        c.output().write(buf, 0, n);
                        c.output().flush();
                    } catch (TlcpException e) {
                        // the client sees the failure
                    }
                } catch (IOException e) {
                    // closed
                }
            }
        });
        t.setDaemon(true);
        t.start();
        return ss;
    }

    static TlcpServerSettings serverSettings(TlcpSuite suite, TlcpServerSettings.ClientAuth auth) {
        return new TlcpServerSettings().withProtocol(suite.protocol()).withCredentials(server)
                .withTrustAnchors(List.of(pki.caCertificates().get(0))).withClientAuth(auth);
    }

    static TlcpClientSettings clientSettings(TlcpSuite suite) {
        return new TlcpClientSettings().withProtocol(suite.protocol()).withSuites(List.of(suite))
                .withTrustAnchors(List.of(pki.caCertificates().get(0)));
    }

    static void roundTrip(ServerSocket ss, TlcpClient c, TlcpSuite suite) throws Exception {
        try (TlcpConnection conn = c.connect("127.0.0.1", ss.getLocalPort())) {
            assertThat(conn.cipherSuite()).isEqualTo(suite.name());
            assertThat(conn.protocol()).isEqualTo(suite.protocol().label());
            conn.output().write("hello".getBytes(StandardCharsets.US_ASCII));
            conn.output().flush();
            assertThat(new String(conn.input().readNBytes(5), StandardCharsets.US_ASCII)).isEqualTo("hello");
            assertThat(conn.handshakeNanos()).isPositive();
        }
    }

    @ParameterizedTest
    @EnumSource(TlcpSuite.class)
    void everySuiteWithoutClientAuth(TlcpSuite suite) throws Exception {
        // ECDHE suites need client certificates in TLCP
        TlcpClientSettings cs = clientSettings(suite);
        if (suite.needsClientCertificates()) {
            cs = cs.withCredentials(client);
        }
        try (ServerSocket ss = echo(serverSettings(suite, TlcpServerSettings.ClientAuth.NONE))) {
            roundTrip(ss, bgm.newClient(cs), suite);
        }
    }

    @ParameterizedTest
    @EnumSource(TlcpSuite.class)
    void everySuiteWithClientAuth(TlcpSuite suite) throws Exception {
        try (ServerSocket ss = echo(serverSettings(suite, TlcpServerSettings.ClientAuth.NEED))) {
            roundTrip(ss, bgm.newClient(clientSettings(suite).withCredentials(client)), suite);
        }
    }

    @Test
    void jvmFlagsAreTheSameInSetenvThePomAndTheLabManifest() throws Exception {
        Path root = Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
        String setenv = java.nio.file.Files.readString(root.resolve("dist/src/main/jmeter/bin/setenv.sh"));
        String line = setenv.lines().filter(l -> l.startsWith("TRUSTLOAD_BGM_JVM_ARGS=")).findFirst().orElseThrow();
        assertThat(List.of(line.substring(line.indexOf('"') + 1, line.lastIndexOf('"')).split(" ")))
                .containsExactlyElementsOf(BgmEngine.JVM_FLAGS);
        String pom = java.nio.file.Files.readString(root.resolve("pom.xml"));
        String prop = pom.substring(pom.indexOf("<bgm.jvm.flags>") + 15, pom.indexOf("</bgm.jvm.flags>"));
        assertThat(List.of(prop.split(" "))).containsExactlyElementsOf(BgmEngine.JVM_FLAGS);
        String lab = java.nio.file.Files.readString(root.resolve("lab/pom.xml"));
        for (String flag : BgmEngine.JVM_FLAGS) {
            String pkg = flag.substring(flag.indexOf('=') + 1, flag.lastIndexOf('='));
            String attr = flag.startsWith("--add-opens") ? "<Add-Opens>" : "<Add-Exports>";
            String value = lab.substring(lab.indexOf(attr), lab.indexOf("</" + attr.substring(1)));
            assertThat(List.of(value.substring(attr.length()).split(" "))).as(flag).contains(pkg);
        }
        assertThat(BgmEngine.missingJvmFlags()).as("surefire argLine").isEmpty();
    }

    @Test
    void withoutTheJvmFlagsTheEngineSaysWhichAreMissingInsteadOfCrashing() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), BgmWithoutFlagsMain.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(out).startsWith(TlcpException.ENGINE_UNAVAILABLE
                + "|bgm engine needs JVM flags|start the JVM with: ")
                .contains("--add-opens=java.base/sun.security.x509=ALL-UNNAMED", "bin/setenv.sh");
    }

    @Test
    void doubleCertificatesHaveTheKeyUsagesTlcpSelectsBy() throws Exception {
        for (String party : List.of(TestPki.TLCP_SERVER, TestPki.TLCP_CLIENT, TestPki.TLCP_CLIENT_EXPIRED)) {
            boolean[] sign = pki.tlcpKey(party, "sign").certificate().getKeyUsage();
            boolean[] enc = pki.tlcpKey(party, "enc").certificate().getKeyUsage();
            // digitalSignature, nonRepudiation, keyEncipherment, dataEncipherment, keyAgreement
            assertThat(new boolean[] {sign[0], sign[1], sign[2], sign[3], sign[4]})
                    .containsExactly(true, true, false, false, false);
            assertThat(new boolean[] {enc[0], enc[1], enc[2], enc[3], enc[4]})
                    .containsExactly(false, false, true, true, true);
            for (String use : List.of("sign", "enc")) {
                assertThat(dir.resolve("tlcp-" + party + "-" + use + ".pem")).content()
                        .startsWith("-----BEGIN CERTIFICATE-----");
                assertThat(dir.resolve("tlcp-" + party + "-" + use + ".key")).content()
                        .startsWith("-----BEGIN PRIVATE KEY-----");
            }
        }
        assertThat(pki.tlcpKey(TestPki.TLCP_CLIENT_EXPIRED, "sign").certificate().getNotAfter())
                .isBefore(new java.util.Date());
        assertThat(pki.tlcpKey(TestPki.TLCP_SERVER, "sign").certificate().getSubjectAlternativeNames()).isNotEmpty();
    }

    @Test
    void defaultTlsOfTheJvmStaysSunJsse() throws Exception {
        assertThat(javax.net.ssl.SSLContext.getDefault().getProvider().getName()).isEqualTo("SunJSSE");
    }

    @Test
    void suiteOfTheOtherProtocolIsAConfigError() {
        assertThatThrownBy(() -> bgm.newClient(clientSettings(TlcpSuite.ECC_SM4_CBC_SM3)
                .withProtocol(TlcpProtocol.TLS13)))
                .isInstanceOf(TlcpException.class)
                .extracting(e -> ((TlcpException) e).category()).isEqualTo(TlcpException.CONFIG_ERROR);
    }
}
