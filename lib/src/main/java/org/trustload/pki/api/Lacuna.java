package org.trustload.pki.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.UUID;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;

/**
 * What Lacuna Rest PKI's two APIs (classic {@code /Api/…} and Core {@code api/…}) share: the standard
 * signature policy ids, the error body ({@code 422 {code, message, detail, validationResults}},
 * {@code 404 {message, resourceName, resourceId}}, other statuses {@code {message}}), the validation
 * results and the signing of what the server returns ({@code toSignData} with the digest its
 * {@code digestAlgorithmOid} names, or the bare {@code toSignHash}).
 */
final class Lacuna {
    /** StandardSignaturePolicies of Lacuna's clients: CAdES-BES. */
    static final String CADES_BES = "a4522485-c9e5-46c3-950b-0d6e951e17d1";
    /** PAdES basic. */
    static final String PADES_BASIC = "78d20b33-014d-440e-ad07-929f05d00cdf";
    /** ICP-Brasil AD-RT: CAdES with a signature timestamp (the standard policy of that level). */
    static final String CADES_T = "a5332ad1-d105-447c-a4bb-b5d02177e439";
    /** PAdES-T (with ICP-Brasil certificates in Lacuna's catalogue). */
    static final String PADES_T = "6a39aeea-a2d0-4754-bf8c-19da15296ddb";

    private Lacuna() {
    }

    /**
     * The signature policy id for a request: {@code policy} when given (it must be a UUID), else the
     * standard policy of the format and level.
     *
     * @throws PkiException {@code configError} about {@code signaturePolicy} for a value that is no UUID
     */
    static String policy(String format, boolean timestamped, String policy) throws PkiException {
        boolean pades = format.equalsIgnoreCase("pades");
        if (policy == null || policy.isBlank()) {
            return pades ? (timestamped ? PADES_T : PADES_BASIC) : (timestamped ? CADES_T : CADES_BES);
        }
        String p = policy.trim();
        try {
            UUID.fromString(p);
        } catch (IllegalArgumentException e) {
            throw PkiException.setting("signaturePolicy",
                    "a Rest PKI signature policy is an id (a UUID), not '" + p + "'");
        }
        return p.toLowerCase(Locale.ROOT);
    }

    /** Reads Lacuna's error bodies (the same in both APIs and in Lacuna's own clients). */
    static JsonHttp.ProductError error(int status, JsonNode json, String text, boolean tokenCall) {
        if (json == null || !json.isObject()) {
            return null;
        }
        String message = json.path("message").asText("");
        String detail = json.path("detail").asText("");
        String both = detail.isEmpty() ? message : message + " (" + detail + ")";
        if (status == 422 && json.hasNonNull("code")) {
            String code = json.path("code").asText();
            if (code.equals("ValidationError")) {
                String type = firstError(json.path("validationResults"));
                return new JsonHttp.ProductError(validationCategory(type), code + (type.isEmpty() ? "" : " " + type),
                        both + "; " + summary(json.path("validationResults")));
            }
            boolean expired = code.equals("InvalidToken") || (tokenCall && code.equals("EntityNotFound"));
            return new JsonHttp.ProductError(expired ? PkiException.TOKEN_EXPIRED
                    : PkiException.REQUEST_REFUSED, code, both);
        }
        if (status == 404 && !json.hasNonNull("resourceName")) {
            return null; // no such route: the base URL is wrong (a configuration error)
        }
        if (status == 404) {
            String what = json.path("resourceName").asText();
            return new JsonHttp.ProductError(tokenCall ? PkiException.TOKEN_EXPIRED : PkiException.REQUEST_REFUSED,
                    what + " not found", both + " (" + what + " " + json.path("resourceId").asText("") + ")");
        }
        if (status >= 400 && status < 500 && !message.isEmpty()) {
            return new JsonHttp.ProductError(PkiException.REQUEST_REFUSED, PkiException.REQUEST_REFUSED, both);
        }
        return null;
    }

    /** The response code for a validation item type: revoked and expired read as such, the rest as a refusal. */
    static String validationCategory(String type) {
        return switch (type) {
            case "CertificateRevoked" -> PkiException.CERTIFICATE_REVOKED;
            case "CertificateExpired", "CertificateNotYetValid" -> PkiException.CERTIFICATE_EXPIRED;
            case "CertificateChainRootNotTrusted", "CertificateIssuerNotFound" -> PkiException.UNTRUSTED_CERTIFICATE;
            case "CertificateRevocationStatusUnknown" -> PkiException.REVOCATION_UNAVAILABLE;
            default -> PkiException.REQUEST_REFUSED;
        };
    }

    /** The type of the first error in a ValidationResultsModel (looking into inner results), or "". */
    static String firstError(JsonNode results) {
        for (JsonNode e : results.path("errors")) {
            String type = e.path("type").asText("");
            JsonNode inner = e.path("innerValidationResults");
            String deeper = inner.isObject() ? firstError(inner) : "";
            if (!deeper.isEmpty() && (type.isEmpty() || type.equals("CertificateValidationFailed")
                    || type.equals("CertificateIssuerInvalid"))) {
                return deeper;
            }
            if (!type.isEmpty()) {
                return type;
            }
        }
        return "";
    }

    /** One line of a ValidationResultsModel's errors, as Lacuna's clients print them. */
    static String summary(JsonNode results) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode e : results.path("errors")) {
            if (!sb.isEmpty()) {
                sb.append("; ");
            }
            sb.append(e.path("type").asText("?")).append(": ").append(e.path("message").asText(""));
            if (e.hasNonNull("detail")) {
                sb.append(" (").append(e.path("detail").asText()).append(')');
            }
        }
        return sb.isEmpty() ? "no errors" : "errors: " + sb;
    }

    /** The JCA digest for a digest algorithm OID as Rest PKI sends it ({@code digestAlgorithmOid}). */
    static String digestForOid(String oid) throws PkiException {
        return switch (oid) {
            case "2.16.840.1.101.3.4.2.1" -> "SHA-256";
            case "2.16.840.1.101.3.4.2.2" -> "SHA-384";
            case "2.16.840.1.101.3.4.2.3" -> "SHA-512";
            case "1.3.14.3.2.26" -> "SHA-1";
            default -> throw new PkiException(PkiException.BAD_RESPONSE, "unknown digestAlgorithmOid '" + oid + "'");
        };
    }

    /** The JCA digest for a Rest PKI {@code DigestAlgorithms} value ({@code SHA256}). */
    static String digestForName(String name) throws PkiException {
        return switch (name.toUpperCase(Locale.ROOT)) {
            case "SHA256" -> "SHA-256";
            case "SHA384" -> "SHA-384";
            case "SHA512" -> "SHA-512";
            case "SHA1" -> "SHA-1";
            default -> throw new PkiException(PkiException.BAD_RESPONSE, "unknown digest algorithm '" + name + "'");
        };
    }

    /** Rest PKI's {@code DigestAlgorithms} value for a JCA digest ({@code SHA-256} → {@code SHA256}). */
    static String digestName(String jca) {
        return jca.toUpperCase(Locale.ROOT).replace("-", "");
    }

    /**
     * Signs what a start answered: {@code toSignData} with the digest of {@code digestAlgorithmOid}, else
     * the bare {@code toSignHash}.
     */
    static byte[] signStarted(KeyMaterial key, JsonHttp.Answer started) throws PkiException {
        String digest = digestForOid(started.text("digestAlgorithmOid"));
        JsonNode data = started.json().get("toSignData");
        if (data != null && data.isTextual() && !data.asText().isEmpty()) {
            return key.sign(key.signatureAlgorithm(digest), started.bytes("toSignData"));
        }
        return key.signHash(digest, started.bytes("toSignHash"));
    }

    /** The subject the server read from the certificate ({@code CertificateModel.subjectName.commonName}). */
    static String subject(JsonNode certificate) {
        String cn = certificate.path("subjectName").path("commonName").asText("");
        return cn.isEmpty() ? certificate.path("subjectDisplayName").asText("") : cn;
    }
}
