package org.trustload.kms;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLException;
import org.trustload.common.ClientException;

/**
 * A failed KMS call, as every TrustLoad client reports failures ({@link ClientException}): the
 * {@link #category()} is the sample's response code ({@code KMS.Timeout}, {@code KMS.LimitExceeded},
 * … from {@link Category}; {@code configError} for a wrong setting), the message is stable and groups
 * well in reports, and the {@link #detail()} is one readable cause (server message, request id).
 * Never carries secrets or key material.
 *
 * <p>Messages: a call that failed reads {@code <http status or ->:<code>}, e.g.
 * {@code 429:ThrottlingException}, {@code -:ConnectionRefused}, {@code -:UnknownHost},
 * {@code -:TlsHandshake}; a configuration error reads what to fix, e.g. {@code wrong client key
 * password}, with the {@link #setting()} (the config's property name) and the {@link #file()} it is
 * about. {@link #errorCode()} is the service's or the client's code in both cases.
 */
public final class KmsException extends ClientException {
    private static final long serialVersionUID = 1L;

    /** The kinds of failure; {@link #code()} is the stable response code. */
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
        /**
         * A call succeeded but its answer is not what it must be: a Decrypt whose plaintext differs from what
         * was encrypted, an operation that must return bytes and returned none ({@link KmsWorkload.Case#check}).
         */
        WRONG_OUTPUT("KMS.WrongOutput"),
        /** A wrong setting or input: the request was never sent (unknown backend, unreadable key file, …). */
        CONFIG_ERROR(ClientException.CONFIG_ERROR);

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

    private final Category kind;
    private final int httpStatus;
    private final String errorCode;

    /**
     * A failed call.
     *
     * @param kind the kind (not {@link Category#CONFIG_ERROR}: use {@link #config})
     * @param httpStatus the HTTP status, or {@code -1} when none was received
     * @param errorCode the service error code (e.g. {@code NotFoundException}) or a client-side name
     *     (e.g. {@code ConnectTimeout}); never blank
     * @param detail free text for the response body (no secrets); may be null
     * @param cause the original exception; may be null
     */
    public KmsException(Category kind, int httpStatus, String errorCode, String detail, Throwable cause) {
        this(kind, httpStatus, errorCode, message(httpStatus, errorCode), detail, "", "", cause);
    }

    private KmsException(Category kind, int httpStatus, String errorCode, String message, String detail, String setting,
            String file, Throwable cause) {
        super(kind.code(), message, detail, setting, file, cause);
        this.kind = kind;
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    /**
     * A wrong setting or input; the request is never sent.
     *
     * @param errorCode names what is wrong, e.g. {@code BadClientKeyPassword}
     * @param setting the property at fault as the KMS Client Config or KMS Request names it, e.g.
     *     {@code clientKeyPassword}; "" when none
     * @param file the file the setting names, or ""
     * @param message stable text of what to fix (no file name, no value): {@code wrong client key password}
     * @param cause the original exception, its readable form becomes the detail; may be null
     */
    public static KmsException config(String errorCode, String setting, String file, String message, Throwable cause) {
        String detail = cause == null ? message : message + ": " + readable(cause);
        return new KmsException(Category.CONFIG_ERROR, -1, errorCode, message, detail, setting, file, cause);
    }

    /** A wrong setting that names no file. */
    public static KmsException config(String errorCode, String setting, String message) {
        return config(errorCode, setting, "", message, null);
    }

    /**
     * One rung of a ladder that names network exceptions: a {@code type} is a {@code kind} failure called {@code code}.
     */
    public record Rung(Class<? extends Throwable> type, Category kind, String code) {
    }

    /**
     * The network-exception ladder of a KMS client: its SDK's own rungs {@code before}, then the ones every
     * client shares (TLS handshake, no route, refused, unknown host), then {@code after}. Subclasses must
     * come before their superclasses: the first rung an exception is an instance of names it.
     */
    public static List<Rung> ladder(List<Rung> before, List<Rung> after) {
        List<Rung> all = new ArrayList<>(before);
        all.add(new Rung(SSLException.class, Category.TLS_ERROR, "TlsHandshake"));
        all.add(new Rung(NoRouteToHostException.class, Category.CONNECTION_ERROR, "NoRouteToHost"));
        all.add(new Rung(ConnectException.class, Category.CONNECTION_ERROR, "ConnectionRefused"));
        all.add(new Rung(UnknownHostException.class, Category.CONNECTION_ERROR, "UnknownHost"));
        all.addAll(after);
        return List.copyOf(all);
    }

    /**
     * {@code t} named by the first rung of {@code ladder} it is an instance of (its readable cause the detail), or
     * null.
     */
    public static KmsException climb(List<Rung> ladder, Throwable t, Throwable original) {
        for (Rung r : ladder) {
            if (r.type().isInstance(t)) {
                return new KmsException(r.kind(), -1, r.code(), readable(t), original);
            }
        }
        return null;
    }

    /** {@code <status or ->:<code>}. */
    static String message(int httpStatus, String errorCode) {
        return (httpStatus > 0 ? Integer.toString(httpStatus) : NO_STATUS) + ":" + errorCode;
    }

    /** The kind of failure; {@link #category()} is its code. */
    public Category kind() {
        return kind;
    }

    /** The HTTP status, or {@code -1}. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The service error code or client-side error name, e.g. {@code ThrottlingException}, {@code BadCaFile}. */
    public String errorCode() {
        return errorCode;
    }
}
