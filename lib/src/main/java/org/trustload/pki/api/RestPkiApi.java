package org.trustload.pki.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpClient;
import java.util.EnumSet;
import java.util.Set;
import org.trustload.pki.Flow;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;
import org.trustload.pki.TimestampClient;

/**
 * Lacuna Rest PKI's classic API (1.x, the API of the published study) as its openapi document and Lacuna's Java
 * clients publish it, with {@code Authorization: Bearer <token>}: CAdES and PAdES start → the client signs →
 * {@code SignedBytes}, login by a signed nonce, timestamps, errors as 422 {@code {code, message, detail,
 * validationResults}} ({@link Lacuna#error}). Routes and fields: docs/elements/signature-server-config.md.
 */
public class RestPkiApi implements SignatureApi {
    /** How both Rest PKI APIs' error bodies read (for callers of {@link JsonHttp} on Rest PKI routes). */
    public static final JsonHttp.ErrorReader ERRORS = Lacuna::error;

    private final String name;
    private final String product;

    public RestPkiApi() {
        this(SignatureApis.REST_PKI, "Lacuna Rest PKI, classic /Api");
    }

    RestPkiApi(String name, String product) {
        this.name = name;
        this.product = product;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String product() {
        return product;
    }

    @Override
    public Set<Feature> features() {
        return EnumSet.of(Feature.CADES, Feature.PADES, Feature.LEVEL_T, Feature.LOGIN, Feature.TIMESTAMP);
    }

    @Override
    public String signaturePolicy(String format, boolean timestamped, String policy) throws PkiException {
        return Lacuna.policy(format, timestamped, policy);
    }

    @Override
    public SignatureApiClient open(ApiSettings settings, HttpClient http) {
        return new Client(this, settings,
                new JsonHttp(http, settings, this, "Authorization", "Bearer ", Lacuna::error));
    }

    /** The classic client; {@link RestPkiCoreApi} differs in its routes, bodies and login. */
    static class Client implements SignatureApiClient {
        final SignatureApi api;
        final ApiSettings settings;
        final JsonHttp http;

        Client(SignatureApi api, ApiSettings settings, JsonHttp http) {
            this.api = api;
            this.settings = settings;
            this.http = http;
        }

        @Override
        public SignatureApi api() {
            return api;
        }

        /** The route that starts a signature. */
        String startPath(boolean pades) {
            return pades ? "Api/PadesSignatures" : "Api/CadesSignatures";
        }

        /** The route that completes one. */
        String completePath(boolean pades, String token) {
            return startPath(pades) + "/" + token + "/SignedBytes";
        }

        /** The document in the start body: classic sends the PDF as base64 bytes. */
        void putDocument(ObjectNode body, SignRequest r) {
            if (r.pades()) {
                JsonHttp.putDocument(body, "pdfToSign", r.document());
            } else {
                JsonHttp.putDocument(body, "contentToSign", r.document());
                body.put("encapsulateContent", r.attached());
            }
        }

        @Override
        public Flow sign(SignRequest r) {
            Flow f = new Flow();
            try {
                if (r.serverSigns()) {
                    throw PkiException.setting("mode",
                            "the " + api.name() + " API has no server-held keys: use mode remote");
                }
                ObjectNode body = JsonHttp.object();
                putDocument(body, r);
                body.put("certificate", JsonHttp.b64(r.key().certificate()));
                body.put("signaturePolicyId", r.policy().isEmpty()
                        ? Lacuna.policy(r.format(), r.timestamped(), "") : r.policy());
                if (!settings.securityContext().isEmpty()) {
                    body.put("securityContextId", settings.securityContext());
                }
                JsonHttp.Answer started = f.step("start", () -> http.post(startPath(r.pades()), body, f, false),
                        a -> "token " + a.json().path("token").asText());
                String token = started.text("token");
                byte[] signature = f.step("sign", () -> Lacuna.signStarted(r.key(), started),
                        s -> started.json().path("digestAlgorithmOid").asText() + " " + s.length + " bytes");
                ObjectNode signed = JsonHttp.object();
                signed.put("signature", JsonHttp.b64(signature));
                String field = r.pades() ? "signedPdf" : "cms";
                byte[] result = f.step("complete", () -> http.post(completePath(r.pades(), token), signed, f, true)
                        .bytes(field), b -> b.length + " bytes");
                f.done(result, r.label() + " " + result.length + " bytes");
            } catch (PkiException e) {
                if (f.ok()) {
                    f.fail(e);
                }
            }
            return f;
        }

        @Override
        public Flow login(KeyMaterial key) {
            Flow f = new Flow();
            try {
                String nonce = f.step("start", () -> http.get("Api/Authentication", f, false).text("nonce"),
                        n -> n.length() * 3 / 4 + "-byte nonce");
                byte[] signature = f.step("sign", () -> key.sign(key.signatureAlgorithm("SHA-256"),
                        JsonHttp.decode(nonce, "nonce", 200)),
                        s -> key.signatureAlgorithm("SHA-256") + " " + s.length + " bytes");
                ObjectNode body = JsonHttp.object();
                body.put("nonce", nonce);
                body.put("certificate", JsonHttp.b64(key.certificate()));
                body.put("signature", JsonHttp.b64(signature));
                if (!settings.securityContext().isEmpty()) {
                    body.put("securityContextId", settings.securityContext());
                }
                JsonHttp.Answer a = f.step("complete",
                        () -> checkValidation(http.post("Api/Authentication", body, f, true), f),
                        x -> "valid " + Lacuna.subject(x.json().path("certificate")));
                f.subject(Lacuna.subject(a.json().path("certificate")));
                f.done(null, "login OK");
            } catch (PkiException e) {
                if (f.ok()) {
                    f.fail(e);
                }
            }
            return f;
        }

        /** A 200 login answer whose validationResults hold errors is the server's refusal. */
        static JsonHttp.Answer checkValidation(JsonHttp.Answer a, Flow f) throws PkiException {
            var results = a.json().path("validationResults");
            String type = Lacuna.firstError(results);
            if (!type.isEmpty() || results.path("errors").size() > 0) {
                f.subject(Lacuna.subject(a.json().path("certificate")));
                String category = Lacuna.validationCategory(type);
                throw new PkiException(category.equals(PkiException.REQUEST_REFUSED)
                        ? PkiException.LOGIN_REFUSED : category,
                        "login refused: " + (type.isEmpty() ? "validation errors" : type),
                        Lacuna.summary(results), null);
            }
            return a;
        }

        /** The timestamp route for a plan. */
        String timestampPath(String plan) {
            return "Api/TimestampPlans/" + plan + "/Issue";
        }

        @Override
        public Flow timestamp(byte[] imprint, String digest, String plan) {
            Flow f = new Flow();
            try {
                if (plan == null || plan.isBlank()) {
                    throw PkiException.setting("timestampPlan",
                            "is empty: Rest PKI issues timestamps per timestamp plan");
                }
                ObjectNode body = JsonHttp.object();
                body.put("algorithm", Lacuna.digestName(digest));
                body.put("value", JsonHttp.b64(imprint));
                byte[] token = f.step("issue", () -> http.post(timestampPath(plan.trim()), body, f, false)
                        .bytes("encodedValue"), t -> t.length + "-byte token");
                f.done(token, TimestampClient.granted(token, imprint, digest, http.base() + timestampPath(plan.trim()))
                        .summary());
            } catch (PkiException e) {
                if (f.ok()) {
                    f.fail(e);
                }
            }
            return f;
        }
    }
}
