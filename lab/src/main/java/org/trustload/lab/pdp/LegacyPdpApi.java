package org.trustload.lab.pdp;

import static org.trustload.lab.pdp.PdpHttp.JSON;
import static org.trustload.lab.pdp.PdpHttp.body;
import static org.trustload.lab.pdp.PdpHttp.guardRequest;
import static org.trustload.lab.pdp.PdpHttp.legacy;
import static org.trustload.lab.pdp.PdpHttp.matching;
import static org.trustload.lab.pdp.PdpHttp.orDefault;
import static org.trustload.lab.pdp.PdpHttp.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.trustload.lab.LabHttp;
import org.trustload.lab.LabHttp.Reply;
import org.trustload.lab.Tally;

/**
 * ONAP's legacy PDP-X API ({@code /pdp/api}, policy-engine): create, push and delete Guard, Guard Min/Max
 * and Config Base policies, getDecision and getConfig, with its three headers (Authorization,
 * ClientAuth, Environment); plus the lab's {@code /pdp/lab/operations}, standing in for the control
 * loop's operations history. See {@code docs/lab.md}.
 */
final class LegacyPdpApi {
    /** Created policies (PAP), by the name given at creation; case-sensitive like ONAP's. */
    private final Map<String, OnapPolicy> created = new ConcurrentHashMap<>();
    private final XacmlPdp pdp;
    private final Tally actors;

    LegacyPdpApi(XacmlPdp pdp, Tally actors) {
        this.pdp = pdp;
        this.actors = actors;
    }

    /** Serves the API's routes on {@code s}. */
    void bind(HttpServer s) {
        s.createContext("/pdp/api/createPolicy", ex -> LabHttp.serve("pdp", ex, this::createPolicy));
        s.createContext("/pdp/api/pushPolicy", ex -> LabHttp.serve("pdp", ex, this::pushPolicy));
        s.createContext("/pdp/api/deletePolicy", ex -> LabHttp.serve("pdp", ex, this::deletePolicy));
        s.createContext("/pdp/api/getDecision", ex -> LabHttp.serve("pdp", ex, this::getDecision));
        s.createContext("/pdp/api/getConfig", ex -> LabHttp.serve("pdp", ex, this::getConfig));
        s.createContext("/pdp/lab/operations", ex -> LabHttp.serve("pdp", ex, this::recordOperation));
    }

    private Reply createPolicy(HttpExchange ex) throws LabHttp.Refusal, IOException {
        legacy(ex, "PUT");
        JsonNode body = body(ex);
        String name = text(body, "policyName", true);
        if (name.lastIndexOf('.') <= 0 || name.endsWith(".")) {
            throw PdpException.badRequest("policyName must be scope.name, e.g. com.testGuard001, not \"" + name + "\"");
        }
        Map<String, String> matching = matching(body.path("attributes").path("MATCHING"));
        OnapPolicy.Kind kind = kind(body);
        String onapName = onapName(body);
        OnapPolicy p;
        if (kind == OnapPolicy.Kind.CONFIG_BASE) {
            if (onapName.isEmpty()) {
                throw PdpException.badRequest("onapName is required for a Config Base policy");
            }
            p = new OnapPolicy(name, kind, matching, onapName, text(body, "configName", true),
                    text(body, "configBody", true), orDefault(text(body, "configBodyType", false), "OTHER"));
        } else {
            String targets = matching.getOrDefault("targets", "");
            try {
                Pattern.compile(targets);
            } catch (PatternSyntaxException e) {
                throw PdpException.badRequest("attributes.MATCHING.targets is not a regular expression: "
                        + e.getDescription());
            }
            p = new OnapPolicy(name, kind, matching, onapName, "", "", "");
        }
        XacmlTranslator.policy(new StringBuilder(), p);
        if (created.putIfAbsent(name, p) != null) {
            throw new PdpException(409, "policyExists", "a policy named " + name + " exists already; delete it first");
        }
        return Reply.text(200, "Transaction ID: " + UUID.randomUUID() + " --Policy with the name " + p.storedName()
                + " was successfully created.");
    }

    private static OnapPolicy.Kind kind(JsonNode body) throws PdpException {
        String configType = body.path("policyConfigType").asText("");
        if (!configType.isEmpty()) {
            if (configType.equalsIgnoreCase("Base")) {
                return OnapPolicy.Kind.CONFIG_BASE;
            }
            throw PdpException.badRequest("policyConfigType " + configType + " is not served by the lab (Base only)");
        }
        String policyClass = body.path("policyClass").asText("Decision");
        if (!policyClass.equalsIgnoreCase("Decision")) {
            throw PdpException.badRequest("policyClass " + policyClass
                    + " needs policyConfigType Base; the lab serves Decision and Config Base");
        }
        String provider = body.path("ruleProvider").asText("");
        for (OnapPolicy.Kind k : OnapPolicy.Kind.values()) {
            if (k.policyType.equals("Decision") && k.provider.equalsIgnoreCase(provider)) {
                return k;
            }
        }
        throw PdpException.badRequest("ruleProvider \"" + provider
                + "\" is not served by the lab (GUARD_YAML or GUARD_MIN_MAX)");
    }

    private Reply pushPolicy(HttpExchange ex) throws LabHttp.Refusal, IOException {
        legacy(ex, "PUT");
        JsonNode body = body(ex);
        OnapPolicy p = find(text(body, "policyName", true), text(body, "policyType", false));
        String group = orDefault(text(body, "pdpGroup", false), "default");
        pdp.deploy(p);
        return Reply.text(200, "Transaction ID: " + UUID.randomUUID() + " --Policy '" + p.storedName()
                + "' was successfully pushed to the PDP group '" + group + "'.");
    }

    private Reply deletePolicy(HttpExchange ex) throws LabHttp.Refusal, IOException {
        legacy(ex, "DELETE");
        JsonNode body = body(ex);
        OnapPolicy p = find(text(body, "policyName", true), text(body, "policyType", false));
        String component = text(body, "policyComponent", false);
        if (component.isEmpty()) {
            throw onapDataIssue("No Policy Component given.");
        }
        if (component.equalsIgnoreCase("PDP")) {
            if (text(body, "pdpGroup", false).isEmpty()) {
                throw onapDataIssue("No PDP Group given.");
            }
            if (!pdp.undeploy(p)) {
                throw onapDataIssue(p.storedName()
                        + " is not deployed on the PDP group: the policy does not exist there");
            }
        } else if (component.equalsIgnoreCase("PAP")) {
            if (text(body, "deleteCondition", false).isEmpty()) {
                throw onapDataIssue("No Delete Condition given.");
            }
            pdp.undeploy(p);
            created.remove(p.name());
        } else {
            throw onapDataIssue("Policy Component does not exist. Please enter either PAP or PDP to"
                    + " delete the policy from a"
                    + " specified Policy Component.");
        }
        return Reply.text(200, "Transaction ID: " + UUID.randomUUID() + " --The policy " + p.storedName()
                + " was successfully deleted from the " + component.toUpperCase(Locale.ROOT) + ".");
    }

    /** ONAP's policyType values of pushPolicy and deletePolicy (PushPolicyService, DeletePolicyService). */
    private static final Set<String> ONAP_POLICY_TYPES = Set.of("firewall", "action", "decision_ms", "decision", "base",
            "closedloop_fault", "closedloop_pm", "microservice", "optimization", "brms_raw", "brms_param");

    /**
     * The policy a push or delete names, as ONAP looks it up: {@code policyType} is required and one of ONAP's
     * types ({@code Base} for a Config Base policy, {@code Decision} for guards; {@code Config} is not one), and
     * selects the stored file ({@code scope.<prefix>name}); names are case-sensitive. ONAP answers every miss
     * 400 with a PE300 data-issue message.
     */
    private OnapPolicy find(String name, String policyType) throws PdpException {
        if (policyType.isEmpty()) {
            throw onapDataIssue("No PolicyType given.");
        }
        if (!ONAP_POLICY_TYPES.contains(policyType.toLowerCase(Locale.ROOT))) {
            throw onapDataIssue(policyType + " is not a valid Policy Type.");
        }
        OnapPolicy p = created.get(name);
        if (p == null) {
            for (OnapPolicy c : created.values()) {
                if (c.storedName().equals(name) || c.policyId().equals(name)) {
                    p = c;
                    break;
                }
            }
        }
        if (p == null || !policyType.equalsIgnoreCase(p.kind().pushType)) {
            throw onapDataIssue("response code of the URL is 404.  This indicates a problem with getting the"
                    + " version from the PAP"
                    + " or the policy does not exist: no " + policyType + " policy named " + name
                    + " (names are case-sensitive)");
        }
        return p;
    }

    /** ONAP's answer to a request it cannot serve: 400 and a message starting {@code PE300 - Data Issue: }. */
    private static PdpException onapDataIssue(String message) {
        return PdpException.badRequest("PE300 - Data Issue: " + message);
    }

    private Reply getDecision(HttpExchange ex) throws LabHttp.Refusal, IOException {
        legacy(ex, "POST");
        JsonNode body = body(ex);
        String onapName = onapName(body);
        if (onapName.isEmpty()) {
            throw onapDataIssue("No onapComponentName given : onapName is required");
        }
        JsonNode attrs = body.get("decisionAttributes");
        if (attrs == null || !attrs.isObject() || attrs.isEmpty()) {
            throw onapDataIssue("No Decision Attributes Given. decisionAttributes must be a non-empty object");
        }
        // ONAP's guard templates match the requester's ONAPName (a Deny-group request of another onapName gets DENY)
        XacmlPdp.Decision d = pdp.guard(guardRequest(attrs, onapName, false, "recipe", "decisionAttributes", actors));
        // legacy ONAP: anything but Permit (no applicable policy included) is DENY
        ObjectNode out = JSON.createObjectNode();
        if (d == XacmlPdp.Decision.PERMIT) {
            out.put("decision", "PERMIT").put("details", "Decision Permit. OK!");
        } else {
            out.put("decision", "DENY").put("details", "Decision not a Permit (" + d + ").");
        }
        return Reply.json(200, out);
    }

    private Reply getConfig(HttpExchange ex) throws LabHttp.Refusal, IOException {
        legacy(ex, "POST");
        JsonNode body = body(ex);
        String onapName = onapName(body);
        if (onapName.isEmpty()) {
            throw PdpException.badRequest("onapName is required");
        }
        Map<String, String> attributes = matching(body.path("configAttributes"));
        List<String> ids = pdp.config(onapName, text(body, "configName", false), attributes);
        ArrayNode out = JSON.createArrayNode();
        for (OnapPolicy p : created.values()) {
            if (ids.contains(p.policyId())) {
                ObjectNode c = out.addObject();
                c.put("policyConfigMessage", "Config Retrieved! ");
                c.put("policyConfigStatus", "CONFIG_RETRIEVED");
                c.put("type", p.configBodyType());
                c.put("config", p.configBody());
                c.put("policyName", p.storedName());
                c.put("policyVersion", "1");
                c.set("matchingConditions", JSON.valueToTree(p.matching()));
            }
        }
        if (out.isEmpty()) {
            ObjectNode c = out.addObject();
            c.put("policyConfigMessage", "No policy matched the request");
            c.put("policyConfigStatus", "CONFIG_NOT_FOUND");
            return Reply.json(404, out);
        }
        return Reply.json(200, out);
    }

    /** Lab only: stands in for the control loop writing ONAP's operations history (guard limits count it). */
    private Reply recordOperation(HttpExchange ex) throws LabHttp.Refusal, IOException {
        legacy(ex, "POST");
        JsonNode body = body(ex);
        pdp.recordOperation(text(body, "actor", true), text(body, "recipe", true), text(body, "target", true));
        return Reply.json(200, JSON.createObjectNode().put("recorded", true));
    }

    /** The requester's {@code onapName}, or its older name {@code ecompName}; "" when neither is given. */
    private static String onapName(JsonNode body) throws PdpException {
        String onapName = text(body, "onapName", false);
        return onapName.isEmpty() ? text(body, "ecompName", false) : onapName;
    }

    /** Policies created so far (for tests). */
    List<String> createdNames() {
        return new ArrayList<>(created.keySet());
    }
}
