package org.trustload.pki;

import java.io.IOException;
import java.net.Socket;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * How PKI clients trust a server's TLS certificate: the one place that turns trust anchors (or the
 * explicit trust-all choice) into a trust manager and an SSL context. Used by the signature-server,
 * TSA and certificate-login clients.
 */
public final class ServerTrust {
    private ServerTrust() {
    }

    /**
     * A PKIX trust manager over {@code anchors}; the JDK's cacerts when {@code anchors} is empty; a
     * manager that accepts any certificate when {@code trustAll} (never the default).
     */
    public static X509TrustManager trustManager(List<X509Certificate> anchors, boolean trustAll) throws PkiException {
        if (trustAll) {
            return new TrustAll();
        }
        try {
            TrustManagerFactory f = TrustManagerFactory.getInstance("PKIX");
            if (anchors.isEmpty()) {
                f.init((KeyStore) null);
            } else {
                KeyStore ks = KeyStore.getInstance("PKCS12");
                ks.load(null, null);
                for (int i = 0; i < anchors.size(); i++) {
                    ks.setCertificateEntry("anchor" + i, anchors.get(i));
                }
                f.init(ks);
            }
            for (TrustManager tm : f.getTrustManagers()) {
                if (tm instanceof X509TrustManager) {
                    return (X509TrustManager) tm;
                }
            }
            throw new PkiException(PkiException.CONFIG_ERROR, "no X.509 trust manager");
        } catch (java.security.GeneralSecurityException | IOException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "trust anchors cannot be used", e);
        }
    }

    /** A TLS context with the given client keys (null: none) and trust manager. */
    public static SSLContext context(KeyManager[] keys, TrustManager trust) throws PkiException {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(keys, new TrustManager[] {trust}, null);
            return ctx;
        } catch (java.security.GeneralSecurityException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "TLS context cannot be built", e);
        }
    }

    /** Accepts any server certificate: only when the user asked for it explicitly. */
    private static final class TrustAll extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
