package org.trustload.gmssl;

/**
 * A TLCP failure with a stable category (the sampler's response code) and a short message that
 * groups well in reports; the detail (exception chain, alert) goes to the response body.
 */
public final class TlcpException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Bad settings: unknown suite, suite of the other protocol, missing or unreadable key, bad CA file. */
    public static final String CONFIG_ERROR = "configError";
    /** The engine cannot run in this JVM (library missing, JVM flags missing, wrong Java version). */
    public static final String ENGINE_UNAVAILABLE = "engineUnavailable";
    /** TCP connect failed: refused, unreachable, unknown host. */
    public static final String CONNECT_ERROR = "connectError";
    /** The handshake failed: an alert (named in the message), no common suite, untrusted or expired certificate, not a TLCP peer. */
    public static final String HANDSHAKE_FAILED = "handshakeFailed";
    /** Connect, handshake or response did not finish within its timeout. */
    public static final String TIMEOUT = "timeout";
    /** The connection broke after the handshake (reset, early close). */
    public static final String IO_ERROR = "ioError";
    /** The HTTP response was not 200 or not well-formed. */
    public static final String HTTP_ERROR = "httpError";

    private final String category;
    private final String detail;

    public TlcpException(String category, String message, String detail, Throwable cause) {
        super(message, cause);
        this.category = category;
        this.detail = detail;
    }

    public TlcpException(String category, String message) {
        this(category, message, null, null);
    }

    public TlcpException(String category, String message, Throwable cause) {
        this(category, message, null, cause);
    }

    /** The stable category, one of the constants of this class. */
    public String category() {
        return category;
    }

    /** Longer free text for the response body, or null. */
    public String detail() {
        return detail;
    }
}
