package org.trustload.pki;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.cms.Attribute;
import org.bouncycastle.asn1.cms.AttributeTable;
import org.bouncycastle.asn1.cms.CMSAttributes;
import org.bouncycastle.asn1.cms.ContentInfo;
import org.bouncycastle.asn1.cms.Time;
import org.bouncycastle.asn1.ess.ESSCertID;
import org.bouncycastle.asn1.ess.ESSCertIDv2;
import org.bouncycastle.asn1.ess.SigningCertificate;
import org.bouncycastle.asn1.ess.SigningCertificateV2;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cms.CMSException;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.CMSSignerDigestMismatchException;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.asn1.tsp.TimeStampResp;
import org.bouncycastle.tsp.TimeStampResponse;
import org.bouncycastle.tsp.TimeStampToken;
import org.bouncycastle.util.Store;

/**
 * Validates CAdES signatures, every signature of a PDF and RFC 3161 tokens against given trust anchors and
 * optional CRLs: signature value, content digest, signing-certificate attribute, and the signer's path by PKIX
 * ({@link ChainValidator}), a -T signature's at its timestamp's time. No DSS, no rendering, no network, no OCSP.
 * Thread-safe: build one per trust configuration and share it. What is checked and when:
 * docs/elements/signature-assertion.md.
 */
public final class SignatureValidator {
    private static final int CACHE_LIMIT = 8192;

    private final Set<X509Certificate> anchors;
    private final ChainValidator chains;
    private final List<X509CRL> crls;
    private final Instant checkTime;

    /** Anchors only, no revocation checks, checked at the current time. */
    public SignatureValidator(List<X509Certificate> trustAnchors) {
        this(trustAnchors, null, null);
    }

    /**
     * @param trustAnchors trusted CA (or self-signed signer) certificates
     * @param crls         CRLs of the CAs, or null/empty for no revocation checks; when given, every
     *                     certificate of a path needs a current CRL of its issuer among them
     * @param checkTime    when to check validity and revocation, or null for "now" at each validation
     */
    public SignatureValidator(List<X509Certificate> trustAnchors, List<X509CRL> crls, Instant checkTime) {
        this.anchors = Set.copyOf(trustAnchors);
        this.chains = new ChainValidator(trustAnchors);
        this.crls = crls == null || crls.isEmpty() ? null : List.copyOf(crls);
        this.checkTime = checkTime;
    }

    private Date now() {
        return Date.from(checkTime != null ? checkTime : Instant.now());
    }

    // ------------------------------------------------------------------ CAdES

    /**
     * Validates a CMS SignedData (CAdES-BES/-T or plain CMS).
     *
     * @param detachedContentOrNull the signed content when the CMS is detached, else null
     */
    public ValidationReport validateCades(byte[] cms, byte[] detachedContentOrNull) {
        CMSSignedData sd;
        try {
            sd = detachedContentOrNull == null ? new CMSSignedData(cms)
                    : new CMSSignedData(new CMSProcessableByteArray(detachedContentOrNull), cms);
        } catch (CMSException | RuntimeException e) {
            return ValidationReport.failed(ValidationReport.INVALID_DOCUMENT);
        }
        return validateSignedData(sd, sd.getSignedContent() != null, null);
    }

    private ValidationReport validateSignedData(CMSSignedData sd, boolean haveContent, Instant fallbackTime) {
        Collection<SignerInformation> signers = sd.getSignerInfos().getSigners();
        if (signers.isEmpty()) {
            return ValidationReport.failed(ValidationReport.NO_SIGNATURE);
        }
        Set<String> problems = new LinkedHashSet<>();
        @SuppressWarnings("unchecked")
        Store<X509CertificateHolder> store = sd.getCertificates();
        List<X509Certificate> extra = new ArrayList<>();
        ValidationReport first = null;
        for (SignerInformation si : signers) {
            ValidationReport r = validateSigner(si, store, extra, haveContent, fallbackTime);
            problems.addAll(r.problems());
            if (first == null) {
                first = r;
            }
        }
        return new ValidationReport(new ArrayList<>(problems), first.signer(), first.digestAlgorithm(),
                first.signingTime(), first.timestamped(), first.timestampTime(), null);
    }

    private ValidationReport validateSigner(SignerInformation si, Store<X509CertificateHolder> store,
            List<X509Certificate> extra, boolean haveContent, Instant fallbackTime) {
        Set<String> problems = new LinkedHashSet<>();
        String digest = CmsSupport.digestName(si.getDigestAlgorithmID().getAlgorithm());
        Instant signingTime = fallbackTime;
        AttributeTable signed = si.getSignedAttributes();
        if (signed != null) {
            Attribute st = signed.get(CMSAttributes.signingTime);
            if (st != null && st.getAttrValues().size() == 1) {
                try {
                    signingTime = Time.getInstance(st.getAttrValues().getObjectAt(0)).getDate().toInstant();
                } catch (RuntimeException e) {
                    problems.add(ValidationReport.INVALID_DOCUMENT);
                }
            }
        }
        if (extra.isEmpty()) {
            for (X509CertificateHolder h : store.getMatches(null)) {
                X509Certificate c = toX509(h);
                if (c != null) {
                    extra.add(c);
                }
            }
        }
        @SuppressWarnings("unchecked")
        Collection<X509CertificateHolder> matches = store.getMatches(si.getSID());
        X509Certificate cert = matches.isEmpty() ? null : toX509(matches.iterator().next());
        if (cert == null) {
            problems.add(ValidationReport.SIGNER_CERT_MISSING);
            return new ValidationReport(new ArrayList<>(problems), null, digest, signingTime, false, null, null);
        }
        if (!haveContent) {
            problems.add(ValidationReport.CONTENT_MISSING);
        } else {
            try {
                if (!si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider(CmsSupport.BC)
                        .build(cert.getPublicKey()))) {
                    problems.add(ValidationReport.SIGNATURE_INVALID);
                }
            } catch (CMSSignerDigestMismatchException e) {
                problems.add(ValidationReport.MODIFIED);
            } catch (CMSException | OperatorCreationException | RuntimeException e) {
                problems.add(ValidationReport.SIGNATURE_INVALID);
            }
        }
        if (signed != null && !signingCertificateMatches(signed, cert)) {
            problems.add(ValidationReport.SIGNING_CERT_MISMATCH);
        }

        boolean timestamped = false;
        Instant tsTime = null;
        AttributeTable unsigned = si.getUnsignedAttributes();
        Attribute tsAttr = unsigned == null ? null : unsigned.get(PKCSObjectIdentifiers.id_aa_signatureTimeStampToken);
        boolean timestampInvalid = false;
        if (tsAttr != null) {
            ValidationReport tr = validateToken(tsAttr.getAttrValues().getObjectAt(0), si.getSignature(), null);
            if (tr.valid()) {
                timestamped = true;
                tsTime = tr.timestampTime();
            } else {
                timestampInvalid = true;
            }
        }
        // a valid signature timestamp proves the signature existed at its genTime: validate the signer there
        Date at = timestamped ? Date.from(tsTime) : now();
        ChainValidator.Outcome chain = chains.validate(cert, extra, crls, at, ChainValidator.Usage.SIGNATURE);
        if (!chain.valid()) {
            problems.add(chain.problem().message());
        }
        if (timestampInvalid) {
            problems.add(ValidationReport.TIMESTAMP_INVALID);
        }
        return new ValidationReport(new ArrayList<>(problems), cert.getSubjectX500Principal().getName(), digest,
                signingTime, timestamped, tsTime, null);
    }

    private static boolean signingCertificateMatches(AttributeTable signed, X509Certificate cert) {
        try {
            Attribute v2 = signed.get(PKCSObjectIdentifiers.id_aa_signingCertificateV2);
            if (v2 != null) {
                ESSCertIDv2 id = SigningCertificateV2.getInstance(v2.getAttrValues().getObjectAt(0)).getCerts()[0];
                String alg = CmsSupport.digestName(id.getHashAlgorithm().getAlgorithm());
                return Arrays.equals(id.getCertHash(), CmsSupport.digest(alg, cert.getEncoded()));
            }
            Attribute v1 = signed.get(PKCSObjectIdentifiers.id_aa_signingCertificate);
            if (v1 != null) {
                ESSCertID id = SigningCertificate.getInstance(v1.getAttrValues().getObjectAt(0)).getCerts()[0];
                return Arrays.equals(id.getCertHash(), MessageDigest.getInstance("SHA-1").digest(cert.getEncoded()));
            }
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    // ------------------------------------------------------------------ timestamps

    /**
     * Validates an RFC 3161 token (or a whole TimeStampResp): its signature, its TSA certificate's path (to
     * the anchors, with the CRLs, critical extended key usage id-kp-timeStamping) at the validation time,
     * and, when {@code dataOrNull} is given, that its message imprint is the digest of that data.
     */
    public ValidationReport validateTimestamp(byte[] tokenDer, byte[] dataOrNull) {
        ASN1Encodable ci;
        try {
            ci = ASN1Primitive.fromByteArray(tokenDer);
        } catch (IOException | RuntimeException e) {
            return ValidationReport.failed(ValidationReport.INVALID_DOCUMENT);
        }
        return validateToken(ci, null, dataOrNull);
    }

    /** One of {@code signatureValue} (imprint over it) or {@code data} (imprint over it) or neither. */
    private ValidationReport validateToken(ASN1Encodable tokenInfo, byte[] signatureValue, byte[] data) {
        TimeStampToken tst;
        try {
            tst = new TimeStampToken(ContentInfo.getInstance(tokenInfo));
        } catch (Exception e) {
            try {
                // a whole TimeStampResp (what a TSA answers over HTTP): its token
                tst = new TimeStampResponse(TimeStampResp.getInstance(tokenInfo)).getTimeStampToken();
            } catch (Exception e2) {
                tst = null;
            }
            if (tst == null) {
                return ValidationReport.failed(ValidationReport.INVALID_DOCUMENT);
            }
        }
        Set<String> problems = new LinkedHashSet<>();
        String digest = CmsSupport.digestName(tst.getTimeStampInfo().getMessageImprintAlgOID());
        Instant genTime = tst.getTimeStampInfo().getGenTime().toInstant();
        byte[] imprintOver = signatureValue != null ? signatureValue : data;
        if (imprintOver != null) {
            try {
                if (!Arrays.equals(tst.getTimeStampInfo().getMessageImprintDigest(),
                        CmsSupport.digest(digest, imprintOver))) {
                    problems.add(ValidationReport.TIMESTAMP_INVALID);
                }
            } catch (RuntimeException e) {
                problems.add(ValidationReport.TIMESTAMP_INVALID);
            }
        }
        @SuppressWarnings("unchecked")
        Store<X509CertificateHolder> store = tst.getCertificates();
        @SuppressWarnings("unchecked")
        Collection<X509CertificateHolder> matches = store.getMatches(tst.getSID());
        X509CertificateHolder holder = matches.isEmpty() ? null : matches.iterator().next();
        if (holder == null) {
            for (X509Certificate a : anchors) {
                try {
                    X509CertificateHolder h = new X509CertificateHolder(a.getEncoded());
                    if (tst.getSID().match(h)) {
                        holder = h;
                    }
                } catch (Exception e) {
                    // skip
                }
            }
        }
        X509Certificate tsa = holder == null ? null : toX509(holder);
        if (tsa == null) {
            problems.add(ValidationReport.SIGNER_CERT_MISSING);
            return new ValidationReport(new ArrayList<>(problems), null, digest, genTime, false, genTime, null);
        }
        try {
            tst.validate(new JcaSimpleSignerInfoVerifierBuilder().setProvider(CmsSupport.BC).build(holder));
        } catch (Exception e) {
            problems.add(ValidationReport.TIMESTAMP_INVALID);
        }
        List<X509Certificate> extra = new ArrayList<>();
        for (X509CertificateHolder h : store.getMatches(null)) {
            X509Certificate c = toX509(h);
            if (c != null) {
                extra.add(c);
            }
        }
        ChainValidator.Outcome chain = chains.validate(tsa, extra, crls, now(), ChainValidator.Usage.TIMESTAMPING);
        if (!chain.valid()) {
            problems.add(chain.problem().message());
        }
        return new ValidationReport(new ArrayList<>(problems), tsa.getSubjectX500Principal().getName(), digest,
                genTime, problems.isEmpty(), genTime, null);
    }

    // ------------------------------------------------------------------ PAdES

    /**
     * Validates every signature of a PDF: the ByteRange (starts at 0, the gap is exactly the hex
     * /Contents, and the newest signature reaches the end of the file), the CMS over the ranges, the
     * signer's chain and revocation, and the signature timestamp when present. Document timestamps
     * ({@code ETSI.RFC3161}) are validated as tokens over their ranges.
     */
    public ValidationReport validatePades(byte[] pdf) {
        List<ValidationReport> reports = new ArrayList<>();
        List<int[]> ranges = new ArrayList<>();
        try (PDDocument doc = Loader.loadPDF(pdf)) {
            for (PDSignature sig : doc.getSignatureDictionaries()) {
                int[] br = sig.getByteRange();
                ranges.add(br);
                reports.add(validatePdfSignature(pdf, sig, br));
            }
        } catch (IOException | RuntimeException e) {
            return ValidationReport.failed(ValidationReport.INVALID_DOCUMENT);
        }
        if (reports.isEmpty()) {
            return ValidationReport.failed(ValidationReport.NO_SIGNATURE);
        }
        long maxEnd = 0;
        for (int[] br : ranges) {
            if (br != null && br.length == 4) {
                maxEnd = Math.max(maxEnd, (long) br[2] + br[3]);
            }
        }
        Set<String> problems = new LinkedHashSet<>();
        ValidationReport newest = reports.get(0);
        long newestEnd = -1;
        for (int i = 0; i < reports.size(); i++) {
            problems.addAll(reports.get(i).problems());
            int[] br = ranges.get(i);
            if (br != null && br.length == 4 && (long) br[2] + br[3] > newestEnd) {
                newestEnd = (long) br[2] + br[3];
                newest = reports.get(i);
            }
        }
        if (maxEnd != pdf.length) {
            problems.add(ValidationReport.MODIFIED);
        }
        return new ValidationReport(new ArrayList<>(problems), newest.signer(), newest.digestAlgorithm(),
                newest.signingTime(), newest.timestamped(), newest.timestampTime(), reports);
    }

    private ValidationReport validatePdfSignature(byte[] pdf, PDSignature sig, int[] br) {
        if (br == null || br.length != 4 || br[0] != 0 || br[1] <= 0 || br[2] <= br[1] + 1 || br[3] < 0
                || (long) br[2] + br[3] > pdf.length || pdf[br[1]] != '<' || pdf[br[2] - 1] != '>') {
            return ValidationReport.failed(ValidationReport.BAD_BYTE_RANGE);
        }
        byte[] contents = hexToBytes(pdf, br[1] + 1, br[2] - 1);
        if (contents == null) {
            return ValidationReport.failed(ValidationReport.BAD_BYTE_RANGE);
        }
        byte[] signedBytes = new byte[br[1] + br[3]];
        System.arraycopy(pdf, 0, signedBytes, 0, br[1]);
        System.arraycopy(pdf, br[2], signedBytes, br[1], br[3]);
        String subFilter = sig.getSubFilter();
        if ("ETSI.RFC3161".equals(subFilter)) {
            return validateTimestamp(contents, signedBytes);
        }
        if (!"ETSI.CAdES.detached".equals(subFilter) && !"adbe.pkcs7.detached".equals(subFilter)) {
            return ValidationReport.failed(ValidationReport.UNSUPPORTED);
        }
        CMSSignedData sd;
        try {
            sd = new CMSSignedData(new CMSProcessableByteArray(signedBytes), contents);
        } catch (CMSException | RuntimeException e) {
            return ValidationReport.failed(ValidationReport.INVALID_DOCUMENT);
        }
        Instant m = sig.getSignDate() == null ? null : sig.getSignDate().toInstant();
        return validateSignedData(sd, true, m);
    }

    /** Hex digits to bytes, cut to the DER length of the first object (the rest is zero padding). */
    private static byte[] hexToBytes(byte[] src, int from, int to) {
        int n = to - from;
        if (n % 2 != 0) {
            return null;
        }
        byte[] out = new byte[n / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(src[from + 2 * i], 16);
            int lo = Character.digit(src[from + 2 * i + 1], 16);
            if (hi < 0 || lo < 0) {
                return null;
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        int len = derLength(out);
        return len > 0 && len < out.length ? Arrays.copyOf(out, len) : out;
    }

    private static int derLength(byte[] b) {
        if (b.length < 2 || b[0] != 0x30) {
            return -1;
        }
        int l = b[1] & 0xFF;
        if (l < 0x80) {
            return 2 + l;
        }
        int k = l & 0x7F;
        if (k == 0 || k > 4 || b.length < 2 + k) {
            return -1;
        }
        long len = 0;
        for (int i = 0; i < k; i++) {
            len = len << 8 | (b[2 + i] & 0xFF);
        }
        long total = 2 + k + len;
        return total > Integer.MAX_VALUE ? -1 : (int) total;
    }

    // ------------------------------------------------------------------ certificates

    /** Parsed certificates by encoding: the same few CA and user certificates arrive in every CMS. */
    private final Map<ByteBuffer, X509Certificate> parsed = new ConcurrentHashMap<>();

    private X509Certificate toX509(X509CertificateHolder h) {
        try {
            ByteBuffer key = ByteBuffer.wrap(h.getEncoded());
            X509Certificate c = parsed.get(key);
            if (c == null) {
                c = (X509Certificate) CertificateFactory.getInstance("X.509", CmsSupport.BC)
                        .generateCertificate(new ByteArrayInputStream(key.array()));
                if (parsed.size() > CACHE_LIMIT) {
                    parsed.clear();
                }
                parsed.put(key, c);
            }
            return c;
        } catch (Exception e) {
            return null;
        }
    }
}
