package org.trustload.jmeter.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Signature;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.labkit.pki.SamplePdf;
import org.trustload.labkit.pki.TestPki;
import org.trustload.labkit.pki.TimestampResponder;
import org.trustload.testing.TestHttpServer;

/**
 * The PKI elements in-process with real keys (a generated test PKI), real signatures and a real
 * RFC 3161 responder over HTTP on 127.0.0.1; the remote flow against the lab is covered by the plan tests.
 */
class PkiElementsTest {

    @TempDir
    static Path dir;
    static TestPki pki;
    static Path pdf;
    static Path text;
    static TestHttpServer tsa;

    @BeforeAll
    static void setUp() throws Exception {
        JMeterTestSupportAccess.init();
        pki = TestPki.generate(new TestPki.Spec().withSeed(7).withUsers(9).withRevoked(List.of(3)), dir.resolve("pki"));
        pdf = dir.resolve("doc.pdf");
        Files.write(pdf, SamplePdf.generate(20_000));
        text = dir.resolve("doc.txt");
        Files.writeString(text, "hello TrustLoad");
        TimestampResponder responder = new TimestampResponder(pki.tsaKey(), TimestampResponder.DEFAULT_POLICY);
        tsa = new TestHttpServer().on("/tsa", (body, ex) -> TestHttpServer.reply(ex, 200,
                "application/timestamp-reply", responder.respond(body)))
                .on("/garbage", (body, ex) -> TestHttpServer.reply(ex, 200, "text/html",
                        "<html>no</html>".getBytes(StandardCharsets.UTF_8)));
    }

    @AfterAll
    static void tearDown() {
        tsa.close();
    }

    @BeforeEach
    void freshThreadContext() {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
    }

    private static KeyStoreConfig keys(String pool, String assignment) {
        KeyStoreConfig c = new KeyStoreConfig();
        c.setName("keys");
        c.setPoolName(pool);
        c.setSourceType("pkcs12");
        c.setKeyStoreFile(pki.usersFile().toString());
        c.setKeyStorePassword(pki.password());
        c.setExcludeAliases(String.join(",", pki.revokedAliases()));
        c.setAssignment(assignment);
        c.testStarted();
        return c;
    }

    /** A started Signature Server Config named {@code name}; blank URLs are left out. */
    static SignatureServerConfig server(String name, String serverUrl, String tsaUrl) {
        SignatureServerConfig c = new SignatureServerConfig();
        c.setName(name);
        c.setConfigName(name);
        c.setServerUrl(serverUrl);
        c.setTsaUrl(tsaUrl);
        c.setConnectTimeout("2000");
        c.setResponseTimeout("5000");
        c.testStarted();
        return c;
    }

    private static SignatureAssertion assertion(String format, boolean requireTimestamp) throws Exception {
        SignatureAssertion a = new SignatureAssertion();
        a.setName("check");
        Path anchors = dir.resolve("anchors.pem");
        if (!Files.exists(anchors)) {
            StringBuilder pem = new StringBuilder();
            for (var c : pki.caCertificates()) {
                pem.append("-----BEGIN CERTIFICATE-----\n")
                        .append(Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(c.getEncoded()))
                        .append("\n-----END CERTIFICATE-----\n");
            }
            Files.writeString(anchors, pem);
        }
        a.setTrustAnchorsFile(anchors.toString());
        a.setFormat(format);
        a.setRequireTimestamp(requireTimestamp);
        return a;
    }

    @Test
    void perThreadAssignmentGivesDifferentThreadsDifferentUsersAndSkipsExcludedOnes() throws Exception {
        KeyStoreConfig original = keys("threads", KeyStoreConfig.ASSIGN_PER_THREAD);
        Set<String> aliases = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new java.util.ArrayList<>();
        JMeterVariables started = JMeterContextService.getContext().getVariables();
        for (int i = 0; i < 4; i++) {
            // JMeter gives each thread its own copy of the element (fields set from its properties), and its
            // own variables starting from those of the test's start (JMeterThread.setInitialContext)
            KeyStoreConfig clone = new KeyStoreConfig();
            clone.setPoolName("threads");
            clone.setAssignment(KeyStoreConfig.ASSIGN_PER_THREAD);
            Thread t = new Thread(() -> {
                JMeterVariables own = new JMeterVariables();
                own.putAll(started);
                JMeterContextService.getContext().setVariables(own);
                clone.iterationStart(null);
                String first = JMeterContextService.getContext().getVariables().get("keyAlias");
                clone.iterationStart(null);
                assertThat(JMeterContextService.getContext().getVariables().get("keyAlias")).isEqualTo(first);
                aliases.add(first);
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(aliases).hasSize(4).doesNotContainAnyElementsOf(pki.revokedAliases());
        original.testEnded();
    }

    @Test
    void perIterationAssignmentHandsOutTheNextUserEachIteration() {
        KeyStoreConfig c = keys("iterations", KeyStoreConfig.ASSIGN_PER_ITERATION);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            c.iterationStart(null);
            seen.add(JMeterContextService.getContext().getVariables().get("keyAlias"));
        }
        assertThat(seen).hasSize(8);
        c.testEnded();
        assertThat(c.client()).as("the keys are let go at test end").isNull();
    }

    @Test
    void cadesLocalSignatureIsValidAndAsserted() throws Exception {
        KeyStoreConfig c = keys("default", KeyStoreConfig.ASSIGN_FIRST);
        c.iterationStart(null);
        CadesSignSampler s = new CadesSignSampler();
        s.setName("cades");
        s.setInputFile(text.toString());
        s.setOutputVariable("sig");
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseCode()).isEqualTo("200");
        assertThat(r.getResponseMessage()).startsWith("CADES-B ");
        assertThat(JMeterContextService.getContext().getVariables().get("sig")).isNotEmpty();
        AssertionResult a = assertion("auto", false).getResult(r);
        assertThat(a.isFailure() || a.isError()).as(a.getFailureMessage()).isFalse();
        AssertionResult needsTs = assertion("auto", true).getResult(r);
        assertThat(needsTs.isFailure()).isTrue();
        c.testEnded();
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> hostileInputs() {
        return org.trustload.jmeter.common.HostileInputChecks.everyTextProperty(CadesSignSampler.class,
                SignatureServerConfig.class, KeyStoreConfig.class);
    }

    /**
     * The generated corpus of bad input in every text property of a CAdES-T signature (Key Store Config, Signature
     * Server Config with a TSA, CAdES Sign), one at a time ({@code HostileInputChecks}): no key store password or key
     * echoed either.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} = {1}")
    @org.junit.jupiter.params.provider.MethodSource("hostileInputs")
    void everyTextPropertyTakesTheHostileCorpusWithOneClearOutcome(String property,
            org.trustload.testing.HostileInputs.Input input) throws Exception {
        // Output files are written where the user says, as JMeter's own "Save Responses to a file" does: the corpus
        // writes them only inside this test's folder (relative names resolve against the plan's, set here), never
        // to an absolute path or above the folder (the tests run as root on CI: /etc/passwd was overwritten once).
        boolean output = property.startsWith("Output");
        String v = input.value();
        org.junit.jupiter.api.Assumptions.assumeFalse(output && (v.strip().startsWith("/") || v.contains("..")
                || v.contains(":") || v.strip().startsWith("~") || v.contains("${")),
                "an output path outside the test's folder is not written");
        Path sandbox = Files.createDirectories(dir.resolve("corpus-out"));
        String baseBefore = org.apache.jmeter.services.FileServer.getFileServer().getBaseDir();
        org.apache.jmeter.services.FileServer.getFileServer().setBasedir(sandbox.resolve("plan.jmx").toString());
        KeyStoreConfig c = new KeyStoreConfig();
        c.setName("keys");
        c.setPoolName("corpus");
        c.setSourceType("pkcs12");
        c.setKeyStoreFile(pki.usersFile().toString());
        c.setKeyStorePassword(pki.password());
        c.setExcludeAliases(String.join(",", pki.revokedAliases()));
        c.setAssignment(KeyStoreConfig.ASSIGN_FIRST);
        SignatureServerConfig server = new SignatureServerConfig();
        server.setName("corpus-server");
        server.setConfigName("corpus-server");
        server.setServerUrl("");
        server.setTsaUrl(tsa.uri("/tsa").toString());
        server.setConnectTimeout("2000");
        server.setResponseTimeout("5000");
        CadesSignSampler s = new CadesSignSampler();
        s.setName("cades corpus");
        s.setLevel("T");
        s.setConfigName("corpus-server");
        s.setKeyPool("corpus");
        s.setInputFile(text.toString());
        for (Object target : List.of(s, server, c)) {
            try {
                target.getClass().getMethod("set" + property, String.class).invoke(target, input.value());
                break;
            } catch (NoSuchMethodException e) {
                // the property of another element
            }
        }
        long t0 = System.nanoTime();
        SampleResult r;
        try {
            c.testStarted();
            server.testStarted();
            c.iterationStart(null);
            r = s.sample(null);
        } finally {
            server.testEnded();
            c.testEnded();
            org.apache.jmeter.services.FileServer.getFileServer().setBasedir(
                    baseBefore == null ? "." : baseBefore + "/x.jmx");
        }
        org.trustload.jmeter.common.HostileInputChecks.assertOneClearOutcome(r, (System.nanoTime() - t0) / 1_000_000,
                property, input, pki.password());
    }

    @Test
    void cadesTAndPadesTWithATimestampFromTheTsaAreAssertedAsTimestamped() throws Exception {
        KeyStoreConfig c = keys("default", KeyStoreConfig.ASSIGN_FIRST);
        c.iterationStart(null);
        SignatureServerConfig server = server("tsa-ok", "", tsa.uri("/tsa").toString());
        for (AbstractSignSampler s : List.of(new CadesSignSampler(), new PadesSignSampler())) {
            s.setName(s.getClass().getSimpleName());
            s.setLevel("T");
            s.setConfigName("tsa-ok");
            s.setInputFile((s instanceof PadesSignSampler ? pdf : text).toString());
            SampleResult r = s.sample(null);
            assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
            AssertionResult a = assertion("auto", true).getResult(r);
            assertThat(a.isFailure() || a.isError()).as(a.getFailureMessage()).isFalse();
        }
        server.testEnded();
        c.testEnded();
    }

    @Test
    void signatureAssertionFailsATamperedSignature() throws Exception {
        KeyStoreConfig c = keys("default", KeyStoreConfig.ASSIGN_FIRST);
        c.iterationStart(null);
        PadesSignSampler s = new PadesSignSampler();
        s.setName("pades");
        s.setInputFile(pdf.toString());
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        byte[] signed =
                (byte[]) JMeterContextService.getContext().getVariables().getObject(AbstractSignSampler.LAST_SIGNATURE);
        byte[] tampered = signed.clone();
        int at = new String(tampered, StandardCharsets.ISO_8859_1).indexOf("TrustLoad");
        tampered[at >= 0 ? at : tampered.length / 3] ^= 1;
        JMeterContextService.getContext().getVariables().putObject(AbstractSignSampler.LAST_SIGNATURE, tampered);
        AssertionResult a = assertion("pades", false).getResult(r);
        assertThat(a.isFailure()).as("tampered PDF must fail").isTrue();
        c.testEnded();
    }

    @Test
    void badInputGivesClearFailedSamples() throws Exception {
        // no pool at all
        CadesSignSampler s = new CadesSignSampler();
        s.setName("nopool");
        s.setKeyPool("missing");
        s.setInputFile(text.toString());
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo("configError");
        assertThat(r.getResponseMessage()).contains("no key pool 'missing'");

        // wrong key store password: the pool is not created, the sample says so
        KeyStoreConfig wrong = keys("wrongpw", KeyStoreConfig.ASSIGN_FIRST);
        wrong.setKeyStorePassword("not-the-password");
        wrong.testStarted();
        s.setKeyPool("wrongpw");
        r = s.sample(null);
        assertThat(r.getResponseCode()).isEqualTo("configError");
        assertThat(r.getResponseDataAsString() + r.getResponseMessage()).doesNotContain("not-the-password");

        KeyStoreConfig c = keys("default", KeyStoreConfig.ASSIGN_FIRST);
        c.iterationStart(null);
        // corrupt PDF
        Path corrupt = dir.resolve("corrupt.pdf");
        Files.write(corrupt, "%PDF-1.7 this is not a pdf".getBytes(StandardCharsets.US_ASCII));
        PadesSignSampler p = new PadesSignSampler();
        p.setName("corrupt");
        p.setInputFile(corrupt.toString());
        r = p.sample(null);
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo("invalidDocument");

        // missing document file (its path in the message), unknown level, remote mode on a config without server URL
        CadesSignSampler bad = new CadesSignSampler();
        bad.setName("bad");
        bad.setInputFile(dir.resolve("nope.txt").toString());
        r = bad.sample(null);
        assertThat(r.getResponseCode()).isEqualTo("configError");
        assertThat(r.getResponseMessage())
                .isEqualTo("CAdES Sign 'bad': inputFile: file not found (" + dir.resolve("nope.txt") + ")");
        assertThat(r.isStopThread()).isTrue();
        bad.setInputFile(text.toString());
        bad.setLevel("LTA");
        assertThat(bad.sample(null).getResponseMessage()).contains("level: unknown value 'LTA'");
        bad.setLevel("B");
        bad.setMode("remote");
        bad.setConfigName("tsa-only");
        SignatureServerConfig tsaOnly = server("tsa-only", "", tsa.uri("/tsa").toString());
        assertThat(bad.sample(null).getResponseMessage()).contains("has no serverUrl");
        bad.setConfigName("nosuch");
        r = bad.sample(null);
        assertThat(r.getResponseMessage())
                .isEqualTo("CAdES Sign 'bad': configName: no Signature Server Config named 'nosuch' in this test plan");
        assertThat(r.getTime()).as("nothing was sent: no time").isZero();

        // TSA down and TSA answering garbage
        SignatureServerConfig down = server("tsa-down", "", "http://127.0.0.1:1/tsa");
        SignatureServerConfig garbage = server("tsa-garbage", "", tsa.uri("/garbage").toString());
        CadesSignSampler t = new CadesSignSampler();
        t.setName("tsa");
        t.setLevel("T");
        t.setInputFile(text.toString());
        t.setConfigName("tsa-down");
        assertThat(t.sample(null).getResponseCode()).isEqualTo("tsaError");
        t.setConfigName("tsa-garbage");
        assertThat(t.sample(null).getResponseCode()).isEqualTo("tsaError");

        // remote server down: the first step fails, its sub-result says why
        SignatureServerConfig refused = server("refused", "http://127.0.0.1:1", "");
        CadesSignSampler remote = new CadesSignSampler();
        remote.setName("remote");
        remote.setMode("remote");
        remote.setConfigName("refused");
        remote.setInputFile(text.toString());
        r = remote.sample(null);
        assertThat(r.getResponseCode()).isEqualTo("connectError");
        assertThat(r.getResponseMessage()).isEqualTo("signature server connection refused");
        assertThat(r.isStopThread()).as("a thread that never reached the server stops after one refused sample")
                .isTrue();
        assertThat(r.getSubResults()).hasSize(1);
        for (SignatureServerConfig x : List.of(tsaOnly, down, garbage, refused)) {
            x.testEnded();
        }
        c.testEnded();
        wrong.testEnded();
    }

    @Test
    void timestampRequestSucceedsAndItsTokenIsAsserted() throws Exception {
        SignatureServerConfig ok = server("ts-ok", "", tsa.uri("/tsa").toString());
        SignatureServerConfig garbage = server("ts-garbage", "", tsa.uri("/garbage").toString());
        SignatureServerConfig down = server("ts-down", "", "http://127.0.0.1:1/tsa");
        TimestampRequestSampler s = new TimestampRequestSampler();
        s.setName("ts");
        s.setConfigName("ts-ok");
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseMessage()).startsWith("timestamp ");
        AssertionResult a = assertion("timestamp", false).getResult(r);
        assertThat(a.isFailure() || a.isError()).as(a.getFailureMessage()).isFalse();
        s.setConfigName("ts-garbage");
        assertThat(s.sample(null).getResponseCode()).isEqualTo("tsaError");
        s.setConfigName("ts-down");
        assertThat(s.sample(null).getResponseCode()).isEqualTo("tsaError");
        for (SignatureServerConfig x : List.of(ok, garbage, down)) {
            x.testEnded();
        }
    }

    @Test
    void signatureServerConfigClosesItsHttpClientAtTestEndAndItsSamplersThenFail() throws Exception {
        SignatureServerConfig c = server("closing", "", tsa.uri("/tsa").toString());
        org.trustload.pki.SignatureServer built = c.client();
        TimestampRequestSampler s = new TimestampRequestSampler();
        s.setName("ts");
        s.setConfigName("closing");
        assertThat(s.sample(null).isSuccessful()).isTrue();
        c.testEnded();
        assertThat(c.client()).as("the config let go of its client").isNull();
        assertThat(built.isClosed()).isTrue();
        assertThat(built.awaitTerminated(java.time.Duration.ofSeconds(30))).as("the HTTP client's threads ended")
                .isTrue();
        SampleResult after = s.sample(null);
        assertThat(after.getResponseMessage()).as("the config is gone after its test")
                .contains("no Signature Server Config named 'closing'");
    }

    @Test
    void aWrongSignatureServerSettingStopsTheTestNamingPropertyAndFile() throws Exception {
        SignatureServerConfig c = new SignatureServerConfig();
        c.setName("bad ca");
        c.setServerUrl("http://127.0.0.1:1");
        c.setTrustAnchorsFile(dir.resolve("no-such-ca.pem").toString());
        c.testStarted();
        CadesSignSampler s = new CadesSignSampler();
        s.setName("remote");
        s.setMode("remote");
        s.setInputFile(text.toString());
        KeyStoreConfig k = keys("default", KeyStoreConfig.ASSIGN_FIRST);
        SampleResult r = s.sample(null);
        assertThat(r.getResponseCode()).isEqualTo("configError");
        assertThat(r.getResponseMessage())
                .isEqualTo("Signature Server Config 'bad ca': trustAnchorsFile: file not found ("
                + dir.resolve("no-such-ca.pem") + ")");
        c.testEnded();
        c.setTrustAnchorsFile("");
        c.setServerUrl("http://no-such-host.invalid:8080");
        c.testStarted();
        r = s.sample(null);
        assertThat(r.getResponseMessage())
                .isEqualTo("Signature Server Config 'bad ca': serverUrl: unknown host 'no-such-host.invalid'");
        c.testEnded();
        k.testEnded();
    }

    @Test
    void signDataPutsAVerifiableSignatureInAVariable() throws Exception {
        KeyStoreConfig c = keys("default", KeyStoreConfig.ASSIGN_FIRST);
        c.iterationStart(null);
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        byte[] data = "to be signed".getBytes(StandardCharsets.UTF_8);
        vars.put("toBeSigned", Base64.getEncoder().encodeToString(data));
        SignDataPreProcessor p = new SignDataPreProcessor();
        p.setName("sign");
        p.process();
        byte[] sig = Base64.getDecoder().decode(vars.get("signature"));
        var cert = java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(
                new java.io.ByteArrayInputStream(Base64.getDecoder().decode(vars.get("signerCertificate"))));
        Signature v = Signature.getInstance("SHA256withECDSA");
        v.initVerify(cert.getPublicKey());
        v.update(data);
        assertThat(v.verify(sig)).isTrue();
        vars.remove("toBeSigned");
        p.process();
        assertThat(vars.get("signature")).isEmpty();
        assertThat(vars.get("signature_error")).startsWith("configError");
        c.testEnded();
    }

    @Test
    void everyPkiElementJavaSerializesForDistributedMode() throws Exception {
        KeyStoreConfig c = keys("default", KeyStoreConfig.ASSIGN_PER_THREAD);
        c.iterationStart(null);
        SignatureServerConfig server = server("serializes", "", tsa.uri("/tsa").toString());
        for (Object o : List.of(c, server, new CadesSignSampler(), new PadesSignSampler(),
                new TimestampRequestSampler(),
                new CertificateLoginSampler(), new SignDataPreProcessor(), new SignatureAssertion())) {
            try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
                out.writeObject(o);
            }
        }
        server.testEnded();
        c.testEnded();
    }
}
