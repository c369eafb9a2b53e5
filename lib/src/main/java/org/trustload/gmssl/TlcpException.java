package org.trustload.gmssl;

import org.trustload.common.ClientException;

/**
 * A TLCP failure: a {@link ClientException} with one of the categories below (the sample's response
 * code), a stable message that groups well in reports, and a detail (target, alert, the exception
 * chain on one line) for the response body. Handshake failures keep the provider's exception as
 * their cause and its alert in the message ({@link TlcpErrors}).
 */
public final class TlcpException extends ClientException {
    private static final long serialVersionUID = 1L;

    /** The engine cannot run in this JVM (library missing, JVM flags missing, wrong Java version). */
    public static final String ENGINE_UNAVAILABLE = "engineUnavailable";
    /**
     * The handshake failed: an alert (named in the message), no common suite, untrusted or expired certificate, not a
     * TLCP peer.
     */
    public static final String HANDSHAKE_FAILED = "handshakeFailed";
    /** Connect, handshake or response did not finish within its timeout. */
    public static final String TIMEOUT = "timeout";
    /** The connection broke after the handshake (reset, early close). */
    public static final String IO_ERROR = "ioError";
    /** The HTTP response was not 200 or not well-formed. */
    public static final String HTTP_ERROR = "httpError";

    private TlcpException(String category, String message, String detail, String setting,
            String file, Throwable cause) {
        super(category, message, detail, setting, file, cause);
    }

    /**
     * @param category {@link #CONFIG_ERROR}, {@link #CONNECT_ERROR} or a constant of this class
     * @param message stable one-line message
     * @param detail one readable cause for the response body; null repeats the message
     */
    public TlcpException(String category, String message, String detail, Throwable cause) {
        this(category, message, detail, "", "", cause);
    }

    public TlcpException(String category, String message) {
        this(category, message, null, null);
    }

    public TlcpException(String category, String message, Throwable cause) {
        this(category, message, null, cause);
    }

    /**
     * A configuration error about {@code setting} (the config element's property name) and the
     * {@code file} it names (or ""); the detail is the readable cause (the message when there is none),
     * never a secret.
     */
    public static TlcpException config(String setting, String file, String message, String detail, Throwable cause) {
        String d = detail != null ? detail : cause == null ? message : readable(cause);
        return new TlcpException(CONFIG_ERROR, message, d, setting, file, cause);
    }
}
