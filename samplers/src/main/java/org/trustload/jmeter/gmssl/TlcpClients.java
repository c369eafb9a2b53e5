package org.trustload.jmeter.gmssl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngine;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.pki.PkiException;

/**
 * The clients of a test, one per distinct configuration, shared by every thread: building one
 * (key stores, SSL context) costs far more than a handshake, so it happens once per test, not per
 * sample. Cleared when a test starts and ends.
 */
final class TlcpClients {
    private static final Map<Key, TlcpClient> CLIENTS = new ConcurrentHashMap<>();

    private TlcpClients() {
    }

    /** A parsed, validated configuration; equal keys share a client. The password never leaves it. */
    record Key(String engine, String host, TlcpProtocol protocol, TlcpSuite suite, String caFile, String clientKeyStore,
            String password, String signAlias, String encAlias, boolean sessionReuse, int connectTimeout,
            int responseTimeout) {

        int port(String text) throws TlcpException {
            String t = text == null ? "" : text.trim();
            if (t.isEmpty()) {
                throw new TlcpException(TlcpException.CONFIG_ERROR, "no port");
            }
            int p = number("port", t);
            if (p < 1 || p > 65535) {
                throw new TlcpException(TlcpException.CONFIG_ERROR, "port out of range: " + t);
            }
            return p;
        }

        @Override
        public String toString() {
            return "Key[" + engine + " " + host + " " + protocol + " " + suite + "]"; // no password
        }
    }

    static Key key(String engine, String host, String protocol, String suite, String caFile, String clientKeyStore,
            String password, String signAlias, String encAlias, boolean sessionReuse, String connectTimeout,
            String responseTimeout) throws TlcpException {
        TlcpSuite s;
        try {
            s = TlcpSuite.parse(suite);
        } catch (IllegalArgumentException e) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "unknown suite", e.getMessage(), e);
        }
        TlcpProtocol p = s.protocol();
        if (protocol != null && !protocol.isBlank()) {
            try {
                p = TlcpProtocol.parse(protocol);
            } catch (IllegalArgumentException e) {
                throw new TlcpException(TlcpException.CONFIG_ERROR, "unknown protocol", e.getMessage(), e);
            }
        }
        if (host == null || host.isBlank()) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "no host");
        }
        return new Key(engine == null || engine.isBlank() ? "bgm" : engine.trim().toLowerCase(Locale.ROOT), host.trim(),
                p, s, trim(caFile), trim(clientKeyStore), password == null ? "" : password,
                trim(signAlias).isEmpty() ? "sign" : trim(signAlias), trim(encAlias).isEmpty() ? "enc" : trim(encAlias),
                sessionReuse, positive("connectTimeout", connectTimeout, 5000),
                positive("responseTimeout", responseTimeout, 10000));
    }

    /** The shared client for {@code key}, built on first use. */
    static TlcpClient get(Key key) throws TlcpException {
        TlcpClient c = CLIENTS.get(key);
        if (c != null) {
            return c;
        }
        synchronized (CLIENTS) {
            c = CLIENTS.get(key);
            if (c == null) {
                c = build(key);
                CLIENTS.put(key, c);
            }
            return c;
        }
    }

    static void clear() {
        for (TlcpClient c : CLIENTS.values()) {
            c.close();
        }
        CLIENTS.clear();
    }

    private static TlcpClient build(Key k) throws TlcpException {
        TlcpEngine engine = TlcpEngines.get(k.engine());
        engine.checkAvailable();
        if (!engine.protocols().contains(k.protocol())) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "engine " + k.engine() + " does not speak "
                    + k.protocol().label());
        }
        TlcpClientSettings s = new TlcpClientSettings().withProtocol(k.protocol()).withSuites(List.of(k.suite()))
                .withTrustAnchors(certificates(k.caFile())).withSessionReuse(k.sessionReuse())
                .withConnectTimeoutMillis(k.connectTimeout()).withReadTimeoutMillis(k.responseTimeout());
        if (!k.clientKeyStore().isEmpty()) {
            s = s.withCredentials(credentials(k));
        } else if (k.protocol() == TlcpProtocol.TLCP && k.suite().needsClientCertificates()) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, k.suite() + " needs the client's sign and enc"
                    + " certificates (client key store)");
        }
        return engine.newClient(s);
    }

    private static TlcpCredentials credentials(Key k) throws TlcpException {
        Path file = Path.of(k.clientKeyStore());
        KeySource.Kind kind = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jks")
                ? KeySource.Kind.JKS : KeySource.Kind.PKCS12;
        char[] pw = k.password().toCharArray();
        try {
            List<KeyMaterial> keys = KeyStores.keys(KeyStores.open(kind, file, pw), file.toString(), pw,
                    k.protocol() == TlcpProtocol.TLCP ? List.of(k.signAlias(), k.encAlias()) : List.of(k.signAlias()),
                    null);
            return new TlcpCredentials(keys.get(0), keys.size() > 1 ? keys.get(1) : null);
        } catch (PkiException e) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "cannot read client key store: " + e.getMessage(),
                    e.detail(), e);
        }
    }

    /** Every certificate of a PEM or DER file (BouncyCastle's factory: it reads SM2 keys). */
    static List<X509Certificate> certificates(String file) throws TlcpException {
        if (file.isEmpty()) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "no CA file");
        }
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            CertificateFactory f = CertificateFactory.getInstance("X.509", KeyStores.bouncyCastle());
            List<X509Certificate> out = new ArrayList<>();
            for (Certificate c : f.generateCertificates(in)) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new TlcpException(TlcpException.CONFIG_ERROR, "no certificate in CA file", file, null);
            }
            return out;
        } catch (NoSuchFileException e) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "CA file not found", file, e);
        } catch (IOException | GeneralSecurityException e) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "cannot read CA file", file + ": " + e, e);
        }
    }

    private static String trim(String s) {
        return s == null ? "" : s.trim();
    }

    private static int positive(String name, String text, int blankDefault) throws TlcpException {
        String t = trim(text);
        if (t.isEmpty()) {
            return blankDefault;
        }
        int v = number(name, t);
        if (v <= 0) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, name + " must be > 0: " + t);
        }
        return v;
    }

    private static int number(String name, String t) throws TlcpException {
        try {
            return Integer.parseInt(t);
        } catch (NumberFormatException e) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, name + " is not a number: '" + t + "'");
        }
    }
}
