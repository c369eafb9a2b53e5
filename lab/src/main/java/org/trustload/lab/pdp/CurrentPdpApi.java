package org.trustload.lab.pdp;

import static org.trustload.lab.pdp.PdpHttp.JSON;
import static org.trustload.lab.pdp.PdpHttp.basic;
import static org.trustload.lab.pdp.PdpHttp.body;
import static org.trustload.lab.pdp.PdpHttp.guardRequest;
import static org.trustload.lab.pdp.PdpHttp.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.trustload.lab.LabHttp;
import org.trustload.lab.LabHttp.Reply;
import org.trustload.lab.Tally;

/**
 * ONAP's current API: the xacml-pdp decisions ({@code POST /policy/pdpx/v1/decision}: guard, configure,
 * naming, optimize), its healthcheck and statistics, and the policy-api and PAP routes that create and
 * deploy the TOSCA policies those decisions return ({@link ToscaPolicies}); HTTP Basic as the
 * {@code healthcheck} user. See {@code docs/lab.md}.
 */
final class CurrentPdpApi {
    /** policy-api's {@code …/policies/{policyId}/versions/{policyVersion}} (the type segments are not used). */
    private static final Pattern POLICY_VERSION_PATH =
            Pattern.compile("/policy/api/v1/policytypes/[^/]+/versions/[^/]+/policies/([^/]+)/versions/([^/]+)/?");

    /** TOSCA policies of the current API (policy-api, PAP): monitoring, naming, optimization. */
    private final ToscaPolicies tosca = new ToscaPolicies(JSON);
    /** Decisions of the current API by outcome, for {@code /policy/pdpx/v1/statistics}. */
    private final AtomicLong permits = new AtomicLong();
    private final AtomicLong denies = new AtomicLong();
    private final AtomicLong notApplicables = new AtomicLong();
    private final AtomicLong indeterminates = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final XacmlPdp pdp;
    private final Tally actors;

    CurrentPdpApi(XacmlPdp pdp, Tally actors) {
        this.pdp = pdp;
        this.actors = actors;
    }

    /** Serves the API's routes on {@code s}. */
    void bind(HttpServer s) {
        s.createContext("/policy/pdpx/v1/decision", ex -> LabHttp.serve("pdp", ex, this::decision));
        s.createContext("/policy/pdpx/v1/healthcheck", ex -> LabHttp.serve("pdp", ex, this::healthcheck));
        s.createContext("/policy/pdpx/v1/statistics", ex -> LabHttp.serve("pdp", ex, this::statistics));
        s.createContext("/policy/api/v1/policytypes/", ex -> LabHttp.serve("pdp", ex, this::createToscaPolicies));
        s.createContext("/policy/pap/v1/pdps/policies", ex -> LabHttp.serve("pdp", ex, this::deployToscaPolicies));
    }

    private Reply decision(HttpExchange ex) throws LabHttp.Refusal, IOException {
        LabHttp.method(ex, "POST");
        basic(ex, "Authorization", PdpLabService.PDPX_USER, PdpLabService.PDPX_PASSWORD);
        try {
            return Reply.json(200, decide(ex, body(ex)));
        } catch (PdpException e) {
            errors.incrementAndGet();
            throw e;
        }
    }

    /** One decision of the current API, by action: guard, configure (monitoring), naming, optimize. */
    private ObjectNode decide(HttpExchange ex, JsonNode body) throws PdpException {
        String action = text(body, "action", true);
        JsonNode resource = body.path("resource");
        switch (action) {
            case XacmlTranslator.ACTION_GUARD -> {
                JsonNode guard = resource.path("guard");
                if (!guard.isObject()) {
                    throw PdpException.badRequest("resource.guard must be an object");
                }
                XacmlPdp.Decision d = pdp.guard(guardRequest(guard, null, true, "operation", "resource.guard", actors));
                (switch (d) {
                    case PERMIT -> permits;
                    case DENY -> denies;
                    case NOT_APPLICABLE -> notApplicables;
                    case INDETERMINATE -> indeterminates;
                }).incrementAndGet();
                // current ONAP: no guard policy applies -> Permit
                String status = d == XacmlPdp.Decision.PERMIT || d == XacmlPdp.Decision.NOT_APPLICABLE
                        ? "Permit" : "Deny";
                ObjectNode out = JSON.createObjectNode().put("status", status);
                out.putObject("advice");
                out.putObject("obligations");
                out.putObject("policies");
                return out;
            }
            case "configure", "naming", "optimize" -> {
                if (!resource.isObject()) {
                    throw PdpException.badRequest("resource must be an object");
                }
                String query = ex.getRequestURI().getRawQuery();
                boolean abbrev = query != null && Arrays.asList(query.split("&")).contains("abbrev=true");
                ObjectNode out = tosca.decide(action, resource, abbrev);
                (out.path("policies").isEmpty() ? notApplicables : permits).incrementAndGet();
                return out;
            }
            default -> throw PdpException.badRequest("No application for action " + action
                    + " (the lab serves guard, configure, naming and optimize)");
        }
    }

    private Reply healthcheck(HttpExchange ex) throws LabHttp.Refusal, IOException {
        LabHttp.method(ex, "GET");
        basic(ex, "Authorization", PdpLabService.PDPX_USER, PdpLabService.PDPX_PASSWORD);
        ObjectNode out = JSON.createObjectNode();
        out.put("name", "Policy Xacml PDP").put("url", "self").put("healthy", true).put("code", 200)
                .put("message", "alive");
        return Reply.json(200, out);
    }

    private Reply statistics(HttpExchange ex) throws LabHttp.Refusal, IOException {
        LabHttp.method(ex, "GET");
        basic(ex, "Authorization", PdpLabService.PDPX_USER, PdpLabService.PDPX_PASSWORD);
        ObjectNode out = JSON.createObjectNode();
        out.put("code", 200)
                .put("totalPolicyTypesCount", tosca.deployedTypes().size() + (pdp.deployedCount() > 0 ? 1 : 0))
                .put("totalPoliciesCount", tosca.deployedCount() + pdp.deployedCount())
                .put("totalErrorCount", errors.get())
                .put("permitDecisionsCount", permits.get()).put("denyDecisionsCount", denies.get())
                .put("indeterminantDecisionsCount", indeterminates.get())
                .put("notApplicableDecisionsCount", notApplicables.get());
        return Reply.json(200, out);
    }

    /**
     * policy-api: {@code POST /policy/api/v1/policytypes/{type}/versions/{version}/policies} with a TOSCA
     * template answers 201 and the template as stored; {@code DELETE …/policies/{id}/versions/{version}}
     * answers 200 and the deleted policy, 404 when there is no such policy, 406 while PAP has it deployed.
     * As policy-api does, the delete finds the policy by id and version alone (ONAP's own perf.jmx deletes
     * its Min/Max and Frequency Limiter guards under other type names than it created them with).
     */
    private Reply createToscaPolicies(HttpExchange ex) throws LabHttp.Refusal, IOException {
        String path = ex.getRequestURI().getPath();
        Matcher delete = POLICY_VERSION_PATH.matcher(path);
        if (delete.matches()) {
            LabHttp.method(ex, "DELETE");
            basic(ex, "Authorization", PdpLabService.PDPX_USER, PdpLabService.PDPX_PASSWORD);
            return Reply.json(200, tosca.delete(delete.group(1), delete.group(2)));
        }
        if (!path.matches("/policy/api/v1/policytypes/[^/]+/versions/[^/]+/policies/?")) {
            throw new PdpException(404, "notFound", "no such resource: " + path);
        }
        LabHttp.method(ex, "POST");
        basic(ex, "Authorization", PdpLabService.PDPX_USER, PdpLabService.PDPX_PASSWORD);
        return Reply.json(201, tosca.create(body(ex)));
    }

    /**
     * PAP: {@code POST /policy/pap/v1/pdps/policies} deploys, {@code DELETE …/policies/{id}} undeploys; both
     * answer 202 Accepted with PAP's pointer to the status URL (PAP deploys asynchronously; the lab at once).
     */
    private Reply deployToscaPolicies(HttpExchange ex) throws LabHttp.Refusal, IOException {
        String rest = ex.getRequestURI().getPath().substring("/policy/pap/v1/pdps/policies".length());
        if (rest.isEmpty() || rest.equals("/")) {
            LabHttp.method(ex, "POST");
            basic(ex, "Authorization", PdpLabService.PDPX_USER, PdpLabService.PDPX_PASSWORD);
            List<String> ids = new ArrayList<>();
            for (JsonNode p : body(ex).path("policies")) {
                String id = p.path("policy-id").asText("");
                if (id.isEmpty()) {
                    throw PdpException.badRequest("each entry of policies needs a policy-id");
                }
                ids.add(id);
            }
            if (ids.isEmpty()) {
                throw PdpException.badRequest("policies must list at least one {\"policy-id\": …}");
            }
            tosca.deploy(ids);
            return Reply.json(202, papAccepted());
        }
        LabHttp.method(ex, "DELETE");
        basic(ex, "Authorization", PdpLabService.PDPX_USER, PdpLabService.PDPX_PASSWORD);
        String id = rest.substring(1).split("/")[0];
        if (!tosca.undeploy(id)) {
            throw new PdpException(404, "policyNotFound", "policy " + id + " is not deployed");
        }
        return Reply.json(202, papAccepted());
    }

    /** PAP's answer to an accepted deploy or undeploy ({@code PdpGroupDeployResponse}). */
    private static ObjectNode papAccepted() {
        return JSON.createObjectNode()
                .put("message", "Use the policy status url to fetch the latest status. Kindly note that"
                + " when a policy is successfully undeployed, it will no longer appear in policy status response.")
                .put("uri", "/policy/pap/v1/policies/status");
    }
}
