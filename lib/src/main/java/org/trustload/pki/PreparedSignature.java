package org.trustload.pki;

import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Set;
import org.bouncycastle.asn1.DERSet;

/**
 * A CAdES or PAdES signature between its two steps: the signed attributes for the signer's certificate
 * are fixed, the signer signs {@link #toBeSigned()} with {@link #signatureAlgorithm()}, and
 * {@link #complete} checks the value and assembles the CMS. Each format says where the CMS goes
 * ({@link CadesSigner.Prepared}: it is the signature; {@link PadesSigner.Prepared}: into the PDF).
 * Immutable; {@link #complete} may be called from any thread.
 */
public abstract class PreparedSignature {
    final List<X509Certificate> chain;
    final String digest;
    final SignOptions.Level level;
    private final ASN1Set signedAttrs;
    final byte[] toBeSigned;
    private final TimestampSource tsa;
    private final String signatureAlgorithm;

    PreparedSignature(List<X509Certificate> chain, String digest, SignOptions.Level level, ASN1Set signedAttrs,
            TimestampSource tsa) throws PkiException {
        this.chain = chain;
        this.digest = digest;
        this.level = level;
        this.signedAttrs = signedAttrs;
        this.tsa = tsa;
        // once: naming the key's algorithm prints the public key and parses its SubjectPublicKeyInfo
        this.signatureAlgorithm = CmsSupport.signatureAlgorithm(CmsSupport.keyAlgorithm(chain.get(0)), digest);
        try {
            this.toBeSigned = signedAttrs.getEncoded(ASN1Encoding.DER);
        } catch (IOException e) {
            throw new PkiException(PkiException.SIGNING_ERROR, "cannot encode the signed attributes", e);
        }
    }

    /**
     * Step one's checks, the same for both formats: a signer certificate first in {@code chain}, and the
     * digest the signature uses ({@link CmsSupport#effectiveDigest}: SM3 for SM2 keys).
     */
    static String digest(Object document, List<X509Certificate> chain, SignOptions options) throws PkiException {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(options, "options");
        if (chain == null || chain.isEmpty()) {
            throw new PkiException(PkiException.CONFIG_ERROR, "no signer certificate");
        }
        return CmsSupport.effectiveDigest(chain.get(0), options.digest());
    }

    /** The signed attributes of a kept state ({@code state()}); level T needs {@code tsa}. */
    static ASN1Set restoredAttributes(CmsSupport.State st, TimestampSource tsa) throws PkiException {
        if (st.level == SignOptions.Level.T && tsa == null) {
            throw new PkiException(PkiException.CONFIG_ERROR, "level T needs a timestamp source");
        }
        try {
            return ASN1Set.getInstance(ASN1Primitive.fromByteArray(st.signedAttrs));
        } catch (IOException | IllegalArgumentException e) {
            throw new PkiException(PkiException.INVALID_DOCUMENT, "not a valid two-step state", e);
        }
    }

    /** The DER SET OF signed attributes: the bytes the signer signs (not a digest). */
    public byte[] toBeSigned() {
        return toBeSigned.clone();
    }

    /** The JCA algorithm the signer must use, e.g. {@code SHA256withECDSA}. */
    public String signatureAlgorithm() {
        return signatureAlgorithm;
    }

    /** The digest actually used (SM3 for SM2 keys). */
    public String digestAlgorithm() {
        return digest;
    }

    /** The signer's certificate and chain as given to {@code prepare}. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /**
     * Step two: checks the signature value against the signer's certificate, fetches the timestamp for
     * level T, and returns the signature (the DER CMS, or the signed PDF).
     *
     * @throws PkiException {@link PkiException#INVALID_SIGNATURE} when the value does not verify,
     *                      {@link PkiException#TSA_ERROR} when the timestamp fails
     */
    public byte[] complete(byte[] signatureValue) throws PkiException {
        return complete(signatureValue, true);
    }

    byte[] complete(byte[] signatureValue, boolean check) throws PkiException {
        if (signatureValue == null || signatureValue.length == 0) {
            throw new PkiException(PkiException.INVALID_SIGNATURE, "empty signature value");
        }
        if (check) {
            CmsSupport.checkSignatureValue(chain.get(0), signatureAlgorithm, toBeSigned, signatureValue);
        }
        DERSet unsigned = level == SignOptions.Level.T
                ? CmsSupport.timestampAttributes(tsa, digest, signatureValue) : null;
        return place(CmsSupport.assemble(signedAttrs, signatureValue, chain, digest, signatureAlgorithm, encapsulated(),
                unsigned));
    }

    /** The content the CMS encapsulates, or null (detached). */
    abstract byte[] encapsulated();

    /** The signature made of the CMS: the CMS itself, or the document it is placed in. */
    abstract byte[] place(byte[] cms) throws PkiException;

    /** Everything needed to finish later, as bytes (DER); no key and no secret. */
    public abstract byte[] state();
}
