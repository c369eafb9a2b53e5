package org.trustload.pki;

import java.math.BigInteger;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.gm.GMObjectIdentifiers;
import org.bouncycastle.cert.jcajce.JcaCertStore;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoGeneratorBuilder;
import org.bouncycastle.operator.DigestCalculator;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.bouncycastle.tsp.TimeStampRequest;
import org.bouncycastle.tsp.TimeStampRequestGenerator;
import org.bouncycastle.tsp.TimeStampResponse;
import org.bouncycastle.tsp.TimeStampResponseGenerator;
import org.bouncycastle.tsp.TimeStampTokenGenerator;

/** An in-process RFC 3161 TSA on BouncyCastle's TimeStampResponseGenerator, for CAdES-T/PAdES-T tests. */
public final class TestTsa implements TimestampSource {
    private final KeyMaterial key;
    private final AtomicLong serial = new AtomicLong(1);
    private final TimeStampResponseGenerator generator;

    TestTsa(KeyMaterial key) {
        this.key = key;
        try {
            DigestCalculator sha256 = new JcaDigestCalculatorProviderBuilder().setProvider(TestKeys.BC).build()
                    .get(new org.bouncycastle.asn1.x509.AlgorithmIdentifier(NISTObjectIdentifiers.id_sha256));
            TimeStampTokenGenerator tg = new TimeStampTokenGenerator(
                    new JcaSimpleSignerInfoGeneratorBuilder().setProvider(TestKeys.BC)
                            .build(key.signatureAlgorithm("SHA-256"), key.privateKey(), key.certificate()),
                    sha256, new ASN1ObjectIdentifier("1.3.6.1.4.1.99999.1.1"));
            tg.addCertificates(new JcaCertStore(key.chain()));
            generator = new TimeStampResponseGenerator(tg, TSPAlgorithmsAll.ALL);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The TSA's certificate chain. */
    List<java.security.cert.X509Certificate> chain() {
        return key.chain();
    }

    @Override
    public byte[] timestamp(byte[] imprint, String digestAlgorithm) throws PkiException {
        try {
            TimeStampRequestGenerator rg = new TimeStampRequestGenerator();
            rg.setCertReq(true);
            ASN1ObjectIdentifier alg = switch (digestAlgorithm) {
                case "SHA-256" -> NISTObjectIdentifiers.id_sha256;
                case "SHA-384" -> NISTObjectIdentifiers.id_sha384;
                case "SHA-512" -> NISTObjectIdentifiers.id_sha512;
                case "SM3" -> GMObjectIdentifiers.sm3;
                default -> throw new IllegalArgumentException(digestAlgorithm);
            };
            TimeStampRequest req = rg.generate(alg, imprint, BigInteger.valueOf(System.nanoTime()));
            TimeStampResponse resp = generator.generate(req, BigInteger.valueOf(serial.getAndIncrement()), new Date());
            if (resp.getTimeStampToken() == null) {
                throw new PkiException(PkiException.TSA_ERROR, "TSA refused", resp.getStatusString(), null);
            }
            return resp.getTimeStampToken().getEncoded();
        } catch (PkiException e) {
            throw e;
        } catch (Exception e) {
            throw new PkiException(PkiException.TSA_ERROR, "TSA failed", e);
        }
    }

    /** Digest algorithms the TSA accepts. */
    static final class TSPAlgorithmsAll {
        static final java.util.Set<ASN1ObjectIdentifier> ALL = java.util.Set.of(NISTObjectIdentifiers.id_sha256,
                NISTObjectIdentifiers.id_sha384, NISTObjectIdentifiers.id_sha512, GMObjectIdentifiers.sm3);

        private TSPAlgorithmsAll() {
        }
    }
}
