package org.trustload.lab.pdp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The TOSCA policies of ONAP's current API: created through policy-api ({@code POST
 * /policy/api/v1/policytypes/{type}/versions/{version}/policies}), deployed and undeployed through PAP
 * ({@code /policy/pap/v1/pdps/policies}), and returned by the configure (monitoring), naming and optimize
 * decisions of {@code /policy/pdpx/v1/decision} in ONAP's shape: {@code {"policies": {id: policy}}}.
 *
 * <p>Matching follows ONAP's xacml-pdp applications: monitoring by {@code policy-id} or {@code policy-type};
 * naming by {@code policy-type}; optimization by the matchable lists {@code scope}, {@code services},
 * {@code resources} and {@code geography} (a list the policy leaves empty matches any request; a non-empty one
 * must share a value with the request). Guard policies created here are stored but take no part in guard
 * decisions (the lab's guards come from the legacy API).
 */
final class ToscaPolicies {
    static final String NAMING_TYPE = "onap.policies.Naming";
    /** The naming policy the lab deploys at start, standing in for the one an ONAP deployment provisions for SDNC. */
    static final String DEFAULT_NAMING = "lab.naming.default";
    private static final String[] OPTIMIZATION_MATCHABLES = {"scope", "services", "resources", "geography"};

    private final ObjectMapper json;
    private final Map<String, ObjectNode> created = new LinkedHashMap<>();
    private final Set<String> deployed = new HashSet<>();

    ToscaPolicies(ObjectMapper json) {
        this.json = json;
        ObjectNode naming = json.createObjectNode();
        naming.put("type", NAMING_TYPE).put("type_version", "1.0.0").put("version", "1.0.0")
                .put("name", DEFAULT_NAMING);
        naming.putObject("metadata").put("policy-id", DEFAULT_NAMING).put("policy-version", "1.0.0");
        ObjectNode model = naming.putObject("properties").put("policy-instance-name", "LAB_NF_NAMING")
                .putArray("naming-models").addObject();
        model.put("naming-type", "VNF").put("naming-recipe", "CONSTANT|DELIMITER|SEQUENCE")
                .put("name-operation", "to_lower_case()");
        model.putArray("naming-properties").addObject().put("property-name", "CONSTANT").put("property-value", "lab");
        created.put(DEFAULT_NAMING, naming);
        deployed.add(DEFAULT_NAMING);
    }

    /** Stores the policies of a TOSCA service template; returns the template as stored (policy-api's answer). */
    synchronized ObjectNode create(JsonNode template) throws PdpException {
        JsonNode list = template.path("topology_template").path("policies");
        if (!list.isArray() || list.isEmpty()) {
            throw PdpException.badRequest("topology_template.policies must be a non-empty list");
        }
        Map<String, ObjectNode> parsed = new LinkedHashMap<>();
        for (JsonNode entry : list) {
            if (!entry.isObject() || entry.size() != 1) {
                throw PdpException.badRequest("each entry of topology_template.policies must be {\"name\": {policy}}");
            }
            Map.Entry<String, JsonNode> e = entry.fields().next();
            if (!e.getValue().isObject() || !e.getValue().path("type").isTextual()) {
                throw PdpException.badRequest("policy " + e.getKey() + " has no type");
            }
            ObjectNode p = ((ObjectNode) e.getValue()).deepCopy();
            p.put("name", e.getKey());
            if (!p.path("version").isTextual()) {
                p.put("version", "1.0.0");
            }
            ObjectNode metadata = p.path("metadata").isObject() ? (ObjectNode) p.get("metadata")
                    : p.putObject("metadata");
            if (!metadata.has("policy-id")) {
                metadata.put("policy-id", e.getKey());
            }
            if (!metadata.has("policy-version")) {
                metadata.put("policy-version", p.get("version").asText());
            }
            parsed.put(e.getKey(), p);
        }
        created.putAll(parsed);
        ObjectNode out = json.createObjectNode();
        out.put("tosca_definitions_version",
                template.path("tosca_definitions_version").asText("tosca_simple_yaml_1_1_0"));
        var policies = out.putObject("topology_template").putArray("policies");
        parsed.forEach((name, p) -> policies.addObject().set(name, p));
        return out;
    }

    /** Deploys created policies by id (PAP's {@code {"policies":[{"policy-id":…}]}}). */
    synchronized void deploy(List<String> ids) throws PdpException {
        for (String id : ids) {
            if (!created.containsKey(id)) {
                throw PdpException.badRequest("policy " + id + " does not exist; create it through policy-api first");
            }
        }
        deployed.addAll(ids);
    }

    /**
     * Deletes the policy {@code id} at {@code version} (policy-api's DELETE); returns the deleted policy as a
     * template. 404 when there is no such policy, 406 while it is deployed (policy-api refuses to delete a
     * deployed policy: undeploy it through PAP first).
     */
    synchronized ObjectNode delete(String id, String version) throws PdpException {
        ObjectNode p = created.get(id);
        if (p == null || !version.equals(p.path("version").asText())) {
            throw new PdpException(404, "notFound", "policy " + id + ":" + version + " not found");
        }
        if (deployed.contains(id)) {
            throw new PdpException(406, "notAcceptable",
                    "policy " + id + ":" + version + " is deployed; undeploy it through PAP first");
        }
        created.remove(id);
        ObjectNode out = json.createObjectNode();
        out.put("tosca_definitions_version", "tosca_simple_yaml_1_1_0");
        out.putObject("topology_template").putArray("policies").addObject().set(id, p);
        return out;
    }

    /** Undeploys a policy; false if it was not deployed. */
    synchronized boolean undeploy(String id) {
        return deployed.remove(id);
    }

    synchronized int deployedCount() {
        return deployed.size();
    }

    synchronized Set<String> deployedTypes() {
        Set<String> types = new HashSet<>();
        for (String id : deployed) {
            types.add(created.get(id).path("type").asText());
        }
        return types;
    }

    /**
     * A configure, naming or optimize decision: the deployed policies the request selects, in ONAP's shape;
     * {@code abbrev} leaves out each policy's properties ({@code ?abbrev=true}).
     */
    synchronized ObjectNode decide(String action, JsonNode resource, boolean abbrev) {
        ObjectNode out = json.createObjectNode();
        ObjectNode policies = out.putObject("policies");
        for (String id : deployed) {
            ObjectNode p = created.get(id);
            String type = p.path("type").asText();
            boolean selected = switch (action) {
                case "configure" -> type.startsWith("onap.policies.monitoring.")
                        && (values(resource.get("policy-id")).contains(id)
                                || values(resource.get("policy-type")).contains(type));
                case "naming" -> type.equals(NAMING_TYPE) && (values(resource.get("policy-type")).isEmpty()
                        || values(resource.get("policy-type")).contains(type));
                case "optimize" -> type.startsWith("onap.policies.optimization.") && optimizationMatches(p, resource);
                default -> false;
            };
            if (selected) {
                ObjectNode copy = p.deepCopy();
                if (abbrev) {
                    copy.remove("properties");
                }
                policies.set(id, copy);
            }
        }
        return out;
    }

    private static boolean optimizationMatches(ObjectNode policy, JsonNode resource) {
        for (String key : OPTIMIZATION_MATCHABLES) {
            List<String> wanted = values(policy.path("properties").get(key));
            if (!wanted.isEmpty() && wanted.stream().noneMatch(values(resource.get(key))::contains)) {
                return false;
            }
        }
        return true;
    }

    /** A string or a list of strings as a list; anything else as an empty list. */
    static List<String> values(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (node.isValueNode()) {
            out.add(node.asText());
        } else if (node.isArray()) {
            for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
                JsonNode v = it.next();
                if (v.isValueNode()) {
                    out.add(v.asText());
                }
            }
        }
        return out;
    }
}
