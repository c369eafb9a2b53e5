package org.trustload.kms;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The encryption context of Encrypt, Decrypt, ReEncrypt and GenerateDataKey calls, as one text a plan
 * stores (the KMS Request property {@code encryptionContext}). The data is bound into the ciphertext:
 * Decrypt must send the same context as Encrypt, or the service refuses it.
 *
 * <ul>
 *   <li>{@code aws-kms} reads it as a map ({@link #map()}, AWS's {@code EncryptionContext}): a JSON object
 *       of strings, {@code {"tenant":"a","purpose":"bench"}}, or {@code name=value} pairs separated by
 *       commas, {@code tenant=a,purpose=bench} (names and values trimmed; no comma or {@code =} inside).</li>
 *   <li>{@code aliyun-kms-instance} sends it as the {@code Aad} bytes ({@link #aad()}): the text's UTF-8
 *       bytes exactly as written, or, after a {@code base64:} prefix, the decoded bytes.</li>
 * </ul>
 * Empty text: no context, no AAD. Immutable; {@link #toString} shows only sizes (a context may be data).
 */
public final class EncryptionContext {
    /** No context. */
    public static final EncryptionContext NONE = new EncryptionContext("", Map.of(), null);
    /** The prefix that makes the rest of the text base64 AAD bytes. */
    public static final String BASE64_PREFIX = "base64:";
    /** Refuses duplicate names, which a map would silently drop. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private final String text;
    private final Map<String, String> map;
    /** Why {@link #text} is not a map, or null. */
    private final String mapError;

    private EncryptionContext(String text, Map<String, String> map, String mapError) {
        this.text = text;
        this.map = map;
        this.mapError = mapError;
    }

    /**
     * Reads a plan's text. Never fails: whether it is valid depends on the backend, which asks for
     * {@link #map()} or {@link #aad()} and gets the configuration error then.
     */
    public static EncryptionContext parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            return NONE;
        }
        try {
            return new EncryptionContext(t, Collections.unmodifiableMap(toMap(t)), null);
        } catch (IllegalArgumentException e) {
            return new EncryptionContext(t, Map.of(), e.getMessage());
        }
    }

    /** A context from name/value pairs (kept in the given order). */
    public static EncryptionContext of(Map<String, String> pairs) {
        if (pairs.isEmpty()) {
            return NONE;
        }
        try {
            return new EncryptionContext(JSON.writeValueAsString(pairs),
                    Collections.unmodifiableMap(new LinkedHashMap<>(pairs)), null);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Map<String, String> toMap(String t) {
        Map<String, String> out = new LinkedHashMap<>();
        if (t.startsWith("{")) {
            JsonNode n;
            try {
                n = JSON.readTree(t);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("not a JSON object: " + e.getOriginalMessage());
            }
            if (n == null || !n.isObject()) {
                throw new IllegalArgumentException("not a JSON object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isTextual()) {
                    throw new IllegalArgumentException("the value of '" + e.getKey() + "' is not a string");
                }
                put(out, e.getKey(), e.getValue().asText());
            }
            return out;
        }
        if (t.startsWith(BASE64_PREFIX)) {
            throw new IllegalArgumentException("base64: AAD bytes are not a name=value context");
        }
        for (String pair : t.split(",", -1)) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("'" + pair.trim() + "' is not name=value");
            }
            put(out, pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return out;
    }

    private static void put(Map<String, String> out, String name, String value) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a name is empty");
        }
        if (out.put(name, value) != null) {
            throw new IllegalArgumentException("'" + name + "' appears twice");
        }
    }

    /** Whether there is no context. */
    public boolean isEmpty() {
        return text.isEmpty();
    }

    /** The text as written in the plan (trimmed). */
    public String text() {
        return text;
    }

    /**
     * The name/value pairs (AWS's EncryptionContext), in the written order; empty for no context.
     *
     * @throws KmsException CONFIG_ERROR {@code BadEncryptionContext} when the text is neither JSON nor name=value pairs
     */
    public Map<String, String> map() throws KmsException {
        if (mapError != null) {
            throw KmsException.config("BadEncryptionContext", "encryptionContext",
                    "the encryption context must be a JSON object of "
                    + "strings or name=value pairs separated by commas: " + mapError);
        }
        return map;
    }

    /**
     * The AAD bytes (Alibaba's {@code Aad}): the UTF-8 text, or the bytes after {@value #BASE64_PREFIX}.
     *
     * @throws KmsException CONFIG_ERROR {@code BadEncryptionContext} for bad base64
     */
    public byte[] aad() throws KmsException {
        if (text.startsWith(BASE64_PREFIX)) {
            try {
                return Base64.getDecoder().decode(text.substring(BASE64_PREFIX.length()).trim());
            } catch (IllegalArgumentException e) {
                throw KmsException.config("BadEncryptionContext", "encryptionContext",
                        "the text after base64: is not base64");
            }
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EncryptionContext c && c.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    /** Sizes only. */
    @Override
    public String toString() {
        return isEmpty() ? "none" : mapError == null ? map.size() + " pairs" : text.length() + " chars";
    }
}
