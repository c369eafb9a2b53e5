package org.trustload.labkit.pki;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLDistPoint;
import org.bouncycastle.asn1.x509.CRLNumber;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.DistributionPoint;
import org.bouncycastle.asn1.x509.DistributionPointName;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v2CRLBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.pki.PkiException;

/**
 * A reproducible test PKI written to a directory: CAs, users round-robin over them, CRLs, a TSA and TLS and
 * TLCP server keys, so that a signature server under load sees many certificates from several CAs. Throwaway
 * material under the fixed password {@value #PASSWORD}: never for anything to trust. The files, the
 * certificate profile and how generation stays byte-for-byte reproducible: docs/lab.md, "The test PKI and its
 * cache".
 */
public final class TestPki {

    /** The fixed password of every key store of a test PKI (test material; not a secret). */
    public static final String PASSWORD = "trustload";

    /** Key algorithms a test PKI can use. */
    public enum KeyType {
        P256("P-256"), RSA2048("RSA-2048"), SM2("SM2");

        private final String label;

        KeyType(String label) {
            this.label = label;
        }

        /** The name users write: {@code P-256}, {@code RSA-2048}, {@code SM2}. */
        public String label() {
            return label;
        }

        /** Parses {@code P-256}/{@code P256}/{@code EC}, {@code RSA-2048}/{@code RSA}, {@code SM2}. */
        public static KeyType parse(String text) {
            String t = text.trim().toUpperCase(Locale.ROOT).replace("-", "").replace("_", "");
            switch (t) {
                case "P256": case "EC": case "ECDSA": case "SECP256R1":
                    return P256;
                case "RSA2048": case "RSA":
                    return RSA2048;
                case "SM2": case "SM2P256V1":
                    return SM2;
                default:
                    throw new IllegalArgumentException("unknown key type " + text + " (P-256, RSA-2048, SM2)");
            }
        }
    }

    /**
     * What to generate. Immutable; the {@code with…} methods return modified copies. Users are
     * numbered from 1 and assigned round-robin: user i belongs to CA {@code ((i - 1) % cas) + 1}.
     */
    public static final class Spec {
        private long seed = 1;
        private int cas = 3;
        private int users = 1000;
        private KeyType keyType = KeyType.P256;
        private String crlBaseUrl = "http://127.0.0.1:8080/crl/";
        private int revokedEvery = 50;
        private Set<Integer> revoked = Set.of();
        private int expiredCount = 2;
        private Set<Integer> expired = null;
        private Instant notBefore = Instant.parse("2025-01-01T00:00:00Z");
        private Duration validity = Duration.ofDays(3650);
        private Instant crlDate = null;

        /** The defaults: seed 1, 3 CAs, 1000 P-256 users, every 50th revoked, 2 expired. */
        public Spec() {
        }

        private Spec copy() {
            Spec s = new Spec();
            s.seed = seed; s.cas = cas; s.users = users; s.keyType = keyType; s.crlBaseUrl = crlBaseUrl;
            s.revokedEvery = revokedEvery; s.revoked = revoked; s.expiredCount = expiredCount;
            s.expired = expired; s.notBefore = notBefore; s.validity = validity; s.crlDate = crlDate;
            return s;
        }

        public Spec withSeed(long v) { Spec s = copy(); s.seed = v; return s; }

        public Spec withCas(int v) {
            if (v < 1) {
                throw new IllegalArgumentException("at least one CA");
            }
            Spec s = copy(); s.cas = v; return s;
        }

        public Spec withUsers(int v) {
            if (v < 0) {
                throw new IllegalArgumentException("negative user count");
            }
            Spec s = copy(); s.users = v; return s;
        }

        public Spec withKeyType(KeyType v) { Spec s = copy(); s.keyType = v; return s; }

        /**
         * Base URL of the CRLs, ending in {@code /}: user certificates of CA n get the distribution
         * point {@code <base>ca-<n>.crl}. Null: no distribution point.
         */
        public Spec withCrlBaseUrl(String v) { Spec s = copy(); s.crlBaseUrl = v; return s; }

        /** Revoke every n-th user (users n, 2n, …); 0 for none. */
        public Spec withRevokedEvery(int n) { Spec s = copy(); s.revokedEvery = n; return s; }

        /** Revoke these users (1-based numbers) in addition to {@link #withRevokedEvery}. */
        public Spec withRevoked(Collection<Integer> users) { Spec s = copy(); s.revoked = Set.copyOf(users); return s; }

        /** Make the last {@code n} users that are not revoked expired certificates. */
        public Spec withExpiredCount(int n) { Spec s = copy(); s.expiredCount = n; s.expired = null; return s; }

        /** Make exactly these users (1-based numbers) expired; overrides {@link #withExpiredCount}. */
        public Spec withExpired(Collection<Integer> users) { Spec s = copy(); s.expired = Set.copyOf(users); return s; }

        /** Start of every certificate's validity (default 2025-01-01T00:00Z). */
        public Spec withNotBefore(Instant v) { Spec s = copy(); s.notBefore = v; return s; }

        /** Validity of every certificate except expired users (default 3650 days). */
        public Spec withValidity(Duration v) { Spec s = copy(); s.validity = v; return s; }

        /** thisUpdate of the CRLs; null (default) means the start of the current UTC day. */
        public Spec withCrlDate(Instant v) { Spec s = copy(); s.crlDate = v; return s; }

        public long seed() { return seed; }

        public int cas() { return cas; }

        public int users() { return users; }

        public KeyType keyType() { return keyType; }

        public String crlBaseUrl() { return crlBaseUrl; }

        public Instant notBefore() { return notBefore; }

        public Duration validity() { return validity; }

        public Instant crlDate() { return crlDate; }

        /** The revoked user numbers (1-based). */
        public Set<Integer> revokedUsers() {
            Set<Integer> r = new TreeSet<>();
            for (int i = 1; i <= users; i++) {
                if ((revokedEvery > 0 && i % revokedEvery == 0) || revoked.contains(i)) {
                    r.add(i);
                }
            }
            return r;
        }

        /** The expired user numbers (1-based). */
        public Set<Integer> expiredUsers() {
            Set<Integer> revokedUsers = revokedUsers();
            Set<Integer> e = new TreeSet<>();
            if (expired != null) {
                for (int i : expired) {
                    if (i >= 1 && i <= users) {
                        e.add(i);
                    }
                }
                return e;
            }
            for (int i = users; i >= 1 && e.size() < expiredCount; i--) {
                if (!revokedUsers.contains(i)) {
                    e.add(i);
                }
            }
            return e;
        }
    }

    /** Status of a user certificate in {@code users.csv}. */
    public enum Status {
        VALID, REVOKED, EXPIRED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** TLCP party names of {@link #tlcpKeyStoreFile} and {@link #tlcpKey} (SM2 test PKIs only). */
    public static final String TLCP_SERVER = "server";
    /** The TLCP client with valid certificates. */
    public static final String TLCP_CLIENT = "client";
    /** A TLCP client whose two certificates expired 30 days after {@link Spec#notBefore}. */
    public static final String TLCP_CLIENT_EXPIRED = "client-expired";

    private static final String USERS_P12 = "users.p12";
    private static final String SERVER_P12 = "server.p12";
    private static final String TSA_P12 = "tsa.p12";

    private final Path dir;
    private final KeyType keyType;
    private final int cas;
    private final List<X509Certificate> caCerts;
    private final Map<String, String[]> users; // alias -> {ca, serial, status}

    private TestPki(Path dir, KeyType keyType, int cas, List<X509Certificate> caCerts, Map<String, String[]> users) {
        this.dir = dir;
        this.keyType = keyType;
        this.cas = cas;
        this.caCerts = List.copyOf(caCerts);
        this.users = users;
    }

    /** The alias of user {@code i} (1-based): {@code user0001}. */
    public static String alias(int i) {
        return String.format(Locale.ROOT, "user%04d", i);
    }

    /**
     * Generates a test PKI into {@code dir} (created if needed; existing files are overwritten) and
     * returns it loaded.
     */
    public static TestPki generate(Spec spec, Path dir) throws PkiException {
        try {
            return new Generator(spec, dir).run();
        } catch (IOException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "cannot write test PKI", dir + ": " + e, e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new PkiException(PkiException.KEY_ERROR, "cannot generate test PKI", dir + ": " + e, e);
        }
    }

    /** Reads a test PKI written by {@link #generate}. */
    public static TestPki load(Path dir) throws PkiException {
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(dir.resolve("pki.properties"), StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "not a test PKI directory", dir + ": " + e, e);
        }
        KeyType type = KeyType.parse(p.getProperty("keyType"));
        int cas = Integer.parseInt(p.getProperty("cas"));
        List<X509Certificate> caCerts = new ArrayList<>();
        try {
            CertificateFactory cf = certificateFactory(type);
            for (int n = 1; n <= cas; n++) {
                caCerts.add((X509Certificate) cf.generateCertificate(
                        new ByteArrayInputStream(KeyStores.read(dir.resolve(caFile(n, ".pem")), "CA certificate"))));
            }
            Map<String, String[]> users = new LinkedHashMap<>();
            List<String> lines = Files.readAllLines(dir.resolve("users.csv"), StandardCharsets.UTF_8);
            for (String line : lines.subList(1, lines.size())) {
                if (!line.isBlank()) {
                    String[] f = line.split(",");
                    users.put(f[0], new String[] {f[1], f[2], f[3]});
                }
            }
            return new TestPki(dir, type, cas, caCerts, users);
        } catch (IOException | GeneralSecurityException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "cannot read test PKI", dir + ": " + e, e);
        }
    }

    /** The directory holding the files. */
    public Path dir() {
        return dir;
    }

    public KeyType keyType() {
        return keyType;
    }

    /** The lab password of every key store ({@value #PASSWORD}). */
    public String password() {
        return PASSWORD;
    }

    /** The CA certificates, CA 1 first. */
    public List<X509Certificate> caCertificates() {
        return caCerts;
    }

    /** The CRL of CA {@code n} (1-based). */
    public X509CRL crl(int n) throws PkiException {
        checkCa(n);
        Path f = dir.resolve(caFile(n, ".crl"));
        try {
            return (X509CRL) certificateFactory(keyType)
                    .generateCRL(new ByteArrayInputStream(KeyStores.read(f, "CRL")));
        } catch (GeneralSecurityException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "cannot read CRL", f + ": " + e, e);
        }
    }

    /** The file of CA {@code n}'s CRL, as the lab serves it. */
    public Path crlFile(int n) {
        checkCa(n);
        return dir.resolve(caFile(n, ".crl"));
    }

    /** {@code users.p12}. */
    public Path usersFile() {
        return dir.resolve(USERS_P12);
    }

    /** {@code users.p12}, opened (with BouncyCastle's loader for SM2). */
    public KeyStore usersKeyStore() throws PkiException {
        return KeyStores.open(KeySource.Kind.PKCS12, usersFile(), PASSWORD.toCharArray());
    }

    /** A key source over {@code users.p12} for the given aliases (empty: all users). */
    public KeySource users(List<String> aliases) {
        return KeySource.pkcs12(usersFile(), PASSWORD.toCharArray(), aliases);
    }

    /** One user's key and chain. */
    public KeyMaterial userKey(String alias) throws PkiException {
        return users(List.of(alias)).load().get(0);
    }

    /** Every user alias, in order. */
    public List<String> userAliases() {
        return List.copyOf(users.keySet());
    }

    /** Aliases of the users on a CRL. */
    public List<String> revokedAliases() {
        return withStatus(Status.REVOKED);
    }

    /** Aliases of the users whose certificate has expired. */
    public List<String> expiredAliases() {
        return withStatus(Status.EXPIRED);
    }

    /** Aliases of the users whose certificate is valid (neither revoked nor expired). */
    public List<String> validAliases() {
        return withStatus(Status.VALID);
    }

    /** The CA number (1-based) of a user. */
    public int caOf(String alias) {
        return Integer.parseInt(userRow(alias)[0]);
    }

    /** The serial number of a user's certificate. */
    public BigInteger serialOf(String alias) {
        return new BigInteger(userRow(alias)[1], 16);
    }

    private String[] userRow(String alias) {
        String[] row = users.get(alias);
        if (row == null) {
            throw new IllegalArgumentException("no user " + alias);
        }
        return row;
    }

    private List<String> withStatus(Status s) {
        List<String> out = new ArrayList<>();
        users.forEach((a, row) -> {
            if (row[2].equals(s.label())) {
                out.add(a);
            }
        });
        return out;
    }

    /** The TSA key (issued by CA 1) with its chain [tsa, CA 1]. */
    public KeyMaterial tsaKey() throws PkiException {
        return KeySource.pkcs12(dir.resolve(TSA_P12), PASSWORD.toCharArray(), List.of("tsa")).load().get(0);
    }

    /** CA {@code n}'s key and certificate, to sign CRLs. */
    public KeyMaterial caKey(int n) throws PkiException {
        checkCa(n);
        return KeySource.pkcs12(dir.resolve(caFile(n, ".p12")), PASSWORD.toCharArray(), List.of("ca-" + n)).load()
                .get(0);
    }

    /** {@code server.p12} (alias {@code server}), a TLS server certificate for 127.0.0.1 and localhost. */
    public KeyStore serverKeyStore() throws PkiException {
        return KeyStores.open(KeySource.Kind.PKCS12, dir.resolve(SERVER_P12), PASSWORD.toCharArray());
    }

    /**
     * {@code tlcp-<party>.p12}: a TLCP party's SM2 signing (alias {@code sign}) and encryption
     * (alias {@code enc}) keys, each with chain [certificate, CA 1]. Beside it, for C peers:
     * {@code tlcp-<party>-sign.pem}/{@code .key} and {@code tlcp-<party>-enc.pem}/{@code .key}
     * (unencrypted PKCS#8). Only SM2 test PKIs have them.
     */
    public Path tlcpKeyStoreFile(String party) {
        if (keyType != KeyType.SM2) {
            throw new IllegalStateException("TLCP certificates exist only in SM2 test PKIs");
        }
        return dir.resolve(tlcpFile(party));
    }

    /** One TLCP key: {@code use} is {@code sign} or {@code enc}. */
    public KeyMaterial tlcpKey(String party, String use) throws PkiException {
        return KeySource.pkcs12(tlcpKeyStoreFile(party), PASSWORD.toCharArray(), List.of(use)).load().get(0);
    }

    /** Extensions of a certificate made by {@link #issue}: add them to the builder. */
    public interface Extensions {
        void addTo(X509v3CertificateBuilder builder) throws IOException;
    }

    /**
     * Issues one more certificate, in memory (nothing is written, the CRLs do not change), for tests of
     * path validation that need what the generated PKI lacks: an intermediate CA, a signer below one, a
     * certificate with an odd extension. The key is of this PKI's type; subject and authority key
     * identifiers are added; everything else — basicConstraints, key usage … — comes from
     * {@code extensions}. Valid from the issuer's notBefore (a day ago when self-signed) to
     * {@code notAfter}, or the issuer's notAfter when null.
     *
     * @param issuer the issuer's key and chain (e.g. {@link #caKey}, {@link #userKey}, or an earlier result),
     *               or null for a self-signed certificate
     * @return the new key with its chain: the new certificate followed by the issuer's chain
     */
    public KeyMaterial issue(KeyMaterial issuer, String commonName, Instant notAfter, Extensions extensions)
            throws PkiException {
        try {
            Provider bc = KeyStores.bouncyCastle();
            KeyPairGenerator g;
            if (keyType == KeyType.RSA2048) {
                g = KeyPairGenerator.getInstance("RSA");
                g.initialize(2048);
            } else {
                g = KeyPairGenerator.getInstance("EC", bc);
                g.initialize(new ECGenParameterSpec(keyType == KeyType.SM2 ? "sm2p256v1" : "secp256r1"));
            }
            KeyPair kp = g.generateKeyPair();
            X500NameBuilder nb = new X500NameBuilder(BCStyle.INSTANCE);
            X500Name subject = nb.addRDN(BCStyle.C, "BR").addRDN(BCStyle.O, "TrustLoad Test PKI")
                    .addRDN(BCStyle.OU, "Path tests").addRDN(BCStyle.CN, commonName).build();
            X509Certificate issuerCert = issuer == null ? null : issuer.certificate();
            Instant from = issuerCert == null ? Instant.now().minus(Duration.ofDays(1))
                    : issuerCert.getNotBefore().toInstant();
            Instant to = notAfter != null ? notAfter
                    : issuerCert == null ? from.plus(Duration.ofDays(3650)) : issuerCert.getNotAfter().toInstant();
            X500Name issuerName = issuerCert == null ? subject
                    : X500Name.getInstance(issuerCert.getSubjectX500Principal().getEncoded());
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuerName,
                    new BigInteger(63, new SecureRandom()).setBit(62), Date.from(from), Date.from(to),
                    subject, kp.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(kp.getPublic()));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(
                    issuerCert == null ? kp.getPublic() : issuerCert.getPublicKey()));
            extensions.addTo(b);
            PrivateKey signingKey = issuer == null ? kp.getPrivate() : issuer.privateKey();
            X509Certificate cert = new JcaX509CertificateConverter().setProvider(bc)
                    .getCertificate(b.build(signer(keyType, signingKey, null)));
            List<X509Certificate> chain = new ArrayList<>();
            chain.add(cert);
            if (issuer != null) {
                chain.addAll(issuer.chain());
            }
            return new KeyMaterial(commonName, kp.getPrivate(), chain, bc);
        } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
            throw new PkiException(PkiException.KEY_ERROR, "cannot issue test certificate", commonName + ": " + e, e);
        }
    }

    private static String tlcpFile(String party) {
        return "tlcp-" + party + ".p12";
    }

    private void checkCa(int n) {
        if (n < 1 || n > cas) {
            throw new IllegalArgumentException("CA " + n + " does not exist (1.." + cas + ")");
        }
    }

    private static String caFile(int n, String ext) {
        return "ca-" + n + ext;
    }

    private static CertificateFactory certificateFactory(KeyType type) throws GeneralSecurityException {
        // the JDK's X.509 factory cannot build SM2 public keys; BouncyCastle's can
        return type == KeyType.SM2 ? CertificateFactory.getInstance("X.509", KeyStores.bouncyCastle())
                : CertificateFactory.getInstance("X.509");
    }

    /**
     * Builds and signs a CRL, e.g. for the lab to re-issue one with a fresh thisUpdate.
     *
     * @param ca      the CA's key and certificate
     * @param revoked serial number to revocation date
     * @param number  the CRL number extension's value
     */
    public static X509CRL buildCrl(KeyMaterial ca, Map<BigInteger, Instant> revoked, Instant thisUpdate,
                                   Instant nextUpdate, BigInteger number) throws PkiException {
        try {
            X509v2CRLBuilder b = new JcaX509v2CRLBuilder(ca.certificate(), Date.from(thisUpdate));
            b.setNextUpdate(Date.from(nextUpdate));
            for (Map.Entry<BigInteger, Instant> e : revoked.entrySet()) {
                b.addCRLEntry(e.getKey(), Date.from(e.getValue()), CRLReason.keyCompromise);
            }
            b.addExtension(Extension.authorityKeyIdentifier, false,
                    new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(ca.certificate()));
            b.addExtension(Extension.cRLNumber, false, new CRLNumber(number));
            ContentSigner signer = signer(ca.keyAlgorithm().equals("SM2") ? KeyType.SM2
                    : ca.keyAlgorithm().equals("RSA") ? KeyType.RSA2048 : KeyType.P256, ca.privateKey(), null);
            return new JcaX509CRLConverter().setProvider(KeyStores.bouncyCastle()).getCRL(b.build(signer));
        } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
            throw new PkiException(PkiException.SIGNING_ERROR, "cannot sign CRL", e.toString(), e);
        }
    }

    private static ContentSigner signer(KeyType type, PrivateKey key, SecureRandom random)
            throws OperatorCreationException {
        String alg = type == KeyType.SM2 ? "SM3withSM2" : type == KeyType.RSA2048 ? "SHA256withRSA" : "SHA256withECDSA";
        // BouncyCastle signs faster than SunEC and knows SM2; passing the seeded random makes ECDSA
        // signatures (and therefore whole certificates) reproducible
        JcaContentSignerBuilder b = new JcaContentSignerBuilder(alg).setProvider(KeyStores.bouncyCastle());
        if (random != null) {
            b.setSecureRandom(random);
        }
        return b.build(key);
    }

    /** One generation run; holds the state shared by its steps. */
    private static final class Generator {
        private final Spec spec;
        private final Path dir;
        private final Provider bc = KeyStores.bouncyCastle();
        private final JcaX509ExtensionUtils ext;
        private final JcaX509CertificateConverter converter;
        private final char[] password = PASSWORD.toCharArray();

        Generator(Spec spec, Path dir) throws GeneralSecurityException {
            this.spec = spec;
            this.dir = dir;
            this.ext = new JcaX509ExtensionUtils();
            this.converter = new JcaX509CertificateConverter();
            if (spec.keyType == KeyType.SM2) {
                converter.setProvider(bc);
            }
        }

        TestPki run() throws IOException, GeneralSecurityException, OperatorCreationException, PkiException {
            Files.createDirectories(dir);
            Instant notBefore = spec.notBefore;
            Instant notAfter = notBefore.plus(spec.validity);

            List<KeyPair> caKeys = new ArrayList<>();
            List<X509Certificate> caCerts = new ArrayList<>();
            StringBuilder anchors = new StringBuilder();
            for (int n = 1; n <= spec.cas; n++) {
                SecureRandom rnd = random("ca", n);
                KeyPair kp = keyPair(rnd);
                X500Name name = name("TrustLoad Test CA " + n, null);
                X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(n),
                        Date.from(notBefore), Date.from(notAfter), name, kp.getPublic());
                b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
                b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
                b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(kp.getPublic()));
                // optional in a self-signed certificate (RFC 5280 section 4.2.1.1), but strict validators look for it
                b.addExtension(Extension.authorityKeyIdentifier, false,
                        ext.createAuthorityKeyIdentifier(kp.getPublic()));
                X509Certificate cert = cert(b, kp.getPrivate(), rnd);
                caKeys.add(kp);
                caCerts.add(cert);
                String pem = pem(cert);
                Files.writeString(dir.resolve(caFile(n, ".pem")), pem, StandardCharsets.US_ASCII);
                anchors.append(pem);
                writeP12(dir.resolve(caFile(n, ".p12")),
                        Map.of("ca-" + n, new Pkcs12Writer.KeyEntry(kp.getPrivate(), List.of(cert))));
            }
            Files.writeString(dir.resolve("trust-anchors.pem"), anchors, StandardCharsets.US_ASCII);

            Set<Integer> revoked = spec.revokedUsers();
            Set<Integer> expired = spec.expiredUsers();
            Instant revocationDate = notBefore.plus(Duration.ofDays(1));
            List<Map<BigInteger, Instant>> crlEntries = new ArrayList<>();
            for (int n = 0; n < spec.cas; n++) {
                crlEntries.add(new LinkedHashMap<>());
            }
            Map<String, Pkcs12Writer.KeyEntry> userEntries = new LinkedHashMap<>();
            StringBuilder csv = new StringBuilder("alias,ca,serial,status\n");
            for (int i = 1; i <= spec.users; i++) {
                int ca = (i - 1) % spec.cas + 1;
                SecureRandom rnd = random("user", i);
                KeyPair kp = keyPair(rnd);
                BigInteger serial = serial(rnd);
                String alias = alias(i);
                boolean isExpired = expired.contains(i);
                Instant end = isExpired ? notBefore.plus(Duration.ofDays(30)) : notAfter;
                X509Certificate caCert = caCerts.get(ca - 1);
                X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(caCert, serial, Date.from(notBefore),
                        Date.from(end), name(alias, "CA " + ca), kp.getPublic());
                b.addExtension(Extension.keyUsage, true,
                        new KeyUsage(KeyUsage.digitalSignature | KeyUsage.nonRepudiation));
                // clientAuth for certificate login and mutual TLS, emailProtection for CMS signatures
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                        new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth, KeyPurposeId.id_kp_emailProtection}));
                commonExtensions(b, kp.getPublic(), caCert, ca);
                X509Certificate cert = cert(b, caKeys.get(ca - 1).getPrivate(), rnd);
                userEntries.put(alias, new Pkcs12Writer.KeyEntry(kp.getPrivate(), List.of(cert, caCert)));
                Status status = revoked.contains(i) ? Status.REVOKED : isExpired ? Status.EXPIRED : Status.VALID;
                if (status == Status.REVOKED) {
                    crlEntries.get(ca - 1).put(serial, revocationDate);
                }
                csv.append(alias).append(',').append(ca).append(',').append(serial.toString(16)).append(',')
                        .append(status.label()).append('\n');
            }
            writeP12(dir.resolve(USERS_P12), userEntries);
            Files.writeString(dir.resolve("users.csv"), csv, StandardCharsets.UTF_8);

            Instant thisUpdate = spec.crlDate != null ? spec.crlDate : Instant.now().truncatedTo(ChronoUnit.DAYS);
            for (int n = 1; n <= spec.cas; n++) {
                KeyMaterial ca = new KeyMaterial("ca-" + n, caKeys.get(n - 1).getPrivate(), List.of(caCerts.get(n - 1)),
                        spec.keyType == KeyType.SM2 ? bc : null);
                X509CRL crl = buildCrl(ca, crlEntries.get(n - 1), thisUpdate, thisUpdate.plus(Duration.ofDays(7)),
                        BigInteger.ONE);
                Files.write(dir.resolve(caFile(n, ".crl")), crl.getEncoded());
            }

            // TSA: critical EKU id-kp-timeStamping as RFC 3161 section 2.3 requires
            {
                SecureRandom rnd = random("tsa", 1);
                KeyPair kp = keyPair(rnd);
                X509Certificate caCert = caCerts.get(0);
                X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(caCert, serial(rnd), Date.from(notBefore),
                        Date.from(notAfter), name("TrustLoad Test TSA", null), kp.getPublic());
                b.addExtension(Extension.keyUsage, true,
                        new KeyUsage(KeyUsage.digitalSignature | KeyUsage.nonRepudiation));
                b.addExtension(Extension.extendedKeyUsage, true, new ExtendedKeyUsage(KeyPurposeId.id_kp_timeStamping));
                commonExtensions(b, kp.getPublic(), caCert, 1);
                X509Certificate cert = cert(b, caKeys.get(0).getPrivate(), rnd);
                writeP12(dir.resolve(TSA_P12),
                        Map.of("tsa", new Pkcs12Writer.KeyEntry(kp.getPrivate(), List.of(cert, caCert))));
                Files.writeString(dir.resolve("tsa.pem"), pem(cert), StandardCharsets.US_ASCII);
            }
            // TLS server for the lab's HTTPS and mutual-TLS endpoints
            {
                SecureRandom rnd = random("server", 1);
                KeyPair kp = keyPair(rnd);
                X509Certificate caCert = caCerts.get(0);
                X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(caCert, serial(rnd), Date.from(notBefore),
                        Date.from(notAfter), name("localhost", null), kp.getPublic());
                int ku = KeyUsage.digitalSignature | (spec.keyType == KeyType.RSA2048 ? KeyUsage.keyEncipherment : 0);
                b.addExtension(Extension.keyUsage, true, new KeyUsage(ku));
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
                b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(GeneralName.dNSName, "localhost")}));
                commonExtensions(b, kp.getPublic(), caCert, 1);
                X509Certificate cert = cert(b, caKeys.get(0).getPrivate(), rnd);
                writeP12(dir.resolve(SERVER_P12),
                        Map.of("server", new Pkcs12Writer.KeyEntry(kp.getPrivate(), List.of(cert, caCert))));
            }

            if (spec.keyType == KeyType.SM2) {
                // GM-SSL (TLCP) double certificates, issued by CA 1
                Instant expiredEnd = notBefore.plus(Duration.ofDays(30));
                tlcpParty(TLCP_SERVER, caCerts.get(0), caKeys.get(0).getPrivate(), notAfter, true);
                tlcpParty(TLCP_CLIENT, caCerts.get(0), caKeys.get(0).getPrivate(), notAfter, false);
                tlcpParty(TLCP_CLIENT_EXPIRED, caCerts.get(0), caKeys.get(0).getPrivate(), expiredEnd, false);
            }
            writeProperties(revoked.size(), expired.size());
            return load(dir);
        }

        /**
         * A TLCP party's signing and encryption certificates: {@code tlcp-<party>.p12} (aliases
         * {@code sign} and {@code enc}) and, for C peers, PEM certificates and unencrypted PKCS#8 keys.
         * The key usages tell the two apart (TLCP implementations select by them).
         */
        private void tlcpParty(String party, X509Certificate caCert, PrivateKey caKey, Instant end, boolean server)
                throws IOException, GeneralSecurityException, OperatorCreationException {
            Map<String, Pkcs12Writer.KeyEntry> entries = new LinkedHashMap<>();
            for (String use : new String[] {"sign", "enc"}) {
                SecureRandom rnd = random("tlcp-" + party + "-" + use, 1);
                KeyPair kp = keyPair(rnd);
                X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(caCert, serial(rnd),
                        Date.from(spec.notBefore), Date.from(end),
                        name((server ? "localhost" : "tlcp-" + party) + " (" + use + ")", "TLCP"), kp.getPublic());
                int ku = "sign".equals(use) ? KeyUsage.digitalSignature | KeyUsage.nonRepudiation
                        : KeyUsage.keyEncipherment | KeyUsage.dataEncipherment | KeyUsage.keyAgreement;
                b.addExtension(Extension.keyUsage, true, new KeyUsage(ku));
                b.addExtension(Extension.extendedKeyUsage, false,
                        new ExtendedKeyUsage(server ? KeyPurposeId.id_kp_serverAuth : KeyPurposeId.id_kp_clientAuth));
                if (server) {
                    b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                        new GeneralName(GeneralName.dNSName, "localhost")}));
                }
                b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(kp.getPublic()));
                b.addExtension(Extension.authorityKeyIdentifier, false,
                        ext.createAuthorityKeyIdentifier(caCert.getPublicKey()));
                X509Certificate cert = cert(b, caKey, rnd);
                entries.put(use, new Pkcs12Writer.KeyEntry(kp.getPrivate(), List.of(cert, caCert)));
                String base = "tlcp-" + party + "-" + use;
                Files.writeString(dir.resolve(base + ".pem"), pem(cert), StandardCharsets.US_ASCII);
                Files.writeString(dir.resolve(base + ".key"),
                        pem(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(kp.getPrivate(), null)),
                        StandardCharsets.US_ASCII);
            }
            writeP12(dir.resolve(tlcpFile(party)), entries);
        }

        private void commonExtensions(X509v3CertificateBuilder b, PublicKey key, X509Certificate caCert, int ca)
                throws IOException, GeneralSecurityException {
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(key));
            b.addExtension(Extension.authorityKeyIdentifier, false,
                    ext.createAuthorityKeyIdentifier(caCert.getPublicKey()));
            if (spec.crlBaseUrl != null && !spec.crlBaseUrl.isEmpty()) {
                GeneralNames uri = new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier,
                        spec.crlBaseUrl + caFile(ca, ".crl")));
                b.addExtension(Extension.cRLDistributionPoints, false, new CRLDistPoint(new DistributionPoint[] {
                    new DistributionPoint(new DistributionPointName(uri), null, null)}));
            }
        }

        private void writeProperties(int revoked, int expired) throws IOException {
            // written by hand (not Properties.store) so the file has no timestamp and stays reproducible
            StringBuilder p = new StringBuilder("# TrustLoad test PKI (test material only; the password is public)\n");
            p.append("password=").append(PASSWORD).append('\n');
            p.append("keyType=").append(spec.keyType.label()).append('\n');
            p.append("seed=").append(spec.seed).append('\n');
            p.append("cas=").append(spec.cas).append('\n');
            p.append("users=").append(spec.users).append('\n');
            p.append("revoked=").append(revoked).append('\n');
            p.append("expired=").append(expired).append('\n');
            p.append("crlBaseUrl=").append(spec.crlBaseUrl == null ? "" : spec.crlBaseUrl).append('\n');
            p.append("usersFile=").append(USERS_P12).append('\n');
            p.append("usersCsv=users.csv\n");
            p.append("trustAnchors=trust-anchors.pem\n");
            p.append("tsaFile=").append(TSA_P12).append('\n');
            p.append("tsaCertificate=tsa.pem\n");
            p.append("serverFile=").append(SERVER_P12).append('\n');
            StringBuilder caFiles = new StringBuilder();
            for (int n = 1; n <= spec.cas; n++) {
                caFiles.append(n > 1 ? "," : "").append(caFile(n, ".pem"));
            }
            p.append("caCertificates=").append(caFiles).append('\n');
            p.append("crls=").append(caFiles.toString().replace(".pem", ".crl")).append('\n');
            p.append("caKeys=").append(caFiles.toString().replace(".pem", ".p12")).append('\n');
            Files.writeString(dir.resolve("pki.properties"), p, StandardCharsets.UTF_8);
        }

        /**
         * A SHA1PRNG seeded before first use is a deterministic stream; one per (purpose, index)
         * keeps every entity independent of how many others exist.
         */
        private SecureRandom random(String purpose, int index) throws GeneralSecurityException {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] seed = md.digest((spec.seed + "/" + spec.keyType.label() + "/" + purpose + "/" + index)
                    .getBytes(StandardCharsets.UTF_8));
            SecureRandom r = SecureRandom.getInstance("SHA1PRNG", "SUN");
            r.setSeed(seed);
            return r;
        }

        private KeyPair keyPair(SecureRandom rnd) throws GeneralSecurityException {
            KeyPairGenerator g;
            switch (spec.keyType) {
                case RSA2048:
                    g = KeyPairGenerator.getInstance("RSA");
                    g.initialize(new RSAKeyGenParameterSpec(2048, RSAKeyGenParameterSpec.F4), rnd);
                    break;
                case SM2:
                    g = KeyPairGenerator.getInstance("EC", bc);
                    g.initialize(new ECGenParameterSpec("sm2p256v1"), rnd);
                    break;
                default:
                    // BouncyCastle key objects: BouncyCastle then signs certificates with them ~8x faster
                    // than with SunEC key objects (which it converts on every signature)
                    g = KeyPairGenerator.getInstance("EC", bc);
                    g.initialize(new ECGenParameterSpec("secp256r1"), rnd);
            }
            return g.generateKeyPair();
        }

        /** Positive 63-bit serials with the top bit set, so they all have the same length. */
        private static BigInteger serial(SecureRandom rnd) {
            return new BigInteger(63, rnd).setBit(62);
        }

        private X500Name name(String cn, String ou) {
            X500NameBuilder b = new X500NameBuilder(BCStyle.INSTANCE);
            b.addRDN(BCStyle.C, "BR");
            b.addRDN(BCStyle.O, "TrustLoad Test PKI");
            if (ou != null) {
                b.addRDN(BCStyle.OU, ou);
            }
            b.addRDN(BCStyle.CN, cn);
            return b.build();
        }

        private X509Certificate cert(X509v3CertificateBuilder b, PrivateKey issuerKey, SecureRandom rnd)
                throws OperatorCreationException, GeneralSecurityException {
            X509CertificateHolder h = b.build(signer(spec.keyType, issuerKey, rnd));
            return converter.getCertificate(h);
        }

        /**
         * Writes a PKCS#12 with {@link Pkcs12Writer}: a distinct {@code localKeyID} per key (the
         * certificate's key identifier) and an iteration count of 1 for the keys (see the class comment).
         */
        private void writeP12(Path file, Map<String, Pkcs12Writer.KeyEntry> entries)
                throws IOException, GeneralSecurityException {
            Pkcs12Writer.write(file, entries, password);
        }

        private static String pem(Object o) {
            StringWriter w = new StringWriter();
            try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
                pw.writeObject(o);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return w.toString();
        }
    }
}
