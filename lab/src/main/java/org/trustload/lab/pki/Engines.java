package org.trustload.lab.pki;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
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

        /** The digest of the signed attributes, e.g. {@code SHA-256}. */
        String digestAlgorithm();

        /** Checks the value against the signer's key (BouncyCastle) and assembles the signature. */
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
        return wrap(p.toBeSigned(), p.signatureAlgorithm(), p.digestAlgorithm(), p::complete);
    }

    static Pending preparePades(byte[] pdf, List<X509Certificate> chain, SignOptions opts) throws PkiException {
        PadesSigner.Prepared p = PadesSigner.prepare(pdf, chain, opts);
        return wrap(p.toBeSigned(), p.signatureAlgorithm(), p.digestAlgorithm(), p::complete);
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
    static boolean verifies(Provider provider, String algorithm, PublicKey key, byte[] data, byte[] value) {
        Signature v;
        try {
            v = Signature.getInstance(algorithm, provider);
        } catch (GeneralSecurityException e) {
            try {
                v = Signature.getInstance(algorithm);
            } catch (GeneralSecurityException e2) {
                return false;
            }
        }
        try {
            v.initVerify(key);
            v.update(data);
            return v.verify(value);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    private static Pending wrap(byte[] tbs, String alg, String digest, Completer c) {
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
            public String digestAlgorithm() {
                return digest;
            }

            @Override
            public byte[] complete(byte[] signatureValue) throws PkiException {
                return c.complete(signatureValue);
            }
        };
    }
}
