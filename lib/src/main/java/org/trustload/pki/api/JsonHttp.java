package org.trustload.pki.api;

import static org.trustload.common.ClientException.connectFailure;
import static org.trustload.common.ClientException.readable;

import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import org.trustload.common.BoundedBody;
import org.trustload.pki.Flow;
import org.trustload.pki.PkiException;

/**
 * JSON over HTTP for the signature APIs: one request builder (base URL, the credential header, the
 * response timeout on headers and body), and one reading of the answer that tells apart what a user
 * fixes differently: no or a wrong credential (401/403), the product's own refusal with its error code
 * (read by the API's {@link ErrorReader}), a wrong base URL (404/405 without the product's error body: a
 * configuration error), a server failure (5xx), and a 2xx answer that is not the JSON the API publishes.
 * The credential never appears in a message. Thread-safe.
 */
public final class JsonHttp {
    /** Shared: Jackson's mapper is thread-safe once configured. */
    public static final ObjectMapper JSON = new ObjectMapper();
    /** The largest answer read (a signed PDF of tens of MiB, base64 in JSON). */
    static final int MAX_ANSWER = 256 << 20;

    /**
     * Reads a product's error body.
     */
    @FunctionalInterface
    public interface ErrorReader {
        /**
         * The product's refusal in {@code json} (null when the body is not JSON), or null when the body is
         * not one of the product's error bodies.
         *
         * @param tokenCall the call names a token or state the server issued: "not found" there means it expired
         */
        ProductError read(int status, JsonNode json, String text, boolean tokenCall);
    }

    /**
     * A refusal in the product's words.
     *
     * @param category the response code ({@link PkiException#REQUEST_REFUSED}, {@link PkiException#TOKEN_EXPIRED}, …)
     * @param code     the product's error code, shown in the stable message (e.g. {@code EntityNotFound})
     * @param text     the product's message and detail
     */
    public record ProductError(String category, String code, String text) {
    }

    /** A 2xx answer: its status and JSON body. */
    public record Answer(int status, JsonNode json) {
        /** A text field; {@link PkiException#BAD_RESPONSE} when absent or empty. */
        public String text(String field) throws PkiException {
            JsonNode v = json.get(field);
            if (v == null || !v.isTextual() || v.asText().isEmpty()) {
                throw new PkiException(PkiException.BAD_RESPONSE, "HTTP " + status + " answer lacks '" + field + "'",
                        truncate(json.toString()), null);
            }
            return v.asText();
        }

        /** A base64 field decoded; {@link PkiException#BAD_RESPONSE} when absent, empty or not base64. */
        public byte[] bytes(String field) throws PkiException {
            return decode(text(field), field, status);
        }

        /** A nested object; {@link PkiException#BAD_RESPONSE} when absent. */
        public Answer object(String field) throws PkiException {
            JsonNode v = json.get(field);
            if (v == null || !v.isObject()) {
                throw new PkiException(PkiException.BAD_RESPONSE, "HTTP " + status + " answer lacks '" + field + "'",
                        truncate(json.toString()), null);
            }
            return new Answer(status, v);
        }
    }

    private final HttpClient http;
    private final String base;
    private final Duration responseTimeout;
    private final String authHeader;
    private final String authValue;
    private final boolean hasCredential;
    private final SignatureApi api;
    private final ErrorReader errors;

    /**
     * @param authHeader the header carrying the credential ({@code Authorization} with a {@code Bearer }
     *                   prefix in {@code authPrefix}, or {@code X-Api-Key}); not sent when no credential is set
     */
    public JsonHttp(HttpClient http, ApiSettings settings, SignatureApi api, String authHeader, String authPrefix,
            ErrorReader errors) {
        this.http = http;
        String b = settings.baseUrl().toString();
        this.base = b.endsWith("/") ? b : b + "/";
        this.responseTimeout = settings.responseTimeout();
        this.hasCredential = settings.hasCredential();
        this.authHeader = authHeader;
        this.authValue = hasCredential ? authPrefix + settings.credential() : null;
        this.api = api;
        this.errors = errors;
    }

    /** The base URL, ending with '/'. */
    public String base() {
        return base;
    }

    /** POSTs {@code body} (null: an empty body) to {@code path} (relative to the base). */
    public Answer post(String path, JsonNode body, Flow flow, boolean tokenCall) throws PkiException {
        byte[] bytes;
        try {
            bytes = body == null ? new byte[0] : JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "request cannot be written", e);
        }
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(), "POST " + path, flow, tokenCall);
    }

    /** GETs {@code path} (relative to the base). */
    public Answer get(String path, Flow flow, boolean tokenCall) throws PkiException {
        return send(request(path).GET().build(), "GET " + path, flow, tokenCall);
    }

    private HttpRequest.Builder request(String path) throws PkiException {
        URI u;
        try {
            u = URI.create(base + path);
        } catch (IllegalArgumentException e) {
            throw PkiException.setting("serverUrl", "cannot form a request URL", base + path);
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(u).timeout(responseTimeout).header("Accept", "application/json");
        if (authValue != null) {
            b.header(authHeader, authValue);
        }
        return b;
    }

    private Answer send(HttpRequest req, String where, Flow flow, boolean tokenCall) throws PkiException {
        HttpResponse<byte[]> resp;
        try {
            // the request timeout stops at the headers; the body's deadline bounds the whole answer
            resp = http.send(req, BoundedBody.handler(http.connectTimeout().orElse(Duration.ZERO).plus(responseTimeout),
                    MAX_ANSWER));
        } catch (HttpConnectTimeoutException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server connect timed out",
                    base + ": " + e, e);
        } catch (HttpTimeoutException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server did not answer in time",
                    where + ": " + e.getMessage(), e);
        } catch (javax.net.ssl.SSLException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server TLS handshake failed",
                    base + ": " + readable(e), e);
        } catch (IOException e) {
            // refused, unknown host, no route: what a user fixes differently reads differently
            String kind = connectFailure(e);
            if (kind == null && e.getCause() instanceof javax.net.ssl.SSLException) {
                throw new PkiException(PkiException.CONNECT_ERROR, "signature server TLS handshake failed",
                        base + ": " + readable(e), e);
            }
            throw new PkiException(PkiException.CONNECT_ERROR,
                    "signature server " + (kind == null ? "connection failed" : kind),
                    base + ": " + readable(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PkiException(PkiException.CONNECT_ERROR, "interrupted", where, e);
        }
        int status = resp.statusCode();
        byte[] body = resp.body();
        // the start of the answer for the refusal rules; the whole text only for errors (a signed PDF in base64
        // decoded to a String per sample showed as the engine's extra allocation)
        flow.answer(status, new String(body, 0, Math.min(body.length, Flow.MAX_BODY_CHARS), StandardCharsets.UTF_8));
        JsonNode json;
        try {
            json = body.length == 0 ? null : JSON.readTree(body);
        } catch (IOException e) {
            json = null;
        }
        if (status >= 200 && status <= 299) {
            if (json == null || !json.isObject()) {
                throw new PkiException(PkiException.BAD_RESPONSE, "HTTP " + status + " answer is not JSON",
                        where + ": " + truncate(new String(body, StandardCharsets.UTF_8)), null);
            }
            return new Answer(status, json);
        }
        String text = new String(body, StandardCharsets.UTF_8);
        if (status == 401) {
            throw hasCredential
                    ? new PkiException(PkiException.CREDENTIAL_REFUSED, "HTTP 401 " + PkiException.CREDENTIAL_REFUSED,
                            where + ": the " + api.name()
                            + " API refused the credential (check the credential property)", null)
                    : new PkiException(PkiException.CREDENTIAL_MISSING, "HTTP 401 " + PkiException.CREDENTIAL_MISSING,
                            where + ": the " + api.name() + " API wants a credential (set the credential property)",
                            null);
        }
        if (status == 403) {
            throw new PkiException(PkiException.CREDENTIAL_REFUSED, "HTTP 403 " + PkiException.CREDENTIAL_REFUSED,
                    where + ": the credential lacks the permission for this call: " + truncate(text), null);
        }
        ProductError pe = errors.read(status, json, text, tokenCall);
        if (pe != null) {
            throw new PkiException(pe.category(), "HTTP " + status + " " + pe.code(),
                    where + ": " + truncate(pe.text()), null);
        }
        if (status == 404 || status == 405) {
            throw PkiException.setting("serverUrl", "no " + api.name() + " API at this URL (HTTP " + status + ")",
                    base + " (" + api.product() + "): " + where + " answered HTTP " + status + " "
                    + truncate(headline(text)));
        }
        if (status >= 500) {
            String h = headline(text);
            throw new PkiException(PkiException.SERVER_ERROR, "HTTP " + status + (h.isEmpty() ? "" : " " + h),
                    where + ": " + truncate(text), null);
        }
        throw new PkiException(PkiException.REQUEST_REFUSED, "HTTP " + status + " " + PkiException.REQUEST_REFUSED,
                where + ": " + truncate(text), null);
    }

    /**
     * The stable start of a server's error text for a response message: its first line up to the first
     * colon, quoted values elided, at most 80 characters (DSS answers {@code Cannot deserialize value of
     * type `…SignatureLevel` from String "X": not one of …}).
     */
    static String headline(String text) {
        String t = text == null ? "" : text.strip();
        if (t.startsWith("<")) {
            return ""; // an HTML error page says nothing stable
        }
        if (t.startsWith("{")) {
            try {
                t = JSON.readTree(t).path("message").asText("");
            } catch (IOException e) {
                return "";
            }
        }
        int nl = t.indexOf('\n');
        if (nl >= 0) {
            t = t.substring(0, nl);
        }
        // quoted values and bracketed ids vary per request (DSS: "Error on signature augmentation [S-07EB…]")
        t = t.replaceAll("\"[^\"]*\"", "\"…\"").replaceAll("\\s*\\[[^\\]]*\\]", "").strip();
        int colon = t.indexOf(": ");
        if (colon > 10) {
            t = t.substring(0, colon);
        }
        return t.length() > 80 ? t.substring(0, 80) + "…" : t;
    }

    static String truncate(String s) {
        return s.length() > 500 ? s.substring(0, 500) + "…" : s;
    }

    static byte[] decode(String b64, String field, int status) throws PkiException {
        try {
            return Base64.getDecoder().decode(b64);
        } catch (IllegalArgumentException e) {
            throw new PkiException(PkiException.BAD_RESPONSE,
                    "HTTP " + status + " answer has bad base64 in '" + field + "'",
                    truncate(b64), null);
        }
    }

    /** Base64 of a certificate's DER. */
    static String b64(X509Certificate c) throws PkiException {
        try {
            return Base64.getEncoder().encodeToString(c.getEncoded());
        } catch (CertificateEncodingException e) {
            throw new PkiException(PkiException.KEY_ERROR, "the certificate cannot be encoded", e);
        }
    }

    static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    /**
     * This thread's last document and its base64 as a JSON string: a plan signs the same document sample after sample.
     */
    private static final ThreadLocal<Object[]> LAST_DOCUMENT = new ThreadLocal<>();

    /**
     * Puts a document as a base64 JSON string: encoded, quoted and turned into UTF-8 again only when the
     * thread signs another array than last time. JFR: the base64 of the 140,576-byte sample PDF per sample was a
     * quarter of the API engine's own samples, and then Jackson's character-by-character escape check of that
     * string (which base64 never needs) a sixth of the CAdES Sign sampler's thread; written raw, it is one copy.
     */
    static void putDocument(ObjectNode node, String field, byte[] document) {
        Object[] last = LAST_DOCUMENT.get();
        if (last == null || last[0] != document) {
            SerializedString json = new SerializedString('"' + b64(document) + '"');
            json.asUnquotedUTF8(); // the bytes, once: writeRawValue copies them
            last = new Object[] {document, new RawValue(json)};
            LAST_DOCUMENT.set(last);
        }
        node.putRawValue(field, (RawValue) last[1]);
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }
}
