package org.trustload.lab.pki;

import org.trustload.lab.LabHttp;

/**
 * An answer of the signature API other than success: an HTTP status and a stable error code, sent as
 * {@code {"error": code, "message": message}}.
 */
final class ApiException extends LabHttp.Refusal {
    private static final long serialVersionUID = 1L;

    static final String BAD_REQUEST = "badRequest";
    static final String INVALID_DOCUMENT = "invalidDocument";
    static final String INVALID_CERTIFICATE = "invalidCertificate";
    static final String UNTRUSTED_CERTIFICATE = "untrustedCertificate";
    static final String CERTIFICATE_EXPIRED = "certificateExpired";
    static final String CERTIFICATE_REVOKED = "certificateRevoked";
    static final String FORBIDDEN = "forbidden";
    static final String CRL_UNAVAILABLE = "crlUnavailable";
    static final String INVALID_SIGNATURE = "invalidSignature";
    static final String NOT_FOUND = "notFound";
    static final String BUSY = "busy";
    static final String REVOCATION_UNAVAILABLE = "revocationUnavailable";
    static final String TSA_ERROR = "tsaError";
    static final String INTERNAL_ERROR = "internalError";

    ApiException(int status, String code, String message) {
        super(status, code, message);
    }

    ApiException(int status, String code, String message, Throwable cause) {
        super(status, code, message, cause);
    }

    static ApiException badRequest(String message) {
        return new ApiException(400, BAD_REQUEST, message);
    }
}
