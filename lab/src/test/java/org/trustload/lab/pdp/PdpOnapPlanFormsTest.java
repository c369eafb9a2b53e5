package org.trustload.lab.pdp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The request forms ONAP's own performance plans send, and ONAP's answers to them: the legacy PDP-X plan of
 * onap/policy-engine ({@code TestSuite/Performance/.../PerformancePDPXdecisionsTestPlan.jmx}) and the current
 * xacml-pdp plan ({@code testsuites/performance/.../perf.jmx}). Bodies are written here after the forms those
 * plans use (field names, values, header shapes), not copied from them.
 */
class PdpOnapPlanFormsTest {

    @TempDir
    static Path socketDir;

    static PdpTestLab lab;
    /** Legacy plan: Authorization with the Basic prefix, ClientAuth as raw Base64 without it. */
    static String authorization;
    static String rawClientAuth;
    static String pdpxAuth;

    @BeforeAll
    static void start() throws Exception {
        lab = PdpTestLab.start(socketDir);
                authorization = "Basic " + b64(lab.props().get("pdp.user") + ":" + lab.props().get("pdp.password"));
        rawClientAuth = b64(lab.props().get("pdp.client.user") + ":" + lab.props().get("pdp.client.password"));
        pdpxAuth = "Basic " + b64(lab.props().get("pdpx.user") + ":" + lab.props().get("pdpx.password"));

        // the legacy plan's setUp for request number 001: Guard, Guard Min/Max, Config Base
        assertThat(legacy("PUT", "createPolicy", rawClientAuth, """
                {"policyClass": "Decision", "policyName": "com.TestingGUARD001", "policyDescription": "guard",
                 "onapName": "PDPD", "ruleProvider": "GUARD_YAML", "attributes": {"MATCHING": {"actor": "testActor001",
                 "recipe": "restart", "targets": "test", "clname": "test", "limit": "5", "timeWindow": "15",
                 "timeUnits": "minute", "guardActiveStart": "05:00:00-05:00", "guardActiveEnd": "23:59:59-05:00"}}}""")
                .statusCode()).isEqualTo(200);
        assertThat(legacy("PUT", "createPolicy", rawClientAuth, """
                {"policyClass": "Decision", "policyName": "com.TestingGuardMinMax001", "policyDescription": "min max",
                 "onapName": "PDPD", "ruleProvider": "GUARD_MIN_MAX", "attributes": {"MATCHING": {
                 "actor": "testActorMinMax001", "recipe": "scaleOut", "targets": "test", "clname": "ControlLoop-Test",
                 "min": "1", "max": "5", "guardActiveStart": "00:00:01-05:00", "guardActiveEnd": "00:00:00-05:00"}}}""")
                .statusCode()).isEqualTo(200);
        assertThat(legacy("PUT", "createPolicy", rawClientAuth, """
                {"attributes": {"MATCHING": {"key": "value"}}, "configBody": "test body", "configBodyType": "OTHER",
                 "configName": "testConfig", "onapName": "PDPD", "policyConfigType": "Base",
                 "policyDescription": "config", "policyName": "com.TestingConfig001"}""").statusCode()).isEqualTo(200);
    }

    @AfterAll
    static void stop() {
        lab.service().close();
    }

    @Test
    void clientAuthIsAcceptedAsRawBase64AndWithTheBasicPrefix() throws Exception {
        String body = "{\"onapName\": \"PDPD\", \"decisionAttributes\": {\"actor\": \"nobody\","
                + " \"recipe\": \"restart\"}}";
        assertThat(legacy("POST", "getDecision", rawClientAuth, body).statusCode()).isEqualTo(200);
        assertThat(legacy("POST", "getDecision", "Basic " + rawClientAuth, body).statusCode()).isEqualTo(200);
        HttpResponse<String> r = legacy("POST", "getDecision",
                b64(lab.props().get("pdp.client.user") + ":guess-7Q"), body);
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("ClientAuth").doesNotContain("guess-7Q");
        assertThat(legacy("POST", "getDecision", "not base64 at all!", body).statusCode()).isEqualTo(401);
    }

    @Test
    void configBasePoliciesArePushedAndDeletedWithPolicyTypeBaseNotConfig() throws Exception {
        assertThat(legacy("PUT", "createPolicy", rawClientAuth, """
                {"attributes": {"MATCHING": {"key": "value"}}, "configBody": "b", "configBodyType": "OTHER",
                 "configName": "c", "onapName": "PDPD", "policyConfigType": "Base", \
                "policyName": "com.TestingConfig900"}""")
                .statusCode()).isEqualTo(200);
        HttpResponse<String> r = legacy("PUT", "pushPolicy", rawClientAuth,
                "{\"pdpGroup\": \"default\", \"policyName\": \"com.TestingConfig900\", \"policyType\": \"Config\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("PE300").contains("Config is not a valid Policy Type");
        r = legacy("PUT", "pushPolicy", rawClientAuth,
                "{\"pdpGroup\": \"default\", \"policyName\": \"com.TestingConfig900\", \"policyType\": \"Base\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("com.Config_TestingConfig900.1.xml");
        r = legacy("DELETE", "deletePolicy", rawClientAuth,
                "{\"pdpGroup\": \"default\", \"policyName\": \"com.TestingConfig900\","
                + " \"policyType\": \"Base\", \"policyComponent\": \"PDP\", \"deleteCondition\": \"All Versions\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        r = legacy("DELETE", "deletePolicy", rawClientAuth,
                "{\"policyName\": \"com.TestingConfig900\", \"policyType\": \"Base\","
                + " \"policyComponent\": \"PAP\", \"deleteCondition\": \"All Versions\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        // the tearDown's next round: the policy is gone, ONAP answers 400 (PE300), not an endless success
        r = legacy("DELETE", "deletePolicy", rawClientAuth,
                "{\"policyName\": \"com.TestingConfig900\", \"policyType\": \"Base\","
                + " \"policyComponent\": \"PAP\", \"deleteCondition\": \"All Versions\"}");
        assertThat(r.statusCode()).isEqualTo(400);
    }

    @Test
    void guardDecisionsMatchOnapNameSoTheDenyGroupGetsDeny() throws Exception {
        push("com.TestingGUARD001", "Decision");
        push("com.TestingGuardMinMax001", "Decision");
        // the Permit group: onapName PDPD as in the policies
        assertThat(decision("PDPD", "testActor001", "restart", "test", "test", null))
                .contains("\"decision\":\"PERMIT\"");
        assertThat(decision("PDPD", "testActorMinMax001", "scaleOut", "test", "ControlLoop-Test", "4"))
                .contains("\"decision\":\"PERMIT\"");
        // the Deny group: the same attributes from onapName "test", which no guard template matches
        assertThat(decision("test", "testActor001", "restart", "test", "test", null)).contains("\"decision\":\"DENY\"");
        assertThat(decision("test", "testActorMinMax001", "scaleOut", "test", "ControlLoop-Test", "9"))
                .contains("\"decision\":\"DENY\"");
        // Min/Max on its own: vfCount outside [min, max] is DENY for the matching onapName too
        assertThat(decision("PDPD", "testActorMinMax001", "scaleOut", "test", "ControlLoop-Test", "9"))
                .contains("DENY");
        // Min/Max matches actor and recipe case-insensitively, as ONAP's (?i) template does
        assertThat(decision("PDPD", "TESTACTORMINMAX001", "SCALEOUT", "test", "ControlLoop-Test", "2"))
                .contains("PERMIT");
        // clname and target are matched too
        assertThat(decision("PDPD", "testActor001", "restart", "test", "other-loop", null)).contains("DENY");
        assertThat(decision("PDPD", "testActor001", "restart", "elsewhere", "test", null)).contains("DENY");
    }

    @Test
    void theLegacyPlansMinMaxPushNameCaseIsRefusedAsOnapDoes() throws Exception {
        // ONAP's plan pushes com.TestingGUARDMinMax001 after creating com.TestingGuardMinMax001
        HttpResponse<String> r = legacy("PUT", "pushPolicy", rawClientAuth,
                "{\"pdpGroup\": \"default\", \"policyName\": \"com.TestingGUARDMinMax001\","
                + " \"policyType\": \"Decision\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("PE300");
    }

    @Test
    void currentApiHealthcheckAndStatistics() throws Exception {
        HttpResponse<String> r = current("GET", "/policy/pdpx/v1/healthcheck", null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"code\":200").contains("\"healthy\":true");
        r = current("GET", "/policy/pdpx/v1/statistics", null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"code\":200").contains("permitDecisionsCount");
    }

    @Test
    void monitoringNamingAndOptimizationDecisionsReturnTheDeployedPolicies() throws Exception {
        HttpResponse<String> r = current("POST",
                "/policy/api/v1/policytypes/onap.policies.monitoring.cdap.tca.hi.lo.app/versions/1.0.0/policies", """
                {"tosca_definitions_version": "tosca_simple_yaml_1_1_0", "topology_template": {"policies": [
                 {"lab.restart.tca": {"type": "onap.policies.monitoring.cdap.tca.hi.lo.app", "type_version": "1.0.0",
                  "version": "1.0.0", "metadata": {"policy-id": "lab.restart.tca"},
                  "properties": {"tca_policy": {"domain": "measurementsForVfScaling"}}}}]}}""");
        assertThat(r.statusCode()).as(r.body()).as("policy-api: 201 Created").isEqualTo(201);
        r = current("POST", "/policy/api/v1/policytypes/onap.policies.optimization.resource.AffinityPolicy"
                + "/versions/1.0.0/policies", """
                {"tosca_definitions_version": "tosca_simple_yaml_1_1_0", "topology_template": {"policies": [
                 {"lab.Affinity_Default": {"type": "onap.policies.optimization.resource.AffinityPolicy", \
                "version": "1.0.0",
                  "type_version": "1.0.0", "metadata": {"policy-id": "lab.Affinity_Default", "policy-version": 1},
                  "properties": {"scope": [], "services": [], "resources": [], "geography": [], \
                "identity": "affinity_lab"}}},
                 {"lab.Affinity_US": {"type": "onap.policies.optimization.resource.AffinityPolicy", "version": "1.0.0",
                  "type_version": "1.0.0", "metadata": {"policy-id": "lab.Affinity_US", "policy-version": 1},
                  "properties": {"scope": [], "services": [], "resources": [], "geography": ["US"], \
                "identity": "affinity_us"}}}]}}""");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        for (String id : new String[] {"lab.restart.tca", "lab.Affinity_Default", "lab.Affinity_US"}) {
            r = current("POST", "/policy/pap/v1/pdps/policies", "{\"policies\":[{\"policy-id\":\"" + id + "\"}]}");
            assertThat(r.statusCode()).as(r.body()).as("PAP: 202 Accepted").isEqualTo(202);
            assertThat(r.body()).contains("\"uri\":\"/policy/pap/v1/policies/status\"");
        }

        String monitoring = """
                {"ONAPName": "DCAE", "ONAPComponent": "PolicyHandler", "ONAPInstance": "lab-instance", \
                "action": "configure",
                 "resource": {"policy-id": "lab.restart.tca", \
                "policy-type": "onap.policies.monitoring.cdap.tca.hi.lo.app"}}""";
        r = current("POST", "/policy/pdpx/v1/decision", monitoring);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).startsWith("{\"policies\":{\"lab.restart.tca\":").contains("\"type\"")
                .contains("\"metadata\"")
                .contains("\"properties\"");
        r = current("POST", "/policy/pdpx/v1/decision?abbrev=true", monitoring);
        assertThat(r.body()).contains("lab.restart.tca").contains("\"type\"").contains("\"metadata\"")
                .doesNotContain("properties");

        r = current("POST", "/policy/pdpx/v1/decision", """
                {"ONAPName": "SDNC", "ONAPComponent": "SDNC-component", "ONAPInstance": "SDNC-instance", \
                "requestId": "r-1",
                 "action": "naming", "resource": {"nfRole": [], "naming-type": [], "property-name": [],
                 "policy-type": ["onap.policies.Naming"]}}""");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("onap.policies.Naming").contains("\"metadata\"").contains("\"properties\"");

        r = current("POST", "/policy/pdpx/v1/decision", """
                {"ONAPName": "OOF", "ONAPComponent": "OOF-component", "ONAPInstance": "OOF-instance",
                 "context": {"subscriberName": []}, "action": "optimize",
                 "resource": {"scope": [], "services": [], "resources": [], "geography": []}}""");
        assertThat(r.statusCode()).isEqualTo(200);
        // a policy that leaves a matchable list empty matches; one that names a geography needs it in the request
        assertThat(r.body()).contains("lab.Affinity_Default").contains("\"type\"").contains("\"metadata\"")
                .contains("\"properties\"").doesNotContain("lab.Affinity_US");

        r = current("POST", "/policy/pdpx/v1/decision", """
                {"ONAPName": "Guard", "ONAPComponent": "Guard-component", "ONAPInstance": "Guard-instance", \
                "requestId": "r-2",
                 "action": "guard", "resource": {"guard": {"actor": "APPC", "operation": "ModifyConfig",
                 "target": "f17face5", "requestId": "c7c6a4aa", "clname": "ControlLoop-vFirewall"}}}""");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"status\":\"Permit\"");

        String delete = "/policy/api/v1/policytypes/onap.policies.monitoring.cdap.tca.hi.lo.app/versions/1.0.0/"
                + "policies/lab.restart.tca/versions/1.0.0";
        r = current("DELETE", delete, null);
        assertThat(r.statusCode()).as("policy-api refuses to delete a deployed policy").isEqualTo(406);
        r = current("DELETE", "/policy/pap/v1/pdps/policies/lab.restart.tca", null);
        assertThat(r.statusCode()).isEqualTo(202);
        r = current("POST", "/policy/pdpx/v1/decision", monitoring);
        assertThat(r.body()).isEqualTo("{\"policies\":{}}");
        // policy-api finds the policy by id and version alone, as ONAP's perf.jmx relies on (another type name here)
        r = current("DELETE", delete.replace("cdap.tca.hi.lo.app", "tcagen2"), null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("\"lab.restart.tca\"");
        r = current("DELETE", delete, null);
        assertThat(r.statusCode()).as("deleted already").isEqualTo(404);
    }

    /* ---------------------------------------------------------------- helpers */

    static void push(String name, String type) throws Exception {
        HttpResponse<String> r = legacy("PUT", "pushPolicy", rawClientAuth,
                "{\"pdpGroup\": \"default\", \"policyName\": \"" + name + "\", \"policyType\": \"" + type + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    static String decision(String onapName, String actor, String recipe, String target, String clname, String vfCount)
            throws Exception {
        String body = "{\"decisionAttributes\": {\"actor\": \"" + actor + "\", \"recipe\": \"" + recipe
                + "\", \"target\": \""
                + target + "\", \"clname\": \"" + clname + "\""
                + (vfCount == null ? "" : ", \"vfCount\": \"" + vfCount + "\"")
                + "}, \"onapName\": \"" + onapName + "\"}";
        HttpResponse<String> r = legacy("POST", "getDecision", rawClientAuth, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    static HttpResponse<String> legacy(String method, String op, String clientAuth, String json) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(lab.url() + "/pdp/api/" + op)).timeout(Duration.ofSeconds(20))
                .header("ClientAuth", clientAuth).header("Authorization", authorization).header("Environment", "TEST")
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)).build();
        return lab.http().send(r, HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> current(String method, String path, String json) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(lab.url() + path)).timeout(Duration.ofSeconds(20))
                .header("Authorization", pdpxAuth).header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)).build();
        return lab.http().send(r, HttpResponse.BodyHandlers.ofString());
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
