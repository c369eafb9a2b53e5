package org.trustload.gmssl;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateEncodingException;
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
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.X509TrustManager;
import org.trustload.pki.KeyStores;

/**
 * Validates a peer's SM2 chain with BouncyCastle's PKIX validator, no revocation: the JDK cannot parse SM2
 * public keys, and tongsuo's own trust manager finds no anchors for BouncyCastle-decoded chains. Messages name
 * the cause ("certificate expired", "not trusted"). With {@code remember}, a chain that passed is not validated
 * again (its dates are, every handshake): docs/bench.md, "TLCP (tongsuo engine): causes and fixes".
 */
public final class Sm2TrustManager implements X509TrustManager {
    static final int REMEMBERED = 64;

    private final Set<TrustAnchor> anchors = new HashSet<>();
    private final X509Certificate[] issuers;
    private final Set<List<ByteBuffer>> passed = ConcurrentHashMap.newKeySet();
    private final boolean remember;

    Sm2TrustManager(List<X509Certificate> trustAnchors) {
        this(trustAnchors, true);
    }

    /**
     * @param trustAnchors the CA certificates chains must lead to
     * @param remember remember chains that passed (dates still checked every time)
     */
    public Sm2TrustManager(List<X509Certificate> trustAnchors, boolean remember) {
        this.remember = remember;
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
        List<ByteBuffer> key = remember ? key(chain) : null;
        if (key != null && passed.contains(key)) {
            for (X509Certificate c : chain) {
                try {
                    c.checkValidity();
                } catch (CertificateExpiredException | CertificateNotYetValidException e) {
                    passed.remove(key);
                    break; // validated again below: PKIX reports which one
                }
            }
            if (passed.contains(key)) {
                return;
            }
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
        if (key != null) {
            if (passed.size() >= REMEMBERED) {
                passed.clear();
            }
            passed.add(key);
        }
    }

    /** The chain's encodings, or null when a certificate cannot be encoded. */
    private static List<ByteBuffer> key(X509Certificate[] chain) {
        ByteBuffer[] k = new ByteBuffer[chain.length];
        try {
            for (int i = 0; i < chain.length; i++) {
                k[i] = ByteBuffer.wrap(chain[i].getEncoded());
            }
        } catch (CertificateEncodingException e) {
            return null;
        }
        return List.of(k);
    }
}
