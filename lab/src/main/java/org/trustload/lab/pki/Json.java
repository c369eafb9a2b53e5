package org.trustload.lab.pki;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Base64;
import java.util.UUID;

/**
 * The pki service's JSON requests, on Jackson (already on the lab's class path through the lib): a request
 * body read as an object with typed, lenient accessors (answers: {@link org.trustload.lab.LabHttp#json},
 * byte arrays as standard base64, as .NET and Lacuna's clients write them).
 * Every malformed input is a {@link Invalid} naming the field.
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A body or field that is not what the API expects; the message is for the client. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    private final ObjectNode object;

    private Json(ObjectNode object) {
        this.object = object;
    }

    static Json parse(byte[] body) throws Invalid {
        if (body.length == 0) {
            throw new Invalid("the request body is empty; expected a JSON object");
        }
        JsonNode n;
        try {
            n = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new Invalid("the request body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new Invalid("the request body is not JSON: " + e.getMessage());
        }
        if (!(n instanceof ObjectNode o)) {
            throw new Invalid("the request body is not a JSON object");
        }
        return new Json(o);
    }

    /** Like {@link #parse}, but an empty body is an empty object (requests whose fields are all optional). */
    static Json parseOptional(byte[] body) throws Invalid {
        return body.length == 0 ? new Json(MAPPER.createObjectNode()) : parse(body);
    }

    private JsonNode field(String name) {
        JsonNode v = object.get(name);
        return v == null || v.isNull() ? null : v;
    }

    /** The string field, or null when absent or null. */
    String text(String name) throws Invalid {
        JsonNode v = field(name);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw new Invalid("field \"" + name + "\" must be a string");
        }
        return v.textValue();
    }

    /** The boolean field, or {@code defaultValue} when absent or null. */
    boolean bool(String name, boolean defaultValue) throws Invalid {
        JsonNode v = field(name);
        if (v == null) {
            return defaultValue;
        }
        if (!v.isBoolean()) {
            throw new Invalid("field \"" + name + "\" must be true or false");
        }
        return v.booleanValue();
    }

    /** A boolean the request must carry. */
    boolean requiredBool(String name) throws Invalid {
        if (field(name) == null) {
            throw new Invalid("missing field \"" + name + "\" (true or false)");
        }
        return bool(name, false);
    }

    /** A base64 field (standard or URL alphabet, padding optional), or null when absent, null or empty. */
    byte[] base64(String name) throws Invalid {
        String s = text(name);
        if (s == null || s.isEmpty()) {
            return null;
        }
        byte[] b = decodeBase64(s);
        if (b == null) {
            throw new Invalid("field \"" + name + "\" is not valid base64");
        }
        return b;
    }

    /** A UUID field, or null when absent or null. */
    UUID uuid(String name) throws Invalid {
        String s = text(name);
        if (s == null || s.isEmpty()) {
            return null;
        }
        try {
            return UUID.fromString(s.strip());
        } catch (IllegalArgumentException e) {
            throw new Invalid("field \"" + name + "\" is not a UUID: " + s);
        }
    }

    /** A nested object, or null when absent or null. */
    Json object(String name) throws Invalid {
        JsonNode v = field(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof ObjectNode o)) {
            throw new Invalid("field \"" + name + "\" must be an object");
        }
        return new Json(o);
    }

    /** Whether the field is a JSON object. */
    boolean isObject(String name) {
        return field(name) instanceof ObjectNode;
    }

    /** Whether the field is present and not null. */
    boolean has(String name) {
        return field(name) != null;
    }

    static byte[] decodeBase64(String s) {
        String t = s.strip();
        try {
            if (t.indexOf('-') >= 0 || t.indexOf('_') >= 0) {
                return Base64.getUrlDecoder().decode(t);
            }
            if (t.indexOf('\n') >= 0 || t.indexOf('\r') >= 0) {
                return Base64.getMimeDecoder().decode(t);
            }
            return Base64.getDecoder().decode(t);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
