package org.trustload.gmssl;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeyStores;

/**
 * The {@code tongsuo} engine: {@code net.tongsuo:tongsuo-openjdk} 1.0.0, a Conscrypt build over the
 * native Tongsuo library (Linux x86_64). TLS 1.3 with the RFC 8998 suites only: its Java API has no
 * TLCP (later versions add it; they are not on Maven Central), so TLCP settings are a configError
 * that names the {@code bgm} engine.
 *
 * <p>Coexistence: the provider is never registered with {@code Security} — registered
 * first it would replace SunJSSE as the JVM's default TLS — and is only asked for by object. As
 * shipped it decodes peer certificates with a new BouncyCastle provider on every handshake (most of
 * the client's CPU per new connection); its classes are therefore loaded by {@link TongsuoLoader},
 * which makes that one call use the JVM's BouncyCastle instance. It needs BouncyCastle on the class
 * path, did not resume TLS 1.3 sessions as a client, and reuses Conscrypt's package and
 * native-library names, so it cannot share a JVM with Conscrypt.
 */
public final class TongsuoEngine implements TlcpEngine {
    private static final String PROVIDER_CLASS = "net.tongsuo.TongsuoProvider";
    private static final String CONSCRYPT_CLASS = "org.conscrypt.OpenSSLProvider";
    private static final String PROTOCOL = "TLSv1.3";

    private static final String SSL_UTILS = "org.conscrypt.SSLUtils";

    private static volatile Provider provider;
    private static volatile TongsuoLoader providerLoader;

    @Override
    public String name() {
        return "tongsuo";
    }

    @Override
    public Set<TlcpProtocol> protocols() {
        return EnumSet.of(TlcpProtocol.TLS13);
    }

    @Override
    public void checkAvailable() throws TlcpException {
        provider();
    }

    /** The (unregistered) Tongsuo provider, created once; loading it loads the native library. */
    static Provider provider() throws TlcpException {
        Provider p = provider;
        if (p != null) {
            return p;
        }
        synchronized (TongsuoEngine.class) {
            if (provider != null) {
                return provider;
            }
            String os = System.getProperty("os.name", "") + "/" + System.getProperty("os.arch", "");
            if (!os.toLowerCase(java.util.Locale.ROOT).matches("linux/(amd64|x86_64)")) {
                throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE, "tongsuo engine needs Linux x86_64",
                        "tongsuo-openjdk 1.0.0 ships a native library for linux-x86_64 only; this JVM runs on " + os,
                        null);
            }
            try {
                // located, not initialised, through this class's loader: the classes that run come from
                // a loader of their own (TongsuoLoader: the peer certificates' provider built once)
                ClassLoader parent = TongsuoEngine.class.getClassLoader();
                Class<?> shipped = Class.forName(PROVIDER_CLASS, false, parent);
                Class<?> conscrypt = Class.forName(CONSCRYPT_CLASS, false, parent);
                if (!sameJar(shipped, conscrypt)) {
                    throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE,
                            "Conscrypt clashes with the tongsuo engine",
                            "org.conscrypt classes come from " + location(conscrypt)
                            + ", not from the tongsuo-openjdk jar "
                            + location(shipped) + "; remove Conscrypt from the class path (both use the same package)",
                            null);
                }
                KeyStores.bouncyCastle(); // it decodes peer certificates with BouncyCastle
                TongsuoLoader loader = new TongsuoLoader(shipped.getProtectionDomain().getCodeSource().getLocation(),
                        parent);
                p = (Provider) Class.forName(PROVIDER_CLASS, true, loader).getConstructor().newInstance();
                loader.loadClass(SSL_UTILS);
                providerLoader = loader;
                provider = p;
                return p;
            } catch (ClassNotFoundException | NoClassDefFoundError e) {
                throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE, "tongsuo-openjdk jar not found",
                        "put tongsuo-openjdk-1.0.0-linux-x86_64.jar and BouncyCastle"
                        + " (bcprov-jdk18on) beside TrustLoad: "
                        + e, e);
            } catch (UnsatisfiedLinkError e) {
                throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE, "tongsuo native library did not load",
                        TlcpErrors.chain(e), e);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE, "tongsuo engine failed to start",
                        TlcpErrors.chain(e), e);
            }
        }
    }

    /**
     * True when the provider decodes peer certificates with the JVM's one BouncyCastle provider
     * instead of a new one per handshake ({@link TongsuoLoader}); false before the engine started.
     */
    public static boolean certificateProviderCached() {
        TongsuoLoader l = providerLoader;
        return l != null && l.patched();
    }

    @Override
    public TlcpClient newClient(TlcpClientSettings settings) throws TlcpException {
        settings.validate();
        requireTls13(settings.protocol());
        // a context per concurrent handshake without session reuse (see JsseTlcpClient); one trust
        // manager for all of them (it remembers the chains that passed)
        Sm2TrustManager trust = new Sm2TrustManager(settings.trustAnchors());
        return new JsseTlcpClient(settings, () -> context(settings.credentials(), trust),
                new String[] {PROTOCOL}, suiteNames(settings.suites()), p -> p);
    }

    @Override
    public TlcpServer newServer(TlcpServerSettings settings) throws TlcpException {
        settings.validate();
        requireTls13(settings.protocol());
        SSLContext ctx = context(settings.credentials(), new Sm2TrustManager(settings.trustAnchors()));
        return new JsseTlcpServer(settings, ctx, new String[] {PROTOCOL}, suiteNames(settings.suites()), p -> p);
    }

    private static void requireTls13(TlcpProtocol protocol) throws TlcpException {
        if (protocol != TlcpProtocol.TLS13) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "tongsuo engine has no TLCP; use engine bc",
                    "tongsuo-openjdk 1.0.0's Java API implements only TLS 1.3 with the RFC 8998 suites "
                    + "(TLS_SM4_GCM_SM3, TLS_SM4_CCM_SM3)", null);
        }
    }

    private static String[] suiteNames(List<TlcpSuite> suites) {
        return suites.stream().map(Enum::name).toArray(String[]::new);
    }

    private static SSLContext context(TlcpCredentials credentials, Sm2TrustManager trust) throws TlcpException {
        Provider tongsuo = provider();
        try {
            KeyManager[] kms = null;
            if (credentials != null) {
                // TLS 1.3 authenticates with the signing pair only
                char[] pw = "transient".toCharArray(); // protects an in-memory store only
                KeyStore ks = KeyStore.getInstance("PKCS12", KeyStores.bouncyCastle());
                ks.load(null, null);
                KeyMaterial sign = credentials.sign();
                ks.setKeyEntry("sign", sign.privateKey(), pw, sign.chain().toArray(new X509Certificate[0]));
                KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
                kmf.init(ks, pw);
                kms = kmf.getKeyManagers();
            }
            SSLContext ctx = SSLContext.getInstance(PROTOCOL, tongsuo);
            ctx.init(kms, new TrustManager[] {trust}, null);
            return ctx;
        } catch (GeneralSecurityException | java.io.IOException | RuntimeException e) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "cannot build the tongsuo SSL context",
                    TlcpErrors.chain(e), e);
        }
    }

    private static boolean sameJar(Class<?> a, Class<?> b) {
        return location(a).equals(location(b));
    }

    private static String location(Class<?> c) {
        java.security.CodeSource cs = c.getProtectionDomain().getCodeSource();
        return cs == null || cs.getLocation() == null ? "?" : cs.getLocation().toString();
    }
}
