package org.trustload.jmeter.gmssl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngine;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpPageServer;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.pki.TestPki;

/**
 * The TLCP Request sampler against real bgm page servers in this JVM: every mode, a bad-input
 * table (each a failed sample with a stable code, never an exception or a hang), hold-mode release,
 * serialization and password hygiene.
 */
class TlcpRequestSamplerTest {
    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki otherPki;
    static TlcpPageServer tlcp;
    static TlcpPageServer tls13;
    static TlcpPageServer mtls;
    static TlcpPageServer gcmOnly;
    static ServerSocket plainTls;
    static ServerSocket silent;
    static int closedPort;
    static final List<Socket> silentAccepted = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        JMeterTestSupportAccess.init();
        TestPki.Spec sm2 = new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null);
        pki = TestPki.generate(sm2, dir.resolve("pki"));
        otherPki = TestPki.generate(sm2.withSeed(2), dir.resolve("other"));
        TlcpEngine bgm = TlcpEngines.get("bgm");
        TlcpServerSettings base = new TlcpServerSettings().withCredentials(new TlcpCredentials(
                pki.tlcpKey(TestPki.TLCP_SERVER, "sign"), pki.tlcpKey(TestPki.TLCP_SERVER, "enc")))
                .withTrustAnchors(pki.caCertificates());
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        tlcp = TlcpPageServer.start(bgm.newServer(base), any, 60_000);
        tls13 = TlcpPageServer.start(bgm.newServer(base.withProtocol(TlcpProtocol.TLS13)), any, 60_000);
        mtls = TlcpPageServer.start(bgm.newServer(base.withClientAuth(TlcpServerSettings.ClientAuth.NEED)), any, 60_000);
        gcmOnly = TlcpPageServer.start(bgm.newServer(base.withSuites(List.of(TlcpSuite.ECC_SM4_GCM_SM3))), any, 60_000);

        // an ordinary TLS server (SunJSSE, P-256 certificate)
        TestPki p256 = TestPki.generate(new TestPki.Spec().withCas(1).withUsers(0).withExpiredCount(0)
                .withCrlBaseUrl(null), dir.resolve("p256"));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        KeyStore ks = p256.serverKeyStore();
        kmf.init(ks, TestPki.PASSWORD.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        plainTls = ctx.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon(() -> {
            while (!plainTls.isClosed()) {
                try (Socket s = plainTls.accept()) {
                    s.setSoTimeout(5000);
                    s.getInputStream().read();
                } catch (Exception e) {
                    // the client fails; nothing to do
                }
            }
        });
        // accepts and never answers
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon(() -> {
            while (!silent.isClosed()) {
                try {
                    silentAccepted.add(silent.accept());
                } catch (Exception e) {
                    return;
                }
            }
        });
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        assertThat(((SSLServerSocket) plainTls).getEnabledProtocols()).contains("TLSv1.3");
    }

    static void daemon(Runnable r) {
        Thread t = new Thread(r);
        t.setDaemon(true);
        t.start();
    }

    @AfterAll
    static void stop() throws Exception {
        for (TlcpPageServer s : new TlcpPageServer[] {tlcp, tls13, mtls, gcmOnly}) {
            s.close();
        }
        plainTls.close();
        silent.close();
        for (Socket s : silentAccepted) {
            s.close();
        }
    }

    static TlcpRequestSampler sampler(Consumer<TlcpRequestSampler> config) {
        TlcpRequestSampler s = new TlcpRequestSampler();
        s.setName("tlcp");
        s.setEngine("bgm");
        s.setHost("127.0.0.1");
        s.setPort(String.valueOf(tlcp.port()));
        s.setProtocol("TLCP");
        s.setSuite("ECC_SM4_CBC_SM3");
        s.setMode("cps");
        s.setPath("/1k");
        s.setCaFile(pki.dir().resolve("ca-1.pem").toString());
        s.setClientKeyStore("");
        s.setClientKeyStorePassword("");
        s.setClientSignAlias("sign");
        s.setClientEncAlias("enc");
        s.setConnectTimeout("2000");
        s.setResponseTimeout("2000");
        config.accept(s);
        return s;
    }

    static Consumer<TlcpRequestSampler> withClientPair(String party) {
        return s -> {
            s.setClientKeyStore(pki.tlcpKeyStoreFile(party).toString());
            s.setClientKeyStorePassword(TestPki.PASSWORD);
        };
    }

    // ------------------------------------------------------------ modes

    @Test
    void cpsFetchesThePageOnANewConnectionAndReportsSuiteAndTimings() {
        SampleResult r = sampler(s -> { }).sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseCode()).isEqualTo("200");
        assertThat(r.getResponseHeaders()).contains("protocol: TLCP", "cipher-suite: ECC_SM4_CBC_SM3",
                "handshake-ms: ", "tcp-connect-ms: ", "first-byte-ms: ", "transfer-ms: ", "connection: new");
        assertThat(r.getBodySizeAsLong()).isEqualTo(1024);
        assertThat(r.getConnectTime()).isLessThanOrEqualTo(r.getLatency());
    }

    @Test
    void throughputKeepsOneConnectionPerThread() {
        TlcpRequestSampler s = sampler(x -> { x.setMode("throughput"); x.setPath("/1m"); });
        try {
            SampleResult first = s.sample(null);
            SampleResult second = s.sample(null);
            assertThat(first.isSuccessful()).as(first.getResponseDataAsString()).isTrue();
            assertThat(second.isSuccessful()).as(second.getResponseDataAsString()).isTrue();
            assertThat(first.getResponseHeaders()).contains("connection: new");
            assertThat(second.getResponseHeaders()).contains("connection: reused");
            assertThat(second.getBodySizeAsLong()).isEqualTo(1024 * 1024);
        } finally {
            s.threadFinished();
        }
    }

    @Test
    void handshakeModeAndTls13() {
        SampleResult r = sampler(s -> {
            s.setMode("handshake");
            s.setPort(String.valueOf(tls13.port()));
            s.setProtocol("TLSv1.3");
            s.setSuite("TLS_SM4_GCM_SM3");
        }).sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseMessage()).isEqualTo("TLSv1.3 TLS_SM4_GCM_SM3");
    }

    @Test
    void ecdheWithClientPairAndMutualAuth() {
        SampleResult r = sampler(withClientPair(TestPki.TLCP_CLIENT).andThen(s -> {
            s.setSuite("ECDHE_SM4_GCM_SM3");
            s.setPort(String.valueOf(mtls.port()));
        })).sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getSamplerData()).doesNotContain(TestPki.PASSWORD);
        assertThat(r.getResponseHeaders() + r.getResponseDataAsString()).doesNotContain(TestPki.PASSWORD);
    }

    // ------------------------------------------------------------ bad input

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("unknown suite", (Consumer<TlcpRequestSampler>) s -> s.setSuite("AES_128_GCM"), "configError"),
                Arguments.of("suite of the other protocol", (Consumer<TlcpRequestSampler>) s -> s.setSuite("TLS_SM4_GCM_SM3"), "configError"),
                Arguments.of("suite the server does not enable", (Consumer<TlcpRequestSampler>) s -> s.setPort(String.valueOf(gcmOnly.port())), "handshakeFailed"),
                Arguments.of("CA of another PKI", (Consumer<TlcpRequestSampler>) s -> s.setCaFile(otherPki.dir().resolve("ca-1.pem").toString()), "handshakeFailed"),
                Arguments.of("expired client certificates", withClientPair(TestPki.TLCP_CLIENT_EXPIRED).andThen(s -> s.setPort(String.valueOf(mtls.port()))), "handshakeFailed"),
                Arguments.of("no client certificate where required", (Consumer<TlcpRequestSampler>) s -> s.setPort(String.valueOf(mtls.port())), "handshakeFailed"),
                Arguments.of("plain TLS server", (Consumer<TlcpRequestSampler>) s -> s.setPort(String.valueOf(plainTls.getLocalPort())), "handshakeFailed"),
                Arguments.of("unreachable port", (Consumer<TlcpRequestSampler>) s -> s.setPort(String.valueOf(closedPort)), "connectError"),
                Arguments.of("server never answers", (Consumer<TlcpRequestSampler>) s -> { s.setPort(String.valueOf(silent.getLocalPort())); s.setResponseTimeout("500"); }, "timeout"),
                Arguments.of("missing CA file", (Consumer<TlcpRequestSampler>) s -> s.setCaFile("/nonexistent/ca.pem"), "configError"),
                Arguments.of("wrong key store password", withClientPair(TestPki.TLCP_CLIENT).andThen(s -> s.setClientKeyStorePassword("wrong")), "configError"),
                Arguments.of("ECDHE without client pair", (Consumer<TlcpRequestSampler>) s -> s.setSuite("ECDHE_SM4_CBC_SM3"), "configError"),
                Arguments.of("unknown engine", (Consumer<TlcpRequestSampler>) s -> s.setEngine("openssl"), "configError"),
                Arguments.of("unknown mode", (Consumer<TlcpRequestSampler>) s -> s.setMode("flood"), "configError"),
                Arguments.of("port not a number", (Consumer<TlcpRequestSampler>) s -> s.setPort("http"), "configError"),
                Arguments.of("missing page", (Consumer<TlcpRequestSampler>) s -> s.setPath("/nope"), "httpError"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputGivesAFailedSampleWithAStableCode(String name, Consumer<TlcpRequestSampler> config, String code) {
        TlcpRequestSampler s = sampler(config);
        long t0 = System.nanoTime();
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).as(name).isFalse();
        assertThat(r.getResponseCode()).as(name + ": " + r.getResponseMessage() + " / " + r.getResponseDataAsString())
                .isEqualTo(code);
        assertThat(r.getResponseMessage()).isNotBlank();
        assertThat(r.getResponseDataAsString()).doesNotContain(TestPki.PASSWORD);
        assertThat((System.nanoTime() - t0) / 1_000_000).as("bounded by the timeouts").isLessThan(5000);
    }

    // ------------------------------------------------------------ hold mode

    @Test
    void holdKeepsConnectionsUntilThreadEndAndTestEndReleasesTheRest() throws Exception {
        int before = tlcp.openConnections();
        TlcpRequestSampler a = sampler(s -> s.setMode("hold"));
        TlcpRequestSampler b = sampler(s -> s.setMode("hold"));
        a.testStarted();
        for (int i = 0; i < 3; i++) {
            SampleResult r = a.sample(null);
            assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
            assertThat(r.getResponseHeaders()).contains("held-connections: " + (i + 1));
            assertThat(b.sample(null).isSuccessful()).isTrue();
        }
        awaitOpen(before + 6);
        a.threadFinished();
        awaitOpen(before + 3);
        // b's thread never finished (e.g. stopped test): the test end still releases its connections
        a.testEnded();
        awaitOpen(before);
        assertThat(TlcpRequestSampler.heldConnections()).isZero();
    }

    static void awaitOpen(int expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5000;
        while (tlcp.openConnections() != expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(tlcp.openConnections()).isEqualTo(expected);
    }

    // ------------------------------------------------------------ serialization

    @Test
    void elementWithALiveConnectionJavaSerializes() throws Exception {
        TlcpRequestSampler s = sampler(x -> x.setMode("throughput"));
        try {
            assertThat(s.sample(null).isSuccessful()).isTrue();
            for (String f : new String[] {"kept", "held", "inFlight"}) {
                assertThat(Modifier.isTransient(TlcpRequestSampler.class.getDeclaredField(f).getModifiers())).as(f).isTrue();
            }
            try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
                out.writeObject(s);
            }
        } finally {
            s.threadFinished();
        }
    }

    @Test
    void beanInfoDescribesEveryProperty() throws Exception {
        java.beans.BeanInfo info = java.beans.Introspector.getBeanInfo(TlcpRequestSampler.class);
        java.util.ResourceBundle rb = java.util.ResourceBundle.getBundle(
                "org.trustload.jmeter.gmssl.TlcpRequestSamplerResources");
        for (java.beans.PropertyDescriptor p : info.getPropertyDescriptors()) {
            if (p.getWriteMethod() != null && p.getWriteMethod().getDeclaringClass() == TlcpRequestSampler.class) {
                assertThat(rb.containsKey(p.getName() + ".displayName")).as(p.getName()).isTrue();
                assertThat(rb.containsKey(p.getName() + ".shortDescription")).as(p.getName()).isTrue();
            }
        }
    }
}
