package org.trustload.pki;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXCertPathChecker;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import javax.security.auth.x500.X500Principal;

import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;

/**
 * Certification path validation (RFC 5280 section 6) to configured trust anchors with BouncyCastle's PKIX
 * {@link CertPathValidator}: issuer signatures, validity at a given time, basicConstraints (cA, pathLen),
 * the issuers' keyCertSign, unrecognised critical extensions, name constraints and policies, and — when CRLs
 * are given — revocation of every certificate of the path against its issuer's CRL. BouncyCastle's rather
 * than the JDK's because the JDK cannot parse SM2 public keys ({@code Unknown named curve
 * 1.2.156.10197.1.301}) and so rejects every SM2 chain. On top of PKIX it checks the end-entity
 * certificate's key usage for its {@link Usage}.
 *
 * <p>The path itself is assembled from the given certificates by issuer name (and authority key
 * identifier, when several candidates share a name) up to a trust anchor; PKIX then verifies it. Every
 * failure is one {@link Problem}: a stable code and message, the certificate it concerns, and
 * BouncyCastle's own words as detail. Thread-safe; build one per set of trust anchors and share it.
 */
public final class ChainValidator {
    /** Longest path (anchor excluded) the assembly follows. */
    static final int MAX_PATH = 10;

    /** What the end-entity certificate is used for, and so which key usage it needs. */
    public enum Usage {
        /**
         * CAdES/PAdES signatures and certificate login: when the certificate has a key usage extension it
         * must allow digitalSignature or nonRepudiation; an extended key usage is accepted as it is.
         */
        SIGNATURE,
        /**
         * RFC 3161 timestamp tokens (section 2.3): exactly one extended key usage, id-kp-timeStamping,
         * marked critical; a key usage, if present, must allow digitalSignature or nonRepudiation.
         */
        TIMESTAMPING
    }

    /** Why a path is not valid: a stable {@link #code()} (several problems may share one) and message. */
    public enum Problem {
        /** No path to a trust anchor, or an issuer's signature on a certificate does not verify. */
        UNTRUSTED("chain.untrusted", "certificate not trusted: no valid path to a trust anchor"),
        /** An issuer has no basicConstraints extension or cA=false (e.g. an end-entity certificate). */
        ISSUER_NOT_CA("chain.invalid", "issuer is not a CA: no basicConstraints cA=true"),
        /** An issuer's key usage lacks keyCertSign. */
        ISSUER_CANNOT_SIGN_CERTIFICATES("chain.invalid",
                "issuer may not sign certificates: key usage lacks keyCertSign"),
        /** More CA certificates below an issuer than its pathLenConstraint allows. */
        PATH_TOO_LONG("chain.invalid", "path too long: an issuer's pathLenConstraint is exceeded"),
        /** A certificate of the path carries a critical extension the validator does not process. */
        UNKNOWN_CRITICAL_EXTENSION("chain.invalid", "unrecognised critical extension in the chain"),
        /** Any other PKIX failure (name constraints, policies, malformed extensions …). */
        INVALID("chain.invalid", "chain fails PKIX validation"),
        /** The end-entity certificate has expired at the validation time. */
        EXPIRED("chain.expired", "certificate expired"),
        /** The end-entity certificate is not valid yet at the validation time. */
        NOT_YET_VALID("chain.expired", "certificate not yet valid"),
        /** A CA certificate of the path has expired at the validation time. */
        CA_EXPIRED("chain.expired", "CA certificate in the chain expired"),
        /** A CA certificate of the path is not valid yet at the validation time. */
        CA_NOT_YET_VALID("chain.expired", "CA certificate in the chain not yet valid"),
        /** The end-entity certificate is on its issuer's CRL. */
        REVOKED("chain.revoked", "certificate revoked"),
        /** A CA certificate of the path is on its issuer's CRL. */
        CA_REVOKED("chain.revoked", "CA certificate in the chain revoked"),
        /** CRLs are checked, and a certificate of the path has no current CRL of its issuer among them. */
        REVOCATION_UNKNOWN("chain.revocationUnknown",
                "revocation unknown: no current CRL for a certificate of the chain"),
        /** The end-entity certificate's key usage allows neither digitalSignature nor nonRepudiation. */
        KEY_USAGE("certificate.usage", "key usage does not permit signing: needs digitalSignature or nonRepudiation"),
        /** {@link Usage#TIMESTAMPING}: not exactly one critical extended key usage id-kp-timeStamping. */
        TIMESTAMPING_USAGE("certificate.usage",
                "not a TSA certificate: needs the one critical extended key usage id-kp-timeStamping");

        private final String code;
        private final String message;

        Problem(String code, String message) {
            this.code = code;
            this.message = message;
        }

        /** The stable category code, e.g. {@code chain.revoked}. */
        public String code() {
            return code;
        }

        /** The stable message, free of per-certificate values (so failures group well in reports). */
        public String message() {
            return message;
        }
    }

    /** The result of one validation: {@link #VALID}, or a problem with the certificate it concerns. */
    public static final class Outcome {
        /** A valid path. */
        public static final Outcome VALID = new Outcome(null, null, null);

        private final Problem problem;
        private final X509Certificate certificate;
        private final String detail;

        Outcome(Problem problem, X509Certificate certificate, String detail) {
            this.problem = problem;
            this.certificate = certificate;
            this.detail = detail;
        }

        /** True when the path is valid. */
        public boolean valid() {
            return problem == null;
        }

        /** The problem, or null when valid. */
        public Problem problem() {
            return problem;
        }

        /** The certificate the problem concerns, or null (no path, or valid). */
        public X509Certificate certificate() {
            return certificate;
        }

        /** The validator's own explanation (varies with the certificate: dates, names), or null. */
        public String detail() {
            return detail;
        }

        @Override
        public String toString() {
            return valid() ? "valid"
                    : problem.code() + ": " + problem.message() + (detail == null ? "" : " (" + detail + ")");
        }
    }

    private static final String KEY_USAGE_OID = Extension.keyUsage.getId();
    private static final String EXTENDED_KEY_USAGE_OID = Extension.extendedKeyUsage.getId();
    private static final String TIME_STAMPING_OID = KeyPurposeId.id_kp_timeStamping.getId();

    private final List<X509Certificate> anchors;
    /**
     * By encoding: the JDK's and BouncyCastle's certificate objects are equal when their encodings are, but
     * their hash codes differ, and the anchors (from a PEM file) and the certificates of a CMS (parsed by
     * BouncyCastle) often come from different factories.
     */
    private final Map<ByteBuffer, TrustAnchor> trustAnchors = new HashMap<>();
    private final Map<X500Principal, List<X509Certificate>> anchorsBySubject = new HashMap<>();
    private final VerificationCache signatures = new VerificationCache();

    /** @param anchorCertificates the trusted CA certificates (a directly trusted end-entity certificate works too) */
    public ChainValidator(Collection<X509Certificate> anchorCertificates) {
        this.anchors = List.copyOf(anchorCertificates);
        for (X509Certificate a : anchors) {
            // BouncyCastle's own objects: its PKIX then neither parses the anchor again nor converts its key
            X509Certificate bc = signatures.certificate(asBouncyCastle(a));
            trustAnchors.put(ByteBuffer.wrap(encoded(bc)), new TrustAnchor(bc, null));
            anchorsBySubject.computeIfAbsent(bc.getSubjectX500Principal(), k -> new ArrayList<>()).add(bc);
        }
    }

    private static X509Certificate asBouncyCastle(X509Certificate c) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509", CmsSupport.BC)
                    .generateCertificate(new ByteArrayInputStream(c.getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("trust anchor cannot be parsed: " + c.getSubjectX500Principal(), e);
        }
    }

    private static byte[] encoded(X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (java.security.cert.CertificateEncodingException e) {
            return new byte[0];
        }
    }

    /** The trust anchors, in the order given. */
    public List<X509Certificate> anchors() {
        return anchors;
    }

    /**
     * Assembles and validates the path of {@code target}.
     *
     * @param extra  other certificates that may belong to the path (from the CMS, the token, the client)
     * @param crls   the CRLs to check revocation against, or null for no revocation checking
     * @param at     the validation time
     */
    public Outcome validate(X509Certificate target, Collection<X509Certificate> extra, Collection<X509CRL> crls,
            Date at, Usage usage) {
        List<X509Certificate> path = path(target, extra);
        if (path == null) {
            return new Outcome(Problem.UNTRUSTED, target, "no issuer path to a trust anchor");
        }
        return validate(path, crls, at, usage);
    }

    /**
     * The path of {@code target} up to and including a trust anchor (target first, anchor last; just
     * {@code [target]} when it is an anchor itself), matched by issuer name and, among several candidates,
     * authority key identifier; null when it reaches no anchor. Nothing is verified here: {@link #validate}
     * does that.
     */
    public List<X509Certificate> path(X509Certificate target, Collection<X509Certificate> extra) {
        List<X509Certificate> path = new ArrayList<>();
        path.add(target);
        X509Certificate current = target;
        if (trustAnchors.containsKey(ByteBuffer.wrap(encoded(target)))) {
            return path;
        }
        while (path.size() <= MAX_PATH) {
            X509Certificate anchor = issuerAmong(current, anchorsBySubject.get(current.getIssuerX500Principal()));
            if (anchor != null) {
                path.add(anchor);
                return path;
            }
            List<X509Certificate> candidates = new ArrayList<>();
            if (extra != null) {
                for (X509Certificate c : extra) {
                    if (c.getSubjectX500Principal().equals(current.getIssuerX500Principal()) && !path.contains(c)) {
                        candidates.add(c);
                    }
                }
            }
            X509Certificate next = issuerAmong(current, candidates);
            if (next == null) {
                return null;
            }
            path.add(next);
            current = next;
        }
        return null;
    }

    /** The candidate whose subject key identifier matches {@code cert}'s authority key identifier, else the first. */
    private static X509Certificate issuerAmong(X509Certificate cert, List<X509Certificate> candidates) {
        if (candidates == null || candidates.isEmpty()) {
            return null;
        }
        if (candidates.size() > 1) {
            byte[] aki = authorityKeyId(cert);
            if (aki != null) {
                for (X509Certificate c : candidates) {
                    if (Arrays.equals(aki, subjectKeyId(c))) {
                        return c;
                    }
                }
            }
        }
        return candidates.get(0);
    }

    private static byte[] authorityKeyId(X509Certificate cert) {
        byte[] ext = cert.getExtensionValue(Extension.authorityKeyIdentifier.getId());
        try {
            return ext == null ? null
                    : AuthorityKeyIdentifier.getInstance(ASN1OctetString.getInstance(ext).getOctets())
                            .getKeyIdentifierOctets();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static byte[] subjectKeyId(X509Certificate cert) {
        byte[] ext = cert.getExtensionValue(Extension.subjectKeyIdentifier.getId());
        try {
            return ext == null ? null
                    : ASN1OctetString.getInstance(ASN1OctetString.getInstance(ext).getOctets()).getOctets();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Validates an assembled path (target first, a trust anchor last, as {@link #path} returns it) at
     * {@code at}.
     *
     * @param crls the CRLs to check every certificate of the path against (its issuer's current CRL must
     *             be among them), or null for no revocation checking
     */
    public Outcome validate(List<X509Certificate> path, Collection<X509CRL> crls, Date at, Usage usage) {
        X509Certificate target = path.get(0);
        X509Certificate anchorCert = path.get(path.size() - 1);
        TrustAnchor anchor = trustAnchors.get(ByteBuffer.wrap(encoded(anchorCert)));
        if (anchor == null) {
            return new Outcome(Problem.UNTRUSTED, anchorCert, "the path does not end at a trust anchor");
        }
        if (path.size() == 1) {
            // a directly trusted certificate: nothing to chain, only its own validity and usage
            try {
                target.checkValidity(at);
            } catch (CertificateExpiredException e) {
                return new Outcome(Problem.EXPIRED, target, e.getMessage());
            } catch (CertificateNotYetValidException e) {
                return new Outcome(Problem.NOT_YET_VALID, target, e.getMessage());
            }
            Problem p = usageProblem(target, usage, null);
            return p == null ? Outcome.VALID : new Outcome(p, target, null);
        }
        List<X509Certificate> chain = path.subList(0, path.size() - 1);
        List<X509Certificate> views = new ArrayList<>(chain.size());
        for (X509Certificate c : chain) {
            views.add(signatures.certificate(c));
        }
        try {
            CertPath certPath = CertificateFactory.getInstance("X.509", CmsSupport.BC).generateCertPath(views);
            PKIXParameters params = new PKIXParameters(Set.of(anchor));
            params.setDate(at);
            params.setRevocationEnabled(crls != null);
            if (crls != null) {
                List<X509CRL> crlViews = new ArrayList<>(crls.size());
                for (X509CRL crl : crls) {
                    crlViews.add(signatures.crl(crl));
                }
                params.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(crlViews)));
            }
            params.addCertPathChecker(new UsageChecker(views.get(0), usage));
            CertPathValidator.getInstance("PKIX", CmsSupport.BC).validate(certPath, params);
        } catch (CertPathValidatorException e) {
            return classify(e, chain);
        } catch (GeneralSecurityException | RuntimeException e) {
            return new Outcome(Problem.INVALID, target, e.toString());
        }
        // PKIX takes a trust anchor as it is (RFC 5280 section 6.1.1); an expired root is still worth saying
        try {
            signatures.certificate(anchorCert).checkValidity(at);
            return Outcome.VALID;
        } catch (CertificateExpiredException e) {
            return new Outcome(Problem.CA_EXPIRED, anchorCert, e.getMessage());
        } catch (CertificateNotYetValidException e) {
            return new Outcome(Problem.CA_NOT_YET_VALID, anchorCert, e.getMessage());
        }
    }

    /**
     * A stable problem for BouncyCastle's failure: by the exception it wraps (validity, our usage check),
     * else by its message (BouncyCastle 1.82's words, pinned by the negative table in the tests).
     */
    private static Outcome classify(CertPathValidatorException e, List<X509Certificate> chain) {
        int index = e.getIndex();
        X509Certificate cert = index >= 0 && index < chain.size() ? chain.get(index) : null;
        boolean ca = index > 0;
        String detail = e.getMessage();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UsageException) {
                return new Outcome(((UsageException) t).problem, chain.get(0), null);
            }
            if (t instanceof CertificateExpiredException) {
                return new Outcome(ca ? Problem.CA_EXPIRED : Problem.EXPIRED, cert, t.getMessage());
            }
            if (t instanceof CertificateNotYetValidException) {
                return new Outcome(ca ? Problem.CA_NOT_YET_VALID : Problem.NOT_YET_VALID, cert, t.getMessage());
            }
        }
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(' ').append(t.getMessage());
        }
        String m = all.toString().toLowerCase(Locale.ROOT);
        Problem p;
        if (m.contains("certificate revocation")) {
            p = ca ? Problem.CA_REVOKED : Problem.REVOKED;
        } else if (m.contains("crl") || m.contains("certificate status could not be determined")) {
            p = Problem.REVOCATION_UNKNOWN;
        } else if (m.contains("trust anchor") || m.contains("certificate signature")) {
            p = Problem.UNTRUSTED;
        } else if (m.contains("basicconstraints") || m.contains("not a ca")) {
            p = Problem.ISSUER_NOT_CA;
        } else if (m.contains("does not permit key signing") || m.contains("keycertsign")) {
            p = Problem.ISSUER_CANNOT_SIGN_CERTIFICATES;
        } else if (m.contains("path length")) {
            p = Problem.PATH_TOO_LONG;
        } else if (m.contains("unsupported critical extension")) {
            p = Problem.UNKNOWN_CRITICAL_EXTENSION;
        } else {
            p = Problem.INVALID;
        }
        return new Outcome(p, cert, detail);
    }

    /** The usage problem of an end-entity certificate, or null; marks the extensions it processed. */
    static Problem usageProblem(X509Certificate cert, Usage usage, Collection<String> unresolved) {
        if (unresolved != null) {
            unresolved.remove(KEY_USAGE_OID);
            unresolved.remove(EXTENDED_KEY_USAGE_OID);
        }
        boolean[] ku = cert.getKeyUsage();
        if (ku != null && !ku[0] && !ku[1]) { // neither digitalSignature nor nonRepudiation
            return Problem.KEY_USAGE;
        }
        if (usage == Usage.TIMESTAMPING) {
            List<String> eku;
            try {
                eku = cert.getExtendedKeyUsage();
            } catch (java.security.cert.CertificateParsingException e) {
                eku = null;
            }
            Set<String> critical = cert.getCriticalExtensionOIDs();
            if (eku == null || eku.size() != 1 || !TIME_STAMPING_OID.equals(eku.get(0)) || critical == null
                    || !critical.contains(EXTENDED_KEY_USAGE_OID)) {
                return Problem.TIMESTAMPING_USAGE;
            }
        }
        return null;
    }

    /** Marks a usage failure inside BouncyCastle's "Additional certificate path checker failed." wrapper. */
    private static final class UsageException extends CertPathValidatorException {
        private static final long serialVersionUID = 1L;
        private final transient Problem problem;

        UsageException(Problem problem) {
            super(problem.message());
            this.problem = problem;
        }
    }

    /** Checks the end-entity certificate's usage inside PKIX, where unresolved critical extensions are settled. */
    private static final class UsageChecker extends PKIXCertPathChecker {
        private final X509Certificate target;
        private final Usage usage;

        UsageChecker(X509Certificate target, Usage usage) {
            this.target = target;
            this.usage = usage;
        }

        @Override
        public void init(boolean forward) throws CertPathValidatorException {
            if (forward) {
                throw new CertPathValidatorException("forward checking not supported");
            }
        }

        @Override
        public boolean isForwardCheckingSupported() {
            return false;
        }

        @Override
        public Set<String> getSupportedExtensions() {
            return Set.of(KEY_USAGE_OID, EXTENDED_KEY_USAGE_OID);
        }

        @Override
        public void check(Certificate cert, Collection<String> unresolved) throws CertPathValidatorException {
            if (cert == target || cert.equals(target)) {
                Problem p = usageProblem(target, usage, unresolved);
                if (p != null) {
                    throw new UsageException(p);
                }
            }
        }
    }
}
