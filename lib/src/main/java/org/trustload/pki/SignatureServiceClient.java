package org.trustload.pki;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import org.trustload.common.BoundedBody;
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

import static org.trustload.common.ClientException.connectFailure;
import static org.trustload.common.ClientException.readable;

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
        this(HttpClient.newBuilder().connectTimeout(Duration.ofMillis(connectTimeoutMs))
                .version(HttpClient.Version.HTTP_1_1).build(), baseUrl, responseTimeoutMs);
    }

    /** A client over a shared HTTP client (its owner's to close, e.g. a signature-server config's). */
    public SignatureServiceClient(HttpClient http, URI baseUrl, int responseTimeoutMs) {
        String b = baseUrl.toString();
        this.base = URI.create(b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
        this.responseTimeout = Duration.ofMillis(responseTimeoutMs);
        this.http = http;
    }

    /** The outcome of one remote signature: its steps, and the signature or the failure. */
    public static final class Signing {
        private final List<CertificateLoginClient.Step> steps = new java.util.ArrayList<>();
        private byte[] signature;
        private PkiException failure;

        /** {@code start}, {@code sign}, {@code complete}: as far as the flow got. */
        public List<CertificateLoginClient.Step> steps() {
            return java.util.Collections.unmodifiableList(steps);
        }

        /** The assembled signature, or null on failure. */
        public byte[] signature() {
            return signature;
        }

        /** Null when the signature was assembled. */
        public PkiException failure() {
            return failure;
        }

        public boolean ok() {
            return failure == null;
        }

        /** The signature, or the failure thrown. */
        public byte[] orThrow() throws PkiException {
            if (failure != null) {
                throw failure;
            }
            return signature;
        }
    }

    /**
     * The whole remote flow with the user's key: {@code start} (the server builds the to-be-signed
     * bytes), {@code sign} (the key signs them here, or on its token), {@code complete} (the server
     * assembles the signature). Never throws for what the server, the network or the key did: the
     * failed step carries it.
     *
     * @param flow {@code cades}, {@code cades-t}, {@code pades} or {@code pades-t}
     */
    public Signing sign(String flow, byte[] document, KeyMaterial key, String digest, boolean attached) {
        Signing s = new Signing();
        long t0 = System.currentTimeMillis();
        long n0 = System.nanoTime();
        Started started;
        try {
            started = start(flow, document, key.chain(), digest, attached);
            s.steps.add(new CertificateLoginClient.Step("start", t0, System.nanoTime() - n0, "token " + started.token(), null));
        } catch (PkiException e) {
            return failed(s, "start", t0, n0, e);
        }
        t0 = System.currentTimeMillis();
        n0 = System.nanoTime();
        byte[] value;
        try {
            value = key.sign(started.signatureAlgorithm(), started.toBeSigned());
            s.steps.add(new CertificateLoginClient.Step("sign", t0, System.nanoTime() - n0,
                    started.signatureAlgorithm() + " " + value.length + " bytes", null));
        } catch (PkiException e) {
            return failed(s, "sign", t0, n0, e);
        }
        t0 = System.currentTimeMillis();
        n0 = System.nanoTime();
        try {
            s.signature = complete(started.token(), value).signature();
            s.steps.add(new CertificateLoginClient.Step("complete", t0, System.nanoTime() - n0,
                    s.signature.length + " bytes", null));
        } catch (PkiException e) {
            return failed(s, "complete", t0, n0, e);
        }
        return s;
    }

    private static Signing failed(Signing s, String step, long t0, long n0, PkiException e) {
        s.steps.add(new CertificateLoginClient.Step(step, t0, System.nanoTime() - n0, e.getMessage(), e));
        s.failure = e;
        return s;
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
            // the request timeout stops at the headers; the body's deadline bounds the whole answer
            resp = http.send(req, BoundedBody.handler(http.connectTimeout().orElse(Duration.ZERO).plus(responseTimeout),
                    Integer.MAX_VALUE - 8));
        } catch (HttpConnectTimeoutException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server connect timed out", base + ": " + e, e);
        } catch (HttpTimeoutException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server did not answer in time",
                    base + path + ": " + e, e);
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
            throw new PkiException(PkiException.CONNECT_ERROR, "signature server " + (kind == null ? "connection failed" : kind),
                    base + ": " + readable(e), e);
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
