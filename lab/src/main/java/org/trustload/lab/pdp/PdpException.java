package org.trustload.lab.pdp;

import org.trustload.lab.LabHttp;

/** An answer of the PDP APIs other than success: status, stable code and message, sent as JSON. */
final class PdpException extends LabHttp.Refusal {
    private static final long serialVersionUID = 1L;

    PdpException(int status, String code, String message) {
        super(status, code, message);
    }

    static PdpException badRequest(String message) {
        return new PdpException(400, "badRequest", message);
    }
}
