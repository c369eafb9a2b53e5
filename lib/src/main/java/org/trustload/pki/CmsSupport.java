package org.trustload.pki;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Locale;

import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.ASN1Set;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERSet;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.cms.Attribute;
import org.bouncycastle.asn1.cms.CMSAttributes;
import org.bouncycastle.asn1.cms.CMSObjectIdentifiers;
import org.bouncycastle.asn1.cms.ContentInfo;
import org.bouncycastle.asn1.cms.IssuerAndSerialNumber;
import org.bouncycastle.asn1.cms.SignedData;
import org.bouncycastle.asn1.cms.SignerIdentifier;
import org.bouncycastle.asn1.cms.SignerInfo;
import org.bouncycastle.asn1.cms.Time;
import org.bouncycastle.asn1.ess.ESSCertIDv2;
import org.bouncycastle.asn1.ess.SigningCertificateV2;
import org.bouncycastle.asn1.gm.GMObjectIdentifiers;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Certificate;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.IssuerSerial;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.tsp.TimeStampToken;

/**
 * CMS building blocks shared by {@link CadesSigner} and {@link PadesSigner}: signed attributes,
 * SignerInfo/SignedData assembly, the signature timestamp, and the serialized two-step state.
 * Builds the ASN.1 directly (no CMSSignedDataGenerator) so the bytes signed in step one are exactly
 * the bytes placed in the CMS in step two.
 */
final class CmsSupport {
    /** A private BouncyCastle instance: never registered as a JVM provider. */
    static final Provider BC = new BouncyCastleProvider();

    private static final AlgorithmIdentifier SHA256_ID = new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha256);

    private CmsSupport() {
    }

    // ---- algorithms ----

    static String keyAlgorithm(X509Certificate cert) {
        String alg = cert.getPublicKey().getAlgorithm().toUpperCase(Locale.ROOT);
        if (alg.equals("EC") || alg.equals("ECDSA") || alg.equals("SM2")) {
            String sigAlg = cert.getSigAlgName().toUpperCase(Locale.ROOT);
            String params = String.valueOf(cert.getPublicKey());
            if (alg.equals("SM2") || sigAlg.contains("SM2") || params.contains("sm2p256v1")
                    || params.contains("1.2.156.10197.1.301") || isSm2Curve(cert)) {
                return "SM2";
            }
            return "EC";
        }
        return alg;
    }

    private static boolean isSm2Curve(X509Certificate cert) {
        try {
            org.bouncycastle.asn1.x509.SubjectPublicKeyInfo spki =
                    org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(cert.getPublicKey().getEncoded());
            ASN1Encodable p = spki.getAlgorithm().getParameters();
            return GMObjectIdentifiers.sm2p256v1.equals(p);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The digest actually used: SM2 keys always use SM3; SM3 needs an SM2 key. */
    static String effectiveDigest(X509Certificate signer, String digest) throws PkiException {
        String key = keyAlgorithm(signer);
        if (key.equals("SM2")) {
            return "SM3";
        }
        if (digest.equals("SM3")) {
            throw new PkiException(PkiException.CONFIG_ERROR, "SM3 needs an SM2 key",
                    "the signer's key is " + key, null);
        }
        if (!key.equals("RSA") && !key.equals("EC")) {
            throw new PkiException(PkiException.CONFIG_ERROR, "unsupported key algorithm", "key " + key, null);
        }
        return digest;
    }

    /**
     * The JCA signature algorithm of a key ({@link #keyAlgorithm}) and a digest: {@code SHA256withRSA},
     * {@code SHA384withECDSA}, {@code SM3withSM2} (SM2 keys always use SM3).
     */
    static String signatureAlgorithm(String keyAlgorithm, String digest) {
        String d = digest.toUpperCase(Locale.ROOT).replace("-", "");
        switch (keyAlgorithm) {
            case "SM2":
                return "SM3withSM2";
            case "EC":
                return d + "withECDSA";
            default:
                return d + "withRSA";
        }
    }

    static AlgorithmIdentifier digestAlgorithmId(String digest) {
        switch (digest) {
            case "SHA-256":
                return SHA256_ID;
            case "SHA-384":
                return new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha384);
            case "SHA-512":
                return new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha512);
            case "SM3":
                return new AlgorithmIdentifier(GMObjectIdentifiers.sm3);
            default:
                throw new IllegalArgumentException(digest);
        }
    }

    /** JCA name of a digest OID, or the OID itself when unknown. */
    static String digestName(ASN1ObjectIdentifier oid) {
        if (NISTObjectIdentifiers.id_sha256.equals(oid)) {
            return "SHA-256";
        } else if (NISTObjectIdentifiers.id_sha384.equals(oid)) {
            return "SHA-384";
        } else if (NISTObjectIdentifiers.id_sha512.equals(oid)) {
            return "SHA-512";
        } else if (GMObjectIdentifiers.sm3.equals(oid)) {
            return "SM3";
        } else if (org.bouncycastle.asn1.oiw.OIWObjectIdentifiers.idSHA1.equals(oid)) {
            return "SHA-1";
        } else if (NISTObjectIdentifiers.id_sha224.equals(oid)) {
            return "SHA-224";
        }
        return oid.getId();
    }

    static AlgorithmIdentifier signatureAlgorithmId(String sigAlg) {
        switch (sigAlg) {
            case "SHA256withRSA":
            case "SHA384withRSA":
            case "SHA512withRSA":
                return new AlgorithmIdentifier(PKCSObjectIdentifiers.rsaEncryption, DERNull.INSTANCE);
            case "SHA256withECDSA":
                return new AlgorithmIdentifier(X9ObjectIdentifiers.ecdsa_with_SHA256);
            case "SHA384withECDSA":
                return new AlgorithmIdentifier(X9ObjectIdentifiers.ecdsa_with_SHA384);
            case "SHA512withECDSA":
                return new AlgorithmIdentifier(X9ObjectIdentifiers.ecdsa_with_SHA512);
            case "SM3withSM2":
                return new AlgorithmIdentifier(GMObjectIdentifiers.sm2sign_with_sm3);
            default:
                throw new IllegalArgumentException(sigAlg);
        }
    }

    static MessageDigest messageDigest(String digest) {
        try {
            return digest.equals("SM3") ? MessageDigest.getInstance("SM3", BC) : MessageDigest.getInstance(digest);
        } catch (GeneralSecurityException e) {
            try {
                return MessageDigest.getInstance(digest, BC);
            } catch (GeneralSecurityException e2) {
                throw new IllegalStateException("no digest " + digest, e2);
            }
        }
    }

    static byte[] digest(String digest, byte[] data) {
        return messageDigest(digest).digest(data);
    }

    // ---- attributes and assembly ----

    /**
     * The signed attributes as a DER SET OF (what the signer signs).
     *
     * @param signingTime null to leave out signing-time (PAdES)
     */
    static DERSet signedAttributes(String digest, byte[] contentDigest, X509Certificate signer, Instant signingTime)
            throws PkiException {
        try {
            ASN1EncodableVector v = new ASN1EncodableVector();
            v.add(new Attribute(CMSAttributes.contentType, new DERSet(CMSObjectIdentifiers.data)));
            if (signingTime != null) {
                v.add(new Attribute(CMSAttributes.signingTime,
                        new DERSet(new Time(new Date(signingTime.getEpochSecond() * 1000L)))));
            }
            v.add(new Attribute(CMSAttributes.messageDigest, new DERSet(new DEROctetString(contentDigest))));
            Certificate c = Certificate.getInstance(signer.getEncoded());
            byte[] certHash = digest("SHA-256", signer.getEncoded());
            IssuerSerial issuerSerial = new IssuerSerial(new GeneralNames(new GeneralName(c.getIssuer())),
                    c.getSerialNumber().getValue());
            ESSCertIDv2 id = new ESSCertIDv2(SHA256_ID, certHash, issuerSerial);
            v.add(new Attribute(PKCSObjectIdentifiers.id_aa_signingCertificateV2,
                    new DERSet(new SigningCertificateV2(new ESSCertIDv2[] {id}))));
            return new DERSet(v);
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "signer certificate cannot be encoded", e);
        }
    }

    /** Checks that {@code signatureValue} is the signer's signature over {@code toBeSigned}. */
    static void checkSignatureValue(X509Certificate signer, String sigAlg, byte[] toBeSigned, byte[] signatureValue)
            throws PkiException {
        boolean ok;
        try {
            Signature s = Signature.getInstance(sigAlg, BC);
            s.initVerify(signer.getPublicKey());
            s.update(toBeSigned);
            ok = s.verify(signatureValue);
        } catch (GeneralSecurityException | RuntimeException e) {
            ok = false;
        }
        if (!ok) {
            throw new PkiException(PkiException.INVALID_SIGNATURE, "signature value does not match the certificate",
                    "signer " + signer.getSubjectX500Principal().getName() + ", " + sigAlg, null);
        }
    }

    /**
     * Fetches a signature timestamp over the signature value and returns the unsigned-attributes set.
     */
    static DERSet timestampAttributes(TimestampSource tsa, String digest, byte[] signatureValue) throws PkiException {
        byte[] imprint = digest(digest, signatureValue);
        byte[] token = tsa.timestamp(imprint, digest);
        ContentInfo ci;
        try {
            ci = ContentInfo.getInstance(ASN1Primitive.fromByteArray(token));
            TimeStampToken tst = new TimeStampToken(ci);
            if (!Arrays.equals(tst.getTimeStampInfo().getMessageImprintDigest(), imprint)) {
                throw new PkiException(PkiException.TSA_ERROR, "timestamp does not match the request",
                        "message imprint differs", null);
            }
        } catch (IOException | RuntimeException | org.bouncycastle.tsp.TSPException e) {
            throw new PkiException(PkiException.TSA_ERROR, "timestamp token is not valid", e);
        }
        return new DERSet(new Attribute(PKCSObjectIdentifiers.id_aa_signatureTimeStampToken, new DERSet(ci)));
    }

    /** DER ContentInfo(SignedData) with one signer. */
    static byte[] assemble(ASN1Set signedAttrs, byte[] signatureValue, List<X509Certificate> chain, String digest,
            String sigAlg, byte[] encapsulatedContent, DERSet unsignedAttrs) throws PkiException {
        try {
            Certificate signer = Certificate.getInstance(chain.get(0).getEncoded());
            ASN1EncodableVector certs = new ASN1EncodableVector();
            for (X509Certificate c : chain) {
                certs.add(Certificate.getInstance(c.getEncoded()));
            }
            AlgorithmIdentifier digestId = digestAlgorithmId(digest);
            SignerInfo si = new SignerInfo(
                    new SignerIdentifier(new IssuerAndSerialNumber(signer.getIssuer(),
                            signer.getSerialNumber().getValue())),
                    digestId, signedAttrs, signatureAlgorithmId(sigAlg), new DEROctetString(signatureValue),
                    unsignedAttrs);
            ContentInfo encap = new ContentInfo(CMSObjectIdentifiers.data,
                    encapsulatedContent == null ? null : new DEROctetString(encapsulatedContent));
            SignedData sd = new SignedData(new DERSet(digestId), encap, new DERSet(certs), null, new DERSet(si));
            return new ContentInfo(CMSObjectIdentifiers.signedData, sd).getEncoded(ASN1Encoding.DER);
        } catch (IOException | java.security.cert.CertificateEncodingException e) {
            throw new PkiException(PkiException.SIGNING_ERROR, "cannot encode the CMS", e);
        }
    }

    // ---- two-step state ----

    /** A serialized two-step state: a DER SEQUENCE of tagged fields. */
    static byte[] encodeState(String kind, String digest, SignOptions.Level level, boolean attached,
            byte[] signedAttrs, List<X509Certificate> chain, byte[] document, long... numbers) {
        try {
            ASN1EncodableVector v = new ASN1EncodableVector();
            v.add(new ASN1Integer(1));
            v.add(new DERUTF8String(kind));
            v.add(new DERUTF8String(digest));
            v.add(new DERUTF8String(level.name()));
            v.add(new ASN1Integer(attached ? 1 : 0));
            v.add(new DEROctetString(signedAttrs));
            ASN1EncodableVector certs = new ASN1EncodableVector();
            for (X509Certificate c : chain) {
                certs.add(new DEROctetString(c.getEncoded()));
            }
            v.add(new DERSequence(certs));
            v.add(new DEROctetString(document == null ? new byte[0] : document));
            ASN1EncodableVector nums = new ASN1EncodableVector();
            for (long n : numbers) {
                nums.add(new ASN1Integer(n));
            }
            v.add(new DERSequence(nums));
            return new DERSequence(v).getEncoded(ASN1Encoding.DER);
        } catch (IOException | java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException("cannot encode state", e);
        }
    }

    /** The decoded fields of {@link #encodeState}. */
    static final class State {
        String digest;
        SignOptions.Level level;
        boolean attached;
        byte[] signedAttrs;
        List<X509Certificate> chain;
        byte[] document;
        long[] numbers;
    }

    static State decodeState(String kind, byte[] state) throws PkiException {
        try {
            ASN1Sequence s = ASN1Sequence.getInstance(ASN1Primitive.fromByteArray(state));
            if (ASN1Integer.getInstance(s.getObjectAt(0)).intValueExact() != 1
                    || !kind.equals(DERUTF8String.getInstance(s.getObjectAt(1)).getString())) {
                throw new IllegalArgumentException("not a " + kind + " state");
            }
            State st = new State();
            st.digest = SignOptions.normalizeDigest(DERUTF8String.getInstance(s.getObjectAt(2)).getString());
            st.level = SignOptions.Level.valueOf(DERUTF8String.getInstance(s.getObjectAt(3)).getString());
            st.attached = ASN1Integer.getInstance(s.getObjectAt(4)).intValueExact() == 1;
            st.signedAttrs = ASN1OctetString.getInstance(s.getObjectAt(5)).getOctets();
            ASN1Set.getInstance(ASN1Primitive.fromByteArray(st.signedAttrs));
            CertificateFactory cf = CertificateFactory.getInstance("X.509", BC);
            List<X509Certificate> chain = new ArrayList<>();
            for (ASN1Encodable e : ASN1Sequence.getInstance(s.getObjectAt(6))) {
                chain.add((X509Certificate) cf.generateCertificate(
                        new java.io.ByteArrayInputStream(ASN1OctetString.getInstance(e).getOctets())));
            }
            if (chain.isEmpty()) {
                throw new IllegalArgumentException("no certificate");
            }
            st.chain = List.copyOf(chain);
            st.document = ASN1OctetString.getInstance(s.getObjectAt(7)).getOctets();
            ASN1Sequence nums = ASN1Sequence.getInstance(s.getObjectAt(8));
            st.numbers = new long[nums.size()];
            for (int i = 0; i < nums.size(); i++) {
                st.numbers[i] = ASN1Integer.getInstance(nums.getObjectAt(i)).longValueExact();
            }
            return st;
        } catch (IOException | RuntimeException | CertificateException e) {
            throw new PkiException(PkiException.INVALID_DOCUMENT, "not a valid two-step state", e);
        }
    }

    static BigInteger serial(X509Certificate c) {
        return c.getSerialNumber();
    }
}
