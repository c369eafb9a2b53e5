package org.trustload.ldap;

import com.unboundid.util.ssl.JVMDefaultTrustManager;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds client TLS contexts and keeps one per distinct trust configuration: reading a trust store
 * and initialising an {@link SSLContext} costs far more than a handshake, and a load test opens
 * thousands of connections with the same settings.
 */
public final class LdapTls {
    private static final ConcurrentHashMap<Key, SSLContext> CONTEXTS = new ConcurrentHashMap<>();

    private LdapTls() {
    }

    /** The shared context for these settings' trust options. */
    public static SSLContext context(LdapConnectionSettings s) throws LdapClientException {
        Key key = new Key(s.trustMode(), s.trustStorePath(), s.trustStoreType(), s.trustStorePassword());
        SSLContext existing = CONTEXTS.get(key);
        if (existing != null) {
            return existing;
        }
        SSLContext created = create(key);
        SSLContext raced = CONTEXTS.putIfAbsent(key, created);
        return raced != null ? raced : created;
    }

    /**
     * Builds a new context for these settings' trust options, uncached: for an owner that keeps it
     * for the length of a test (a config element builds it in testStarted).
     */
    public static SSLContext create(LdapConnectionSettings s) throws LdapClientException {
        return create(new Key(s.trustMode(), s.trustStorePath(), s.trustStoreType(), s.trustStorePassword()));
    }

    private static SSLContext create(Key key) throws LdapClientException {
        TrustManager[] tms;
        switch (key.mode) {
            case TRUST_ALL:
                tms = new TrustManager[] {new TrustAllTrustManager(false)};
                break;
            case TRUST_STORE:
                // Load the store once, here: a wrong path, password or type is a configuration error,
                // and the JDK's PKIX trust manager then checks chains and validity dates per handshake.
                tms = trustStoreManagers(key);
                break;
            default:
                tms = new TrustManager[] {JVMDefaultTrustManager.getInstance()};
        }
        try {
            SSLContext ctx = SSLContext.getInstance(SSLUtil.getDefaultSSLProtocol());
            ctx.init(null, tms, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw LdapClientException.config("cannot create a TLS context", e);
        }
    }

    private static TrustManager[] trustStoreManagers(Key key) throws LdapClientException {
        File f = new File(key.path);
        if (!f.isFile()) {
            throw LdapClientException.config("trustStore", key.path, "trust store file not found", null);
        }
        if (f.length() == 0) {
            throw LdapClientException.config("trustStore", key.path, "trust store file is empty", null);
        }
        try (InputStream in = new FileInputStream(f)) {
            KeyStore ks = KeyStore.getInstance(key.type);
            ks.load(in, key.password.isEmpty() ? null : key.password.toCharArray());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            return tmf.getTrustManagers();
        } catch (IOException | GeneralSecurityException e) {
            if (e.getCause() instanceof java.security.UnrecoverableKeyException
                    || String.valueOf(e.getMessage()).contains("password")) {
                throw LdapClientException.config("trustStorePassword", key.path, "wrong trust store password", e);
            }
            throw LdapClientException.config("trustStore", key.path, "cannot read the trust store as "
                    + key.type + " (corrupt file or wrong type)", e);
        }
    }

    private static final class Key {
        final TrustMode mode;
        final String path;
        final String type;
        final String password;

        Key(TrustMode mode, String path, String type, String password) {
            this.mode = mode;
            this.path = mode == TrustMode.TRUST_STORE ? path : "";
            this.type = mode == TrustMode.TRUST_STORE ? type : "";
            this.password = mode == TrustMode.TRUST_STORE ? password : "";
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return mode == k.mode && path.equals(k.path) && type.equals(k.type) && password.equals(k.password);
        }

        @Override
        public int hashCode() {
            return Objects.hash(mode, path, type, password);
        }
    }
}
