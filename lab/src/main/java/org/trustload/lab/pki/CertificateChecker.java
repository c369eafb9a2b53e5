package org.trustload.lab.pki;

import java.security.cert.X509CRL;
import java.security.cert.X509CRLEntry;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.x509.CRLDistPoint;
import org.bouncycastle.asn1.x509.DistributionPoint;
import org.bouncycastle.asn1.x509.DistributionPointName;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.trustload.pki.ChainValidator;

/**
 * What the signature service and certificate login check before they accept a certificate: its path to
 * one of the lab's CAs (directly, or through certificates the client sent in {@code chain}) validated by
 * PKIX — lib's {@link ChainValidator}, the one the Signature Assertion uses: issuer signatures, CA
 * basicConstraints and keyCertSign, path length, unknown critical extensions, validity now, the CRL of every
 * certificate (fetched from its distribution point and cached by {@link CrlCache}) — and a key usage that
 * permits signing (digitalSignature or nonRepudiation).
 */
final class CertificateChecker {
    private final ChainValidator validator;
    private final List<X509Certificate> anchors;
    private final CrlCache crls;
    private final String fallbackCrlBase;

    /**
     * @param anchors the CA certificates the service trusts
     * @param fallbackCrlBase where to look for {@code ca-<n>.crl} when a certificate has no HTTP distribution point
     */
    CertificateChecker(List<X509Certificate> anchors, CrlCache crls, String fallbackCrlBase) {
        this.anchors = List.copyOf(anchors);
        this.validator = new ChainValidator(this.anchors);
        this.crls = crls;
        this.fallbackCrlBase = fallbackCrlBase;
    }

    /**
     * Checks {@code cert} and returns its path up to and including the trust anchor (signer first).
     */
    List<X509Certificate> check(X509Certificate cert, List<X509Certificate> extra) throws ApiException {
        List<X509Certificate> path = chain(cert, extra);
        checkPath(path);
        return path;
    }

    /**
     * PKIX validation of a path already built (signer first, trust anchor last) now, with the CRL of every
     * certificate but the anchor: 403 {@code certificateExpired}, 403 {@code certificateRevoked}, 503
     * {@code revocationUnavailable} (a CRL that cannot be fetched or is not current), 403
     * {@code untrustedCertificate} for every other failure.
     */
    void checkPath(List<X509Certificate> path) throws ApiException {
        Date now = new Date();
        List<X509CRL> pathCrls = new ArrayList<>(path.size());
        try {
            for (int i = 0; i + 1 < path.size(); i++) {
                pathCrls.add(crls.get(crlUrl(path.get(i), path.get(i + 1)), path.get(i + 1)));
            }
        } catch (ApiException unavailable) {
            // validity and trust come before revocation: an expired user is told so even without CRLs
            ChainValidator.Outcome o = validator.validate(path, null, now, ChainValidator.Usage.SIGNATURE);
            if (!o.valid()) {
                throw failure(o, path, List.of());
            }
            throw unavailable;
        }
        ChainValidator.Outcome o = validator.validate(path, pathCrls, now, ChainValidator.Usage.SIGNATURE);
        if (!o.valid()) {
            throw failure(o, path, pathCrls);
        }
    }

    /** 1-based number of a lab CA ({@code ca-<n>}), or -1 when {@code anchor} is not one. */
    int caNumber(X509Certificate anchor) {
        int i = anchors.indexOf(anchor);
        return i < 0 ? -1 : i + 1;
    }

    /** The trusted CA certificates, in CA order. */
    List<X509Certificate> anchors() {
        return anchors;
    }

    /**
     * Builds the path of {@code cert} to one of the CAs and validates it by PKIX — issuer signatures, CA
     * constraints, key usage — but neither validity nor revocation (they are {@link #checkPath}'s, so that
     * an expired or revoked user gets its own answer): 403 {@code untrustedCertificate} when it fails.
     */
    List<X509Certificate> chain(X509Certificate cert, List<X509Certificate> extra) throws ApiException {
        List<X509Certificate> path = validator.path(cert, extra);
        if (path == null) {
            throw untrusted(cert);
        }
        // at an instant inside every certificate's validity, if there is one; if not, checkPath says which expired
        Date at = path.get(0).getNotBefore();
        for (X509Certificate c : path) {
            if (c.getNotBefore().after(at)) {
                at = c.getNotBefore();
            }
        }
        ChainValidator.Outcome o = validator.validate(path, null, at, ChainValidator.Usage.SIGNATURE);
        if (!o.valid() && !o.problem().code().equals(ChainValidator.Problem.EXPIRED.code())) {
            throw failure(o, path, List.of());
        }
        return path;
    }

    private static ApiException untrusted(X509Certificate cert) {
        return new ApiException(403, ApiException.UNTRUSTED_CERTIFICATE, "the certificate of "
                + cert.getSubjectX500Principal().getName() + " (issuer " + cert.getIssuerX500Principal().getName()
                + ") does not chain to a CA this service trusts");
    }

    /** The API's answer to a failed validation; {@code pathCrls.get(i)} is the CRL of {@code path.get(i)}. */
    private static ApiException failure(ChainValidator.Outcome o, List<X509Certificate> path, List<X509CRL> pathCrls) {
        X509Certificate c = o.certificate() != null ? o.certificate() : path.get(0);
        String who = c == path.get(0) ? "the certificate" : "the issuer " + c.getSubjectX500Principal().getName();
        switch (o.problem()) {
            case EXPIRED, CA_EXPIRED:
                return new ApiException(403, ApiException.CERTIFICATE_EXPIRED,
                        who + " expired on " + c.getNotAfter().toInstant());
            case NOT_YET_VALID, CA_NOT_YET_VALID:
                return new ApiException(403, ApiException.CERTIFICATE_EXPIRED, who + " is not valid before "
                        + c.getNotBefore().toInstant());
            case REVOKED, CA_REVOKED: {
                int i = path.indexOf(c);
                X509CRLEntry entry = i >= 0 && i < pathCrls.size() ? pathCrls.get(i).getRevokedCertificate(c) : null;
                return new ApiException(403, ApiException.CERTIFICATE_REVOKED, (c == path.get(0) ? "" : who + ": ")
                        + "certificate serial "
                        + c.getSerialNumber().toString(16).toUpperCase(Locale.ROOT) + " was revoked"
                        + (entry == null ? "" : " on " + entry.getRevocationDate().toInstant()
                                + (entry.getRevocationReason() != null
                                        ? " (" + entry.getRevocationReason() + ")" : "")));
            }
            case REVOCATION_UNKNOWN:
                return new ApiException(503, ApiException.REVOCATION_UNAVAILABLE, "no current CRL for " + who
                        + " (its CRL's nextUpdate has passed, or the CRL does not verify)");
            case UNTRUSTED:
                return untrusted(path.get(0));
            default:
                return new ApiException(403, ApiException.UNTRUSTED_CERTIFICATE, "the certificate chain is not valid: "
                        + o.problem().message());
        }
    }

    /** The first http(s) URI of the CRL distribution points, else {@code <base>ca-<n>.crl} of the issuing lab CA. */
    String crlUrl(X509Certificate cert, X509Certificate issuer) throws ApiException {
        byte[] ext = cert.getExtensionValue(Extension.cRLDistributionPoints.getId());
        if (ext != null) {
            try {
                ASN1Primitive p = JcaX509ExtensionUtils.parseExtensionValue(ext);
                for (DistributionPoint dp : CRLDistPoint.getInstance(p).getDistributionPoints()) {
                    DistributionPointName name = dp.getDistributionPoint();
                    if (name == null || name.getType() != DistributionPointName.FULL_NAME) {
                        continue;
                    }
                    for (GeneralName gn : GeneralNames.getInstance(name.getName()).getNames()) {
                        if (gn.getTagNo() == GeneralName.uniformResourceIdentifier) {
                            String uri = gn.getName().toString();
                            if (uri.startsWith("http://") || uri.startsWith("https://")) {
                                return uri;
                            }
                        }
                    }
                }
            } catch (java.io.IOException | RuntimeException e) {
                throw new ApiException(400, ApiException.INVALID_CERTIFICATE,
                        "the certificate's CRL distribution points cannot be read: " + e.getMessage());
            }
        }
        int n = anchors.indexOf(issuer);
        if (n < 0) {
            throw new ApiException(403, ApiException.UNTRUSTED_CERTIFICATE,
                    "the certificate has no CRL distribution point and its issuer is not a lab CA");
        }
        return fallbackCrlBase + "ca-" + (n + 1) + ".crl";
    }
}
