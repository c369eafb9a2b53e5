package org.trustload.gmssl;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.X509TrustManager;
import org.trustload.pki.KeyStores;

/**
 * Validates a peer's SM2 chain with BouncyCastle's PKIX validator (no revocation checking): the
 * JDK cannot parse SM2 public keys, and the tongsuo provider's own trust manager does not find
 * anchors for BouncyCastle-decoded chains. Messages name the cause ("certificate expired",
 * "not trusted") so handshake failures group well.
 */
final class Sm2TrustManager implements X509TrustManager {
    private final Set<TrustAnchor> anchors = new HashSet<>();
    private final X509Certificate[] issuers;

    Sm2TrustManager(List<X509Certificate> trustAnchors) {
        for (X509Certificate ca : trustAnchors) {
            anchors.add(new TrustAnchor(ca, null));
        }
        issuers = trustAnchors.toArray(new X509Certificate[0]);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return issuers.clone();
    }

    private void check(X509Certificate[] chain) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("peer sent no certificate");
        }
        if (anchors.isEmpty()) {
            throw new CertificateException("certificate not trusted: no trust anchor configured");
        }
        // the leaf's dates first: PKIX would report an expired leaf as a generic path failure
        try {
            chain[0].checkValidity();
        } catch (CertificateExpiredException | CertificateNotYetValidException e) {
            throw new CertificateException("certificate expired or not yet valid: "
                    + chain[0].getSubjectX500Principal() + " (" + e.getMessage() + ")", e);
        }
        Provider bc = KeyStores.bouncyCastle();
        try {
            PKIXParameters p = new PKIXParameters(anchors);
            p.setRevocationEnabled(false);
            CertPathValidator.getInstance("PKIX", bc)
                    .validate(CertificateFactory.getInstance("X.509", bc).generateCertPath(Arrays.asList(chain)), p);
        } catch (CertPathValidatorException e) {
            throw new CertificateException("certificate not trusted (certification path to a trust anchor failed): "
                    + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new CertificateException("certificate check failed: " + e.getMessage(), e);
        }
    }
}
