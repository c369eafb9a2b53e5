package org.trustload.labkit.pki;

import java.io.IOException;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.util.Date;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.cmp.PKIFailureInfo;
import org.bouncycastle.asn1.cmp.PKIFreeText;
import org.bouncycastle.asn1.cmp.PKIStatus;
import org.bouncycastle.asn1.cmp.PKIStatusInfo;
import org.bouncycastle.asn1.gm.GMObjectIdentifiers;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.oiw.OIWObjectIdentifiers;
import org.bouncycastle.asn1.tsp.TimeStampResp;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.cert.jcajce.JcaCertStore;
import org.bouncycastle.cms.SignerInfoGenerator;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoGeneratorBuilder;
import org.bouncycastle.operator.DigestCalculator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.bouncycastle.tsp.TSPException;
import org.bouncycastle.tsp.TSPValidationException;
import org.bouncycastle.tsp.TimeStampRequest;
import org.bouncycastle.tsp.TimeStampRequestGenerator;
import org.bouncycastle.tsp.TimeStampResponse;
import org.bouncycastle.tsp.TimeStampResponseGenerator;
import org.bouncycastle.tsp.TimeStampTokenGenerator;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;
import org.trustload.pki.TimestampClient;
import org.trustload.pki.TimestampSource;

/**
 * A minimal RFC 3161 time-stamping authority on BouncyCastle, for the lab's TSA endpoint and for
 * tests: {@link #respond(byte[])} turns a DER {@code TimeStampReq} into a DER {@code
 * TimeStampResp}. Tokens are signed with the TSA key (SHA-256, or SM3 for SM2 keys), carry an
 * ESSCertIDv2 for the TSA certificate and, when the request asks for it, the TSA's chain.
 *
 * <p>A malformed request, an unaccepted digest algorithm or a policy other than this TSA's gets a
 * rejection response (status 2 with a failure reason), never an exception: that is what a real TSA
 * answers and what clients under test must handle.
 *
 * <p>Thread-safe: each response builds its own signer, since BouncyCastle content signers keep
 * per-signature state.
 */
public final class TimestampResponder implements TimestampSource {

    /** The policy OID the lab's TSA uses unless told otherwise (under the {@code 2.999} example arc). */
    public static final String DEFAULT_POLICY = "2.999.3161.1";

    private static final Set<ASN1ObjectIdentifier> ACCEPTED_DIGESTS = Set.of(OIWObjectIdentifiers.idSHA1,
            NISTObjectIdentifiers.id_sha224, NISTObjectIdentifiers.id_sha256, NISTObjectIdentifiers.id_sha384,
            NISTObjectIdentifiers.id_sha512, GMObjectIdentifiers.sm3);

    private final KeyMaterial tsa;
    private final ASN1ObjectIdentifier policy;
    private final JcaCertStore certificates;
    private final String signatureAlgorithm;
    /** Serial numbers unique across restarts of the same TSA: they start at the start-up time in microseconds. */
    private final AtomicLong serial = new AtomicLong(System.currentTimeMillis() * 1000);
    private final SecureRandom random = new SecureRandom();

    /**
     * @param tsa       the TSA key; its certificate should carry the critical id-kp-timeStamping EKU
     * @param policyOid the TSA policy put into every token and the only one accepted in requests
     */
    public TimestampResponder(KeyMaterial tsa, String policyOid) throws PkiException {
        this.tsa = tsa;
        try {
            this.policy = new ASN1ObjectIdentifier(policyOid);
            this.certificates = new JcaCertStore(tsa.chain());
        } catch (IllegalArgumentException | CertificateEncodingException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "bad TSA settings", e.toString(), e);
        }
        this.signatureAlgorithm = tsa.signatureAlgorithm(tsa.keyAlgorithm().equals("SM2") ? "SM3" : "SHA-256");
    }

    /**
     * Answers one request.
     *
     * @param requestDer a DER {@code TimeStampReq}
     * @return a DER {@code TimeStampResp}: granted with a token, or a rejection
     */
    public byte[] respond(byte[] requestDer) {
        try {
            TimeStampRequest request;
            try {
                request = new TimeStampRequest(requestDer);
            } catch (IOException | RuntimeException e) {
                return failure(PKIFailureInfo.badDataFormat, "request is not a TimeStampReq");
            }
            TimeStampResponseGenerator generator = new TimeStampResponseGenerator(tokenGenerator(),
                    ACCEPTED_DIGESTS, Set.of(policy));
            try {
                return generator.generateGrantedResponse(request, BigInteger.valueOf(serial.incrementAndGet()),
                        new Date()).getEncoded();
            } catch (TSPValidationException e) {
                return failure(e.getFailureCode(), e.getMessage());
            } catch (TSPException e) {
                return failure(PKIFailureInfo.systemFailure, "cannot create token");
            }
        } catch (IOException | TSPException | OperatorCreationException | CertificateEncodingException
                 | RuntimeException e) {
            try {
                return failure(PKIFailureInfo.systemFailure, "internal error");
            } catch (IOException inner) {
                throw new IllegalStateException("cannot encode a failure response", inner);
            }
        }
    }

    /** In-process timestamping: builds a request with a nonce, answers it, returns the token. */
    @Override
    public byte[] timestamp(byte[] imprint, String digestAlgorithm) throws PkiException {
        TimeStampRequestGenerator g = new TimeStampRequestGenerator();
        g.setCertReq(true);
        TimeStampRequest request = g.generate(TimestampClient.digestAlgorithm(digestAlgorithm), imprint,
                new BigInteger(64, random));
        try {
            TimeStampResponse response = new TimeStampResponse(respond(request.getEncoded()));
            response.validate(request);
            return response.getTimeStampToken().getEncoded();
        } catch (IOException | TSPException e) {
            throw new PkiException(PkiException.TSA_ERROR, "TSA refused the request", e.toString(), e);
        }
    }

    private TimeStampTokenGenerator tokenGenerator()
            throws OperatorCreationException, TSPException, CertificateEncodingException {
        JcaSimpleSignerInfoGeneratorBuilder b = new JcaSimpleSignerInfoGeneratorBuilder();
        if (tsa.provider() != null) {
            b.setProvider(tsa.provider());
        }
        SignerInfoGenerator signer = b.build(signatureAlgorithm, tsa.privateKey(), tsa.certificate());
        // SHA-256 for the ESSCertIDv2 of the TSA certificate (RFC 5816)
        DigestCalculator certIdDigest = new JcaDigestCalculatorProviderBuilder().build()
                .get(new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha256));
        TimeStampTokenGenerator g = new TimeStampTokenGenerator(signer, certIdDigest, policy);
        g.addCertificates(certificates);
        return g;
    }

    /** Built by hand so that failing to build a token generator cannot prevent the failure answer. */
    private static byte[] failure(int failInfo, String text) throws IOException {
        PKIStatusInfo status = new PKIStatusInfo(PKIStatus.rejection, new PKIFreeText(text),
                new PKIFailureInfo(failInfo));
        return new TimeStampResp(status, null).getEncoded(ASN1Encoding.DER);
    }
}
