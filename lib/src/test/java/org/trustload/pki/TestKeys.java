package org.trustload.pki;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Test keys and certificates made with BouncyCastle (a private provider instance, never registered):
 * a CA and users for RSA-2048, P-256 and SM2, a TSA certificate, CRLs, PEM files. Keys are cached per
 * type because RSA generation is slow.
 */
public final class TestKeys {
    public static final Provider BC = new BouncyCastleProvider();
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A CA: key + certificate. */
    public record Ca(KeyPair keys, X509Certificate cert, String sigAlg) {
    }

    public enum Type {
        RSA, P256, SM2
    }

    private static final java.util.Map<Type, Ca> CAS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.Map<Type, KeyMaterial> USERS = new java.util.concurrent.ConcurrentHashMap<>();

    private TestKeys() {
    }

    public static KeyPair keyPair(Type t) {
        try {
            KeyPairGenerator g;
            switch (t) {
                case RSA:
                    g = KeyPairGenerator.getInstance("RSA", BC);
                    g.initialize(2048, RANDOM);
                    break;
                case P256:
                    g = KeyPairGenerator.getInstance("EC", BC);
                    g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
                    break;
                default:
                    g = KeyPairGenerator.getInstance("EC", BC);
                    g.initialize(new ECGenParameterSpec("sm2p256v1"), RANDOM);
            }
            return g.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static String sigAlg(Type t) {
        return t == Type.RSA ? "SHA256withRSA" : t == Type.P256 ? "SHA256withECDSA" : "SM3withSM2";
    }

    public static Ca ca(Type t) {
        return CAS.computeIfAbsent(t, k -> newCa(k, "TrustLoad Test CA " + k));
    }

    public static Ca newCa(Type t, String cn) {
        KeyPair kp = keyPair(t);
        Instant now = Instant.now();
        X509Certificate cert = certificate(new X500Name("CN=" + cn + ",O=TrustLoad"), kp.getPublic(),
                new X500Name("CN=" + cn + ",O=TrustLoad"), kp.getPrivate(), kp.getPublic(), sigAlg(t),
                now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(3650)), true, false);
        return new Ca(kp, cert, sigAlg(t));
    }

    /** The cached user of type {@code t}, issued by {@link #ca(Type)}. */
    public static KeyMaterial user(Type t) {
        return USERS.computeIfAbsent(t, k -> newUser(ca(k), k, "User " + k, Instant.now().minus(Duration.ofDays(1)),
                Instant.now().plus(Duration.ofDays(365))));
    }

    public static KeyMaterial newUser(Ca ca, Type t, String cn, Instant from, Instant to) {
        KeyPair kp = keyPair(t);
        X509Certificate cert = certificate(new X500Name("CN=" + cn + ",O=TrustLoad"), kp.getPublic(),
                X500Name.getInstance(ca.cert().getSubjectX500Principal().getEncoded()), ca.keys().getPrivate(),
                ca.keys().getPublic(), ca.sigAlg(), from, to, false, false);
        // BC for every key: SM2 needs it, and BC's ECDSA is the fast one
        return new KeyMaterial(cn, kp.getPrivate(), List.of(cert, ca.cert()), BC);
    }

    /** A TSA certificate (critical EKU timeStamping) and key, issued by {@code ca}. */
    public static KeyMaterial tsa(Ca ca, Type t) {
        KeyPair kp = keyPair(t);
        Instant now = Instant.now();
        X509Certificate cert = certificate(new X500Name("CN=TrustLoad Test TSA,O=TrustLoad"), kp.getPublic(),
                X500Name.getInstance(ca.cert().getSubjectX500Principal().getEncoded()), ca.keys().getPrivate(),
                ca.keys().getPublic(), ca.sigAlg(), now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(365)),
                false, true);
        return new KeyMaterial("tsa", kp.getPrivate(), List.of(cert, ca.cert()), BC);
    }

    public static X509Certificate certificate(X500Name subject, PublicKey key, X500Name issuer, PrivateKey issuerKey,
            PublicKey issuerPublic, String sigAlg, Instant from, Instant to, boolean ca, boolean tsa) {
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer,
                    BigInteger.valueOf(SERIAL.incrementAndGet()), Date.from(from), Date.from(to), subject, key);
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(key));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(issuerPublic));
            if (ca) {
                b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            } else {
                b.addExtension(Extension.keyUsage, true,
                        new KeyUsage(KeyUsage.digitalSignature | KeyUsage.nonRepudiation));
            }
            if (tsa) {
                b.addExtension(Extension.extendedKeyUsage, true, new ExtendedKeyUsage(KeyPurposeId.id_kp_timeStamping));
            }
            return new JcaX509CertificateConverter().setProvider(BC)
                    .getCertificate(b.build(new JcaContentSignerBuilder(sigAlg).setProvider(BC).build(issuerKey)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static X509CRL crl(Ca ca, X509Certificate... revoked) {
        try {
            Instant now = Instant.now();
            X509v2CRLBuilder b = new X509v2CRLBuilder(
                    X500Name.getInstance(ca.cert().getSubjectX500Principal().getEncoded()),
                    Date.from(now.minusSeconds(60)));
            b.setNextUpdate(Date.from(now.plus(Duration.ofDays(7))));
            for (X509Certificate c : revoked) {
                b.addCRLEntry(c.getSerialNumber(), Date.from(now.minusSeconds(30)), CRLReason.keyCompromise);
            }
            return new JcaX509CRLConverter().setProvider(BC)
                    .getCRL(b.build(new JcaContentSignerBuilder(ca.sigAlg()).setProvider(BC)
                            .build(ca.keys().getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static String pem(Object o) {
        try {
            StringWriter w = new StringWriter();
            try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
                pw.writeObject(o);
            }
            return w.toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Path writePem(Path file, Object... objects) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Object o : objects) {
            sb.append(pem(o));
        }
        return Files.writeString(file, sb.toString(), StandardCharsets.US_ASCII);
    }
}
