package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.trustload.harness.Lab;
import org.trustload.jmeter.pki.AbstractSignSampler;
import org.trustload.jmeter.pki.CadesSignSampler;
import org.trustload.jmeter.pki.KeyStoreConfig;
import org.trustload.jmeter.pki.PadesSignSampler;
import org.trustload.jmeter.pki.SignatureServerConfig;
import org.trustload.pki.Flow;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.PkiException;
import org.trustload.pki.api.ApiSettings;
import org.trustload.pki.api.JsonHttp;
import org.trustload.pki.api.RestPkiApi;
import org.trustload.pki.api.SignatureApi;
import org.trustload.pki.api.SignatureApis;
import org.trustload.testing.TestHttpServer;

/**
 * The signing samplers in remote mode against the lab's Rest PKI (its own JVM), through both Lacuna APIs
 * (classic {@code rest-pki} and {@code rest-pki-core}): the bad-input table of those APIs, each a failed
 * sample whose code and message tell what to fix — no or a wrong credential, an unknown policy, a policy
 * that is no id, a revoked or expired signer, a corrupt PDF, a wrong base URL, an answer that is not JSON,
 * a used (expired) token, server-held keys asked of an API that has none — with the steps that ran kept as
 * sub-results.
 */
class PkiRemoteErrorsIT {

    private static Lab lab;
    private static Properties props;

    @BeforeAll
    static void startLab() throws Exception {
        JMeterUtils.setJMeterHome(Plans.HOME.toString());
        JMeterUtils.loadJMeterProperties(Plans.HOME.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
        Path dir = Plans.DIR.resolve("target/pki-remote");
        Files.createDirectories(dir);
        Path labProperties = dir.resolve("lab.properties");
        lab = PlanRunIT.startLab("pki", labProperties, dir.resolve("lab.log"));
        props = Plans.load(labProperties);
        JMeterContextService.getContext().setVariables(new JMeterVariables());
    }

    @AfterAll
    static void stopLab() throws InterruptedException {
        if (lab != null) {
            lab.close();
        }
    }

    private static SignatureServerConfig server(String name, String api, String url, String credential) {
        SignatureServerConfig c = new SignatureServerConfig();
        c.setName(name);
        c.setConfigName(name);
        c.setApi(api);
        c.setServerUrl(url);
        c.setCredential(credential);
        c.testStarted();
        return c;
    }

    private static KeyStoreConfig user(String alias) {
        KeyStoreConfig c = new KeyStoreConfig();
        c.setName("keys");
        c.setPoolName(alias);
        c.setKeyStoreFile(props.getProperty("pki.keystore"));
        c.setKeyStorePassword(props.getProperty("pki.keystore.password"));
        c.setAliases(alias);
        c.setAssignment(KeyStoreConfig.ASSIGN_FIRST);
        c.testStarted();
        c.iterationStart(null);
        return c;
    }

    private static SampleResult sign(String config, String pool, boolean pades, String document, String policy) {
        AbstractSignSampler s = pades ? new PadesSignSampler() : new CadesSignSampler();
        s.setName("remote");
        s.setConfigName(config);
        s.setKeyPool(pool);
        s.setMode("remote");
        s.setInputFile(document);
        s.setSignaturePolicy(policy);
        return s.sample(null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rest-pki", "rest-pki-core"})
    void badInputsReadAsWhatTheUserFixes(String api) throws Exception {
        String url = props.getProperty("pki.url");
        String credential = props.getProperty("pki.credential");
        String doc = props.getProperty("pki.document");
        String valid = "user0001";
        String revoked = props.getProperty("pki.aliases.revoked").split(",")[0];
        String expired = props.getProperty("pki.aliases.expired").split(",")[0];
        KeyStoreConfig k1 = user(valid);
        KeyStoreConfig k2 = user(revoked);
        KeyStoreConfig k3 = user(expired);
        SignatureServerConfig good = server("good", api, url, credential);
        SignatureServerConfig none = server("none", api, url, "");
        SignatureServerConfig wrong = server("wrong", api, url, "not-the-credential");
        SignatureServerConfig base = server("base", api, url + "/nothing/here/", credential);
        TestHttpServer garbage = new TestHttpServer()
                .on("/", (b, ex) -> TestHttpServer.reply(ex, 201, "text/html",
                        "<html>a portal</html>".getBytes(StandardCharsets.UTF_8)));
        SignatureServerConfig html = server("html", api, garbage.uri("/").toString(), credential);
        try {

            // a valid user signs in three steps
            SampleResult r = sign("good", valid, true, doc, "");
            assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
            assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel)
                    .containsExactly("remote start", "remote sign", "remote complete");
            SampleResult ok = r;
            SampleResult last = ok.getSubResults()[2];
            assertThat(ok.getEndTime()).isCloseTo(last.getEndTime(), org.assertj.core.api.Assertions.within(50L));
            assertThat(ok.getSubResults())
                    .allMatch(x -> x.getStartTime() >= ok.getStartTime() && x.getEndTime() <= ok.getEndTime());

            // no credential, a wrong one: HTTP 401, the thread stops (every request carries the same credential)
            r = sign("none", valid, false, doc, "");
            assertThat(r.getResponseCode()).isEqualTo("credentialMissing");
            assertThat(r.getResponseMessage()).isEqualTo("HTTP 401 credentialMissing");
            assertThat(r.isStopThread()).isTrue();
            r = sign("wrong", valid, false, doc, "");
            assertThat(r.getResponseCode()).isEqualTo("credentialRefused");
            assertThat(r.getResponseMessage()).isEqualTo("HTTP 401 credentialRefused");
            assertThat(r.getResponseDataAsString()).doesNotContain("not-the-credential");

            // an unknown policy: Rest PKI's 422 with its code; a value that is no policy id: refused before sending
            r = sign("good", valid, false, doc, "00000000-0000-0000-0000-000000000001");
            assertThat(r.getResponseCode()).isEqualTo("requestRefused");
            assertThat(r.getResponseMessage()).isEqualTo("HTTP 422 EntityNotFound");
            assertThat(r.getSubResults()).hasSize(1);
            r = sign("good", valid, false, doc, "cades-t");
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage())
                    .contains("signaturePolicy: a Rest PKI signature policy is an id (a UUID), not 'cades-t'");

            // revoked and expired signers: Rest PKI's validation results, read as such
            r = sign("good", revoked, false, doc, "");
            assertThat(r.getResponseCode()).isEqualTo("certificateRevoked");
            assertThat(r.getResponseMessage()).isEqualTo("HTTP 422 ValidationError CertificateRevoked");
            r = sign("good", expired, true, doc, "");
            assertThat(r.getResponseCode()).isEqualTo("certificateExpired");
            assertThat(r.getResponseMessage()).isEqualTo("HTTP 422 ValidationError CertificateExpired");

            // a PDF the server cannot sign
            Path corrupt = Plans.DIR.resolve("target/pki-remote/corrupt.pdf");
            Files.writeString(corrupt, "%PDF-1.7 not really");
            r = sign("good", valid, true, corrupt.toString(), "");
            assertThat(r.getResponseCode()).isEqualTo("requestRefused");
            assertThat(r.getResponseMessage()).isEqualTo("HTTP 422 InvalidPdf");

            // a base URL where the API is not: a configuration error that stops the thread
            r = sign("base", valid, false, doc, "");
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage()).endsWith("serverUrl: no " + api + " API at this URL (HTTP 404)");
            assertThat(r.isStopThread()).isTrue();

            // a 2xx answer that is not the API's JSON (a portal page)
            r = sign("html", valid, false, doc, "");
            assertThat(r.getResponseCode()).as(r.getResponseMessage()).isEqualTo("badResponse");
            assertThat(r.getResponseMessage()).isEqualTo("HTTP 201 answer is not JSON");

            // server-held keys: Rest PKI has none
            AbstractSignSampler s = new CadesSignSampler();
            s.setName("remote");
            s.setConfigName("good");
            s.setMode("server-key");
            s.setServerKeyAlias("anything");
            s.setInputFile(doc);
            r = s.sample(null);
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage()).contains("mode: the " + api + " API");
        } finally {
            for (SignatureServerConfig c : new SignatureServerConfig[] {good, none, wrong, base, html}) {
                c.testEnded();
            }
            garbage.close();
            k1.testEnded();
            k2.testEnded();
            k3.testEnded();
        }
    }

    /**
     * A signature server that answers its last step with 200 but no signature — the field absent, null or
     * empty — gives a failed sample {@code badResponse} naming the field, never a success: through both
     * Lacuna APIs, the lab's server behind a relay that takes the signature out of its answers; through EU
     * DSS's API, a server that answers {@code getDataToSign} and then {@code signDocument} without bytes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rest-pki", "rest-pki-core", "dss"})
    void aSignatureAnswerWithoutTheSignatureIsAFailedSampleNamingTheField(String api) throws Exception {
        String doc = props.getProperty("pki.document");
        String[] variant = {""};
        java.util.function.UnaryOperator<com.fasterxml.jackson.databind.node.ObjectNode> strip = o -> {
            for (String field : new String[] {"cms", "signedPdf", "bytes"}) {
                if (o.has(field)) {
                    switch (variant[0]) {
                        case "absent" -> o.remove(field);
                        case "null" -> o.putNull(field);
                        default -> o.put(field, "");
                    }
                }
            }
            return o;
        };
        TestHttpServer server = new TestHttpServer();
        if (api.equals("dss")) {
            server.on("/", (b, ex) -> {
                var answer = JsonHttp.JSON.createObjectNode().put("bytes",
                        java.util.Base64.getEncoder().encodeToString("data to sign".getBytes(StandardCharsets.UTF_8)));
                byte[] out = JsonHttp.JSON.writeValueAsBytes(ex.getRequestURI().getPath().endsWith("/signDocument")
                        ? strip.apply(answer) : answer);
                TestHttpServer.reply(ex, 200, "application/json", out);
            });
        } else {
            server.relay("/", URI.create(props.getProperty("pki.url")), (path, body) -> {
                try {
                    var json = JsonHttp.JSON.readTree(body);
                    return json instanceof com.fasterxml.jackson.databind.node.ObjectNode o
                            && (o.has("cms") || o.has("signedPdf"))
                            ? JsonHttp.JSON.writeValueAsBytes(strip.apply(o)) : body;
                } catch (java.io.IOException notJson) {
                    return body;
                }
            });
        }
        KeyStoreConfig keys = user("user0003");
        SignatureServerConfig config =
                server("relayed", api, server.uri("/").toString(), props.getProperty("pki.credential"));
        try {
            for (String v : new String[] {"absent", "null", "empty"}) {
                variant[0] = v;
                for (boolean pades : new boolean[] {false, true}) {
                    SampleResult r = sign("relayed", "user0003", pades, doc, "");
                    String field = api.equals("dss") ? "bytes" : pades ? "signedPdf" : "cms";
                    String what = api + " " + (pades ? "PAdES" : "CAdES") + ", signature " + v + ": "
                            + r.getResponseDataAsString();
                    assertThat(r.isSuccessful()).as(what).isFalse();
                    assertThat(r.getResponseCode()).as(what).isEqualTo("badResponse");
                    assertThat(r.getResponseMessage()).as(what).isEqualTo("HTTP 200 answer lacks '" + field + "'");
                    SampleResult[] steps = r.getSubResults();
                    assertThat(steps[steps.length - 1].isSuccessful()).as(what + ": the last step failed").isFalse();
                    assertThat(steps[0].isSuccessful()).as(what + ": the first step succeeded").isTrue();
                }
            }
        } finally {
            config.testEnded();
            keys.testEnded();
            server.close();
        }
    }

    /**
     * A token the server no longer knows (used up, or expired) reads as {@code tokenExpired}: completed twice
     * through the API's own calls, the second completion is refused with Rest PKI's 422 EntityNotFound.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rest-pki", "rest-pki-core"})
    void aTokenUsedTwiceIsAnExpiredToken(String name) throws Exception {
        SignatureApi api = SignatureApis.byName(name);
        KeyMaterial key = KeySource.pkcs12(Path.of(props.getProperty("pki.keystore")),
                props.getProperty("pki.keystore.password").toCharArray(), java.util.List.of("user0002")).load().get(0);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ApiSettings settings = new ApiSettings(URI.create(props.getProperty("pki.url")),
                props.getProperty("pki.credential"),
                "", Duration.ofSeconds(30));
        JsonHttp json = new JsonHttp(http, settings, api, name.equals("rest-pki") ? "Authorization" : "X-Api-Key",
                name.equals("rest-pki") ? "Bearer " : "", RestPkiApi.ERRORS);
        var start = JsonHttp.JSON.createObjectNode();
        start.put("contentToSign",
                java.util.Base64.getEncoder().encodeToString("data".getBytes(StandardCharsets.UTF_8)));
        start.put("certificate", java.util.Base64.getEncoder().encodeToString(key.certificate().getEncoded()));
        start.put("signaturePolicyId", api.signaturePolicy("cades", false, ""));
        Flow f = new Flow();
        String route = name.equals("rest-pki") ? "Api/CadesSignatures" : "api/cades-signatures";
        JsonHttp.Answer started = json.post(route, start, f, false);
        var done = JsonHttp.JSON.createObjectNode();
        done.put("signature", java.util.Base64.getEncoder().encodeToString(
                key.sign("SHA256withECDSA", started.bytes("toSignData"))));
        String complete = route + "/" + started.text("token") + (name.equals("rest-pki") ? "/SignedBytes" : "");
        assertThat(json.post(complete, done, f, true).bytes("cms")).isNotEmpty();
        try {
            json.post(complete, done, f, true);
            throw new AssertionError("a used token was accepted");
        } catch (PkiException e) {
            assertThat(e.category()).isEqualTo(PkiException.TOKEN_EXPIRED);
            assertThat(e.getMessage()).isEqualTo("HTTP 422 EntityNotFound");
        }
    }
}
