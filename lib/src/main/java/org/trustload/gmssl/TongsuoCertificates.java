package org.trustload.gmssl;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.Provider;
import java.security.cert.CRL;
import java.security.cert.CRLException;
import java.security.cert.CertPath;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateFactorySpi;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.trustload.pki.KeyStores;

/**
 * The certificate factory the tongsuo engine decodes peer certificates with ({@link TongsuoLoader}
 * points tongsuo-openjdk's per-handshake {@code new BouncyCastleProvider()} here): BouncyCastle's
 * X.509 factory, built once, behind a cache of decoded certificates by their DER bytes (at most
 * {@value #REMEMBERED}). A server sends the same chain on every handshake; decoding it again was the
 * next largest Java cost per new connection (JFR, docs/bench.md "TLCP"). The decoded objects are
 * BouncyCastle's immutable certificates. Public only because the tongsuo classes, in their own class
 * loader, call {@link #provider()}; not an API.
 */
public final class TongsuoCertificates {
    static final int REMEMBERED = 256;

    private static final Map<ByteBuffer, Certificate> DECODED = new ConcurrentHashMap<>();
    private static final Provider PROVIDER = new CacheProvider();

    private TongsuoCertificates() {
    }

    /** The provider of the cached X.509 factory. */
    public static Provider provider() {
        return PROVIDER;
    }

    /** Certificates decoded so far and still remembered (tests). */
    public static int remembered() {
        return DECODED.size();
    }

    private static CertificateFactory bouncyCastle() throws CertificateException {
        return CertificateFactory.getInstance("X.509", KeyStores.bouncyCastle());
    }

    private static final class CacheProvider extends Provider {
        private static final long serialVersionUID = 1L;

        CacheProvider() {
            super("TrustLoadTongsuoCertificates", "1.0",
                    "BouncyCastle X.509 decoding with a cache, for the tongsuo engine");
            putService(new Service(this, "CertificateFactory", "X.509", CachedFactory.class.getName(), null, null) {
                @Override
                public Object newInstance(Object constructorParameter) {
                    return new CachedFactory();
                }
            });
        }
    }

    /** Caches {@link #engineGenerateCertificate}; everything else goes to BouncyCastle's factory. */
    static final class CachedFactory extends CertificateFactorySpi {
        @Override
        public Certificate engineGenerateCertificate(InputStream in) throws CertificateException {
            byte[] der;
            try {
                der = in.readAllBytes();
            } catch (IOException e) {
                throw new CertificateException(e);
            }
            ByteBuffer key = ByteBuffer.wrap(der);
            Certificate c = DECODED.get(key);
            if (c == null) {
                c = bouncyCastle().generateCertificate(new ByteArrayInputStream(der));
                if (DECODED.size() >= REMEMBERED) {
                    DECODED.clear();
                }
                DECODED.put(key, c);
            }
            return c;
        }

        @Override
        public Collection<? extends Certificate> engineGenerateCertificates(InputStream in)
                throws CertificateException {
            return bouncyCastle().generateCertificates(in);
        }

        @Override
        public CRL engineGenerateCRL(InputStream in) throws CRLException {
            try {
                return bouncyCastle().generateCRL(in);
            } catch (CertificateException e) {
                throw new CRLException(e);
            }
        }

        @Override
        public Collection<? extends CRL> engineGenerateCRLs(InputStream in) throws CRLException {
            try {
                return bouncyCastle().generateCRLs(in);
            } catch (CertificateException e) {
                throw new CRLException(e);
            }
        }

        @Override
        public CertPath engineGenerateCertPath(List<? extends Certificate> certificates) throws CertificateException {
            return bouncyCastle().generateCertPath(certificates);
        }

        @Override
        public CertPath engineGenerateCertPath(InputStream in) throws CertificateException {
            return bouncyCastle().generateCertPath(in);
        }

        @Override
        public CertPath engineGenerateCertPath(InputStream in, String encoding) throws CertificateException {
            return bouncyCastle().generateCertPath(in, encoding);
        }

        @Override
        public Iterator<String> engineGetCertPathEncodings() {
            try {
                return bouncyCastle().getCertPathEncodings();
            } catch (CertificateException e) {
                return List.<String>of().iterator();
            }
        }
    }
}
