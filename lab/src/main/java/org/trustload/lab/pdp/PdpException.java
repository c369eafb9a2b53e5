package org.trustload.lab.pdp;

/** An answer of the PDP APIs other than success: status, stable code and message, sent as JSON. */
final class PdpException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    PdpException(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    static PdpException badRequest(String message) {
        return new PdpException(400, "badRequest", message);
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }
}
