package org.trustload.gmssl;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
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
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.pki.PkiException;

/**
 * Builds the shared client of a TLCP Client Config from its {@link TlcpClientOptions}, in named
 * steps: {@link #engine} (found and able to run in this JVM), {@link #protocol} and suite,
 * {@link #checkHost host}, {@link #trustAnchors}, {@link #credentials}, then the engine's client. Each
 * step throws a configuration error naming the option (the config's property name) and the file at
 * fault, so a wrong setting stops the test before its first sample. Building costs far more than a
 * handshake (key stores, SSL contexts): it happens once per test.
 */
public final class TlcpClients {

    private TlcpClients() {
    }

    /** The client for {@code o}: every check done, the engine's SSL context built. */
    public static TlcpTarget open(TlcpClientOptions o) throws TlcpException {
        TlcpSuite suite = suite(o.suite());
        TlcpProtocol protocol = protocol(o.protocol(), suite);
        if (suite.protocol() != protocol) {
            throw TlcpException.config("suite", "", "suite " + suite + " is not a " + protocol.label() + " suite",
                    null, null);
        }
        TlcpEngine engine = engine(o.engine(), protocol);
        if (!engine.protocols().contains(protocol)) {
            throw TlcpException.config("engine", "",
                    engine.name() + " engine has no " + protocol.label() + "; use engine "
                    + (protocol == TlcpProtocol.TLCP ? "bc" : "tongsuo") + " (or auto)", null, null);
        }
        TlcpClientCrypto crypto;
        try {
            crypto = TlcpClientCrypto.parse(o.clientCrypto());
        } catch (IllegalArgumentException e) {
            throw TlcpException.config("clientCrypto", "", e.getMessage(), null, null);
        }
        if (crypto == TlcpClientCrypto.MINIMAL && !engine.name().equals("bc")) {
            throw TlcpException.config("clientCrypto", "", "clientCrypto minimal needs engine bc (TLCP); "
                    + engine.name() + " is a normal client only", null, null);
        }
        checkHost(o.host());
        List<X509Certificate> anchors = trustAnchors(o.caFile());
        TlcpClientSettings s = new TlcpClientSettings().withProtocol(protocol).withSuites(List.of(suite))
                .withTrustAnchors(anchors).withSessionReuse(o.sessionReuse()).withClientCrypto(crypto)
                .withConnectTimeoutMillis(o.connectTimeoutMs()).withReadTimeoutMillis(o.responseTimeoutMs());
        if (o.clientKeyStore() != null) {
            s = s.withCredentials(credentials(o, protocol));
        } else if (protocol == TlcpProtocol.TLCP && suite.needsClientCertificates()) {
            throw TlcpException.config("clientKeyStore", "", suite + " needs the client's sign and enc key pairs"
                    + " (client key store)", null, null);
        }
        return new TlcpTarget(engine.newClient(s), o.host().trim(), o.port(), engine.name());
    }

    /**
     * The engine by name, able to run here; blank or {@code auto}: the protocol's default. A missing
     * JVM option or library is a configuration error.
     */
    static TlcpEngine engine(String name, TlcpProtocol protocol) throws TlcpException {
        String n = name == null || name.isBlank() ? TlcpEngines.AUTO : name.trim().toLowerCase(Locale.ROOT);
        TlcpEngine engine;
        try {
            engine = n.equals(TlcpEngines.AUTO) ? TlcpEngines.forProtocol(protocol) : TlcpEngines.get(n);
        } catch (TlcpException e) {
            throw TlcpException.config("engine", "", e.getMessage(), e.detail(), null);
        }
        try {
            engine.checkAvailable();
        } catch (TlcpException e) {
            // e.g. bgm without its JVM options: the detail says exactly which to add and where
            throw TlcpException.config("engine", "", e.getMessage(), e.detail(), e);
        }
        return engine;
    }

    static TlcpSuite suite(String name) throws TlcpException {
        try {
            return TlcpSuite.parse(name);
        } catch (IllegalArgumentException e) {
            throw TlcpException.config("suite", "", e.getMessage(), null, null);
        }
    }

    /** The protocol asked for, or the suite's when blank. */
    static TlcpProtocol protocol(String name, TlcpSuite suite) throws TlcpException {
        if (name == null || name.isBlank()) {
            return suite.protocol();
        }
        try {
            return TlcpProtocol.parse(name);
        } catch (IllegalArgumentException e) {
            throw TlcpException.config("protocol", "", e.getMessage(), null, null);
        }
    }

    /** An unknown host can never be reached: found once here, not by every sample. */
    static void checkHost(String host) throws TlcpException {
        String h = host == null ? "" : host.trim();
        if (h.isEmpty()) {
            throw TlcpException.config("host", "", "is empty", null, null);
        }
        try {
            InetAddress.getByName(h);
        } catch (UnknownHostException e) {
            throw TlcpException.config("host", "", "unknown host '" + h + "'", null, e);
        }
    }

    /** Every certificate of a PEM or DER file (BouncyCastle's factory: it reads SM2 keys). */
    public static List<X509Certificate> trustAnchors(Path file) throws TlcpException {
        if (file == null) {
            throw TlcpException.config("caFile", "", "no CA file given", null, null);
        }
        String f = file.toString();
        try (InputStream in = Files.newInputStream(file)) {
            CertificateFactory cf = CertificateFactory.getInstance("X.509", KeyStores.bouncyCastle());
            List<X509Certificate> out = new ArrayList<>();
            for (Certificate c : cf.generateCertificates(in)) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw TlcpException.config("caFile", f, "no certificate in the CA file", null, null);
            }
            return out;
        } catch (NoSuchFileException e) {
            throw TlcpException.config("caFile", f, "file not found", null, e);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw TlcpException.config("caFile", f, "cannot read the CA file", null, e);
        }
    }

    /** The client's sign (and, for TLCP, enc) key pairs; a wrong password names the password option. */
    static TlcpCredentials credentials(TlcpClientOptions o, TlcpProtocol protocol) throws TlcpException {
        Path file = o.clientKeyStore();
        String f = file.toString();
        KeySource.Kind kind = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jks")
                ? KeySource.Kind.JKS : KeySource.Kind.PKCS12;
        char[] pw = (o.clientKeyStorePassword() == null ? "" : o.clientKeyStorePassword()).toCharArray();
        String sign = blankOr(o.clientSignAlias(), "sign");
        String enc = blankOr(o.clientEncAlias(), "enc");
        try {
            List<KeyMaterial> keys = KeyStores.keys(KeyStores.open(kind, file, pw), f, pw,
                    protocol == TlcpProtocol.TLCP ? List.of(sign, enc) : List.of(sign), null);
            return new TlcpCredentials(keys.get(0), keys.size() > 1 ? keys.get(1) : null);
        } catch (PkiException e) {
            if (String.valueOf(e.getMessage()).contains("wrong password")) {
                throw TlcpException.config("clientKeyStorePassword", f, "wrong client key store password", null, null);
            }
            throw TlcpException.config("clientKeyStore", f, "cannot read the client key store: " + e.getMessage(),
                    null, e);
        }
    }

    private static String blankOr(String s, String blank) {
        return s == null || s.isBlank() ? blank : s.trim();
    }
}
