package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;
import org.trustload.harness.Lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.trustload.jmeter.pki.CertificateLoginSampler;
import org.trustload.jmeter.pki.KeyStoreConfig;
import org.trustload.jmeter.pki.SignatureServerConfig;
import org.trustload.labkit.pki.TestPki;
import org.trustload.testing.TestHttpServer;

/**
 * The Certificate Login sampler in-process against the real lab (its own JVM; Rest PKI Core's
 * authentication and the lab's mutual-TLS relying party): every CA by both methods, revoked and expired users refused
 * with the lab's codes (and the expected-refusal logic both ways), the CRL server down, an untrusted server
 * certificate, a user of an unknown CA, a garbage nonce server, distinct users on distinct threads, full handshakes vs
 * session reuse.
 *
 * <p>CI budget: ~65 s: one lab for ten cases, each a few logins by each method against every CA (the lab generates
 * its three CAs' 1000 users once); fewer logins would not reach each refusal code.
 */
class CertificateLoginIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Lab lab;
    private static Properties props;
    private static Path dir;

    @BeforeAll
    static void startLab() throws Exception {
        JMeterUtils.setJMeterHome(Plans.HOME.toString());
        JMeterUtils.loadJMeterProperties(Plans.HOME.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
        dir = Plans.DIR.resolve("target/pki-login");
        Files.createDirectories(dir);
        Path labProperties = dir.resolve("lab.properties");
        lab = PlanRunIT.startLab("pki", labProperties, dir.resolve("lab.log"));
        props = Plans.load(labProperties);
    }

    @AfterAll
    static void stopLab() throws InterruptedException {
        if (lab != null) {
            lab.close();
        }
    }

    /** The lab's login endpoints and CA, as the pki/login plan configures them. */
    private SignatureServerConfig labServer;

    @BeforeEach
    void freshThreadContextAndConfig() {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        labServer = server("signature-server", props.getProperty("pki.login.url"),
                props.getProperty("pki.trust.anchors"), false);
    }

    @AfterEach
    void endConfig() {
        labServer.testEnded();
    }

    private static SignatureServerConfig server(String name, String loginUrl, String anchors, boolean trustAll) {
        SignatureServerConfig c = new SignatureServerConfig();
        c.setName(name);
        c.setConfigName(name);
        c.setApi(props.getProperty("pki.api"));
        c.setCredential(props.getProperty("pki.credential"));
        c.setLoginUrl(loginUrl);
        c.setMtlsUrl(props.getProperty("pki.mtls.url"));
        c.setTrustAnchorsFile(anchors);
        c.setTrustAll(trustAll);
        c.testStarted();
        return c;
    }

    private static KeyStoreConfig users(String pool, String aliases, String assignment) {
        KeyStoreConfig c = new KeyStoreConfig();
        c.setName("keys");
        c.setPoolName(pool);
        c.setKeyStoreFile(props.getProperty("pki.keystore"));
        c.setKeyStorePassword(props.getProperty("pki.keystore.password"));
        c.setAliases(aliases);
        c.setAssignment(assignment);
        c.testStarted();
        return c;
    }

    private static CertificateLoginSampler sampler(String pool, String method) {
        CertificateLoginSampler s = new CertificateLoginSampler();
        s.setName("login");
        s.setKeyPool(pool);
        s.setMethod(method);
        s.setMtlsPath("/auth/mtls"); // the lab's pki.mtls.url is https://host:port, its endpoint /auth/mtls
        return s;
    }

    private static SampleResult login(String alias, String method, String expectRefused) {
        KeyStoreConfig c = users(alias + method, alias, KeyStoreConfig.ASSIGN_FIRST);
        try {
            c.iterationStart(null);
            CertificateLoginSampler s = sampler(alias + method, method);
            s.setExpectRefusedAliases(expectRefused);
            return s.sample(null);
        } finally {
            c.testEnded();
        }
    }

    private static List<String> list(String property) {
        return List.of(props.getProperty(property).split(","));
    }

    private static JsonNode health() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(props.getProperty("pki.url") + "/api/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    private static void crl(boolean available) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(props.getProperty("pki.url") + "/admin/crl"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"available\":" + available + "}"))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    /** One valid user of each CA (user i belongs to CA ((i - 1) % 3) + 1). */
    private static List<String> oneValidUserPerCa() {
        Set<String> bad = new HashSet<>(list("pki.aliases.revoked"));
        bad.addAll(list("pki.aliases.expired"));
        List<String> out = new ArrayList<>();
        for (int ca = 1; ca <= 3; ca++) {
            for (int i = ca; ; i += 3) {
                if (!bad.contains(TestPki.alias(i))) {
                    out.add(TestPki.alias(i));
                    break;
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"challenge-response", "mtls"})
    void aUserOfEveryCaLogsIn(String method) {
        for (String alias : oneValidUserPerCa()) {
            SampleResult r = login(alias, method, "");
            assertThat(r.isSuccessful()).as(alias + ": " + r.getResponseMessage() + " " + r.getResponseDataAsString())
                    .isTrue();
            assertThat(r.getResponseDataAsString()).contains("subject: ").contains(alias);
            assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel).containsExactlyElementsOf(
                    method.equals("mtls") ? List.of("login handshake", "login get")
                            : List.of("login prepare", "login sign",
                                    "login complete")); // Rest PKI Core, the lab's default
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"challenge-response", "mtls"})
    void revokedAndExpiredUsersAreRefusedWithTheirCodeAndAsExpectedWhenListed(String method) {
        String revoked = list("pki.aliases.revoked").get(0);
        String expired = list("pki.aliases.expired").get(0);
        SampleResult r = login(revoked, method, "");
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo("certificateRevoked");
        assertThat(r.getResponseMessage()).isEqualTo(method.equals("mtls") ? "HTTP 403 certificateRevoked"
                : "login refused: CertificateRevoked"); // the lab's relying party; Rest PKI's validation results
        r = login(expired, method, "");
        assertThat(r.getResponseCode()).isEqualTo("certificateExpired");
        assertThat(r.getResponseMessage()).isEqualTo(method.equals("mtls") ? "HTTP 403 certificateExpired"
                : "login refused: CertificateExpired");

        String expected = props.getProperty("pki.aliases.revoked") + "," + props.getProperty("pki.aliases.expired");
        r = login(revoked, method, expected);
        assertThat(r.isSuccessful()).isTrue();
        assertThat(r.getResponseMessage()).isEqualTo("refused as expected: certificateRevoked");
        assertThat(r.getSubResults()).allMatch(SampleResult::isSuccessful);
        r = login(expired, method, expected);
        assertThat(r.getResponseMessage()).isEqualTo("refused as expected: certificateExpired");

        String valid = oneValidUserPerCa().get(0);
        r = login(valid, method, valid);
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo(CertificateLoginSampler.EXPECTED_REFUSAL);
    }

    @Test
    void withTheCrlServerDownLoginsGetRevocationUnavailableAndTheyAreNotExpectedRefusals() throws Exception {
        String valid = oneValidUserPerCa().get(1);
        String revoked = list("pki.aliases.revoked").get(0);
        crl(false);
        try {
            for (String method : List.of("challenge-response", "mtls")) {
                SampleResult r = login(valid, method, "");
                assertThat(r.getResponseCode()).as(method).isEqualTo("revocationUnavailable");
                assertThat(r.getResponseMessage()).isEqualTo(method.equals("mtls") ? "HTTP 503 revocationUnavailable"
                        : "login refused: CertificateRevocationStatusUnknown");
                r = login(revoked, method, revoked);
                assertThat(r.isSuccessful()).as("a revoked user's 503 is not the expected refusal").isFalse();
                assertThat(r.getResponseCode()).isEqualTo("revocationUnavailable");
            }
        } finally {
            crl(true);
        }
        assertThat(login(valid, "challenge-response", "").isSuccessful()).isTrue();
    }

    @Test
    void anUntrustedServerCertificateFailsTheHandshake() throws Exception {
        String valid = oneValidUserPerCa().get(0);
        KeyStoreConfig c = users("untrusted", valid, KeyStoreConfig.ASSIGN_FIRST);
        c.iterationStart(null);
        SignatureServerConfig cacerts = server("cacerts", "", "", false); // the JDK's cacerts: the lab CA is not in it
        SignatureServerConfig trustAll = server("trust-all", "", "", true);
        CertificateLoginSampler s = sampler("untrusted", "mtls");
        s.setConfigName("cacerts");
        SampleResult r = s.sample(null);
        assertThat(r.getResponseCode()).isEqualTo("handshakeFailed");
        assertThat(r.getResponseMessage()).isEqualTo("TLS handshake failed");
        assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel).containsExactly("login handshake");
        s.setConfigName("trust-all");
        assertThat(s.sample(null).isSuccessful()).as("explicit trust-all").isTrue();
        cacerts.testEnded();
        trustAll.testEnded();
        c.testEnded();
    }

    @Test
    void aUserOfAnUnknownCaIsRefusedInTheHandshake() throws Exception {
        TestPki other =
                TestPki.generate(new TestPki.Spec().withSeed(99).withCas(1).withUsers(1), dir.resolve("other-pki"));
        KeyStoreConfig c = new KeyStoreConfig();
        c.setName("keys");
        c.setPoolName("stranger");
        c.setKeyStoreFile(other.usersFile().toString());
        c.setKeyStorePassword(other.password());
        c.setAssignment(KeyStoreConfig.ASSIGN_FIRST);
        c.testStarted();
        c.iterationStart(null);
        SampleResult r = sampler("stranger", "mtls").sample(null);
        assertThat(r.isSuccessful()).isFalse();
        // TLS 1.3: the client may finish its side of the handshake first and see the alert (or a reset) on its read
        assertThat(r.getResponseCode()).as(r.getResponseDataAsString()).isIn("handshakeFailed", "connectError");
        r = sampler("stranger", "challenge-response").sample(null);
        assertThat(r.getResponseCode()).isEqualTo("untrustedCertificate");
        assertThat(r.getResponseMessage()).isEqualTo("login refused: CertificateChainRootNotTrusted");
        c.testEnded();
    }

    @Test
    void aGarbageNonceServerAndABadPasswordGiveClearFailedSamples() throws Exception {
        try (TestHttpServer garbage = new TestHttpServer().on("/Api/Authentication", (b, ex) ->
                TestHttpServer.reply(ex, 200, "application/json", "{\"nonce\": 42}".getBytes()))) {
            String valid = oneValidUserPerCa().get(0);
            KeyStoreConfig c = users("garbage", valid, KeyStoreConfig.ASSIGN_FIRST);
            c.iterationStart(null);
            SignatureServerConfig g = new SignatureServerConfig();
            g.setName("garbage");
            g.setConfigName("garbage");
            g.setApi("rest-pki");
            g.setLoginUrl(garbage.uri("/").toString());
            g.testStarted();
            CertificateLoginSampler s = sampler("garbage", "challenge-response");
            s.setConfigName("garbage");
            SampleResult r = s.sample(null);
            g.testEnded();
            assertThat(r.getResponseCode()).isEqualTo("badResponse");
            assertThat(r.getResponseMessage()).isEqualTo("HTTP 200 answer lacks 'nonce'");
            c.testEnded();
        }
        KeyStoreConfig bad = new KeyStoreConfig();
        bad.setName("keys");
        bad.setPoolName("badpw");
        bad.setKeyStoreFile(props.getProperty("pki.keystore"));
        bad.setKeyStorePassword("not-the-password");
        bad.testStarted();
        SampleResult r = sampler("badpw", "mtls").sample(null);
        assertThat(r.getResponseCode()).isEqualTo("configError");
        assertThat(r.getResponseMessage()).as("the Key Store Config's own error, not 'no key pool'")
                .startsWith("Key Store Config 'keys': keyStorePassword: cannot open key store (wrong password?)");
    }

    @Test
    void fullHandshakePerLoginUnlessSessionReuse() throws Exception {
        String valid = oneValidUserPerCa().get(2);
        KeyStoreConfig c = users("tls", valid, KeyStoreConfig.ASSIGN_FIRST);
        c.iterationStart(null);
        long before = health().path("mtlsFullHandshakes").asLong();
        CertificateLoginSampler s = sampler("tls", "mtls");
        for (int i = 0; i < 5; i++) {
            assertThat(s.sample(null).isSuccessful()).isTrue();
        }
        long full = health().path("mtlsFullHandshakes").asLong() - before;
        assertThat(full).as("5 logins without reuse").isEqualTo(5);
        s.setSessionReuse("true");
        before = health().path("mtlsFullHandshakes").asLong();
        for (int i = 0; i < 5; i++) {
            SampleResult r = s.sample(null);
            assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        }
        full = health().path("mtlsFullHandshakes").asLong() - before;
        assertThat(full).as("5 logins with reuse: the first is full, the others resume").isLessThan(5);
        c.testEnded();
    }

    @Test
    void concurrentThreadsLogInAsDistinctUsers() throws Exception {
        KeyStoreConfig shared = users("crowd", "", KeyStoreConfig.ASSIGN_PER_ITERATION);
        int threads = 8;
        int iterations = 5;
        Set<String> subjects = ConcurrentHashMap.newKeySet();
        List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        String expected = props.getProperty("pki.aliases.revoked") + "," + props.getProperty("pki.aliases.expired");
        CountDownLatch done = new CountDownLatch(threads);
        JMeterVariables published = JMeterContextService.getContext().getVariables();
        for (int t = 0; t < threads; t++) {
            String method = t % 2 == 0 ? "challenge-response" : "mtls";
            new Thread(() -> {
                try {
                    JMeterVariables vars = new JMeterVariables();
                    vars.putAll(published); // what the configs published at test start, as JMeter threads see it
                    JMeterContextService.getContext().setVariables(vars);
                    KeyStoreConfig mine = new KeyStoreConfig(); // JMeter's per-thread copy of the config
                    mine.setPoolName("crowd");
                    mine.setAssignment(KeyStoreConfig.ASSIGN_PER_ITERATION);
                    CertificateLoginSampler s = sampler("crowd", method);
                    s.setExpectRefusedAliases(expected);
                    for (int i = 0; i < iterations; i++) {
                        mine.iterationStart(null);
                        SampleResult r = s.sample(null);
                        if (!r.isSuccessful()) {
                            errors.add(r.getResponseCode() + " " + r.getResponseMessage());
                        }
                        subjects.add(JMeterContextService.getContext().getVariables().get("keyAlias"));
                    }
                } finally {
                    done.countDown();
                }
            }).start();
        }
        done.await();
        shared.testEnded();
        assertThat(errors).isEmpty();
        assertThat(subjects).as("every login of every thread was a different user").hasSize(threads * iterations);
    }
}
