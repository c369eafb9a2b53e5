package org.trustload.lab.pki;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An answer of the Rest PKI routes other than success, shaped as Lacuna's servers shape it (API
 * description {@code openapi.yaml} of LacunaSoftware/RestPkiJavaClient, "REST PKI Return Codes"): 422 with
 * {@code {code, message, detail, validationResults}} for an API error (the clients read {@code code} as
 * their {@code ErrorCodes} enum, and for {@code ValidationError} the validation results), and
 * {@code {message}} for 400, 401, 404, 405, 413 and 500. No other fields: Lacuna's Java clients read the
 * 422 body into a class that refuses unknown properties.
 */
final class RestPkiError extends Exception {
    private static final long serialVersionUID = 1L;

    /** Lacuna's API error codes the lab answers with (a subset of the clients' {@code ErrorCodes}). */
    static final String ENTITY_NOT_FOUND = "EntityNotFound";
    static final String ENTITY_UNUSABLE = "EntityUnusable";
    static final String PK_CERTIFICATE_MALFORMED = "PKCertificateMalformed";
    static final String VALIDATION_ERROR = "ValidationError";
    static final String INVALID_REQUEST = "InvalidRequest";
    static final String TIMESTAMPING_UNAVAILABLE = "TimestampingUnavailable";
    static final String INVALID_PDF = "InvalidPdf";
    static final String SIGNATURE_POLICY_REQUIRED = "SignaturePolicyRequired";
    static final String UNSUPPORTED_DIGEST_ALGORITHM = "UnsupportedDigestAlgorithm";
    static final String CLIENT_SIGNATURE_NOT_SET = "ClientSignatureNotSet";

    private final int status;
    private final transient Map<String, Object> body;

    private RestPkiError(int status, String message, Map<String, Object> body, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.body = body;
    }

    /** 422 with a Lacuna error code. */
    static RestPkiError api(String code, String message) {
        return api(code, message, null, null);
    }

    static RestPkiError api(String code, String message, Throwable cause) {
        return api(code, message, null, cause);
    }

    private static RestPkiError api(String code, String message, ValidationResults results, Throwable cause) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("code", code);
        b.put("message", message);
        // Lacuna's Java clients show "detail" (RestPkiException.getDetail), not "message"
        b.put("detail", cause == null || cause.getMessage() == null ? message : message + ": " + cause.getMessage());
        b.put("validationResults", results == null ? null : results.toJson());
        return new RestPkiError(422, code + ": " + message, b, cause);
    }

    /** 422 {@code ValidationError}: the certificate or the signature failed validation. */
    static RestPkiError validation(String message, ValidationResults results) {
        return api(VALIDATION_ERROR, message, results, null);
    }

    static RestPkiError badRequest(String message) {
        return plain(400, message);
    }

    static RestPkiError unauthorized(String message) {
        return plain(401, message);
    }

    static RestPkiError notFound(String message) {
        return plain(404, message);
    }

    static RestPkiError methodNotAllowed(String message) {
        return plain(405, message);
    }

    static RestPkiError tooLarge(String message) {
        return plain(413, message);
    }

    /** 500 with the {@code exceptionCode} Lacuna's API description promises for support. */
    static RestPkiError internal(String exceptionCode, Throwable cause) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("message", "An unexpected error occurred (see the lab's stderr for " + exceptionCode + ")");
        b.put("exceptionCode", exceptionCode);
        return new RestPkiError(500, String.valueOf(cause), b, cause);
    }

    /** 503 while the lab is full of waiting signatures or challenges. */
    static RestPkiError busy(String message) {
        return plain(503, message);
    }

    private static RestPkiError plain(int status, String message) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("message", message);
        return new RestPkiError(status, message, b, null);
    }

    int status() {
        return status;
    }

    /** The JSON body of the answer. */
    Map<String, Object> body() {
        return body;
    }

    /** The Lacuna error code of a 422, else null. */
    String code() {
        Object c = body.get("code");
        return c == null ? null : c.toString();
    }
}
