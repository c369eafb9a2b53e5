package org.trustload.lab.pki;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;

/**
 * Plain HTTP requests to the lab's Rest PKI routes, built from Lacuna's API description
 * ({@code dist/api/openapi.yaml} of LacunaSoftware/RestPkiJavaClient): there is no classic Java client on
 * Maven Central, so the classic API is tested this way (the Core API also with Lacuna's own client, in
 * {@link LacunaRestPkiCoreClientIT}).
 */
final class RestPkiHttp {
    static final ObjectMapper JSON = new ObjectMapper();

    /** How a request presents the lab's credential. */
    enum Auth {
        /** Classic: {@code Authorization: Bearer}. */
        BEARER,
        /** Core: {@code X-Api-Key}. */
        API_KEY,
        NONE
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String credential;

    RestPkiHttp(Map<String, String> labProperties) {
        this.base = labProperties.get("pki.url");
        this.credential = labProperties.get("pki.credential");
    }

    HttpResponse<byte[]> get(String path, Auth auth) throws Exception {
        return send(request(path, auth, credential).GET().build());
    }

    HttpResponse<byte[]> post(String path, Auth auth, String json) throws Exception {
        return post(path, auth, credential, json);
    }

    HttpResponse<byte[]> post(String path, Auth auth, String presented, String json) throws Exception {
        return send(request(path, auth, presented).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)).build());
    }

    HttpResponse<byte[]> method(String method, String path, Auth auth) throws Exception {
        return send(request(path, auth, credential).method(method, HttpRequest.BodyPublishers.noBody()).build());
    }

    private HttpRequest.Builder request(String path, Auth auth, String presented) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        return switch (auth) {
            case BEARER -> b.header("Authorization", "Bearer " + presented);
            case API_KEY -> b.header("X-Api-Key", presented);
            case NONE -> b;
        };
    }

    /**
     * Sends once more if the pooled keep-alive connection had just been closed by the server ("header
     * parser received no bytes": no answer at all, so nothing was processed).
     */
    private HttpResponse<byte[]> send(HttpRequest request) throws Exception {
        return send(http, request);
    }

    /** {@link HttpClient#send} with the retry above, for every test of the pki service. */
    static HttpResponse<byte[]> send(HttpClient http, HttpRequest request) throws Exception {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (java.io.IOException e) {
            if (String.valueOf(e.getMessage()).contains("received no bytes")) {
                return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            }
            throw e;
        }
    }

    /** The JSON body of an answer with the given status. */
    static JsonNode json(HttpResponse<byte[]> r, int status) throws Exception {
        assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(r.headers().firstValue("X-TrustLoad-Cpu-Us")).isPresent();
        return JSON.readTree(r.body());
    }

    /** A 422 with Lacuna's error body: exactly {@code code, message, detail, validationResults}. */
    static JsonNode apiError(HttpResponse<byte[]> r, String code) throws Exception {
        JsonNode e = json(r, 422);
        assertThat(e.get("code").asText()).isEqualTo(code);
        assertThat(e.get("message").asText()).isNotBlank();
        assertThat(iterable(e.fieldNames())).containsExactly("code", "message", "detail", "validationResults");
        return e;
    }

    /** A plain error ({@code {message}}) with the given status. */
    static void plainError(HttpResponse<byte[]> r, int status) throws Exception {
        JsonNode e = json(r, status);
        assertThat(e.get("message").asText()).isNotBlank();
    }

    /** The types of the errors of validation results. */
    static java.util.List<String> errorTypes(JsonNode validationResults) {
        java.util.List<String> out = new java.util.ArrayList<>();
        validationResults.get("errors").forEach(i -> out.add(i.get("type").asText()));
        return out;
    }

    private static final Map<String, Map<String, KeyMaterial>> KEYS = new ConcurrentHashMap<>();

    /**
     * A user's key from the lab's {@code pki.keystore}, the whole store opened once per store (opening it
     * for every key parses 1000 entries each time: seconds on a loaded machine).
     */
    static KeyMaterial key(Map<String, String> labProperties, String alias) throws Exception {
        String file = labProperties.get("pki.keystore");
        Map<String, KeyMaterial> keys = KEYS.get(file);
        if (keys == null) {
            keys = new ConcurrentHashMap<>();
            for (KeyMaterial k : KeySource.pkcs12(Path.of(file),
                    labProperties.get("pki.keystore.password").toCharArray(),
                    List.of()).load()) {
                keys.put(k.alias(), k);
            }
            KEYS.put(file, keys);
        }
        KeyMaterial k = keys.get(alias);
        assertThat(k).as("key " + alias + " in " + file).isNotNull();
        return k;
    }

    static byte[] bytes(JsonNode n, String field) {
        return Base64.getDecoder().decode(n.get(field).asText());
    }

    static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    static <T> java.util.List<T> iterable(java.util.Iterator<T> it) {
        java.util.List<T> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
