package org.trustload.pki.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpClient;
import org.trustload.pki.Flow;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;

/**
 * Lacuna Rest PKI Core's API as Lacuna's own Java client ({@code restpkicore-client} 1.4.0) calls it, with
 * {@code X-Api-Key: <key>}: the classic start bodies under {@code api/…} (PAdES's PDF as a FileModel), login by
 * a signed hash with {@code api/v2/authentication} (failure {@code StaleSession}: the state expired), timestamps
 * at {@code api/tsp/{identifier}}; errors and policies as the classic API. docs/elements/signature-server-config.md.
 */
public final class RestPkiCoreApi extends RestPkiApi {

    public RestPkiCoreApi() {
        super(SignatureApis.REST_PKI_CORE, "Lacuna Rest PKI Core, api/");
    }

    @Override
    public SignatureApiClient open(ApiSettings settings, HttpClient http) {
        return new Client(this, settings, new JsonHttp(http, settings, this, "X-Api-Key", "", Lacuna::error));
    }

    private static final class Client extends RestPkiApi.Client {
        Client(SignatureApi api, ApiSettings settings, JsonHttp http) {
            super(api, settings, http);
        }

        @Override
        String startPath(boolean pades) {
            return pades ? "api/pades-signatures" : "api/cades-signatures";
        }

        @Override
        String completePath(boolean pades, String token) {
            return startPath(pades) + "/" + token;
        }

        @Override
        void putDocument(ObjectNode body, SignRequest r) {
            if (r.pades()) {
                ObjectNode file = body.putObject("pdfToSign");
                JsonHttp.putDocument(file, "content", r.document());
                file.put("mimeType", "application/pdf");
            } else {
                super.putDocument(body, r);
            }
        }

        @Override
        String timestampPath(String plan) {
            return "api/tsp/" + plan;
        }

        @Override
        public Flow login(KeyMaterial key) {
            Flow f = new Flow();
            try {
                ObjectNode prepare = JsonHttp.object();
                if (!settings.securityContext().isEmpty()) {
                    prepare.put("securityContextId", settings.securityContext());
                }
                JsonHttp.Answer prepared = f.step("prepare",
                        () -> http.post("api/v2/authentication/", prepare, f, false),
                        a -> "state issued");
                String state = prepared.text("state");
                JsonHttp.Answer hash = prepared.object("toSignHash");
                String digest = Lacuna.digestForName(hash.text("algorithm"));
                byte[] signature = f.step("sign", () -> key.signHash(digest, hash.bytes("value")),
                        s -> digest + " hash, " + s.length + " bytes");
                ObjectNode complete = JsonHttp.object();
                complete.put("state", state);
                complete.put("certificate", JsonHttp.b64(key.certificate()));
                complete.put("signature", JsonHttp.b64(signature));
                JsonHttp.Answer a = f.step("complete", () -> checkSuccess(http.post("api/v2/authentication/completion/",
                        complete, f, true), f), x -> "success " + Lacuna.subject(x.json().path("certificate")));
                f.subject(Lacuna.subject(a.json().path("certificate")));
                f.done(null, "login OK");
            } catch (PkiException e) {
                if (f.ok()) {
                    f.fail(e);
                }
            }
            return f;
        }

        /**
         * {@code success: false} is the server's refusal: {@code StaleSession} (expired state) or failed validation.
         */
        private static JsonHttp.Answer checkSuccess(JsonHttp.Answer a, Flow f) throws PkiException {
            JsonNode success = a.json().get("success");
            if (success != null && success.asBoolean(false)) {
                return a;
            }
            String failure = a.json().path("failure").asText("");
            if (failure.equals("StaleSession")) {
                throw new PkiException(PkiException.TOKEN_EXPIRED, "login refused: StaleSession",
                        "the authentication state expired or was used already", null);
            }
            checkValidation(a, f);
            throw new PkiException(PkiException.LOGIN_REFUSED,
                    "login refused: " + (failure.isEmpty() ? "success false" : failure),
                    JsonHttp.truncate(a.json().toString()), null);
        }
    }
}
