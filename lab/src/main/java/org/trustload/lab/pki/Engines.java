package org.trustload.lab.pki;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import org.trustload.pki.CadesSigner;
import org.trustload.pki.PadesSigner;
import org.trustload.pki.PkiException;
import org.trustload.pki.SamplePdf;
import org.trustload.pki.SignOptions;
import org.trustload.pki.TestPki;
import org.trustload.pki.TimestampResponder;

/**
 * Every call the lab makes into the lib's PKI engines, in one place: the lib's API is young, and
 * this is the only class to adapt when it changes.
 */
final class Engines {
    private Engines() {
    }

    /** A prepared two-step signature: the bytes the client signs and how to finish. */
    interface Pending {
        byte[] toBeSigned();

        String signatureAlgorithm();

        byte[] complete(byte[] signatureValue) throws PkiException;
    }

    static TestPki.Spec spec(long seed, int users, String crlBaseUrl) {
        return new TestPki.Spec().withSeed(seed).withCas(PkiLabService.CAS).withUsers(users)
                .withKeyType(TestPki.KeyType.P256).withCrlBaseUrl(crlBaseUrl);
    }

    static void generate(TestPki.Spec spec, Path dir) throws PkiException {
        TestPki.generate(spec, dir);
    }

    static TestPki load(Path dir) throws PkiException {
        return TestPki.load(dir);
    }

    static byte[] samplePdf(int bytes) throws PkiException {
        return SamplePdf.generate(bytes);
    }

    static Pending prepareCades(byte[] content, List<X509Certificate> chain, SignOptions opts) throws PkiException {
        CadesSigner.Prepared p = CadesSigner.prepare(content, chain, opts);
        return wrap(p.toBeSigned(), p.signatureAlgorithm(), p::complete);
    }

    static Pending preparePades(byte[] pdf, List<X509Certificate> chain, SignOptions opts) throws PkiException {
        PadesSigner.Prepared p = PadesSigner.prepare(pdf, chain, opts);
        return wrap(p.toBeSigned(), p.signatureAlgorithm(), p::complete);
    }

    static TimestampResponder responder(TestPki pki) throws PkiException {
        return new TimestampResponder(pki.tsaKey(), TimestampResponder.DEFAULT_POLICY);
    }

    private interface Completer {
        byte[] complete(byte[] signatureValue) throws PkiException;
    }

    /**
     * True when {@code value} is a valid signature of {@code data} by {@code key}. Uses the given
     * provider (BouncyCastle: several times cheaper than SunEC for verification) when it has the
     * algorithm, else the JVM's default. A malformed value, or an algorithm that does not fit the
     * key, is a wrong signature, not an error.
     */
    static boolean verifies(java.security.Provider provider, String algorithm, java.security.PublicKey key,
            byte[] data, byte[] value) throws ApiException {
        java.security.Signature v;
        try {
            v = provider != null ? java.security.Signature.getInstance(algorithm, provider)
                    : java.security.Signature.getInstance(algorithm);
        } catch (java.security.GeneralSecurityException e) {
            try {
                v = java.security.Signature.getInstance(algorithm);
            } catch (java.security.GeneralSecurityException e2) {
                throw new ApiException(500, ApiException.INTERNAL_ERROR, "no verifier for " + algorithm, e2);
            }
        }
        try {
            v.initVerify(key);
            v.update(data);
            return v.verify(value);
        } catch (java.security.GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    private static Pending wrap(byte[] tbs, String alg, Completer c) {
        return new Pending() {
            @Override
            public byte[] toBeSigned() {
                return tbs;
            }

            @Override
            public String signatureAlgorithm() {
                return alg;
            }

            @Override
            public byte[] complete(byte[] signatureValue) throws PkiException {
                return c.complete(signatureValue);
            }
        };
    }
}
