package org.trustload.gmssl.tlcp;

import javax.net.ssl.SSLException;

/**
 * A fatal TLCP alert: one we send (the handshake found a fault) or one the peer sent. Its message
 * reads like JSSE's ({@code Received fatal alert: handshake_failure}) so that
 * {@link org.trustload.gmssl.TlcpErrors} names the alert the same way for every engine.
 */
final class TlcpAlert extends SSLException {
    private static final long serialVersionUID = 1L;

    static final int CLOSE_NOTIFY = 0;
    static final int UNEXPECTED_MESSAGE = 10;
    static final int BAD_RECORD_MAC = 20;
    static final int HANDSHAKE_FAILURE = 40;
    static final int BAD_CERTIFICATE = 42;
    static final int UNSUPPORTED_CERTIFICATE = 43;
    static final int CERTIFICATE_EXPIRED = 45;
    static final int CERTIFICATE_UNKNOWN = 46;
    static final int ILLEGAL_PARAMETER = 47;
    static final int UNKNOWN_CA = 48;
    static final int DECODE_ERROR = 50;
    static final int DECRYPT_ERROR = 51;
    static final int PROTOCOL_VERSION = 70;
    static final int INTERNAL_ERROR = 80;

    final int description;
    /** True when the peer sent it, false when we send it. */
    final boolean received;

    private TlcpAlert(int description, boolean received, String message, Throwable cause) {
        super(message, cause);
        this.description = description;
        this.received = received;
    }

    /** An alert we send because of {@code why}. */
    static TlcpAlert send(int description, String why) {
        return send(description, why, null);
    }

    static TlcpAlert send(int description, String why, Throwable cause) {
        return new TlcpAlert(description, false, why + " [we sent alert " + name(description) + "]", cause);
    }

    /** An alert the peer sent. */
    static TlcpAlert received(int description) {
        return new TlcpAlert(description, true, "Received fatal alert: " + name(description), null);
    }

    static String name(int d) {
        switch (d) {
            case CLOSE_NOTIFY: return "close_notify";
            case UNEXPECTED_MESSAGE: return "unexpected_message";
            case BAD_RECORD_MAC: return "bad_record_mac";
            case 30: return "decompression_failure";
            case HANDSHAKE_FAILURE: return "handshake_failure";
            case 41: return "no_certificate";
            case BAD_CERTIFICATE: return "bad_certificate";
            case UNSUPPORTED_CERTIFICATE: return "unsupported_certificate";
            case 44: return "certificate_revoked";
            case CERTIFICATE_EXPIRED: return "certificate_expired";
            case CERTIFICATE_UNKNOWN: return "certificate_unknown";
            case ILLEGAL_PARAMETER: return "illegal_parameter";
            case UNKNOWN_CA: return "unknown_ca";
            case 49: return "access_denied";
            case DECODE_ERROR: return "decode_error";
            case DECRYPT_ERROR: return "decrypt_error";
            case PROTOCOL_VERSION: return "protocol_version";
            case 71: return "insufficient_security";
            case INTERNAL_ERROR: return "internal_error";
            case 90: return "user_canceled";
            case 100: return "no_renegotiation";
            case 110: return "unsupported_extension";
            case 200: return "unsupported_site2site";
            case 201: return "no_area";
            case 202: return "unsupported_areatype";
            case 203: return "bad_ibcparam";
            case 204: return "unsupported_ibcparam";
            case 205: return "identity_need";
            default: return "alert_" + d;
        }
    }
}
