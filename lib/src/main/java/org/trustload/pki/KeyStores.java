package org.trustload.pki;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.ProviderException;
import java.security.Security;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.security.auth.login.LoginException;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.gm.GMObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.trustload.common.ClientException;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMDecryptorProviderBuilder;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Opens key stores and turns their entries into {@link KeyMaterial}. The workhorse behind {@link
 * KeySource}; also used directly by the test PKI and the lab.
 *
 * <p>BouncyCastle is never made the JVM's preferred provider (that would change what every other
 * component of a JMeter JVM gets from the JCA); {@link #bouncyCastle()} adds it at the end of the
 * provider list when absent and code that needs it asks for it by instance.
 *
 * <p>Error messages are stable and never contain a password or PIN; file names and causes go to
 * {@link PkiException#detail()}.
 */
public final class KeyStores {

    private static final String WRONG_PASSWORD = "cannot open key store (wrong password?)";
    private static final String CORRUPT = "cannot open key store (corrupt or unsupported file)";

    /** One SunPKCS11 instance per configuration file: configuring twice would make a second token instance. */
    private static final Map<Path, Provider> PKCS11_PROVIDERS = new ConcurrentHashMap<>();

    private KeyStores() {
    }

    /**
     * The JVM's BouncyCastle provider, registered at the end of the provider list if absent (so
     * that JDK providers stay preferred for everything they can do).
     */
    public static Provider bouncyCastle() {
        Provider p = Security.getProvider(BouncyCastleProvider.PROVIDER_NAME);
        if (p != null) {
            return p;
        }
        synchronized (KeyStores.class) {
            p = Security.getProvider(BouncyCastleProvider.PROVIDER_NAME);
            if (p == null) {
                Security.addProvider(new BouncyCastleProvider());
                p = Security.getProvider(BouncyCastleProvider.PROVIDER_NAME);
            }
            return p;
        }
    }

    /** True when the certificate's key is an EC key on the SM2 curve (sm2p256v1). */
    public static boolean isSm2(X509Certificate certificate) {
        try {
            ASN1Encodable params = SubjectPublicKeyInfo.getInstance(certificate.getPublicKey().getEncoded())
                    .getAlgorithm().getParameters();
            return GMObjectIdentifiers.sm2p256v1.equals(params);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Opens a PKCS#12 or JKS file. A PKCS#12 file whose key entries carry SM2 certificates is opened
     * with BouncyCastle's loader, since the JDK's cannot decode SM2 private keys ("Unknown named
     * curve 1.2.156.10197.1.301"); so is one the JDK cannot parse at all.
     */
    public static KeyStore open(KeySource.Kind kind, Path file, char[] password) throws PkiException {
        if (kind != KeySource.Kind.PKCS12 && kind != KeySource.Kind.JKS) {
            throw new IllegalArgumentException("not a file key store: " + kind);
        }
        byte[] bytes = read(file, "key store");
        if (kind == KeySource.Kind.JKS) {
            try {
                return load(KeyStore.getInstance("JKS"), bytes, password);
            } catch (GeneralSecurityException | IOException e) {
                throw loadFailure(file, e);
            }
        }
        KeyStore jdk = null;
        Exception jdkFailure = null;
        try {
            jdk = load(KeyStore.getInstance("PKCS12"), bytes, password);
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            // the JDK also reports an SM2 certificate it cannot parse as "keystore password was
            // incorrect", so only BouncyCastle's verdict decides between wrong password and corrupt file
            jdkFailure = e;
        }
        if (jdk != null && !hasSm2Key(jdk)) {
            return jdk;
        }
        try {
            return load(KeyStore.getInstance("PKCS12", bouncyCastle()), bytes, password);
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            PkiException failure = loadFailure(file, e);
            if (jdkFailure != null) {
                failure.addSuppressed(jdkFailure);
            }
            throw failure;
        }
    }

    /**
     * The selected key entries of an open store.
     *
     * @param where       names the store in error details
     * @param keyPassword the password of the key entries (the store password for PKCS#12, JKS)
     * @param aliases     the aliases to return in this order, or empty for every key entry sorted by
     *                    alias
     * @param provider    the provider bound to the keys (a SunPKCS11 instance), or null
     */
    public static List<KeyMaterial> keys(KeyStore store, String where, char[] keyPassword, List<String> aliases,
                                         Provider provider) throws PkiException {
        try {
            List<String> selected = new ArrayList<>();
            if (aliases == null || aliases.isEmpty()) {
                for (String a : Collections.list(store.aliases())) {
                    if (store.isKeyEntry(a)) {
                        selected.add(a);
                    }
                }
                if (selected.isEmpty()) {
                    throw new PkiException(PkiException.KEY_ERROR, "key store has no private key entries",
                            where + " has no private key entries", null);
                }
                Collections.sort(selected);
            } else {
                for (String a : aliases) {
                    if (!store.isKeyEntry(a)) {
                        throw new PkiException(PkiException.KEY_ERROR, "alias " + a + " not found",
                                "alias " + a + " is not a private key entry of " + where, null);
                    }
                    selected.add(a);
                }
            }
            List<KeyMaterial> keys = new ArrayList<>(selected.size());
            for (String a : selected) {
                keys.add(entry(store, where, a, keyPassword, provider));
            }
            return keys;
        } catch (GeneralSecurityException e) {
            throw new PkiException(PkiException.KEY_ERROR, "cannot read key store", where + ": " + e, e);
        }
    }

    private static KeyMaterial entry(KeyStore store, String where, String alias, char[] keyPassword,
                                     Provider provider) throws GeneralSecurityException, PkiException {
        Key key;
        try {
            key = store.getKey(alias, keyPassword);
        } catch (UnrecoverableKeyException e) {
            throw new PkiException(PkiException.KEY_ERROR, "cannot read key " + alias + " (wrong key password?)",
                    where + ", alias " + alias + ": " + e, e);
        }
        if (!(key instanceof PrivateKey)) {
            throw new PkiException(PkiException.KEY_ERROR, "alias " + alias + " not found",
                    "alias " + alias + " of " + where + " holds no private key", null);
        }
        Certificate[] chain = store.getCertificateChain(alias);
        if (chain == null || chain.length == 0) {
            throw new PkiException(PkiException.KEY_ERROR, "key " + alias + " has no certificate",
                    where + ", alias " + alias + " has no certificate chain", null);
        }
        List<X509Certificate> certs = new ArrayList<>(chain.length);
        for (Certificate c : chain) {
            certs.add((X509Certificate) c);
        }
        return new KeyMaterial(alias, (PrivateKey) key, certs, providerFor(certs.get(0), provider));
    }

    /** SM2 keys can only be used through BouncyCastle (no JDK provider knows SM3withSM2). */
    private static Provider providerFor(X509Certificate cert, Provider given) {
        if (given != null) {
            return given;
        }
        return isSm2(cert) ? bouncyCastle() : null;
    }

    /**
     * Reads a PEM private key and its certificate chain.
     *
     * @param password for an encrypted key (PKCS#8 {@code ENCRYPTED PRIVATE KEY} or OpenSSL's
     *                 legacy {@code Proc-Type: 4,ENCRYPTED}), else null
     */
    public static KeyMaterial pem(Path keyFile, Path chainFile, char[] password, String alias) throws PkiException {
        byte[] keyBytes = read(keyFile, "key file");
        byte[] chainBytes = read(chainFile, "certificate file");
        PrivateKeyInfo info = null;
        try (PEMParser parser = parser(keyBytes)) {
            Object o;
            while (info == null && (o = parser.readObject()) != null) {
                if (o instanceof PrivateKeyInfo) {
                    info = (PrivateKeyInfo) o;
                } else if (o instanceof PEMKeyPair) {
                    info = ((PEMKeyPair) o).getPrivateKeyInfo();
                } else if (o instanceof PKCS8EncryptedPrivateKeyInfo) {
                    info = ((PKCS8EncryptedPrivateKeyInfo) o).decryptPrivateKeyInfo(
                            new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(bouncyCastle())
                                    .build(needPassword(password)));
                } else if (o instanceof PEMEncryptedKeyPair) {
                    info = ((PEMEncryptedKeyPair) o).decryptKeyPair(
                            new JcePEMDecryptorProviderBuilder().setProvider(bouncyCastle())
                                    .build(needPassword(password))).getPrivateKeyInfo();
                }
            }
        } catch (PkiException e) {
            throw e;
        } catch (Exception e) {
            // a decryption failure with a wrong password surfaces here as well
            throw new PkiException(PkiException.KEY_ERROR,
                    password != null ? "cannot read PEM key (wrong password?)" : "cannot read PEM key",
                    keyFile + ": " + e, e);
        }
        if (info == null) {
            throw new PkiException(PkiException.KEY_ERROR, "no private key in PEM file",
                    keyFile + " holds no private key", null);
        }
        List<X509Certificate> chain = certificates(chainBytes, chainFile, "certificate file", PkiException.KEY_ERROR);
        PrivateKey key;
        boolean sm2 = isSm2(chain.get(0));
        try {
            // JDK key objects where the JDK can decode them; SM2 keys only decode with BouncyCastle
            JcaPEMKeyConverter conv = new JcaPEMKeyConverter();
            if (sm2) {
                conv.setProvider(bouncyCastle());
            }
            key = conv.getPrivateKey(info);
        } catch (Exception e) {
            throw new PkiException(PkiException.KEY_ERROR, "cannot read PEM key", keyFile + ": " + e, e);
        }
        return new KeyMaterial(alias, key, chain, sm2 ? bouncyCastle() : null);
    }

    /**
     * The one reader of certificate files (trust anchors, chains): every certificate of a PEM file,
     * or the certificates of a DER file. SM2 certificates are read with BouncyCastle (the JDK's factory
     * rejects their curve).
     *
     * @param what how messages name the file, e.g. {@code trust anchors file}
     * @throws PkiException {@code configError} when the file is missing, unreadable or holds no certificate
     */
    public static List<X509Certificate> certificates(Path file, String what) throws PkiException {
        return certificates(read(file, what), file, what, PkiException.CONFIG_ERROR);
    }

    private static List<X509Certificate> certificates(byte[] bytes, Path file, String what, String category)
            throws PkiException {
        List<X509Certificate> out = new ArrayList<>();
        try {
            if (looksLikePem(bytes)) {
                try (PEMParser parser = parser(bytes)) {
                    JcaX509CertificateConverter jdk = new JcaX509CertificateConverter();
                    JcaX509CertificateConverter bc = new JcaX509CertificateConverter().setProvider(bouncyCastle());
                    Object o;
                    while ((o = parser.readObject()) != null) {
                        if (o instanceof X509CertificateHolder) {
                            X509CertificateHolder h = (X509CertificateHolder) o;
                            boolean sm2 = GMObjectIdentifiers.sm2p256v1.equals(
                                    h.getSubjectPublicKeyInfo().getAlgorithm().getParameters());
                            out.add((sm2 ? bc : jdk).getCertificate(h));
                        }
                    }
                }
            } else {
                for (Certificate c : java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificates(new java.io.ByteArrayInputStream(bytes))) {
                    out.add((X509Certificate) c);
                }
            }
        } catch (Exception e) {
            throw new PkiException(category, "cannot read " + what, file + ": " + ClientException.readable(e), e);
        }
        if (out.isEmpty()) {
            throw new PkiException(category, "no certificate in " + what, file + " holds no certificate", null);
        }
        return out;
    }

    /**
     * The one reader of CRL files (PEM or DER).
     *
     * @throws PkiException {@code configError} when the file is missing or not a CRL
     */
    public static java.security.cert.X509CRL crl(Path file) throws PkiException {
        byte[] bytes = read(file, "CRL file");
        try {
            return (java.security.cert.X509CRL) java.security.cert.CertificateFactory.getInstance("X.509",
                    bouncyCastle())
                    .generateCRL(new java.io.ByteArrayInputStream(bytes));
        } catch (Exception e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "cannot read CRL file",
                    file + ": " + ClientException.readable(e), e);
        }
    }

    private static boolean looksLikePem(byte[] bytes) {
        String head = new String(bytes, 0, Math.min(bytes.length, 4096), StandardCharsets.US_ASCII);
        return head.contains("-----BEGIN ");
    }

    private static char[] needPassword(char[] password) throws PkiException {
        if (password == null || password.length == 0) {
            throw new PkiException(PkiException.KEY_ERROR, "PEM key is encrypted and no password was given");
        }
        return password;
    }

    /**
     * The SunPKCS11 provider for a configuration file, configured on first use and then reused:
     * configuring the same file twice would create a second, independent instance of the token in
     * this JVM (separate sessions and logins). Keyed by the file's real path.
     */
    public static Provider pkcs11Provider(Path configFile) throws PkiException {
        Path key;
        try {
            key = configFile.toRealPath();
        } catch (IOException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "PKCS#11 configuration file not found",
                    configFile + ": " + e, e);
        }
        Provider cached = PKCS11_PROVIDERS.get(key);
        if (cached != null) {
            return cached;
        }
        synchronized (PKCS11_PROVIDERS) {
            cached = PKCS11_PROVIDERS.get(key);
            if (cached != null) {
                return cached;
            }
            Provider base = Security.getProvider("SunPKCS11");
            if (base == null) {
                throw new PkiException(PkiException.CONFIG_ERROR, "SunPKCS11 provider is not available in this JVM");
            }
            try {
                Provider p = base.configure(key.toString());
                PKCS11_PROVIDERS.put(key, p);
                return p;
            } catch (RuntimeException e) {
                // ProviderException for a bad file or missing library, InvalidParameterException for bad syntax
                throw new PkiException(PkiException.CONFIG_ERROR, "cannot configure PKCS#11 provider",
                        key + ": " + rootMessage(e), e);
            }
        }
    }

    /**
     * Logs in to a PKCS#11 token with the PIN and returns the selected key entries. Aliases are
     * SunPKCS11's: the label of the certificate paired (same CKA_ID) with each private key. Once a
     * provider is logged in, SunPKCS11 does not check the PIN of later loads again: a wrong PIN is
     * only detected on the first login of the JVM.
     */
    public static List<KeyMaterial> pkcs11(Path configFile, char[] pin, List<String> aliases) throws PkiException {
        Provider provider = pkcs11Provider(configFile);
        KeyStore store;
        try {
            store = KeyStore.getInstance("PKCS11", provider);
            // one login per provider at a time: concurrent first logins race inside SunPKCS11
            synchronized (provider) {
                store.load(null, pin);
            }
        } catch (IOException e) {
            if (hasCause(e, LoginException.class) || String.valueOf(rootMessage(e)).contains("PIN")) {
                throw new PkiException(PkiException.KEY_ERROR, "cannot log in to the PKCS#11 token (wrong PIN?)",
                        configFile + ": " + rootClass(e), e);
            }
            throw new PkiException(PkiException.KEY_ERROR, "cannot open the PKCS#11 token", configFile + ": " + e, e);
        } catch (GeneralSecurityException | ProviderException e) {
            throw new PkiException(PkiException.KEY_ERROR, "cannot open the PKCS#11 token", configFile + ": " + e, e);
        }
        // token keys need no password; SunPKCS11 ignores it
        return keys(store, "PKCS#11 token " + configFile, null, aliases, provider);
    }

    private static KeyStore load(KeyStore ks, byte[] bytes, char[] password)
            throws GeneralSecurityException, IOException {
        try (InputStream in = new java.io.ByteArrayInputStream(bytes)) {
            ks.load(in, password);
        }
        return ks;
    }

    private static boolean hasSm2Key(KeyStore ks) {
        try {
            for (String a : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(a) && ks.getCertificate(a) instanceof X509Certificate
                        && isSm2((X509Certificate) ks.getCertificate(a))) {
                    return true;
                }
            }
            return false;
        } catch (GeneralSecurityException e) {
            return true; // let BouncyCastle try
        }
    }

    private static PkiException loadFailure(Path file, Exception e) {
        String message = isWrongPassword(e) ? WRONG_PASSWORD : CORRUPT;
        return new PkiException(PkiException.KEY_ERROR, message, file + ": " + e, e);
    }

    /**
     * The JDK reports a wrong store password as an IOException caused by UnrecoverableKeyException;
     * BouncyCastle as "mac invalid - wrong password or corrupted file".
     */
    private static boolean isWrongPassword(Throwable e) {
        if (hasCause(e, UnrecoverableKeyException.class)) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && m.toLowerCase(java.util.Locale.ROOT).contains("password")) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.toString();
    }

    private static String rootClass(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getName();
    }

    /**
     * The bytes of {@code file}, a {@code what} (named in the error): a missing or unreadable file is a
     * {@link PkiException#CONFIG_ERROR}.
     */
    public static byte[] read(Path file, String what) throws PkiException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, what + " not found", file.toString(), e);
        } catch (IOException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "cannot read " + what, file + ": " + e, e);
        }
    }

    private static PEMParser parser(byte[] bytes) {
        Reader r = new java.io.InputStreamReader(new java.io.ByteArrayInputStream(bytes), StandardCharsets.US_ASCII);
        return new PEMParser(r);
    }
}
