package org.trustload.pki.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.trustload.pki.Flow;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;
import org.trustload.pki.TimestampClient;

/**
 * EU DSS's REST services (DSS 6.4, under a base such as {@code http://host:8080/services/rest}): one-document
 * getDataToSign → the client signs → signDocument, server-held keys ({@code server-signing}), and the timestamp
 * service; levels, digests and algorithms in DSS's own enum names. DSS is stateless: the second call resends the
 * document and the same parameters, signing date included ({@code blevelParams.signingDate}, that spelling).
 * Routes, errors and what DSS does not check: docs/elements/signature-server-config.md and cades-sign.md.
 */
public final class DssApi implements SignatureApi {
    /** DSS 6.4's CAdES and PAdES {@code SignatureLevel} names (the server refuses others with HTTP 500). */
    static final Set<String> CADES_LEVELS = Set.of("CAdES_BASELINE_B", "CAdES_BASELINE_T", "CAdES_BASELINE_LT",
            "CAdES_BASELINE_LTA", "CAdES_BES", "CAdES_EPES", "CAdES_T", "CAdES_LT", "CAdES_C", "CAdES_X", "CAdES_XL",
            "CAdES_A", "PKCS7_B", "PKCS7_T", "PKCS7_LT", "PKCS7_LTA", "CMS_NOT_ETSI");
    static final Set<String> PADES_LEVELS = Set.of("PAdES_BASELINE_B", "PAdES_BASELINE_T", "PAdES_BASELINE_LT",
            "PAdES_BASELINE_LTA", "PAdES_BES", "PAdES_EPES", "PAdES_LTV", "PDF_NOT_ETSI");

    @Override
    public String name() {
        return SignatureApis.DSS;
    }

    @Override
    public String product() {
        return "EU DSS REST services";
    }

    @Override
    public Set<Feature> features() {
        return EnumSet.of(Feature.CADES, Feature.PADES, Feature.LEVEL_T, Feature.SERVER_KEYS, Feature.TIMESTAMP);
    }

    /**
     * The DSS signature level for a request: {@code policy} when given (checked against DSS's names for the
     * format), else {@code CAdES_BASELINE_B|T} or {@code PAdES_BASELINE_B|T}.
     *
     * @throws PkiException {@code configError} about {@code signaturePolicy} for a name DSS does not have
     */
    public static String level(String format, boolean timestamped, String policy) throws PkiException {
        boolean pades = format.equalsIgnoreCase("pades");
        if (policy == null || policy.isBlank()) {
            return (pades ? "PAdES" : "CAdES") + "_BASELINE_" + (timestamped ? "T" : "B");
        }
        String p = policy.trim();
        if (!(pades ? PADES_LEVELS : CADES_LEVELS).contains(p)) {
            throw PkiException.setting("signaturePolicy", "DSS has no " + (pades ? "PAdES" : "CAdES")
                    + " signature level '" + p + "' (e.g. " + (pades ? "PAdES" : "CAdES")
                    + "_BASELINE_B, _T, _LT, _LTA)");
        }
        return p;
    }

    @Override
    public String signaturePolicy(String format, boolean timestamped, String policy) throws PkiException {
        return level(format, timestamped, policy);
    }

    @Override
    public SignatureApiClient open(ApiSettings settings, HttpClient http) {
        return new Client(this, new JsonHttp(http, settings, this, "Authorization", "Bearer ", DssApi::error));
    }

    /** DSS answers a failure with HTTP 500 and the message as the body: no error code of its own. */
    private static JsonHttp.ProductError error(int status, JsonNode json, String text, boolean tokenCall) {
        return null;
    }

    /** DSS's {@code DigestAlgorithm} name: {@code SHA256}. */
    static String digest(String jca) {
        return jca.toUpperCase(Locale.ROOT).replace("-", "");
    }

    private static final class Client implements SignatureApiClient {
        private final DssApi api;
        private final JsonHttp http;
        /** Server-held keys' chains by alias, read once. */
        private final ConcurrentHashMap<String, List<X509Certificate>> serverKeys = new ConcurrentHashMap<>();

        Client(DssApi api, JsonHttp http) {
            this.api = api;
            this.http = http;
        }

        @Override
        public SignatureApi api() {
            return api;
        }

        @Override
        public Flow sign(SignRequest r) {
            Flow f = new Flow();
            try {
                String level = r.policy().isEmpty() ? level(r.format(), r.timestamped(), "") : r.policy();
                String digest = digest(r.digest());
                List<X509Certificate> chain = r.serverSigns() ? serverChain(r.serverKey(), f) : r.key().chain();
                ObjectNode parameters = parameters(r, level, digest, chain);
                ObjectNode document = JsonHttp.object();
                JsonHttp.putDocument(document, "bytes", r.document());
                document.put("name", r.pades() ? "document.pdf" : "document");
                ObjectNode request = JsonHttp.object();
                request.set("parameters", parameters);
                request.set("toSignDocument", document);
                byte[] toSign = f.step("getDataToSign", () -> http.post("signature/one-document/getDataToSign", request,
                        f, false).bytes("bytes"), b -> b.length + " bytes to sign");
                ObjectNode value = f.step("sign", () -> r.serverSigns() ? serverSign(r.serverKey(), digest, toSign, f)
                        : clientSign(r.key(), r.digest(), toSign), v -> v.path("algorithm").asText() + " "
                        + v.path("value").asText().length() * 3 / 4 + " bytes"
                        + (r.serverSigns() ? " by the server" : ""));
                request.set("signatureValue", value);
                byte[] signed = f.step("signDocument", () -> http.post("signature/one-document/signDocument", request,
                        f, false).bytes("bytes"), b -> level + " " + b.length + " bytes");
                f.done(signed, r.label() + " " + signed.length + " bytes (" + level + ")");
            } catch (PkiException e) {
                if (f.ok()) {
                    f.fail(e); // refused before any step (a level DSS has not)
                }
            }
            return f;
        }

        private static ObjectNode parameters(SignRequest r, String level, String digest, List<X509Certificate> chain)
                throws PkiException {
            ObjectNode p = JsonHttp.object();
            p.putObject("signingCertificate").put("encodedCertificate", JsonHttp.b64(chain.get(0)));
            ArrayNode c = p.putArray("certificateChain");
            for (X509Certificate x : chain) {
                c.addObject().put("encodedCertificate", JsonHttp.b64(x));
            }
            p.put("signatureLevel", level);
            p.put("signaturePackaging", r.pades() ? "ENVELOPED" : r.attached() ? "ENVELOPING" : "DETACHED");
            p.put("digestAlgorithm", digest);
            // the same date in both calls (DSS is stateless), whole seconds as CMS signing-time keeps them
            p.putObject("blevelParams").put("signingDate", System.currentTimeMillis() / 1000 * 1000);
            return p;
        }

        private static ObjectNode clientSign(KeyMaterial key, String digest, byte[] toSign) throws PkiException {
            if (!key.keyAlgorithm().equals("EC") && !key.keyAlgorithm().equals("RSA")) {
                throw new PkiException(PkiException.CONFIG_ERROR,
                        "DSS signs with RSA or ECDSA keys, not " + key.keyAlgorithm());
            }
            String jca = key.signatureAlgorithm(digest); // SHA256withECDSA: DSS names it ECDSA_SHA256
            int with = jca.indexOf("with");
            ObjectNode v = JsonHttp.object();
            v.put("algorithm", jca.substring(with + 4) + "_" + jca.substring(0, with));
            v.put("value", JsonHttp.b64(key.sign(jca, toSign)));
            return v;
        }

        private ObjectNode serverSign(String alias, String digest, byte[] toSign, Flow f) throws PkiException {
            ObjectNode body = JsonHttp.object();
            body.put("bytes", JsonHttp.b64(toSign));
            JsonHttp.Answer a = http.post("server-signing/sign/" + alias + "/" + digest, body, f, false);
            a.text("algorithm");
            a.bytes("value");
            return (ObjectNode) a.json();
        }

        /** The chain of a server-held key, asked once per alias ({@code GET server-signing/key/{alias}}). */
        private List<X509Certificate> serverChain(String alias, Flow f) throws PkiException {
            List<X509Certificate> chain = serverKeys.get(alias);
            if (chain == null) {
                chain = f.step("key", () -> readKey(alias, f), c -> c.get(0).getSubjectX500Principal().getName());
                serverKeys.putIfAbsent(alias, chain);
            }
            return chain;
        }

        private List<X509Certificate> readKey(String alias, Flow f) throws PkiException {
            JsonHttp.Answer a;
            try {
                a = http.get("server-signing/key/" + alias, f, false);
            } catch (PkiException e) {
                if (e.category().equals(PkiException.BAD_RESPONSE)) {
                    // DSS answers an alias it does not hold with HTTP 200 and no key
                    throw PkiException.setting("serverKeyAlias", "DSS holds no key '" + alias + "'", e.detail());
                }
                throw e;
            }
            List<X509Certificate> chain = new ArrayList<>();
            chain.add(certificate(a.object("certificate").bytes("encodedCertificate")));
            JsonNode rest = a.json().path("certificateChain");
            for (JsonNode n : rest) {
                X509Certificate x = certificate(new JsonHttp.Answer(a.status(), n).bytes("encodedCertificate"));
                if (!x.equals(chain.get(0))) {
                    chain.add(x);
                }
            }
            return chain;
        }

        private static X509Certificate certificate(byte[] der) throws PkiException {
            try {
                return (X509Certificate) CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(der));
            } catch (CertificateException e) {
                throw new PkiException(PkiException.BAD_RESPONSE, "the server key's certificate cannot be read", e);
            }
        }

        @Override
        public Flow login(KeyMaterial key) {
            return new Flow().fail(PkiException.setting("method",
                    "the dss API has no certificate login (DSS offers none): use mtls"));
        }

        @Override
        public Flow timestamp(byte[] imprint, String digest, String plan) {
            Flow f = new Flow();
            try {
                ObjectNode body = JsonHttp.object();
                body.put("algorithm", digest(digest));
                body.put("value", JsonHttp.b64(imprint));
                byte[] token = f.step("getTimestampResponse", () -> http.post("timestamp-service/getTimestampResponse",
                        body, f, false).bytes("binaries"), t -> t.length + "-byte token");
                TimestampClient.Granted g = TimestampClient.granted(token, imprint, digest,
                        http.base() + "timestamp-service");
                f.done(token, g.summary());
            } catch (PkiException e) {
                if (f.ok()) {
                    f.fail(e);
                }
            }
            return f;
        }
    }
}
