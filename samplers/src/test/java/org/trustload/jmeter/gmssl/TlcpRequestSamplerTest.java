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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngine;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.labkit.gmssl.TlcpPageServer;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.labkit.pki.TestPki;

/**
 * TLCP Client Config + TLCP Request against real page servers in this JVM (bc for TLCP and tongsuo for
 * TLS 1.3 on one port, as a gateway serves them): every mode, both client crypto modes, a bad-input table
 * (each a failed sample with a stable code, never an exception or a hang; a configuration error names
 * element and property and stops the thread; a refused port or a protocol mismatch stops a thread that
 * never completed a handshake), the config closing every connection at test end, serialization and
 * password hygiene.
 */
class TlcpRequestSamplerTest {
    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki otherPki;
    static TlcpPageServer tlcp;
    static TlcpPageServer tlcpOnly;
    static TlcpPageServer mtls;
    static TlcpPageServer gcmOnly;
    static ServerSocket plainTls;
    static ServerSocket silent;
    static int closedPort;
    static Path notACertificate;
    static TlcpEngine bc;
    static TlcpEngine tongsuo;
    static TlcpServerSettings serverSettings;
    static final List<Socket> silentAccepted = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        JMeterTestSupportAccess.init();
        TestPki.Spec sm2 = new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null);
        pki = TestPki.generate(sm2, dir.resolve("pki"));
        otherPki = TestPki.generate(sm2.withSeed(2), dir.resolve("other"));
        bc = TlcpEngines.get("bc");
        tongsuo = TlcpEngines.get("tongsuo");
        TlcpServerSettings base = new TlcpServerSettings().withCredentials(new TlcpCredentials(
                pki.tlcpKey(TestPki.TLCP_SERVER, "sign"), pki.tlcpKey(TestPki.TLCP_SERVER, "enc")))
                .withTrustAnchors(pki.caCertificates());
        serverSettings = base;
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        // the gateway: TLCP and TLS 1.3 on one port
        tlcp = TlcpPageServer.start(
                List.of(bc.newServer(base), tongsuo.newServer(base.withProtocol(TlcpProtocol.TLS13))),
                any, 60_000);
        tlcpOnly = TlcpPageServer.start(bc.newServer(base), any, 60_000);
        TlcpServerSettings need = base.withClientAuth(TlcpServerSettings.ClientAuth.NEED);
        mtls = TlcpPageServer.start(
                List.of(bc.newServer(need), tongsuo.newServer(need.withProtocol(TlcpProtocol.TLS13))),
                any, 60_000);
        gcmOnly = TlcpPageServer.start(bc.newServer(base.withSuites(List.of(TlcpSuite.ECC_SM4_GCM_SM3))), any, 60_000);

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
        notACertificate = java.nio.file.Files.writeString(dir.resolve("not-a-certificate.pem"), "hello\n");
        assertThat(((SSLServerSocket) plainTls).getEnabledProtocols()).contains("TLSv1.3");
    }

    static void daemon(Runnable r) {
        Thread t = new Thread(r);
        t.setDaemon(true);
        t.start();
    }

    @AfterAll
    static void stop() throws Exception {
        for (TlcpPageServer s : new TlcpPageServer[] {tlcp, tlcpOnly, mtls, gcmOnly}) {
            s.close();
        }
        plainTls.close();
        silent.close();
        for (Socket s : silentAccepted) {
            s.close();
        }
    }

    /** A config + request pair with working defaults (cps of /1k over ECC_SM4_CBC_SM3), then {@code setup}. */
    static TlcpPair pair(Consumer<TlcpPair> setup) {
        TlcpPair p = new TlcpPair("tlcp");
        TlcpClientConfig c = p.config;
        c.setEngine("auto");
        c.setHost("127.0.0.1");
        c.setPort(String.valueOf(tlcp.port()));
        c.setProtocol("TLCP");
        c.setSuite("ECC_SM4_CBC_SM3");
        c.setCaFile(pki.dir().resolve("ca-1.pem").toString());
        c.setClientKeyStore("");
        c.setClientKeyStorePassword("");
        c.setClientSignAlias("sign");
        c.setClientEncAlias("enc");
        c.setConnectTimeout("2000");
        c.setResponseTimeout("2000");
        p.request.setMode("cps");
        p.request.setPath("/1k");
        setup.accept(p);
        PAIRS.add(p);
        return p;
    }

    static final List<TlcpPair> PAIRS = new ArrayList<>();

    static Stream<Arguments> hostileInputs() {
        return org.trustload.jmeter.common.HostileInputChecks.everyTextProperty(TlcpClientConfig.class,
                TlcpRequestSampler.class);
    }

    /**
     * The generated corpus of bad input in every text property of the pair, one at a time ({@code
     * HostileInputChecks}).
     */
    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("hostileInputs")
    void everyTextPropertyTakesTheHostileCorpusWithOneClearOutcome(String property,
            org.trustload.testing.HostileInputs.Input input) throws Exception {
        TlcpPair p = pair(x -> { });
        Object target = p.request;
        java.lang.reflect.Method setter;
        try {
            setter = TlcpRequestSampler.class.getMethod("set" + property, String.class);
        } catch (NoSuchMethodException e) {
            setter = TlcpClientConfig.class.getMethod("set" + property, String.class);
            target = p.config;
        }
        setter.invoke(target, input.value());
        long t0 = System.nanoTime();
        SampleResult r = p.sample();
        org.trustload.jmeter.common.HostileInputChecks.assertOneClearOutcome(r, (System.nanoTime() - t0) / 1_000_000,
                property, input);
    }

    @AfterEach
    void endTest() {
        for (TlcpPair p : PAIRS) {
            p.end();
        }
        PAIRS.clear();
    }

    static Consumer<TlcpPair> withClientPair(String party) {
        return p -> {
            p.config.setClientKeyStore(pki.tlcpKeyStoreFile(party).toString());
            p.config.setClientKeyStorePassword(TestPki.PASSWORD);
        };
    }

    // ------------------------------------------------------------ modes

    @Test
    void cpsFetchesThePageOnANewConnectionAndReportsSuiteAndTimings() {
        SampleResult r = pair(p -> { }).sample();
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseCode()).isEqualTo("200");
        assertThat(r.getResponseHeaders()).contains("protocol: TLCP", "cipher-suite: ECC_SM4_CBC_SM3",
                "handshake-ms: ", "tcp-connect-ms: ", "first-byte-ms: ", "transfer-ms: ", "connection: new");
        assertThat(r.getBodySizeAsLong()).isEqualTo(1024);
        assertThat(r.getConnectTime()).isLessThanOrEqualTo(r.getLatency());
    }

    @Test
    void throughputKeepsOneConnectionPerThread() {
        TlcpPair s = pair(x -> { x.request.setMode("throughput"); x.request.setPath("/1m"); });
        {
            SampleResult first = s.sample();
            SampleResult second = s.sample();
            assertThat(first.isSuccessful()).as(first.getResponseDataAsString()).isTrue();
            assertThat(second.isSuccessful()).as(second.getResponseDataAsString()).isTrue();
            assertThat(first.getResponseHeaders()).contains("connection: new");
            assertThat(second.getResponseHeaders()).contains("connection: reused");
            assertThat(second.getBodySizeAsLong()).isEqualTo(1024 * 1024);
        }
    }

    @Test
    void handshakeModeAndTls13OnTheSamePortTheSuiteChoosing() {
        SampleResult r = pair(p -> {
            p.request.setMode("handshake");
            p.config.setProtocol("");
            p.config.setSuite("TLS_SM4_GCM_SM3");
        }).sample();
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseMessage()).isEqualTo("TLSv1.3 TLS_SM4_GCM_SM3");
        assertThat(r.getSamplerData()).contains("engine: tongsuo");
    }

    @Test
    void minimalClientCryptoOnEverySuiteWithAndWithoutClientCertificates() {
        for (String suite : List.of("ECC_SM4_CBC_SM3", "ECC_SM4_GCM_SM3", "ECDHE_SM4_CBC_SM3", "ECDHE_SM4_GCM_SM3")) {
            for (TlcpPageServer server : List.of(tlcp, mtls)) {
                boolean certs = server == mtls || suite.startsWith("ECDHE");
                TlcpPair pair = pair((certs ? withClientPair(TestPki.TLCP_CLIENT) : c(p -> { })).andThen(p -> {
                    p.config.setSuite(suite);
                    p.config.setClientCrypto("minimal");
                    p.config.setPort(String.valueOf(server.port()));
                }));
                for (int i = 0; i < 3; i++) {
                    SampleResult r = pair.sample();
                    assertThat(r.isSuccessful()).as(suite + " " + r.getResponseDataAsString()).isTrue();
                    assertThat(r.getSamplerData()).contains("client crypto: minimal");
                }
            }
        }
    }

    @Test
    void ecdheWithClientPairAndMutualAuth() {
        SampleResult r = pair(withClientPair(TestPki.TLCP_CLIENT).andThen(p -> {
            p.config.setSuite("ECDHE_SM4_GCM_SM3");
            p.config.setPort(String.valueOf(mtls.port()));
        })).sample();
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getSamplerData()).doesNotContain(TestPki.PASSWORD);
        assertThat(r.getResponseHeaders() + r.getResponseDataAsString()).doesNotContain(TestPki.PASSWORD);
    }

    // ------------------------------------------------------------ bad input

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("unknown suite", c(p -> p.config.setSuite("AES_128_GCM")), "configError", "suite"),
                Arguments.of("suite of the other protocol", c(p -> p.config.setSuite("TLS_SM4_GCM_SM3")), "configError",
                        "suite"),
                Arguments.of("suite the server does not enable",
                        c(p -> p.config.setPort(String.valueOf(gcmOnly.port()))), "handshakeFailed", null),
                Arguments.of("CA of another PKI", c(p ->
                        p.config.setCaFile(otherPki.dir().resolve("ca-1.pem").toString())), "handshakeFailed", null),
                Arguments.of("expired client certificates", withClientPair(TestPki.TLCP_CLIENT_EXPIRED)
                        .andThen(p -> p.config.setPort(String.valueOf(mtls.port()))), "handshakeFailed", null),
                Arguments.of("no client certificate where required",
                        c(p -> p.config.setPort(String.valueOf(mtls.port()))), "handshakeFailed", null),
                Arguments.of("plain TLS server", c(p -> p.config.setPort(String.valueOf(plainTls.getLocalPort()))),
                        "handshakeFailed", null),
                Arguments.of("TLS 1.3 at a TLCP-only port", c(p -> { p.config.setPort(String.valueOf(tlcpOnly.port()));
                        p.config.setProtocol(""); p.config.setSuite("TLS_SM4_GCM_SM3"); }), "handshakeFailed", null),
                Arguments.of("refused port", c(p -> p.config.setPort(String.valueOf(closedPort))), "connectError",
                        null),
                Arguments.of("server never answers", c(p -> { p.config.setPort(String.valueOf(silent.getLocalPort()));
                        p.config.setResponseTimeout("500"); }), "timeout", null),
                Arguments.of("missing CA file", c(p -> p.config.setCaFile("/nonexistent/ca.pem")), "configError",
                        "caFile"),
                Arguments.of("CA file without a certificate", c(p -> p.config.setCaFile(notACertificate.toString())),
                        "configError", "caFile"),
                Arguments.of("missing client key store", c(p -> { p.config.setClientKeyStore("/nonexistent/client.p12");
                        p.config.setClientKeyStorePassword("x"); }), "configError", "clientKeyStore"),
                Arguments.of("wrong client key store password", withClientPair(TestPki.TLCP_CLIENT).andThen(p ->
                        p.config.setClientKeyStorePassword("wrong")), "configError", "clientKeyStorePassword"),
                Arguments.of("ECDHE without client pair", c(p -> p.config.setSuite("ECDHE_SM4_CBC_SM3")), "configError",
                        "clientKeyStore"),
                Arguments.of("unknown engine", c(p -> p.config.setEngine("openssl")), "configError", "engine"),
                Arguments.of("TLCP on the tongsuo engine", c(p -> p.config.setEngine("tongsuo")), "configError",
                        "engine"),
                Arguments.of("TLS 1.3 on the bc engine", c(p -> { p.config.setEngine("bc"); p.config.setProtocol("");
                        p.config.setSuite("TLS_SM4_GCM_SM3"); }), "configError", "engine"),
                Arguments.of("unknown client crypto", c(p -> p.config.setClientCrypto("frugal")), "configError",
                        "clientCrypto"),
                Arguments.of("minimal on the tongsuo engine", c(p -> { p.config.setProtocol(""); p.config.setSuite(
                        "TLS_SM4_GCM_SM3"); p.config.setClientCrypto("minimal"); }), "configError", "clientCrypto"),
                Arguments.of("unknown host", c(p -> p.config.setHost("no-such-host.invalid")), "configError", "host"),
                Arguments.of("port not a number", c(p -> p.config.setPort("http")), "configError", "port"),
                Arguments.of("unknown mode", c(p -> p.request.setMode("flood")), "configError", "mode"),
                Arguments.of("no such config", c(p -> p.request.setConfigName("nosuch")), "configError", "configName"),
                Arguments.of("missing page", c(p -> p.request.setPath("/nope")), "httpError", null));
    }

    private static Consumer<TlcpPair> c(Consumer<TlcpPair> setup) {
        return setup;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputGivesAFailedSampleWithAStableCode(String name, Consumer<TlcpPair> setup, String code,
            String property) {
        TlcpPair p = pair(setup);
        long t0 = System.nanoTime();
        SampleResult r = p.sample();
        // the table in docs/elements/tlcp-request.md quotes these lines
        System.out.println("bad input: " + name + " -> " + r.getResponseCode() + " / " + r.getResponseMessage());
        assertThat(r.isSuccessful()).as(name).isFalse();
        assertThat(r.getResponseCode()).as(name + ": " + r.getResponseMessage() + " / " + r.getResponseDataAsString())
                .isEqualTo(code);
        assertThat(r.getResponseMessage()).isNotBlank();
        assertThat(r.getResponseDataAsString()).doesNotContain(TestPki.PASSWORD);
        if (property != null) {
            // a configuration error names the element and the property, and stops the thread
            assertThat(r.getResponseMessage()).contains("'tlcp", ": " + property + ": ");
            assertThat(r.isStopThread()).isTrue();
        } else {
            assertThat(r.getResponseMessage()).doesNotContain("TLCP Client Config");
        }
        if (name.equals("refused port") || name.equals("plain TLS server")
                || name.equals("TLS 1.3 at a TLCP-only port")) {
            assertThat(r.isStopThread()).as("a thread that never completed a handshake stops after a refusal or a "
                    + "protocol mismatch").isTrue();
            assertThat(name.equals("refused port") || r.getResponseMessage().startsWith("protocol mismatch")).isTrue();
        } else if (property == null) {
            assertThat(r.isStopThread()).as("server-side failures are ordinary failed samples").isFalse();
        }
        assertThat((System.nanoTime() - t0) / 1_000_000).as("bounded by the timeouts").isLessThan(5000);
    }

    @Test
    void aRefusalAfterTheServerWasReachedIsLoadAndTheThreadGoesOn() throws Exception {
        TlcpPageServer going = TlcpPageServer.start(bc.newServer(serverSettings),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 60_000);
        TlcpPair p = pair(x -> x.config.setPort(String.valueOf(going.port())));
        assertThat(p.sample().isSuccessful()).isTrue();
        going.close(); // the server goes away in the middle of the test
        awaitRefused(going.port());
        SampleResult r = p.sample();
        assertThat(r.getResponseCode()).isEqualTo("connectError");
        assertThat(r.getResponseMessage()).isEqualTo("connection refused");
        assertThat(r.isStopThread()).as("a refusal after the thread reached the server is load: it goes on").isFalse();
        // a thread that starts only now (a ramp-up during the outage) goes on too: another thread reached the server
        TlcpRequestSampler late = new TlcpRequestSampler();
        late.setName(p.request.getName());
        late.setConfigName(p.request.getConfigName());
        late.setMode(p.request.getMode());
        late.setPath(p.request.getPath());
        SampleResult[] lr = new SampleResult[1];
        // JMeter hands each thread the variables the configs published in
        org.apache.jmeter.threads.JMeterVariables vars = org.apache.jmeter.threads.JMeterContextService.getContext()
                .getVariables();
        Thread t = new Thread(() -> {
            org.apache.jmeter.threads.JMeterContextService.getContext().setVariables(vars);
            lr[0] = late.sample(null);
        }, "late thread");
        t.start();
        t.join(30_000);
        assertThat(lr[0].getResponseMessage()).isEqualTo("connection refused");
        assertThat(lr[0].isStopThread()).as("a late thread's refusal during an outage does not stop it for good")
                .isFalse();
    }

    // ------------------------------------------------------------ connections closed at thread and test end

    @Test
    void holdKeepsConnectionsUntilThreadEndAndTheConfigClosesTheRestAtTestEnd() throws Exception {
        int before = settledOpenConnections();
        TlcpPair a = pair(p -> p.request.setMode("hold"));
        // a second thread: its own clone of the request on the same config
        TlcpRequestSampler b = secondThread(a);
        a.start();
        for (int i = 0; i < 3; i++) {
            SampleResult r = a.request.sample(null);
            assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
            assertThat(r.getResponseHeaders()).contains("held-connections: " + (i + 1));
            assertThat(b.sample(null).isSuccessful()).isTrue();
        }
        awaitOpen(before + 6);
        assertThat(a.config.client().keptConnections()).isEqualTo(6);
        a.request.threadFinished();
        awaitOpen(before + 3);
        // b's thread never finished (e.g. a stopped test): the config's test end still closes its connections
        a.config.testEnded();
        awaitOpen(before);
        assertThat(a.config.client()).isNull();
    }

    @Test
    void theConfigClosesTheKeptAliveConnectionsOfThroughputAtTestEnd() throws Exception {
        int before = settledOpenConnections();
        TlcpPair a = pair(p -> { p.request.setMode("throughput"); p.request.setPath("/64b"); });
        TlcpRequestSampler b = secondThread(a);
        assertThat(a.sample().isSuccessful()).isTrue();
        assertThat(b.sample(null).isSuccessful()).isTrue();
        awaitOpen(before + 2);
        a.config.testEnded(); // neither thread finished
        awaitOpen(before);
        // the next test: the request builds a new worker on the new client and opens a new connection
        a.config.testStarted();
        SampleResult r = a.request.sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseHeaders()).contains("connection: new");
        b.threadFinished();
    }

    /** Waits (at most 5 s) until the port refuses connections: the server's listener is gone. */
    static void awaitRefused(int port) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5000;
        while (System.currentTimeMillis() < deadline) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                Thread.sleep(20);
            } catch (java.io.IOException refused) {
                return;
            }
        }
    }

    /** The request as JMeter gives it to a second thread: its own element, the same settings. */
    static TlcpRequestSampler secondThread(TlcpPair p) {
        TlcpRequestSampler b = new TlcpRequestSampler();
        b.setName(p.request.getName());
        b.setConfigName(p.request.getConfigName());
        b.setMode(p.request.getMode());
        b.setPath(p.request.getPath());
        return b;
    }

    /**
     * The server's open connections once the count stops changing: a connection an earlier test closed
     * may still be counted until the server reads its end (seen in CI: one counted in "before", then gone).
     */
    static int settledOpenConnections() throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5000;
        int n = tlcp.openConnections();
        while (System.currentTimeMillis() < deadline) {
            Thread.sleep(250);
            int m = tlcp.openConnections();
            if (m == n) {
                return m;
            }
            n = m;
        }
        return n;
    }

    static void awaitOpen(int expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5000;
        while (tlcp.openConnections() != expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(tlcp.openConnections()).isEqualTo(expected);
    }

    // ------------------------------------------------------------ serialization and GUI

    @Test
    void elementsWithALiveConnectionJavaSerialize() throws Exception {
        TlcpPair p = pair(x -> x.request.setMode("throughput"));
        assertThat(p.sample().isSuccessful()).isTrue();
        assertThat(Modifier.isTransient(TlcpRequestSampler.class.getDeclaredField("worker").getModifiers())).isTrue();
        try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
            out.writeObject(p.request);
            out.writeObject(p.config);
        }
    }

    @Test
    void beanInfoDescribesEveryProperty() throws Exception {
        for (Class<?> type : List.of(TlcpRequestSampler.class, TlcpClientConfig.class)) {
            java.beans.BeanInfo info = java.beans.Introspector.getBeanInfo(type);
            java.util.ResourceBundle rb = java.util.ResourceBundle.getBundle(type.getName() + "Resources");
            for (java.beans.PropertyDescriptor p : info.getPropertyDescriptors()) {
                if (p.getWriteMethod() != null && p.getWriteMethod().getDeclaringClass() == type) {
                    assertThat(rb.containsKey(p.getName() + ".displayName")).as(p.getName()).isTrue();
                    assertThat(rb.containsKey(p.getName() + ".shortDescription")).as(p.getName()).isTrue();
                }
            }
        }
    }
}
