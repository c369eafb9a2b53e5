package org.trustload.pki;

import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

import org.bouncycastle.asn1.ASN1Set;
import org.bouncycastle.asn1.DERSet;

/**
 * CAdES signatures (DER CMS SignedData): CAdES-BES with the signed attributes content-type,
 * message-digest, signing-time and signing-certificate-v2 (ESSCertIDv2, SHA-256 certificate hash), and
 * CAdES-T with an RFC 3161 signature-time-stamp over the signature value as unsigned attribute.
 * Attached (content encapsulated) or detached. SM2 keys always sign with SM3 (GM/T 0010).
 *
 * <p>One step: {@link #sign}. Two steps (a remote signing flow): {@link #prepare} computes the
 * to-be-signed bytes for a certificate, the client signs them with its key, {@link Prepared#complete}
 * assembles the CMS. A stateless server keeps {@link Prepared#state()} (e.g. in a token or a cache) and
 * rebuilds the {@link Prepared} with {@link #restore}. All methods are thread-safe.
 */
public final class CadesSigner {
    private CadesSigner() {
    }

    /**
     * Signs {@code content} with {@code key} (one step).
     *
     * @return the DER-encoded CMS ContentInfo
     */
    public static byte[] sign(byte[] content, KeyMaterial key, SignOptions options) throws PkiException {
        Prepared p = prepare(content, key.chain(), options);
        return p.complete(key.sign(p.signatureAlgorithm(), p.toBeSigned()), false);
    }

    /**
     * Step one: the signed attributes for {@code chain}'s signer over {@code content}. The signing time
     * is fixed here.
     *
     * @param chain the signer's certificate first, then the issuers to embed
     */
    public static Prepared prepare(byte[] content, List<X509Certificate> chain, SignOptions options)
            throws PkiException {
        String digest = PreparedSignature.digest(content, chain, options);
        Instant time = options.signingTime() != null ? options.signingTime() : Instant.now();
        DERSet attrs = CmsSupport.signedAttributes(digest, CmsSupport.digest(digest, content), chain.get(0), time);
        return new Prepared(List.copyOf(chain), digest, options.level(), options.attached(), attrs,
                options.attached() ? content : null, options.timestampSource());
    }

    /**
     * Rebuilds a {@link Prepared} from {@link Prepared#state()}.
     *
     * @param tsa the timestamp source for level T (the state never contains one), else ignored
     * @throws PkiException {@link PkiException#INVALID_DOCUMENT} when the state is not ours
     */
    public static Prepared restore(byte[] state, TimestampSource tsa) throws PkiException {
        CmsSupport.State st = CmsSupport.decodeState("CAdES", state);
        return new Prepared(st.chain, st.digest, st.level, st.attached, PreparedSignature.restoredAttributes(st, tsa),
                st.attached ? st.document : null, tsa);
    }

    /** A CAdES signature waiting for its signature value: the CMS is the signature. */
    public static final class Prepared extends PreparedSignature {
        private final boolean attached;
        private final byte[] content;

        private Prepared(List<X509Certificate> chain, String digest, SignOptions.Level level, boolean attached,
                ASN1Set signedAttrs, byte[] content, TimestampSource tsa) throws PkiException {
            super(chain, digest, level, signedAttrs, tsa);
            this.attached = attached;
            this.content = content;
        }

        @Override
        byte[] encapsulated() {
            return content;
        }

        @Override
        byte[] place(byte[] cms) {
            return cms;
        }

        /**
         * Everything needed to finish later, as bytes (DER): options, signed attributes, chain, and the
         * content when attached. Contains no key and no secret. Restore with
         * {@link CadesSigner#restore(byte[], TimestampSource)}.
         */
        @Override
        public byte[] state() {
            return CmsSupport.encodeState("CAdES", digest, level, attached, toBeSigned, chain, content);
        }
    }
}
