package org.trustload.jmeter.pki;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.labkit.pki.TestPki;
import org.trustload.testing.TestHttpServer;

/**
 * Certificate Login in-process against a tiny login server that really verifies the signature and
 * refuses the revoked users of a generated test PKI (the lab's own checks are covered in the plan
 * tests): sub-results, expected refusals both ways, bad input, users per thread and per iteration.
 */
class CertificateLoginSamplerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestHttpServer server;

    @BeforeAll
    static void setUp() throws Exception {
        JMeterTestSupportAccess.init();
        pki = TestPki.generate(new TestPki.Spec().withSeed(11).withUsers(9).withRevoked(List.of(3)),
                dir.resolve("pki"));
        Set<String> revokedSubjects = ConcurrentHashMap.newKeySet();
        for (String a : pki.revokedAliases()) {
            revokedSubjects.add(pki.userKey(a).certificate().getSubjectX500Principal().getName());
        }
        // Rest PKI's classic authentication as its openapi document publishes it: GET Api/Authentication
        // gives a nonce; POST it back signed; a refused certificate is HTTP 200 with validation errors
        server = new TestHttpServer()
                .on("/garbage/Api/Authentication", (b, ex) -> TestHttpServer.reply(ex, 200, "text/html",
                        "<html>maintenance</html>".getBytes(StandardCharsets.UTF_8)))
                .on("/Api/Authentication", (body, ex) -> {
                    if (ex.getRequestMethod().equals("GET")) {
                        TestHttpServer.reply(ex, 200, "application/json",
                                "{\"nonce\":\"q83vEjRWeJA=\"}".getBytes(StandardCharsets.UTF_8));
                        return;
                    }
                    JsonNode r = JSON.readTree(body);
                    String answer;
                    int status = 200;
                    try {
                        X509Certificate c = (X509Certificate) CertificateFactory.getInstance("X.509")
                                .generateCertificate(
                                new ByteArrayInputStream(Base64.getDecoder().decode(r.get("certificate").asText())));
                        Signature s = Signature.getInstance("SHA256withECDSA");
                        s.initVerify(c.getPublicKey());
                        s.update(Base64.getDecoder().decode(r.get("nonce").asText()));
                        String subject = c.getSubjectX500Principal().getName();
                        String cn = subject.replaceAll(".*CN=([^,]*).*", "$1");
                        String errors = !s.verify(Base64.getDecoder().decode(r.get("signature").asText()))
                                ? "{\"type\":\"InvalidSignature\",\"message\":\"bad signature\"}"
                                : revokedSubjects.contains(subject)
                                ? "{\"type\":\"CertificateRevoked\",\"message\":\"on the CRL\"}" : "";
                        answer = "{\"certificate\":{\"subjectName\":{\"commonName\":\"" + cn + "\"}},"
                                + "\"validationResults\":{\"passedChecks\":[],\"warnings\":[],\"errors\":[" + errors
                                + "]}}";
                    } catch (Exception e) {
                        status = 422;
                        answer = "{\"code\":\"PKCertificateMalformed\",\"message\":\"" + e.getClass().getSimpleName()
                                + "\"}";
                    }
                    TestHttpServer.reply(ex, status, "application/json", answer.getBytes(StandardCharsets.UTF_8));
                });
    }

    @AfterAll
    static void tearDown() {
        server.close();
    }

    /** The Signature Server Config of each test: the login server's URL. */
    private SignatureServerConfig loginServer;

    @BeforeEach
    void freshThreadContextAndConfig() {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        loginServer = config("login-server", server.uri("/").toString(), "", "");
    }

    @AfterEach
    void endConfig() {
        loginServer.testEnded();
    }

    private static SignatureServerConfig config(String name, String loginUrl, String mtlsUrl, String anchors) {
        SignatureServerConfig c = new SignatureServerConfig();
        c.setName(name);
        c.setConfigName(name);
        c.setLoginUrl(loginUrl);
        c.setMtlsUrl(mtlsUrl);
        c.setTrustAnchorsFile(anchors);
        c.testStarted();
        return c;
    }

    private static KeyStoreConfig keys(String pool, String assignment, String password) {
        KeyStoreConfig c = new KeyStoreConfig();
        c.setName("keys");
        c.setPoolName(pool);
        c.setKeyStoreFile(pki.usersFile().toString());
        c.setKeyStorePassword(password);
        c.setAssignment(assignment);
        c.testStarted();
        return c;
    }

    private static CertificateLoginSampler sampler(String pool) {
        CertificateLoginSampler s = new CertificateLoginSampler();
        s.setName("login");
        s.setKeyPool(pool);
        s.setConfigName("login-server");
        return s;
    }

    private static String revoked() {
        return pki.revokedAliases().get(0);
    }

    @Test
    void aValidUserLogsInWithThreeSubResults() {
        KeyStoreConfig c = keys("valid", KeyStoreConfig.ASSIGN_FIRST, pki.password());
        c.iterationStart(null);
        SampleResult r = sampler("valid").sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseCode()).isEqualTo("200");
        assertThat(r.getResponseMessage()).isEqualTo("login OK");
        assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel)
                .containsExactly("login start", "login sign", "login complete");
        assertThat(r.getSubResults()).allMatch(SampleResult::isSuccessful);
        assertThat(r.getResponseDataAsString()).contains("subject: ");
        assertThat(r.getSamplerData() + r.getResponseDataAsString()).doesNotContain(pki.password());
        c.testEnded();
    }

    @Test
    void aRevokedUserIsAFailureUnlessExpectedThenARefusalAsExpected() {
        KeyStoreConfig c = keys("revoked", KeyStoreConfig.ASSIGN_FIRST, pki.password());
        c.setAliases(revoked());
        c.testStarted();
        c.iterationStart(null);
        CertificateLoginSampler s = sampler("revoked");
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo("certificateRevoked");
        assertThat(r.getResponseMessage()).isEqualTo("login refused: CertificateRevoked");
        assertThat(r.getSubResults()).hasSize(3);
        assertThat(r.getSubResults()[2].isSuccessful()).isFalse();

        s.setExpectRefusedAliases("someoneElse, " + revoked());
        r = s.sample(null);
        assertThat(r.isSuccessful()).isTrue();
        assertThat(r.getResponseMessage()).isEqualTo("refused as expected: certificateRevoked");
        assertThat(r.getSubResults()).allMatch(SampleResult::isSuccessful);
        assertThat(r.getSubResults()[2].getResponseMessage()).isEqualTo("refused as expected: certificateRevoked");
        c.testEnded();
    }

    @Test
    void aValidUserListedAsExpectedRefusalIsTheFailureExpectedRefusal() {
        String alias = pki.validAliases().get(0);
        KeyStoreConfig c = keys("listed", KeyStoreConfig.ASSIGN_FIRST, pki.password());
        c.setAliases(alias);
        c.testStarted();
        c.iterationStart(null);
        CertificateLoginSampler s = sampler("listed");
        s.setExpectRefusedAliases(alias);
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo(CertificateLoginSampler.EXPECTED_REFUSAL);
        assertThat(r.getResponseMessage()).isEqualTo("expected a refusal, got HTTP 200");
        c.testEnded();
    }

    @Test
    void noPoolWrongPasswordGarbageAndNoServerAreClearFailedSamples() throws Exception {
        SampleResult r = sampler("nosuchpool").sample(null);
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo("configError");
        assertThat(r.getResponseMessage()).contains("no key pool 'nosuchpool'");

        KeyStoreConfig bad = keys("badpw", KeyStoreConfig.ASSIGN_FIRST, "wrong-password");
        bad.iterationStart(null);
        r = sampler("badpw").sample(null);
        assertThat(r.getResponseCode()).isEqualTo("configError");
        assertThat(r.getResponseMessage()).as("the Key Store Config's own error, not 'no key pool'")
                .startsWith("Key Store Config 'keys': keyStorePassword: cannot open key store (wrong password?)");
        assertThat(r.getResponseDataAsString()).doesNotContain("wrong-password");

        KeyStoreConfig c = keys("g", KeyStoreConfig.ASSIGN_FIRST, pki.password());
        c.iterationStart(null);
        CertificateLoginSampler s = sampler("g");
        SignatureServerConfig garbage = config("garbage", server.uri("/garbage/").toString(), "", "");
        s.setConfigName("garbage");
        r = s.sample(null);
        assertThat(r.getResponseCode()).isEqualTo("badResponse");
        assertThat(r.getResponseMessage()).isEqualTo("HTTP 200 answer is not JSON");
        assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel).containsExactly("login start");
        garbage.testEnded();
        s.setConfigName("login-server");

        int port;
        try (java.net.ServerSocket ss = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = ss.getLocalPort();
        }
        SignatureServerConfig refused = config("refused", "http://127.0.0.1:" + port, "https://127.0.0.1:" + port, "");
        s = sampler("g");
        s.setConfigName("refused");
        r = s.sample(null);
        assertThat(r.getResponseCode()).isEqualTo("connectError");
        assertThat(r.isStopThread()).as("a thread that never reached the server stops after one refused sample")
                .isTrue();
        s.setMethod("mtls");
        r = s.sample(null);
        assertThat(r.getResponseCode()).isEqualTo("connectError");
        assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel).containsExactly("login handshake");
        refused.testEnded();

        s.setMethod("kerberos");
        assertThat(s.sample(null).getResponseMessage()).isEqualTo(
                "Certificate Login 'login': method: unknown value 'kerberos' (expected challenge-response, mtls)");
        s.setMethod("mtls");
        s.setConfigName("login-server");
        assertThat(s.sample(null).getResponseMessage()).isEqualTo(
                "Certificate Login 'login': configName: Signature Server Config 'login-server' has no mtlsUrl (nor an "
                        + "https login URL): method mtls needs it");
        SignatureServerConfig missingCa = config("missing-ca", "", "https://127.0.0.1:" + port,
                dir.resolve("missing.pem").toString());
        s.setConfigName("missing-ca");
        r = s.sample(null);
        assertThat(r.getResponseMessage())
                .isEqualTo("Signature Server Config 'missing-ca': trustAnchorsFile: file not found ("
                + dir.resolve("missing.pem") + ")");
        assertThat(r.isStopThread()).isTrue();
        missingCa.testEnded();
        SignatureServerConfig soon = new SignatureServerConfig();
        soon.setName("soon");
        soon.setConfigName("soon");
        soon.setMtlsUrl("https://127.0.0.1:" + port);
        soon.setConnectTimeout("soon");
        soon.testStarted();
        s.setConfigName("soon");
        assertThat(s.sample(null).getResponseMessage()).isEqualTo(
                "Signature Server Config 'soon': connectTimeout: not a whole number: 'soon'");
        soon.testEnded();
        c.testEnded();
    }

    @Test
    void threadsGetDistinctUsersAndIterationsRotateThem() throws Exception {
        KeyStoreConfig c = keys("spread", KeyStoreConfig.ASSIGN_PER_THREAD, pki.password());
        c.setExcludeAliases(String.join(",", pki.revokedAliases()));
        c.testStarted();
        int threads = 4;
        Set<String> subjects = ConcurrentHashMap.newKeySet();
        List<String> failures = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(threads);
        JMeterVariables published = JMeterContextService.getContext().getVariables();
        for (int i = 0; i < threads; i++) {
            // what JMeter does per thread: a copy of the element with the same settings (testStarted ran once)
            KeyStoreConfig perThread = new KeyStoreConfig();
            perThread.setPoolName("spread");
            perThread.setAssignment(KeyStoreConfig.ASSIGN_PER_THREAD);
            CertificateLoginSampler s = sampler("spread");
            new Thread(() -> {
                try {
                    // a JMeter thread sees what the configs published at test start
                    JMeterVariables vars = new JMeterVariables();
                    vars.putAll(published);
                    JMeterContextService.getContext().setVariables(vars);
                    for (int it = 0; it < 3; it++) {
                        perThread.iterationStart(null);
                        SampleResult r = s.sample(null);
                        synchronized (failures) {
                            if (!r.isSuccessful()) {
                                failures.add(r.getResponseMessage());
                            }
                        }
                        subjects.add(JMeterContextService.getContext().getVariables()
                                .get(CertificateLoginSampler.SUBJECT_VARIABLE) + "#"
                                + Thread.currentThread().getName());
                    }
                } finally {
                    done.countDown();
                }
            }, "user-" + i).start();
        }
        done.await();
        assertThat(failures).isEmpty();
        // per thread: one user per thread, kept over its iterations, and no two threads share a user
        assertThat(subjects).hasSize(threads);
        assertThat(subjects.stream().map(x -> x.substring(0, x.indexOf('#'))).distinct()).hasSize(threads);
        c.testEnded();

        KeyStoreConfig it = keys("rotate", KeyStoreConfig.ASSIGN_PER_ITERATION, pki.password());
        it.setExcludeAliases(String.join(",", pki.revokedAliases()));
        it.testStarted();
        Set<String> seen = new java.util.HashSet<>();
        CertificateLoginSampler s = sampler("rotate");
        for (int i = 0; i < 5; i++) {
            it.iterationStart(null);
            assertThat(s.sample(null).isSuccessful()).isTrue();
            seen.add(JMeterContextService.getContext().getVariables().get(CertificateLoginSampler.SUBJECT_VARIABLE));
        }
        assertThat(seen).hasSize(5);
        it.testEnded();
    }

    @Test
    void itJavaSerializesAndEveryPropertyIsDescribed() throws Exception {
        try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
            out.writeObject(sampler("default"));
        }
        ResourceBundle bundle = ResourceBundle.getBundle(
                "org.trustload.jmeter.pki.CertificateLoginSamplerResources", Locale.ROOT);
        BeanInfo info = Introspector.getBeanInfo(CertificateLoginSampler.class);
        assertThat(info.getBeanDescriptor().getDisplayName()).isEqualTo("Certificate Login (TrustLoad)");
        int described = 0;
        for (PropertyDescriptor pd : info.getPropertyDescriptors()) {
            Object group = pd.getValue("group");
            if (group == null) {
                continue;
            }
            described++;
            String n = pd.getName();
            assertThat(pd.getDisplayName()).as(n).isEqualTo(bundle.getString(n + ".displayName"));
            assertThat(pd.getShortDescription()).as(n).isEqualTo(bundle.getString(n + ".shortDescription"));
            assertThat(bundle.containsKey(group + ".displayName")).as("group " + group).isTrue();
            assertThat(pd.getValue("notUndefined")).as(n + " has a default").isEqualTo(Boolean.TRUE);
        }
        assertThat(described).isEqualTo(9);
    }
}
