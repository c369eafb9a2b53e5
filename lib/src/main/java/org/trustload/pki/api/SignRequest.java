package org.trustload.pki.api;

import java.util.Locale;
import org.trustload.pki.KeyMaterial;

/**
 * One signature to make through a server's API.
 *
 * @param format      {@code cades} or {@code pades}
 * @param timestamped level T (the server adds a signature timestamp) instead of B
 * @param digest      {@code SHA-256}, {@code SHA-384} or {@code SHA-512} (DSS; Rest PKI's policy decides its own)
 * @param attached    CAdES: the document inside the CMS (PAdES ignores it)
 * @param document    the bytes to sign (a PDF for PAdES)
 * @param key         the user's key, or null when the server holds the key
 * @param serverKey   the alias of the server-held key (DSS server signing), or null when the client signs
 * @param policy      the product's own name for the signature level (a Rest PKI signature policy id, a DSS
 *                    signature level) as {@link SignatureApi#signaturePolicy} checked it once, or "" for the
 *                    API's default for format and level; the API sends it as it is
 */
public record SignRequest(String format, boolean timestamped, String digest, boolean attached, byte[] document,
        KeyMaterial key, String serverKey, String policy) {
    public SignRequest {
        format = format.toLowerCase(Locale.ROOT);
        policy = policy == null ? "" : policy.trim();
    }

    public boolean pades() {
        return format.equals("pades");
    }

    /** True when the server holds the key (no client-side signing step). */
    public boolean serverSigns() {
        return key == null;
    }

    /** e.g. {@code CAdES-T}. */
    public String label() {
        return (pades() ? "PAdES" : "CAdES") + (timestamped ? "-T" : "-B");
    }
}
