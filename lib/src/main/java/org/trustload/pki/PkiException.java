package org.trustload.pki;

/**
 * A failed key, signature or timestamp operation, with a stable category for load-test results
 * (the response code) and a stable message; the variable detail goes to {@link #detail()}.
 */
public final class PkiException extends org.trustload.common.ClientException {
    private static final long serialVersionUID = 1L;

    /** Settings are wrong (missing file, unknown algorithm, bad option): nothing was attempted. */
    public static final String CONFIG_ERROR = org.trustload.common.ClientException.CONFIG_ERROR;
    /** The key store cannot be opened (wrong password, corrupt file) or the alias is missing. */
    public static final String KEY_ERROR = "keyError";
    /** The signer's certificate is outside its validity period. */
    public static final String CERTIFICATE_EXPIRED = "certificateExpired";
    /** The signer's certificate is on its CA's revocation list. */
    public static final String CERTIFICATE_REVOKED = "certificateRevoked";
    /** The certificate does not chain to a trusted CA. */
    public static final String UNTRUSTED_CERTIFICATE = "untrustedCertificate";
    /** The input document cannot be parsed (corrupt PDF, not CMS). */
    public static final String INVALID_DOCUMENT = "invalidDocument";
    /** A signature or token does not verify. */
    public static final String INVALID_SIGNATURE = "invalidSignature";
    /** The key operation itself failed (token error, unsupported algorithm for this key). */
    public static final String SIGNING_ERROR = "signingError";
    /** The TSA could not be reached, timed out, or answered something that is not a valid granted token. */
    public static final String TSA_ERROR = "tsaError";
    /** A remote signature server answered with an error or garbage. */
    public static final String SERVER_ERROR = "serverError";
    /** The remote server could not be reached or did not answer in time. */
    public static final String CONNECT_ERROR = "connectError";
    /** The API wants a credential (HTTP 401) and none was configured. */
    public static final String CREDENTIAL_MISSING = "credentialMissing";
    /** The API refused the configured credential (HTTP 401) or its permissions (HTTP 403). */
    public static final String CREDENTIAL_REFUSED = "credentialRefused";
    /** The API refused the request (HTTP 4xx, Rest PKI's 422): the message names the product's error code. */
    public static final String REQUEST_REFUSED = "requestRefused";
    /** The API answered 2xx with something that is not the answer it publishes (not JSON, a field missing). */
    public static final String BAD_RESPONSE = "badResponse";
    /** The server no longer knows the flow's token or state (it expired, or was already used). */
    public static final String TOKEN_EXPIRED = "tokenExpired";
    /** The server could not learn the certificate's revocation status (its CA's CRL could not be had). */
    public static final String REVOCATION_UNAVAILABLE = "revocationUnavailable";
    /** The server refused a certificate login for another reason than revocation or expiry. */
    public static final String LOGIN_REFUSED = "loginRefused";

    public PkiException(String category, String message, String detail, Throwable cause) {
        super(category, message, detail == null ? "" : detail, cause);
    }

    public PkiException(String category, String message) {
        this(category, message, message, null);
    }

    private PkiException(String setting, String file, String message, Throwable cause, boolean config) {
        super(CONFIG_ERROR, setting + ": " + message, null, setting, file, cause);
    }

    /** A configuration error about {@code setting} (the element property of the same name). */
    public static PkiException setting(String setting, String message) {
        return new PkiException(setting, "", message, null, true);
    }

    /** A configuration error about {@code setting}, with a variable {@code detail} (a URL, what the server said). */
    public static PkiException setting(String setting, String message, String detail) {
        return new PkiException(setting, message, detail);
    }

    private PkiException(String setting, String message, String detail) {
        super(CONFIG_ERROR, setting + ": " + message, detail, setting, "", null);
    }

    /** A configuration error about {@code setting} and the {@code file} it names. */
    public static PkiException setting(String setting, String file, String message, Throwable cause) {
        return new PkiException(setting, file, message, cause, true);
    }

    public PkiException(String category, String message, Throwable cause) {
        this(category, message, message + ": " + readable(cause), cause);
    }
}
