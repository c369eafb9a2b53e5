package org.trustload.lab.pki;

import com.unboundid.util.json.JSONArray;
import com.unboundid.util.json.JSONBoolean;
import com.unboundid.util.json.JSONException;
import com.unboundid.util.json.JSONObject;
import com.unboundid.util.json.JSONString;
import com.unboundid.util.json.JSONValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Request parsing (UnboundID's JSON parser, already on the class path through the lib) and a small
 * writer for the flat answers of the API. Every failure is an {@link ApiException} with status 400.
 */
final class Json {
    private final JSONObject object;

    private Json(JSONObject object) {
        this.object = object;
    }

    static Json parse(byte[] body) throws ApiException {
        if (body.length == 0) {
            throw ApiException.badRequest("the request body is empty; expected a JSON object");
        }
        try {
            return new Json(new JSONObject(new String(body, StandardCharsets.UTF_8)));
        } catch (JSONException e) {
            throw ApiException.badRequest("the request body is not a JSON object: " + e.getMessage());
        }
    }

    String string(String name, String defaultValue) throws ApiException {
        JSONValue v = object.getField(name);
        if (v == null || v instanceof com.unboundid.util.json.JSONNull) {
            if (defaultValue == null) {
                throw ApiException.badRequest("missing field \"" + name + "\"");
            }
            return defaultValue;
        }
        if (!(v instanceof JSONString s)) {
            throw ApiException.badRequest("field \"" + name + "\" must be a string");
        }
        return s.stringValue();
    }

    boolean bool(String name, boolean defaultValue) throws ApiException {
        JSONValue v = object.getField(name);
        if (v == null || v instanceof com.unboundid.util.json.JSONNull) {
            return defaultValue;
        }
        if (!(v instanceof JSONBoolean b)) {
            throw ApiException.badRequest("field \"" + name + "\" must be true or false");
        }
        return b.booleanValue();
    }

    boolean requiredBool(String name) throws ApiException {
        JSONValue v = object.getField(name);
        if (v == null || v instanceof com.unboundid.util.json.JSONNull) {
            throw ApiException.badRequest("missing field \"" + name + "\" (true or false)");
        }
        return bool(name, false);
    }

    /** Decodes a base64 field (standard or URL alphabet, padding optional, MIME line breaks allowed). */
    byte[] base64(String name, String errorCode, int status) throws ApiException {
        String s = string(name, null);
        byte[] b = decodeBase64(s);
        if (b == null) {
            throw new ApiException(status, errorCode, "field \"" + name + "\" is not valid base64");
        }
        if (b.length == 0) {
            throw new ApiException(status, errorCode, "field \"" + name + "\" is empty");
        }
        return b;
    }

    /** Each element of an optional array of base64 strings; empty when the field is absent. */
    List<byte[]> base64Array(String name, String errorCode, int status) throws ApiException {
        JSONValue v = object.getField(name);
        List<byte[]> out = new ArrayList<>();
        if (v == null || v instanceof com.unboundid.util.json.JSONNull) {
            return out;
        }
        if (!(v instanceof JSONArray a)) {
            throw ApiException.badRequest("field \"" + name + "\" must be an array of base64 strings");
        }
        for (JSONValue e : a.getValues()) {
            byte[] b = e instanceof JSONString s ? decodeBase64(s.stringValue()) : null;
            if (b == null || b.length == 0) {
                throw new ApiException(status, errorCode, "an element of \"" + name + "\" is not valid base64");
            }
            out.add(b);
        }
        return out;
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

    /**
     * Writes a flat object: values are strings, numbers, booleans or byte arrays (as standard
     * base64). Strings are escaped per RFC 8259.
     */
    static byte[] write(Map<String, ?> fields) {
        StringBuilder sb = new StringBuilder(256);
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, ?> e : fields.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            quote(sb, e.getKey());
            sb.append(':');
            Object v = e.getValue();
            if (v == null) {
                sb.append("null");
            } else if (v instanceof byte[] b) {
                sb.append('"').append(Base64.getEncoder().encodeToString(b)).append('"');
            } else if (v instanceof Number || v instanceof Boolean) {
                sb.append(v);
            } else {
                quote(sb, v.toString());
            }
        }
        sb.append('}');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
