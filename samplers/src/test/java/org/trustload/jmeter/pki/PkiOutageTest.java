package org.trustload.jmeter.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.labkit.pki.TestPki;
import org.trustload.labkit.pki.TimestampResponder;
import org.trustload.testing.FaultServer;
import org.trustload.testing.TestHttpServer;

/**
 * A PKI sampler thread that starts during an outage of a server the test had reached (a ramp-up while the
 * signature server restarts) is not stopped for good by its first refused request: only a thread whose server
 * was never reached by anyone stops (a wrong URL is a setting to fix). Against real servers on 127.0.0.1: an
 * RFC 3161 TSA that signs, and a {@link FaultServer} answering HTTP 200 garbage where the signature and login
 * APIs should be (an answer all the same), each then closed so that its port refuses.
 */
class PkiOutageTest {

    @TempDir
    static Path dir;
    static TestPki pki;
    static Path text;
    private KeyStoreConfig keys;
    private final List<SignatureServerConfig> configs = new java.util.ArrayList<>();

    @BeforeAll
    static void setUp() throws Exception {
        JMeterTestSupportAccess.init();
        pki = TestPki.generate(new TestPki.Spec().withSeed(5).withUsers(3), dir.resolve("pki"));
        text = dir.resolve("doc.txt");
        Files.writeString(text, "hello TrustLoad");
    }

    @BeforeEach
    void startTest() {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        keys = new KeyStoreConfig();
        keys.setName("keys");
        keys.setPoolName("default");
        keys.setSourceType("pkcs12");
        keys.setKeyStoreFile(pki.usersFile().toString());
        keys.setKeyStorePassword(pki.password());
        keys.setAssignment(KeyStoreConfig.ASSIGN_FIRST);
        keys.testStarted();
        keys.iterationStart(null);
    }

    @AfterEach
    void endTest() {
        configs.forEach(SignatureServerConfig::testEnded);
        keys.testEnded();
    }

    /** A started Signature Server Config, ended after the test. */
    private void config(String name, String serverUrl, String tsaUrl) {
        configs.add(PkiElementsTest.server(name, serverUrl, tsaUrl));
    }

    /**
     * The server of {@code config} answered and is now down: a thread starting now records the refusal
     * {@code message} and goes on; the same refusal at {@code never}, a config of the same URL that nothing of
     * the test reached, stops its thread.
     */
    private static void aLateThreadGoesOnWhereNothingAnsweredItStops(Function<String, SampleResult> sample,
            String config, String never, String message) throws InterruptedException {
        SampleResult late = onALateThread(() -> sample.apply(config));
        assertThat(late.getResponseMessage()).isEqualTo(message);
        assertThat(late.isStopThread()).as("a thread starting during an outage of a server the test reached goes on")
                .isFalse();
        SampleResult stopped = onALateThread(() -> sample.apply(never));
        assertThat(stopped.getResponseMessage()).as("a wrong URL is a setting to fix").isEqualTo(message);
        assertThat(stopped.isStopThread()).isTrue();
    }

    /** One sample on a thread of its own with this test's variables, as a thread JMeter starts later runs it. */
    private static SampleResult onALateThread(Supplier<SampleResult> sample) throws InterruptedException {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        SampleResult[] r = new SampleResult[1];
        Thread t = new Thread(() -> {
            JMeterContextService.getContext().setVariables(vars);
            r[0] = sample.get();
        }, "late thread");
        t.start();
        t.join(60_000);
        assertThat(r[0]).as("the late thread's sample ended").isNotNull();
        return r[0];
    }

    /** Waits until nothing listens on {@code port} any more (a closed server socket refuses at once). */
    private static void awaitRefused(int port) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            } catch (java.io.IOException refused) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("port " + port + " still accepts");
    }

    private static TimestampRequestSampler timestamp(String config) {
        TimestampRequestSampler s = new TimestampRequestSampler();
        s.setName("ts");
        s.setConfigName(config);
        return s;
    }

    private static CadesSignSampler remoteCades(String config) {
        CadesSignSampler s = new CadesSignSampler();
        s.setName("cades");
        s.setMode("remote");
        s.setConfigName(config);
        s.setInputFile(text.toString());
        return s;
    }

    private static CertificateLoginSampler login(String config) {
        CertificateLoginSampler s = new CertificateLoginSampler();
        s.setName("login");
        s.setConfigName(config);
        return s;
    }

    @Test
    void aTimestampThreadStartingWhileTheTsaIsDownGoesOnOnceTheTsaHadAnswered() throws Exception {
        TimestampResponder responder = new TimestampResponder(pki.tsaKey(), TimestampResponder.DEFAULT_POLICY);
        TestHttpServer tsa = new TestHttpServer().on("/tsa", (body, ex) -> TestHttpServer.reply(ex, 200,
                "application/timestamp-reply", responder.respond(body)));
        int port = tsa.uri("/").getPort();
        config("tsa", "", tsa.uri("/tsa").toString());
        try {
            SampleResult ok = timestamp("tsa").sample(null);
            assertThat(ok.isSuccessful()).as(ok.getResponseDataAsString()).isTrue();
        } finally {
            tsa.close();
        }
        awaitRefused(port);
        config("tsa-never", "", "http://127.0.0.1:" + port + "/tsa");
        aLateThreadGoesOnWhereNothingAnsweredItStops(c -> timestamp(c).sample(null), "tsa", "tsa-never",
                "TSA unreachable");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"remote CAdES Sign", "Certificate Login"})
    void aThreadStartingWhileTheSignatureServerIsDownGoesOnOnceTheServerHadAnswered(String element) throws Exception {
        Function<String, SampleResult> sample = element.startsWith("remote") ? c -> remoteCades(c).sample(null)
                : c -> login(c).sample(null);
        FaultServer garbage = FaultServer.answering(FaultServer.Garbage.json("<html>maintenance</html>"));
        int port = garbage.port();
        config("api", "http://127.0.0.1:" + port, "");
        try {
            SampleResult answered = sample.apply("api");
            assertThat(answered.getResponseCode()).as(answered.getResponseDataAsString()).isEqualTo("badResponse");
            assertThat(answered.isStopThread()).isFalse();
        } finally {
            garbage.close();
        }
        awaitRefused(port);
        config("api-never", "http://127.0.0.1:" + port, "");
        aLateThreadGoesOnWhereNothingAnsweredItStops(sample, "api", "api-never", "signature server connection refused");
    }
}
