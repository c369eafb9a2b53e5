package org.trustload.pki;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Client of a remote signature service with the start → client-sign → complete flow (the lab's
 * {@code /api/signatures} API): the server builds the to-be-signed bytes, the client signs them with
 * its own key, the server assembles the CAdES or PAdES signature. Thread-safe; one instance per
 * server is enough. Every call has connect and response timeouts.
 */
public final class SignatureServiceClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final Duration responseTimeout;
    private final HttpClient http;

    /** @param baseUrl e.g. {@code http://127.0.0.1:18080} (the API lives under {@code /api/signatures}) */
    public SignatureServiceClient(URI baseUrl, int connectTimeoutMs, int responseTimeoutMs) {
        String b = baseUrl.toString();
        this.base = URI.create(b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
        this.responseTimeout = Duration.ofMillis(responseTimeoutMs);
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(connectTimeoutMs))
                .version(HttpClient.Version.HTTP_1_1).build();
    }

    /** What the server answered to start: a single-use token and the bytes to sign. */
    public record Started(String token, byte[] toBeSigned, String signatureAlgorithm) {
    }

    /** The assembled signature: a CMS (CAdES) or a signed PDF (PAdES). */
    public record Completed(byte[] signature, String format) {
    }

    /**
     * Starts a signature.
     *
     * @param flow {@code cades}, {@code cades-t}, {@code pades} or {@code pades-t}
     */
    public Started start(String flow, byte[] document, List<X509Certificate> chain, String digest, boolean attached)
            throws PkiException {
        ObjectNode body = JSON.createObjectNode();
        body.put("document", Base64.getEncoder().encodeToString(document));
        try {
            body.put("certificate", Base64.getEncoder().encodeToString(chain.get(0).getEncoded()));
            var arr = body.putArray("chain");
            for (X509Certificate c : chain) {
                arr.add(Base64.getEncoder().encodeToString(c.getEncoded()));
            }
        } catch (CertificateEncodingException e) {
            throw new PkiException(PkiException.KEY_ERROR, "the signer certificate cannot be encoded", e);
        }
        body.put("digest", digest);
        body.put("attached", attached);
        JsonNode r = post("/api/signatures/" + flow.toLowerCase(Locale.ROOT) + "/start", body);
        String token = text(r, "token");
        return new Started(token, base64(r, "toBeSigned"), text(r, "signatureAlgorithm"));
    }

    /** Sends the signature value over {@link Started#toBeSigned()} and returns the assembled signature. */
    public Completed complete(String token, byte[] signatureValue) throws PkiException {
        ObjectNode body = JSON.createObjectNode();
        body.put("signature", Base64.getEncoder().encodeToString(signatureValue));
        JsonNode r = post("/api/signatures/" + token + "/complete", body);
        return new Completed(base64(r, "signature"), r.path("format").asText(""));
    }

    private JsonNode post(String path, JsonNode body) throws PkiException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).timeout(responseTimeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(write(body))).build();
        HttpResponse<byte[]> resp;
        try {
            resp = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server connect timed out", base + ": " + e, e);
        } catch (HttpTimeoutException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server did not answer in time",
                    base + path + ": " + e, e);
        } catch (ConnectException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server unreachable", base + ": " + e, e);
        } catch (IOException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server connection failed", base + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PkiException(PkiException.CONNECT_ERROR, "interrupted", base + path, e);
        }
        JsonNode json;
        try {
            json = JSON.readTree(resp.body());
        } catch (IOException e) {
            json = null;
        }
        if (resp.statusCode() != 200) {
            String code = json != null && json.hasNonNull("error") ? json.get("error").asText() : PkiException.SERVER_ERROR;
            String message = json != null && json.hasNonNull("message") ? json.get("message").asText()
                    : new String(resp.body(), java.nio.charset.StandardCharsets.UTF_8);
            throw new PkiException(code, "HTTP " + resp.statusCode() + " " + code,
                    path + ": " + truncate(message), null);
        }
        if (json == null || !json.isObject()) {
            throw new PkiException(PkiException.SERVER_ERROR, "signature server answer is not JSON",
                    path + ": " + truncate(new String(resp.body(), java.nio.charset.StandardCharsets.UTF_8)), null);
        }
        return json;
    }

    private static byte[] write(JsonNode body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(JsonNode r, String field) throws PkiException {
        JsonNode v = r.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new PkiException(PkiException.SERVER_ERROR, "signature server answer lacks '" + field + "'");
        }
        return v.asText();
    }

    private static byte[] base64(JsonNode r, String field) throws PkiException {
        try {
            return Base64.getDecoder().decode(text(r, field));
        } catch (IllegalArgumentException e) {
            throw new PkiException(PkiException.SERVER_ERROR, "signature server answer has bad base64 in '" + field + "'");
        }
    }

    private static String truncate(String s) {
        return s.length() > 500 ? s.substring(0, 500) + "…" : s;
    }
}
