package org.trustload.gmssl;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Provider;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeyStores;

/**
 * The {@code bgm} engine: openEuler bgmprovider (pure Java, on BouncyCastle) — TLCP with the four
 * GB/T 38636 suites and TLS 1.3 with the RFC 8998 suites.
 *
 * <p>Registration: only {@code BGMJCEProvider} goes first (SM2 certificate
 * parsing needs it there); {@code BGMProvider} goes last and is always asked for by name, so the
 * JVM's default TLS stays SunJSSE. On Java 17 bgm needs {@link #JVM_FLAGS}; without them
 * {@link #checkAvailable()} says which are missing instead of letting a handshake crash.
 */
public final class BgmEngine implements TlcpEngine {

    /**
     * The JVM options bgmprovider needs on Java 17 (each shown necessary, plus java.net for servers and sun.net.util
     * for IP-literal hosts, sun.security.jca for TLS 1.3 key shares), for launchers and docs.
     */
    public static final List<String> JVM_FLAGS = List.of(
            "--add-exports=java.base/jdk.internal.access=ALL-UNNAMED",
            "--add-exports=java.base/sun.security.action=ALL-UNNAMED",
            "--add-exports=java.base/sun.security.pkcs=ALL-UNNAMED",
            "--add-exports=java.base/sun.security.provider.certpath=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.x509=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.pkcs12=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.util=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            // SNI code of bgm's JSSE fork parses IP-literal host names with sun.net.util
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            // bgm's ECDH adaptor (TLS 1.3 key shares) calls sun.security.jca
            "--add-exports=java.base/sun.security.jca=ALL-UNNAMED");

    /** The system property that turns on bgm's RFC 8998 TLS 1.3 suites. */
    public static final String RFC8998_PROPERTY = "bgmprovider.tls.enableRFC8998";

    private static final String TLS_PROVIDER = "org.openeuler.BGMProvider";
    private static final String JCE_PROVIDER = "org.openeuler.BGMJCEProvider";

    private static volatile Provider tlsProvider;

    @Override
    public String name() {
        return "bgm";
    }

    @Override
    public Set<TlcpProtocol> protocols() {
        return EnumSet.allOf(TlcpProtocol.class);
    }

    @Override
    public void checkAvailable() throws TlcpException {
        provider();
    }

    /** The flags of {@link #JVM_FLAGS} this JVM lacks (empty when bgm can run). */
    public static List<String> missingJvmFlags() {
        Module base = Object.class.getModule();
        Module us = BgmEngine.class.getModule();
        List<String> missing = new ArrayList<>();
        for (String flag : JVM_FLAGS) {
            String pkg = flag.substring(flag.indexOf('/') + 1, flag.indexOf('='  , flag.indexOf('/')));
            boolean ok = flag.startsWith("--add-opens") ? base.isOpen(pkg, us) : base.isExported(pkg, us);
            if (!ok) {
                missing.add(flag);
            }
        }
        return missing;
    }

    /** The registered {@code BGMProvider}, registering both providers on first use. */
    static Provider provider() throws TlcpException {
        Provider p = tlsProvider;
        if (p != null) {
            return p;
        }
        synchronized (BgmEngine.class) {
            if (tlsProvider != null) {
                return tlsProvider;
            }
            int java = Runtime.version().feature();
            if (java > 21) {
                throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE, "bgm engine needs Java 17 to 21",
                        "bgmprovider 1.1.4 fails on Java " + java
                        + " (NoSuchFieldError in its EC keys); run JMeter on Java 17", null);
            }
            List<String> missing = missingJvmFlags();
            if (!missing.isEmpty()) {
                throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE, "bgm engine needs JVM flags",
                        "start the JVM with: " + String.join(" ", missing)
                        + " (./trustload and TrustLoad's bin/jmeter add them from bin/setenv.sh, variable"
                        + " TRUSTLOAD_BGM_JVM_ARGS; for another JMeter copy that bin/setenv.sh into its bin/ or add"
                        + " them to JVM_ARGS; in distributed mode on every engine)", null);
            }
            if (System.getProperty(RFC8998_PROPERTY) == null) {
                // read when bgm's TLS classes initialise: set it before the provider loads
                System.setProperty(RFC8998_PROPERTY, "true");
            }
            try {
                KeyStores.bouncyCastle();
                Provider jce = Security.getProvider("BGMJCEProvider");
                if (jce == null) {
                    jce = (Provider) Class.forName(JCE_PROVIDER).getConstructor().newInstance();
                    Security.insertProviderAt(jce, 1);
                }
                Provider tls = Security.getProvider("BGMProvider");
                if (tls == null) {
                    tls = (Provider) Class.forName(TLS_PROVIDER).getConstructor().newInstance();
                    Security.addProvider(tls);
                }
                tlsProvider = tls;
                return tls;
            } catch (ClassNotFoundException | NoClassDefFoundError e) {
                throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE, "bgmprovider jars not found",
                        "put bgmprovider, jca, jsse and commons 1.1.4 (org.openeuler) beside TrustLoad: " + e, e);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE, "bgm engine failed to start",
                        TlcpErrors.chain(e), e);
            }
        }
    }

    @Override
    public TlcpClient newClient(TlcpClientSettings settings) throws TlcpException {
        settings.validate();
        JsseTlcpClient.ContextFactory contexts = contexts(settings.protocol(), settings.credentials(),
                settings.trustAnchors());
        JsseTlcpClient.ContextFactory factory = contexts;
        if (settings.sessionReuse()) {
            factory = () -> {
                SSLContext ctx = contexts.newContext();
                ctx.getClientSessionContext().setSessionTimeout(3600);
                return ctx;
            };
        }
        return new JsseTlcpClient(settings, factory, protocolNames(settings.protocol()), suiteNames(settings.suites()),
                BgmEngine::label);
    }

    @Override
    public TlcpServer newServer(TlcpServerSettings settings) throws TlcpException {
        settings.validate();
        SSLContext ctx = contexts(settings.protocol(), settings.credentials(), settings.trustAnchors()).newContext();
        return new JsseTlcpServer(settings, ctx, protocolNames(settings.protocol()), suiteNames(settings.suites()),
                BgmEngine::label);
    }

    /**
     * Builds the key and trust managers once (the costly part); each context made from them is new,
     * with a session cache of its own.
     */
    private static JsseTlcpClient.ContextFactory contexts(TlcpProtocol protocol, TlcpCredentials credentials,
            List<X509Certificate> anchors) throws TlcpException {
        Provider bgm = provider();
        KeyManager[] kms = null;
        TrustManager[] tms;
        try {
            char[] pw = "transient".toCharArray(); // protects an in-memory store only
            if (credentials != null) {
                // BouncyCastle's PKCS#12 type holds SM2 keys as objects; the JDK's cannot encode them
                KeyStore ks = KeyStore.getInstance("PKCS12", KeyStores.bouncyCastle());
                ks.load(null, null);
                put(ks, "sign", credentials.sign(), pw);
                if (credentials.enc() != null) {
                    put(ks, "enc", credentials.enc(), pw);
                }
                // SunX509 extracts the keys once; NewSunX509 would decrypt them on every handshake
                KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509", bgm);
                kmf.init(ks, pw);
                kms = kmf.getKeyManagers();
            }
            KeyStore ts = KeyStore.getInstance("PKCS12", KeyStores.bouncyCastle());
            ts.load(null, null);
            int i = 0;
            for (X509Certificate ca : anchors) {
                ts.setCertificateEntry("ca-" + (i++), ca);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX", bgm);
            tmf.init(ts);
            tms = tmf.getTrustManagers();
        } catch (GeneralSecurityException | java.io.IOException | RuntimeException e) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "cannot build the bgm SSL context",
                    TlcpErrors.chain(e), e);
        }
        KeyManager[] keys = kms;
        return () -> {
            try {
                SSLContext ctx = SSLContext.getInstance(protocol == TlcpProtocol.TLCP ? "GMTLS" : "TLSv1.3", bgm);
                ctx.init(keys, tms, null);
                return ctx;
            } catch (GeneralSecurityException | RuntimeException e) {
                throw new TlcpException(TlcpException.CONFIG_ERROR, "cannot build the bgm SSL context",
                        TlcpErrors.chain(e), e);
            }
        };
    }

    private static void put(KeyStore ks, String alias, KeyMaterial key, char[] pw) throws GeneralSecurityException {
        ks.setKeyEntry(alias, key.privateKey(), pw, key.chain().toArray(new X509Certificate[0]));
    }

    static String[] protocolNames(TlcpProtocol p) {
        return p == TlcpProtocol.TLCP ? new String[] {"GMTLS"} : new String[] {"TLSv1.3"};
    }

    static String[] suiteNames(List<TlcpSuite> suites) {
        return suites.stream().map(Enum::name).toArray(String[]::new);
    }

    static String label(String engineProtocol) {
        return "GMTLS".equalsIgnoreCase(engineProtocol) ? TlcpProtocol.TLCP.label() : engineProtocol;
    }
}
