package org.trustload.kms;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/** Trust managers from {@link KmsSettings#caFile()}, shared by the backends. */
public final class KmsTls {
    private KmsTls() {
    }

    /**
     * Trust managers trusting exactly the certificates of a PEM (or DER) file.
     *
     * @throws KmsException CONFIG_ERROR {@code BadCaFile} when the file is missing, unreadable or holds no certificate
     */
    public static TrustManager[] trustManagers(String caFile) throws KmsException {
        Path path = Path.of(caFile);
        try (InputStream in = Files.newInputStream(path)) {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certs.isEmpty()) {
                throw KmsException.config("BadCaFile", "caFile", caFile, "no certificate in the CA file", null);
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            int i = 0;
            for (Certificate c : certs) {
                ks.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            return tmf.getTrustManagers();
        } catch (IOException | GeneralSecurityException e) {
            throw KmsException.config("BadCaFile", "caFile", caFile, e instanceof java.nio.file.NoSuchFileException
                    ? "file not found" : "cannot read the CA file", e);
        }
    }
}
