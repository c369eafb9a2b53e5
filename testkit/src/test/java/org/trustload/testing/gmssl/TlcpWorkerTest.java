package org.trustload.testing.gmssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.common.ClientException;
import org.trustload.gmssl.TlcpClientOptions;
import org.trustload.gmssl.TlcpClients;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpMode;
import org.trustload.gmssl.TlcpOutcome;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.gmssl.TlcpTarget;
import org.trustload.gmssl.TlcpWorker;
import org.trustload.labkit.gmssl.TlcpPageServer;
import org.trustload.labkit.pki.TestPki;

/**
 * lib's TLCP load client without JMeter, against a real bc page server in this JVM: {@link TlcpClients}
 * names the option at fault in each configuration error, {@link TlcpWorker} runs each mode through its
 * steps, and {@link TlcpTarget#close()} closes what any worker kept open.
 */
class TlcpWorkerTest {
    @TempDir
    static Path dir;
    static TestPki pki;
    static TlcpPageServer server;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), dir.resolve("pki"));
        TlcpServerSettings s = new TlcpServerSettings().withCredentials(new TlcpCredentials(
                pki.tlcpKey(TestPki.TLCP_SERVER, "sign"), pki.tlcpKey(TestPki.TLCP_SERVER, "enc")))
                .withTrustAnchors(pki.caCertificates());
        server = TlcpPageServer.start(TlcpEngines.get("bc").newServer(s),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 60_000);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static TlcpClientOptions options(String engine, String suite, Path ca, Path keys, String password) {
        return options(engine, suite, ca, keys, password, "full");
    }

    static TlcpClientOptions options(String engine, String suite, Path ca, Path keys, String password, String crypto) {
        return new TlcpClientOptions(engine, "127.0.0.1", server.port(), "", suite, ca, keys, password, "", "",
                false, 2000, 2000, crypto);
    }

    static TlcpClientOptions good() {
        return options("auto", "ECC_SM4_CBC_SM3", pki.dir().resolve("ca-1.pem"), null, "");
    }

    @Test
    void eachModeRunsItsStepsAndTheTargetClosesWhatWorkersKept() throws Exception {
        int before = server.openConnections();
        try (TlcpTarget target = TlcpClients.open(good())) {
            TlcpWorker a = target.worker();
            TlcpWorker b = target.worker();
            TlcpOutcome cps = a.run(TlcpMode.CPS, "/1k");
            assertThat(cps.newConnection()).isTrue();
            assertThat(cps.response().bodyBytes()).isEqualTo(1024);
            assertThat(cps.summary()).isEqualTo("TLCP ECC_SM4_CBC_SM3");
            assertThat(a.run(TlcpMode.HANDSHAKE, "").response()).isNull();
            assertThat(a.run(TlcpMode.THROUGHPUT, "/64b").newConnection()).isTrue();
            assertThat(a.run(TlcpMode.THROUGHPUT, "/64b").newConnection()).as("kept alive").isFalse();
            assertThat(b.run(TlcpMode.HOLD, "").held()).isEqualTo(1);
            assertThat(b.run(TlcpMode.HOLD, "").headers()).contains("held-connections: 2");
            assertThat(target.keptConnections()).isEqualTo(3);
            b.close(); // thread end
            assertThat(target.keptConnections()).isEqualTo(1);
        } // test end: a's kept connection too, though its thread never ended
        long deadline = System.currentTimeMillis() + 5000;
        while (server.openConnections() != before && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(server.openConnections()).isEqualTo(before);
    }

    @Test
    void autoPicksTheProtocolsEngineAndTheRequestTabSaysWhich() throws Exception {
        try (TlcpTarget t = TlcpClients.open(good())) {
            assertThat(t.describe()).contains("engine: bc\n", "protocol: TLCP\n", "client crypto: full\n");
        }
        try (TlcpTarget t = TlcpClients.open(options("", "ECDHE_SM4_GCM_SM3", pki.dir().resolve("ca-1.pem"),
                pki.tlcpKeyStoreFile(TestPki.TLCP_CLIENT), TestPki.PASSWORD, "minimal"))) {
            assertThat(t.describe()).contains("engine: bc\n", "client crypto: minimal\n");
            assertThat(t.worker().run(TlcpMode.CPS, "/1k").response().bodyBytes()).isEqualTo(1024);
        }
        try (TlcpTarget t = TlcpClients.open(
                options("auto", "TLS_SM4_GCM_SM3", pki.dir().resolve("ca-1.pem"), null, ""))) {
            assertThat(t.describe()).contains("engine: tongsuo\n", "protocol: TLSv1.3\n");
        }
    }

    @Test
    void configurationErrorsNameTheOptionAndTheFile() {
        Path ca = pki.dir().resolve("ca-1.pem");
        Path keys = pki.tlcpKeyStoreFile(TestPki.TLCP_CLIENT);
        assertSetting(options("openssl", "ECC_SM4_CBC_SM3", ca, null, ""), "engine", "");
        assertSetting(options("tongsuo", "ECC_SM4_CBC_SM3", ca, null, ""), "engine", "");
        assertSetting(options("bc", "TLS_SM4_GCM_SM3", ca, null, ""), "engine", "");
        assertSetting(options("bc", "AES_128_GCM", ca, null, ""), "suite", "");
        assertSetting(options("bc", "ECC_SM4_CBC_SM3", Path.of("/nonexistent/ca.pem"), null, ""), "caFile",
                "/nonexistent/ca.pem");
        assertSetting(options("bc", "ECC_SM4_CBC_SM3", ca, keys, "wrong"), "clientKeyStorePassword", keys.toString());
        assertSetting(options("bc", "ECDHE_SM4_CBC_SM3", ca, null, ""), "clientKeyStore", "");
        assertSetting(options("bc", "ECC_SM4_CBC_SM3", ca, null, "", "frugal"), "clientCrypto", "");
        assertSetting(options("tongsuo", "TLS_SM4_GCM_SM3", ca, null, "", "minimal"), "clientCrypto", "");
        assertSetting(new TlcpClientOptions("bc", "no-such-host.invalid", 1, "", "ECC_SM4_CBC_SM3", ca, null, "", "",
                "", false, 2000, 2000, "full"), "host", "");
        assertThatThrownBy(() -> TlcpMode.parse("flood")).isInstanceOfSatisfying(TlcpException.class,
                e -> assertThat(e.setting()).isEqualTo("mode"));
    }

    static void assertSetting(TlcpClientOptions o, String setting, String file) {
        assertThatThrownBy(() -> TlcpClients.open(o).close()).as(setting)
                .isInstanceOfSatisfying(ClientException.class, e -> {
            assertThat(e.isConfigError()).isTrue();
            assertThat(e.setting()).isEqualTo(setting);
            assertThat(e.file()).isEqualTo(file);
        });
    }

    @Test
    void aRefusedPortIsAConnectErrorNotAConfigurationError() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        TlcpClientOptions o = new TlcpClientOptions("bc", "127.0.0.1", port, "", "ECC_SM4_CBC_SM3",
                pki.dir().resolve("ca-1.pem"), null, "", "", "", false, 2000, 2000, "");
        try (TlcpTarget target = TlcpClients.open(o)) {
            TlcpWorker w = target.worker();
            assertThatThrownBy(() -> w.run(TlcpMode.CPS, "/1k")).isInstanceOfSatisfying(TlcpException.class, e -> {
                assertThat(e.category()).isEqualTo(ClientException.CONNECT_ERROR);
                assertThat(e.getMessage()).isEqualTo("connection refused");
            });
            assertThat(w.reached()).isFalse();
        }
    }
}
