package org.trustload.lab.pdp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starts the pdp service in-process and drives both ONAP APIs over HTTP(S) the way the plans do:
 * create + push Guard, Guard Min/Max and Config Base policies, then decisions evaluated by AuthzForce.
 */
class PdpLabServiceTest {

    @TempDir
    static Path socketDir;

    static PdpTestLab lab;

    // the credentials the service publishes in lab.properties
    static String ONAP_AUTH;
    static String CLIENT_AUTH;
    static String PDPX_AUTH;

    @BeforeAll
    static void start() throws Exception {
        lab = PdpTestLab.start(socketDir);
                ONAP_AUTH = basic(lab.props().get("pdp.user"), lab.props().get("pdp.password"));
        CLIENT_AUTH = basic(lab.props().get("pdp.client.user"), lab.props().get("pdp.client.password"));
        PDPX_AUTH = basic(lab.props().get("pdpx.user"), lab.props().get("pdpx.password"));

        assertThat(legacy("PUT", "createPolicy", """
                {"policyClass":"Decision","policyName":"com.testGuard001","onapName":"PDPD","ruleProvider":"GUARD_YAML",
                 "attributes":{"MATCHING":{"actor":"testActor001","recipe":"restart","targets":".*","clname":"cl001",
                 "limit":"2","timeWindow":"10","timeUnits":"minute"}}}""").statusCode()).isEqualTo(200);
        assertThat(legacy("PUT", "createPolicy", """
                {"policyClass":"Decision","policyName":"com.testMinMax001","onapName":"PDPD",\
                "ruleProvider":"GUARD_MIN_MAX",
                 "attributes":{"MATCHING":{"actor":"testActor001","recipe":"scaleOut","targets":"vnf.*",\
                "clname":"cl001",
                 "min":"1","max":"5","guardActiveStart":"00:00:00Z","guardActiveEnd":"23:59:59.999Z"}}}""")
                .statusCode()).isEqualTo(200);
        assertThat(legacy("PUT", "createPolicy", """
                {"policyConfigType":"Base","policyName":"com.testConfig001","onapName":"DCAE","configName":"cfg001",
                 "configBodyType":"JSON","configBody":"{\\"threshold\\":7}",\
                "attributes":{"MATCHING":{"site":"lab"}}}""")
                .statusCode()).isEqualTo(200);
        for (String[] nameType : new String[][] {{"com.testGuard001", "Decision"}, {"com.testMinMax001", "Decision"},
                {"com.testConfig001", "Base"}}) {
            HttpResponse<String> r = legacy("PUT", "pushPolicy",
                    "{\"policyName\":\"" + nameType[0] + "\",\"policyType\":\""
                    + nameType[1] + "\",\"pdpGroup\":\"default\"}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
    }

    @AfterAll
    static void stop() {
        lab.service().close();
    }

    @Test
    void legacyGuardPermitsItsActorAndDeniesAnUnknownOne() throws Exception {
        assertThat(decision("testActor001", "restart", "vnf1", "cl001", null)).contains("\"decision\":\"PERMIT\"");
        // no applicable policy: the legacy API answers DENY
        assertThat(decision("nobody", "restart", "vnf1", "cl001", null)).contains("\"decision\":\"DENY\"");
        assertThat(decision("testActor001", "restart", "vnf1", "another-loop", null)).contains("\"decision\":\"DENY\"");
    }

    @Test
    void legacyMinMaxChecksVfCount() throws Exception {
        assertThat(decision("testActor001", "scaleOut", "vnf7", "cl001", "3")).contains("PERMIT");
        assertThat(decision("testActor001", "scaleOut", "vnf7", "cl001", "5")).contains("PERMIT");
        assertThat(decision("testActor001", "scaleOut", "vnf7", "cl001", "6")).contains("DENY");
        assertThat(decision("testActor001", "scaleOut", "vnf7", "cl001", "0")).contains("DENY");
        // target outside the policy's regex: not applicable, hence DENY
        assertThat(decision("testActor001", "scaleOut", "other", "cl001", "3")).contains("DENY");
    }

    @Test
    void guardLimitCountsTheOperationsHistoryInsideTheWindow() throws Exception {
        assertThat(decision("testActor001", "restart", "vnf-limit", "cl001", null)).contains("PERMIT");
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = send(request("/pdp/lab/operations", ONAP_AUTH, CLIENT_AUTH, "TEST")
                    .POST(body("{\"actor\":\"testActor001\",\"recipe\":\"restart\",\"target\":\"vnf-limit\"}"))
                    .build());
            assertThat(r.statusCode()).isEqualTo(200);
        }
        assertThat(decision("testActor001", "restart", "vnf-limit", "cl001", null)).contains("DENY");
        assertThat(decision("testActor001", "restart", "vnf-other", "cl001", null)).contains("PERMIT");
    }

    @Test
    void currentApiPermitsWhenNoGuardApplies() throws Exception {
        assertThat(current("testActor001", "restart", "vnf1", "cl001", null).body()).contains("\"status\":\"Permit\"");
        assertThat(current("nobody", "restart", "vnf1", "cl001", null).body()).contains("\"status\":\"Permit\"");
        assertThat(current("testActor001", "scaleOut", "vnf1", "cl001", 9).body()).contains("\"status\":\"Deny\"");
        assertThat(current("testActor001", "scaleOut", "vnf1", "cl001", 2).body()).contains("\"status\":\"Permit\"");
        HttpResponse<String> h = send(request("/policy/pdpx/v1/healthcheck", PDPX_AUTH, null, null).GET().build());
        assertThat(h.statusCode()).isEqualTo(200);
        assertThat(h.body()).contains("\"healthy\":true");
    }

    @Test
    void configBaseIsReturnedToMatchingRequestsOnly() throws Exception {
        HttpResponse<String> r = legacy("POST", "getConfig",
                "{\"onapName\":\"DCAE\",\"configName\":\"cfg001\",\"configAttributes\":{\"site\":\"lab\"}}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("CONFIG_RETRIEVED").contains("com.Config_testConfig001.1.xml")
                .contains("threshold");
        r = legacy("POST", "getConfig",
                "{\"onapName\":\"DCAE\",\"configName\":\"cfg001\",\"configAttributes\":{\"site\":\"elsewhere\"}}");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).contains("CONFIG_NOT_FOUND");
    }

    @Test
    void wrongCredentialsAre401WithoutEchoingThem() throws Exception {
        String body = "{\"onapName\":\"PDPD\",\"decisionAttributes\":{\"actor\":\"a\"}}";
        HttpResponse<String> r = send(
                request("/pdp/api/getDecision", basic("testpdp", "s3cr3t-guess"), CLIENT_AUTH, "TEST")
                        .POST(body(body)).build());
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("Authorization").doesNotContain("s3cr3t")
                .doesNotContain(lab.props().get("pdp.password"));
        r = send(request("/pdp/api/getDecision", ONAP_AUTH, basic("python", "nope"), "TEST").POST(body(body)).build());
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("ClientAuth");
        r = send(request("/pdp/api/getDecision", ONAP_AUTH, null, "TEST").POST(body(body)).build());
        assertThat(r.statusCode()).isEqualTo(401);
        r = send(request("/pdp/api/getDecision", ONAP_AUTH, CLIENT_AUTH, "PROD").POST(body(body)).build());
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("Environment");
        r = send(request("/policy/pdpx/v1/decision", basic("healthcheck", "x"), null, null).POST(body("{}")).build());
        assertThat(r.statusCode()).isEqualTo(401);
    }

    @Test
    void badRequestsAre400WithAMessage() throws Exception {
        HttpResponse<String> r = legacy("POST", "getDecision", "{\"onapName\": \"PDPD\", ");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("badRequest").contains("not valid JSON");
        r = legacy("POST", "getDecision", "[1,2]");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("JSON object");
        r = legacy("POST", "getDecision", "{\"onapName\":\"PDPD\"}");
        assertThat(r.body()).contains("decisionAttributes");
        r = legacy("PUT", "createPolicy",
                "{\"policyName\":\"com.bad\",\"ruleProvider\":\"GUARD_YAML\","
                + "\"attributes\":{\"MATCHING\":{\"actor\":\"a\",\"recipe\":\"r\",\"limit\":\"x\",\"timeWindow\":\"1\","
                + "\"timeUnits\":\"minute\"}}}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("limit");
        r = legacy("PUT", "createPolicy",
                "{\"policyName\":\"com.badMinMax\",\"ruleProvider\":\"GUARD_MIN_MAX\","
                + "\"attributes\":{\"MATCHING\":{\"actor\":\"a\",\"recipe\":\"r\",\"min\":\"5\",\"max\":\"1\"}}}");
        assertThat(r.body()).contains("min");
        r = legacy("POST", "getDecision",
                "{\"onapName\":\"PDPD\",\"decisionAttributes\":{\"actor\":\"a\",\"vfCount\":\"many\"}}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("vfCount");
        r = send(request("/policy/pdpx/v1/decision", PDPX_AUTH, null, null).POST(body("not json")).build());
        assertThat(r.statusCode()).isEqualTo(400);
        r = legacy("GET", "getDecision", null);
        assertThat(r.statusCode()).isEqualTo(405);
    }

    @Test
    void policyNamesAreCaseSensitiveAndDeleteIsBounded() throws Exception {
        // ONAP answers a push of a name it does not have 400 with a PE300 data-issue message
        HttpResponse<String> r = legacy("PUT", "pushPolicy",
                "{\"policyName\":\"com.testguard001\",\"policyType\":\"Decision\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("PE300").contains("case-sensitive");
        assertThat(legacy("PUT", "createPolicy", """
                {"policyName":"com.testGuard999","ruleProvider":"GUARD_YAML","attributes":{"MATCHING":{"actor":"a999",
                "recipe":"restart","targets":".*","limit":"5","timeWindow":"1","timeUnits":"hour"}}}""")
                .statusCode()).isEqualTo(200);
        assertThat(legacy("PUT", "createPolicy", """
                {"policyName":"com.testGuard999","ruleProvider":"GUARD_YAML","attributes":{"MATCHING":{"actor":"a999",
                "recipe":"restart","limit":"5","timeWindow":"1","timeUnits":"hour"}}}""").statusCode()).isEqualTo(409);
        assertThat(legacy("PUT", "pushPolicy", "{\"policyName\":\"com.testGuard999\",\"policyType\":\"Decision\"}")
                .statusCode()).isEqualTo(200);
        assertThat(decision("a999", "restart", "t", null, null)).contains("PERMIT");
        r = legacy("DELETE", "deletePolicy",
                "{\"policyName\":\"com.Decision_testGuard999.1.xml\",\"policyComponent\":\"PDP\","
                + "\"pdpGroup\":\"default\",\"policyType\":\"Decision\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(decision("a999", "restart", "t", null, null)).contains("DENY");
        // a second delete from the PDP is an error, not a loop
        r = legacy("DELETE", "deletePolicy",
                "{\"policyName\":\"com.Decision_testGuard999.1.xml\",\"policyComponent\":\"PDP\","
                + "\"pdpGroup\":\"default\",\"policyType\":\"Decision\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("PE300");
        r = legacy("DELETE", "deletePolicy",
                "{\"policyName\":\"com.Decision_testGuard999.1.xml\",\"policyComponent\":\"PAP\","
                + "\"deleteCondition\":\"ALL\",\"policyType\":\"Decision\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(lab.service().createdNames()).doesNotContain("com.testGuard999");
    }

    @Test
    void httpsServesTheSameApi() throws Exception {
        KeyStore ts = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(Path.of(lab.props().get("pdp.truststore")))) {
            ts.load(in, lab.props().get("pdp.truststore.password").toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ts);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        HttpClient https = HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> r = https.send(
                HttpRequest.newBuilder(URI.create(lab.props().get("pdp.https.url") + "/pdp/api/getDecision"))
                .header("Authorization", ONAP_AUTH).header("ClientAuth", CLIENT_AUTH).header("Environment", "TEST")
                .POST(body(decisionBody("testActor001", "restart", "vnf1", "cl001", null))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("PERMIT");
    }

    @Test
    void jmxServesThePlatformMBeansOnLoopbackOnly() throws Exception {
        try (JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(lab.props().get("pdp.jmx.url")),
                Map.of("jmx.remote.x.request.waiting.timeout", 5000L))) {
            Object uptime = c.getMBeanServerConnection()
                    .getAttribute(new ObjectName("java.lang:type=Runtime"), "Uptime");
            assertThat((Long) uptime).isPositive();
        }
        int port = Integer.parseInt(lab.props().get("pdp.jmx.port"));
        // what listens on the JMX port (and every port of this JVM) is bound to 127.0.0.1, never a wildcard
        assertThat(LoopbackCheck.listeners(port)).isNotEmpty().allMatch(a -> a.startsWith("127.0.0.1:"));
        assertThat(LoopbackCheck.wildcardListenersOfThisProcess()).isEmpty();
    }

    /* ---------------------------------------------------------------- helpers */

    static String decision(String actor, String recipe, String target, String clname, String vfCount) throws Exception {
        HttpResponse<String> r = legacy("POST", "getDecision", decisionBody(actor, recipe, target, clname, vfCount));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    static String decisionBody(String actor, String recipe, String target, String clname, String vfCount) {
        return "{\"onapName\":\"PDPD\",\"decisionAttributes\":{\"actor\":\"" + actor + "\",\"recipe\":\"" + recipe
                + "\",\"target\":\"" + target + "\"" + (clname == null ? "" : ",\"clname\":\"" + clname + "\"")
                + (vfCount == null ? "" : ",\"vfCount\":\"" + vfCount + "\"") + "}}";
    }

    static HttpResponse<String> current(String actor, String operation, String target, String clname, Integer vfCount)
            throws Exception {
        String body = "{\"ONAPName\":\"Policy\",\"ONAPComponent\":\"drools-pdp\",\"ONAPInstance\":\"usecase-template\","
                + "\"requestId\":\"r1\",\"action\":\"guard\",\"resource\":{\"guard\":{\"actor\":\"" + actor
                + "\",\"operation\":\""
                + operation + "\",\"target\":\"" + target + "\",\"clname\":\"" + clname + "\""
                + (vfCount == null ? "" : ",\"vfCount\":" + vfCount) + "}}}";
        HttpResponse<String> r = send(request("/policy/pdpx/v1/decision", PDPX_AUTH, null, null)
                .POST(body(body)).build());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r;
    }

    static HttpResponse<String> legacy(String method, String op, String json) throws Exception {
        HttpRequest.Builder b = request("/pdp/api/" + op, ONAP_AUTH, CLIENT_AUTH, "TEST");
        b.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : body(json));
        return send(b.build());
    }

    static HttpRequest.Builder request(String path, String auth, String clientAuth, String env) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(lab.url() + path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").header("Authorization", auth);
        if (clientAuth != null) {
            b.header("ClientAuth", clientAuth);
        }
        if (env != null) {
            b.header("Environment", env);
        }
        return b;
    }

    static HttpRequest.BodyPublisher body(String json) {
        return HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8);
    }

    static HttpResponse<String> send(HttpRequest r) throws Exception {
        return lab.http().send(r, HttpResponse.BodyHandlers.ofString());
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
