package org.trustload.pki;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.Principal;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SignatureException;
import java.security.cert.CRLException;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509CRL;
import java.security.cert.X509CRLEntry;
import java.security.cert.X509Certificate;
import java.security.cert.X509Extension;
import java.util.Collection;
import java.util.Collections;
import java.util.Date;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import javax.security.auth.x500.X500Principal;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.TBSCertificate;
import org.bouncycastle.jcajce.interfaces.BCX509Certificate;

/**
 * Remembers which certificate and CRL signatures verified with which key, so that validating the same
 * few CA certificates, CRLs and (1,000 or so) signer certificates again and again — what a load test
 * does — costs PKIX's logic, not three ECDSA/RSA verifications per path (JFR of the Signature Assertion:
 * 95% of BouncyCastle's PKIX time was signature verification: the anchor search, the path, the CRL).
 *
 * <p>It hands PKIX delegating views of the certificates and CRLs whose {@code verify} looks up the
 * cache first; everything else is the original object's. A certificate's entry is keyed by its whole
 * encoding and the key, so a certificate that differs anywhere is verified anew; a CRL's entry lives in
 * its view, one view per CRL object. The first verification of each pair uses BouncyCastle (fast for P-256,
 * and it knows SM2), as every other verification here does.
 */
final class VerificationCache {
    private static final int LIMIT = 8192;
    /** Views kept by certificate object: enough for the lab's 1,000 users and their CAs. */
    private static final int VIEWS_LIMIT = 2048;
    private static final int CRL_VIEWS_LIMIT = 256;

    private final Map<ByteBuffer, Boolean> certificates = new ConcurrentHashMap<>();
    private final Map<X509Certificate, Cert> certificateViews = Collections.synchronizedMap(new IdentityHashMap<>());
    private final Map<X509CRL, Crl> crlViews = Collections.synchronizedMap(new IdentityHashMap<>());

    /**
     * The view of {@code c} whose signature verification is remembered: one per certificate object (the
     * Signature Assertion sees the same objects again, its validator caches what it parsed), a new one for
     * a certificate never seen (the lab parses each request's).
     */
    X509Certificate certificate(X509Certificate c) {
        if (c instanceof Cert) {
            return c;
        }
        synchronized (certificateViews) {
            if (certificateViews.size() > VIEWS_LIMIT) {
                certificateViews.clear();
            }
            return certificateViews.computeIfAbsent(c, x -> new Cert(x, this));
        }
    }

    /** The one view of {@code crl} (per CRL object) whose signature verification is remembered. */
    X509CRL crl(X509CRL crl) {
        if (crl instanceof Crl) {
            return crl;
        }
        synchronized (crlViews) {
            if (crlViews.size() > CRL_VIEWS_LIMIT) {
                crlViews.clear();
            }
            return crlViews.computeIfAbsent(crl, Crl::new);
        }
    }

    private boolean certificateVerifies(X509Certificate c, PublicKey key) {
        byte[] encoded;
        try {
            encoded = c.getEncoded();
        } catch (CertificateEncodingException e) {
            return false;
        }
        byte[] k = key.getEncoded();
        ByteBuffer cacheKey = ByteBuffer.allocate(encoded.length + k.length).put(encoded).put(k).flip();
        Boolean known = certificates.get(cacheKey);
        if (known != null) {
            return known;
        }
        boolean ok;
        try {
            c.verify(key, CmsSupport.BC);
            ok = true;
        } catch (Exception e) {
            ok = false;
        }
        if (certificates.size() > LIMIT) {
            certificates.clear();
        }
        certificates.put(cacheKey, ok);
        return ok;
    }

    /** The extension queries of a certificate or CRL view: the original's, written once for both. */
    private interface Delegating extends X509Extension {
        X509Extension original();

        @Override
        default boolean hasUnsupportedCriticalExtension() {
            return original().hasUnsupportedCriticalExtension();
        }

        @Override
        default Set<String> getCriticalExtensionOIDs() {
            return original().getCriticalExtensionOIDs();
        }

        @Override
        default Set<String> getNonCriticalExtensionOIDs() {
            return original().getNonCriticalExtensionOIDs();
        }

        @Override
        default byte[] getExtensionValue(String oid) {
            return original().getExtensionValue(oid);
        }
    }

    /**
     * A certificate whose {@code verify} asks the cache; the rest is the original's. It is a
     * {@link BCX509Certificate} so that BouncyCastle's PKIX takes its parsed TBSCertificate and names
     * instead of parsing the encoding again; a JDK certificate (the lab's) is parsed once per view.
     */
    private static final class Cert extends X509Certificate implements BCX509Certificate, Delegating {
        private static final long serialVersionUID = 1L;
        private final X509Certificate c;
        private final transient VerificationCache cache;
        private transient TBSCertificate tbs;
        // BouncyCastle's certificates parse their dates again on every call (SimpleDateFormat; JFR: 9% of a
        // validation), and PKIX asks for them per CRL
        private final long notBefore;
        private final long notAfter;
        /** Keys this certificate's signature verified with (or not), by key object. */
        private final transient Map<PublicKey, Boolean> byKey = Collections.synchronizedMap(new IdentityHashMap<>());
        private transient volatile PublicKey publicKey;

        Cert(X509Certificate c, VerificationCache cache) {
            this.c = c;
            this.cache = cache;
            this.notBefore = c.getNotBefore().getTime();
            this.notAfter = c.getNotAfter().getTime();
        }

        @Override
        public TBSCertificate getTBSCertificateNative() {
            if (c instanceof BCX509Certificate) {
                return ((BCX509Certificate) c).getTBSCertificateNative();
            }
            if (tbs == null) {
                try {
                    tbs = TBSCertificate.getInstance(c.getTBSCertificate());
                } catch (CertificateEncodingException e) {
                    throw new IllegalStateException("certificate cannot be encoded", e);
                }
            }
            return tbs;
        }

        @Override
        public X500Name getIssuerX500Name() {
            return c instanceof BCX509Certificate ? ((BCX509Certificate) c).getIssuerX500Name()
                    : getTBSCertificateNative().getIssuer();
        }

        @Override
        public X500Name getSubjectX500Name() {
            return c instanceof BCX509Certificate ? ((BCX509Certificate) c).getSubjectX500Name()
                    : getTBSCertificateNative().getSubject();
        }

        @Override
        public void verify(PublicKey key) throws SignatureException {
            Boolean ok = byKey.get(key);
            if (ok == null) {
                ok = cache.certificateVerifies(c, key);
                if (byKey.size() < 8) {
                    byKey.put(key, ok);
                }
            }
            if (!ok) {
                throw new SignatureException("certificate signature does not verify with the issuer's key");
            }
        }

        @Override
        public void verify(PublicKey key, String sigProvider) throws SignatureException {
            verify(key);
        }

        @Override
        public void verify(PublicKey key, Provider sigProvider) throws SignatureException {
            verify(key);
        }

        @Override
        public void checkValidity() throws CertificateExpiredException, CertificateNotYetValidException {
            checkValidity(new Date());
        }

        @Override
        public void checkValidity(Date date) throws CertificateExpiredException, CertificateNotYetValidException {
            if (date.getTime() > notAfter) {
                throw new CertificateExpiredException("certificate expired on " + getNotAfter().toInstant());
            }
            if (date.getTime() < notBefore) {
                throw new CertificateNotYetValidException("certificate not valid till " + getNotBefore().toInstant());
            }
        }

        @Override
        public int getVersion() {
            return c.getVersion();
        }

        @Override
        public BigInteger getSerialNumber() {
            return c.getSerialNumber();
        }

        @SuppressWarnings("deprecation")
        @Override
        public Principal getIssuerDN() {
            return c.getIssuerDN();
        }

        @SuppressWarnings("deprecation")
        @Override
        public Principal getSubjectDN() {
            return c.getSubjectDN();
        }

        @Override
        public X500Principal getIssuerX500Principal() {
            return c.getIssuerX500Principal();
        }

        @Override
        public X500Principal getSubjectX500Principal() {
            return c.getSubjectX500Principal();
        }

        @Override
        public Date getNotBefore() {
            return new Date(notBefore);
        }

        @Override
        public Date getNotAfter() {
            return new Date(notAfter);
        }

        @Override
        public byte[] getTBSCertificate() throws CertificateEncodingException {
            return c.getTBSCertificate();
        }

        @Override
        public byte[] getSignature() {
            return c.getSignature();
        }

        @Override
        public String getSigAlgName() {
            return c.getSigAlgName();
        }

        @Override
        public String getSigAlgOID() {
            return c.getSigAlgOID();
        }

        @Override
        public byte[] getSigAlgParams() {
            return c.getSigAlgParams();
        }

        @Override
        public boolean[] getIssuerUniqueID() {
            return c.getIssuerUniqueID();
        }

        @Override
        public boolean[] getSubjectUniqueID() {
            return c.getSubjectUniqueID();
        }

        @Override
        public boolean[] getKeyUsage() {
            return c.getKeyUsage();
        }

        @Override
        public List<String> getExtendedKeyUsage() throws CertificateParsingException {
            return c.getExtendedKeyUsage();
        }

        @Override
        public int getBasicConstraints() {
            return c.getBasicConstraints();
        }

        @Override
        public Collection<List<?>> getSubjectAlternativeNames() throws CertificateParsingException {
            return c.getSubjectAlternativeNames();
        }

        @Override
        public Collection<List<?>> getIssuerAlternativeNames() throws CertificateParsingException {
            return c.getIssuerAlternativeNames();
        }

        @Override
        public byte[] getEncoded() throws CertificateEncodingException {
            return c.getEncoded();
        }

        @Override
        public PublicKey getPublicKey() {
            PublicKey k = publicKey;
            if (k == null) {
                // one key object per view, so that the certificates it issued remember it by identity
                k = c.getPublicKey();
                publicKey = k;
            }
            return k;
        }

        @Override
        public X509Extension original() {
            return c;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Cert ? c.equals(((Cert) o).c) : c.equals(o);
        }

        @Override
        public int hashCode() {
            return c.hashCode();
        }

        @Override
        public String toString() {
            return c.toString();
        }
    }

    /** A CRL whose {@code verify} is remembered per key; the rest is the original's. */
    private static final class Crl extends X509CRL implements Delegating {
        private final X509CRL crl;
        private final Map<ByteBuffer, Boolean> verified = new ConcurrentHashMap<>();
        // BouncyCastle's CRL parses its dates again on every call (JFR: 2% of an assertion), PKIX asks often
        private final long thisUpdate;
        private final Long nextUpdate;

        Crl(X509CRL crl) {
            this.crl = crl;
            this.thisUpdate = crl.getThisUpdate().getTime();
            Date next = crl.getNextUpdate();
            this.nextUpdate = next == null ? null : next.getTime();
        }

        @Override
        public void verify(PublicKey key) throws SignatureException {
            ByteBuffer k = ByteBuffer.wrap(key.getEncoded());
            Boolean ok = verified.get(k);
            if (ok == null) {
                try {
                    crl.verify(key, CmsSupport.BC);
                    ok = true;
                } catch (Exception e) {
                    ok = false;
                }
                if (verified.size() < 16) {
                    verified.put(k, ok);
                }
            }
            if (!ok) {
                throw new SignatureException("CRL signature does not verify with the issuer's key");
            }
        }

        @Override
        public void verify(PublicKey key, String sigProvider) throws SignatureException {
            verify(key);
        }

        @Override
        public void verify(PublicKey key, Provider sigProvider) throws SignatureException {
            verify(key);
        }

        @Override
        public byte[] getEncoded() throws CRLException {
            return crl.getEncoded();
        }

        @Override
        public int getVersion() {
            return crl.getVersion();
        }

        @SuppressWarnings("deprecation")
        @Override
        public Principal getIssuerDN() {
            return crl.getIssuerDN();
        }

        @Override
        public X500Principal getIssuerX500Principal() {
            return crl.getIssuerX500Principal();
        }

        @Override
        public Date getThisUpdate() {
            return new Date(thisUpdate);
        }

        @Override
        public Date getNextUpdate() {
            return nextUpdate == null ? null : new Date(nextUpdate);
        }

        @Override
        public X509CRLEntry getRevokedCertificate(BigInteger serialNumber) {
            return crl.getRevokedCertificate(serialNumber);
        }

        @Override
        public X509CRLEntry getRevokedCertificate(X509Certificate certificate) {
            return crl.getRevokedCertificate(certificate instanceof Cert ? ((Cert) certificate).c : certificate);
        }

        @Override
        public Set<? extends X509CRLEntry> getRevokedCertificates() {
            return crl.getRevokedCertificates();
        }

        @Override
        public byte[] getTBSCertList() throws CRLException {
            return crl.getTBSCertList();
        }

        @Override
        public byte[] getSignature() {
            return crl.getSignature();
        }

        @Override
        public String getSigAlgName() {
            return crl.getSigAlgName();
        }

        @Override
        public String getSigAlgOID() {
            return crl.getSigAlgOID();
        }

        @Override
        public byte[] getSigAlgParams() {
            return crl.getSigAlgParams();
        }

        @Override
        public boolean isRevoked(Certificate cert) {
            return crl.isRevoked(cert instanceof Cert ? ((Cert) cert).c : cert);
        }

        @Override
        public X509Extension original() {
            return crl;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Crl ? crl.equals(((Crl) o).crl) : crl.equals(o);
        }

        @Override
        public int hashCode() {
            return crl.hashCode();
        }

        @Override
        public String toString() {
            return crl.toString();
        }
    }
}
