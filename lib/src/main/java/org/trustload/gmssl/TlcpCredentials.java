package org.trustload.gmssl;

import java.util.Objects;
import org.trustload.pki.KeyMaterial;

/**
 * One side's SM2 "double certificate": the signing key pair (certificate key usage
 * digitalSignature + nonRepudiation) and the encryption key pair (keyEncipherment +
 * dataEncipherment + keyAgreement, no digitalSignature). TLCP needs both on a server, and both on a
 * client for client authentication with the ECDHE suites; TLS 1.3 uses only the signing pair, so the
 * encryption pair may be null there.
 */
public final class TlcpCredentials {
    private final KeyMaterial sign;
    private final KeyMaterial enc;

    /** @param sign the signing key and chain (required); @param enc the encryption key and chain, or null */
    public TlcpCredentials(KeyMaterial sign, KeyMaterial enc) {
        this.sign = Objects.requireNonNull(sign, "signing key");
        this.enc = enc;
    }

    public KeyMaterial sign() {
        return sign;
    }

    /** The encryption key and chain, or null when only a signing pair was given. */
    public KeyMaterial enc() {
        return enc;
    }

    @Override
    public String toString() {
        // never the keys themselves
        return "TlcpCredentials[sign=" + sign.certificate().getSubjectX500Principal()
                + (enc == null ? "" : ", enc=" + enc.certificate().getSubjectX500Principal()) + "]";
    }
}
