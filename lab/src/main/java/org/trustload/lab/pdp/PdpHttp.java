package org.trustload.lab.pdp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.trustload.lab.LabHttp;
import org.trustload.lab.Tally;

/**
 * What the PDP's APIs ({@link LegacyPdpApi}, {@link CurrentPdpApi}) share besides {@link LabHttp}'s handler
 * template: the credential checks (HTTP Basic; the legacy API's ClientAuth and Environment headers), and
 * a JSON body and its fields.
 */
final class PdpHttp {
    static final int MAX_BODY = 1024 * 1024;
    static final ObjectMapper JSON = new ObjectMapper();

    private PdpHttp() {
    }

    /** Legacy API: method, then ONAP's three headers (Authorization, ClientAuth, Environment). */
    static void legacy(HttpExchange ex, String method) throws LabHttp.Refusal {
        LabHttp.method(ex, method);
        basic(ex, "Authorization", PdpLabService.USER, PdpLabService.PASSWORD);
        clientAuth(ex, PdpLabService.CLIENT_USER, PdpLabService.CLIENT_PASSWORD);
        String env = ex.getRequestHeaders().getFirst("Environment");
        if (env == null || !env.equalsIgnoreCase(PdpLabService.ENVIRONMENT)) {
            throw new PdpException(401, "unauthorized", "header Environment must be " + PdpLabService.ENVIRONMENT
                    + (env == null ? " (missing)" : ", not " + env));
        }
    }

    /**
     * ONAP's ClientAuth check (PDPApiAuth.checkPermissions): {@code Basic <base64>} or the raw Base64 of
     * {@code user:password} without the prefix, as ONAP's own performance plan sends it.
     */
    static void clientAuth(HttpExchange ex, String user, String password) throws PdpException {
        String value = ex.getRequestHeaders().getFirst("ClientAuth");
        String v = value == null ? "" : value.trim();
        if (v.regionMatches(true, 0, "Basic ", 0, 6)) {
            v = v.substring(6).trim();
        }
        byte[] got;
        try {
            got = Base64.getDecoder().decode(v);
        } catch (IllegalArgumentException e) {
            got = new byte[0];
        }
        byte[] expected = (user + ":" + password).getBytes(StandardCharsets.UTF_8);
        if (value == null || !MessageDigest.isEqual(got, expected)) {
            // never echo the credentials received
            throw new PdpException(401, "unauthorized", value == null ? "header ClientAuth is missing"
                    : "header ClientAuth has wrong credentials");
        }
    }

    static void basic(HttpExchange ex, String header, String user, String password) throws PdpException {
        String value = ex.getRequestHeaders().getFirst(header);
        String expected = "Basic "
                + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        if (value == null || !MessageDigest.isEqual(value.trim().getBytes(StandardCharsets.UTF_8),
                expected.getBytes(StandardCharsets.UTF_8))) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"pdp\"");
            // never echo the credentials received
            throw new PdpException(401, "unauthorized", value == null ? "header " + header + " (Basic) is missing"
                    : "header " + header + " has wrong credentials");
        }
    }

    static JsonNode body(HttpExchange ex) throws IOException, LabHttp.Refusal {
        byte[] bytes = LabHttp.body(ex, MAX_BODY);
        if (bytes.length == 0) {
            throw PdpException.badRequest("the request body is empty; expected a JSON object");
        }
        JsonNode node;
        try {
            node = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw PdpException.badRequest("the request body is not valid JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw PdpException.badRequest("the request body must be a JSON object");
        }
        return node;
    }

    static String text(JsonNode body, String field, boolean required) throws PdpException {
        JsonNode v = body.get(field);
        if (v == null || v.isNull() || (v.isTextual() && v.asText().isBlank())) {
            if (required) {
                throw PdpException.badRequest("missing field \"" + field + "\"");
            }
            return "";
        }
        if (!v.isValueNode()) {
            throw PdpException.badRequest("field \"" + field + "\" must be a string");
        }
        return v.asText().trim();
    }

    static String textOrNull(JsonNode attrs, String field) {
        JsonNode v = attrs.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** A flat object of strings (numbers and booleans as text), e.g. attributes.MATCHING. */
    static Map<String, String> matching(JsonNode node) throws PdpException {
        Map<String, String> out = new LinkedHashMap<>();
        if (node.isMissingNode() || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw PdpException.badRequest("attributes must be an object of strings");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode()) {
                throw PdpException.badRequest("attribute \"" + e.getKey() + "\" must be a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    static String orDefault(String v, String d) {
        return v.isEmpty() ? d : v;
    }

    /**
     * A guard decision's attributes as the engine takes them; counts the actor in {@code actors} (each
     * policy of the plans' setUp has its own, printed at stop).
     */
    static XacmlPdp.GuardRequest guardRequest(JsonNode attrs, String onapName, boolean currentApi, String recipeKey,
            String where, Tally actors) throws PdpException {
        Long vfCount = null;
        JsonNode vf = attrs.get("vfCount");
        if (vf != null && !vf.isNull()) {
            try {
                vfCount = vf.isIntegralNumber() ? vf.longValue() : Long.parseLong(vf.asText().trim());
            } catch (NumberFormatException e) {
                throw PdpException.badRequest(where + ".vfCount must be an integer, not \"" + vf.asText() + "\"");
            }
        }
        String actor = textOrNull(attrs, "actor");
        actors.add(String.valueOf(actor));
        return new XacmlPdp.GuardRequest(onapName, currentApi, actor, textOrNull(attrs, recipeKey),
                textOrNull(attrs, "target"), textOrNull(attrs, "clname"), vfCount);
    }
}
