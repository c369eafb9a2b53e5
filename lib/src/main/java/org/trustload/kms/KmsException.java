package org.trustload.kms;

/**
 * A failed KMS call, reduced to what a load-test result needs: a {@link Category} (the response code
 * of the sample), a stable message {@code <http status or ->:<service error code>} (e.g.
 * {@code 429:ThrottlingException}, {@code -:ConnectTimeout}) that groups well in reports, and the
 * variable detail (server message, request id) kept apart. Never carries secrets or key material.
 */
public final class KmsException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The error categories; {@link #code()} is the stable response code. */
    public enum Category {
        /** Connect or response timeout (the request took longer than the configured timeout). */
        TIMEOUT("KMS.Timeout"),
        /** The service refused the request for its rate limit (HTTP 429, throttling error codes). */
        LIMIT_EXCEEDED("KMS.LimitExceeded"),
        /** The service rejected the request (HTTP 4xx other than throttling: bad key id, bad input, auth). */
        CLIENT_ERROR("KMS.ClientError"),
        /** The service failed (HTTP 5xx or a malformed response). */
        SERVER_ERROR("KMS.ServerError"),
        /** No connection: refused, unreachable host, unknown host, connection reset before a response. */
        CONNECTION_ERROR("KMS.ConnectionError"),
        /** The TLS handshake failed (untrusted certificate, protocol mismatch). */
        TLS_ERROR("KMS.TlsError"),
        /** A Verify call succeeded but the signature is not valid. */
        VERIFY_FAILED("KMS.VerifyFailed"),
        /** Bad settings or input: the request was never sent (unknown backend, unreadable key file, …). */
        CONFIG_ERROR("KMS.ConfigError");

        private final String code;

        Category(String code) {
            this.code = code;
        }

        /** The response code, e.g. {@code KMS.Timeout}. */
        public String code() {
            return code;
        }
    }

    /** The message part used when there is no HTTP status. */
    public static final String NO_STATUS = "-";

    private final Category category;
    private final int httpStatus;
    private final String errorCode;
    private final String detail;

    /**
     * @param category the category
     * @param httpStatus the HTTP status, or {@code -1} when none was received
     * @param errorCode the service error code (e.g. {@code NotFoundException}) or a client-side name
     *     (e.g. {@code ConnectTimeout}); never blank
     * @param detail free text for the response body (no secrets); may be null
     * @param cause the original exception; may be null
     */
    public KmsException(Category category, int httpStatus, String errorCode, String detail, Throwable cause) {
        super(message(httpStatus, errorCode), cause);
        this.category = category;
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
        this.detail = detail == null ? "" : detail;
    }

    /** A bad setting or input; the request is never sent. {@code errorCode} names what is wrong, e.g. {@code MissingKeyId}. */
    public static KmsException config(String errorCode, String detail) {
        return new KmsException(Category.CONFIG_ERROR, -1, errorCode, detail, null);
    }

    /** {@code <status or ->:<code>}. */
    static String message(int httpStatus, String errorCode) {
        return (httpStatus > 0 ? Integer.toString(httpStatus) : NO_STATUS) + ":" + errorCode;
    }

    public Category category() {
        return category;
    }

    /** The HTTP status, or {@code -1}. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The service error code or client-side error name. */
    public String errorCode() {
        return errorCode;
    }

    /** Free text for the response body: server message, request id, host. */
    public String detail() {
        return detail;
    }
}
