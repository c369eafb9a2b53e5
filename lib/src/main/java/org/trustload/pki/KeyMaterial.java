package org.trustload.pki;

import java.security.PrivateKey;
import java.security.Provider;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A private key and its certificate chain (signer first), as loaded from PKCS#12, JKS, PEM or a
 * PKCS#11 token. Signs with the key's own provider (needed for token keys, which never leave the
 * token). Thread-safe: each call to {@link #sign} uses its own {@link Signature}. Never prints the key.
 */
public final class KeyMaterial {
    private final String alias;
    private final PrivateKey privateKey;
    private final List<X509Certificate> chain;
    private final Provider provider;
    /** RSA, EC or SM2, found on first use (a benign race: every thread finds the same). */
    private volatile String keyAlgorithm;

    /**
     * @param provider the provider that must use this key (a SunPKCS11 instance), or null for the
     *                 JVM's default provider selection
     */
    public KeyMaterial(String alias, PrivateKey privateKey, List<X509Certificate> chain, Provider provider) {
        if (chain == null || chain.isEmpty()) {
            throw new IllegalArgumentException("a key needs its certificate");
        }
        this.alias = alias;
        this.privateKey = privateKey;
        this.chain = List.copyOf(chain);
        this.provider = provider;
    }

    public String alias() {
        return alias;
    }

    public PrivateKey privateKey() {
        return privateKey;
    }

    /** The signer's certificate. */
    public X509Certificate certificate() {
        return chain.get(0);
    }

    /** Signer first, then its issuers as far as known. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** The provider bound to the key, or null. */
    public Provider provider() {
        return provider;
    }

    /** {@code RSA}, {@code EC} or {@code SM2} (an EC key on the sm2p256v1 curve). */
    public String keyAlgorithm() {
        String a = keyAlgorithm;
        if (a == null) {
            // once per key: telling SM2 from other EC keys prints the public key and parses its encoding, which
            // cost a login sample 9% of its allocation when done per signature
            a = CmsSupport.keyAlgorithm(certificate());
            keyAlgorithm = a;
        }
        return a;
    }

    /**
     * The JCA signature algorithm for a digest: {@code SHA256withRSA}, {@code SHA384withECDSA},
     * {@code SM3withSM2} (SM2 keys always use SM3).
     *
     * @param digest {@code SHA-256}, {@code SHA-384}, {@code SHA-512} or {@code SM3}
     */
    public String signatureAlgorithm(String digest) {
        return CmsSupport.signatureAlgorithm(keyAlgorithm(), digest);
    }

    /** Signs {@code data} (the whole data, not a digest) with this key. */
    public byte[] sign(String signatureAlgorithm, byte[] data) throws PkiException {
        try {
            Signature s = provider != null ? Signature.getInstance(signatureAlgorithm, provider)
                    : Signature.getInstance(signatureAlgorithm);
            s.initSign(privateKey);
            s.update(data);
            return s.sign();
        } catch (java.security.GeneralSecurityException | RuntimeException e) {
            throw new PkiException(PkiException.SIGNING_ERROR, "signing with " + signatureAlgorithm + " failed",
                    "alias " + alias + ": " + e, e);
        }
    }

    /**
     * Signs a precomputed hash (for APIs that send only the digest): raw ECDSA over the hash for EC
     * keys, PKCS#1 v1.5 over the DigestInfo for RSA keys. SM2 signs the data, never a bare hash.
     *
     * @param digest the algorithm that made {@code hash}, e.g. {@code SHA-256}
     * @throws PkiException {@code configError} for an SM2 key or an unknown digest
     */
    public byte[] signHash(String digest, byte[] hash) throws PkiException {
        switch (keyAlgorithm()) {
            case "EC":
                return sign("NONEwithECDSA", hash);
            case "RSA":
                try {
                    org.bouncycastle.asn1.x509.AlgorithmIdentifier alg = TimestampClient.digestAlgorithm(digest);
                    byte[] info = new org.bouncycastle.asn1.x509.DigestInfo(
                            new org.bouncycastle.asn1.x509.AlgorithmIdentifier(
                                    alg.getAlgorithm(), org.bouncycastle.asn1.DERNull.INSTANCE), hash).getEncoded();
                    return sign("NONEwithRSA", info);
                } catch (java.io.IOException e) {
                    throw new PkiException(PkiException.SIGNING_ERROR, "cannot encode the DigestInfo", e);
                }
            default:
                throw new PkiException(PkiException.CONFIG_ERROR, "hash input is not supported for " + keyAlgorithm()
                        + " keys: sign the data instead");
        }
    }

    @Override
    public String toString() {
        return "KeyMaterial[" + alias + ", " + certificate().getSubjectX500Principal().getName() + "]";
    }
}
