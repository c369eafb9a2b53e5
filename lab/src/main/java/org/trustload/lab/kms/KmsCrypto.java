package org.trustload.lab.kms;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.PSSParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import java.util.Locale;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * The emulators' cryptography, done the way the real services do it (unlike moto): AES-256-GCM, and
 * RSA-PSS (salt length = digest length), RSA PKCS#1 v1.5 and ECDSA (DER) over a RAW message or over a
 * DIGEST computed by the client, which is signed as is and never hashed again.
 */
public final class KmsCrypto {
    /** GCM nonce length. */
    public static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final Provider BC = new BouncyCastleProvider();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Signature padding schemes. */
    public enum Scheme { RSA_PSS, RSA_PKCS1, ECDSA }

    /**
     * A signing algorithm: scheme + digest.
     *
     * @param scheme the scheme
     * @param digest the JCA digest name, e.g. {@code SHA-256}
     */
    public record SigAlg(Scheme scheme, String digest) {
        /** Digest length in bytes: the only valid length of a DIGEST message. */
        public int digestBytes() {
            return switch (digest) {
                case "SHA-384" -> 48;
                case "SHA-512" -> 64;
                default -> 32;
            };
        }

        private String jcaDigest() {
            return digest.replace("-", "");
        }
    }

    private KmsCrypto() {
    }

    /** A new AES-256 key. */
    public static SecretKey aesKey() throws GeneralSecurityException {
        KeyGenerator g = KeyGenerator.getInstance("AES");
        g.init(256, RANDOM);
        return g.generateKey();
    }

    /** A new RSA key pair of {@code bits}. */
    public static KeyPair rsa(int bits) throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(bits, RANDOM);
        return g.generateKeyPair();
    }

    /**
     * The RSA key pair {@code name} of {@code dir} (PKCS#8, mode 600): generated and written there when absent or
     * unreadable, loaded when a lab before this one left it. The lab's socket directory is private and new per lab
     * unless the caller shares one between its labs (the tests do: six RSA-2048 keys cost 7-9 CPU-s per KMS start,
     * about ten without the C2 compiler).
     */
    public static KeyPair rsa(int bits, Path dir, String name) throws GeneralSecurityException, IOException {
        Path file = dir.resolve(name + ".pk8");
        if (Files.isRegularFile(file)) {
            try {
                KeyFactory f = KeyFactory.getInstance("RSA");
                PrivateKey key = f.generatePrivate(new PKCS8EncodedKeySpec(Files.readAllBytes(file)));
                if (key instanceof RSAPrivateCrtKey crt && crt.getModulus().bitLength() == bits) {
                    return new KeyPair(f.generatePublic(new RSAPublicKeySpec(crt.getModulus(),
                            crt.getPublicExponent())), key);
                }
            } catch (GeneralSecurityException | RuntimeException unreadable) {
                // a new one below
            }
        }
        KeyPair pair = rsa(bits);
        Files.deleteIfExists(file);
        Files.write(Files.createFile(file, PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------"))), pair.getPrivate().getEncoded());
        return pair;
    }

    /** A new EC key pair on a named curve, e.g. {@code secp256r1}. */
    public static KeyPair ec(String curve) throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec(curve), RANDOM);
        return g.generateKeyPair();
    }

    /** A new HMAC key of {@code bytes} random bytes. */
    public static SecretKey hmacKey(int bytes) {
        return new javax.crypto.spec.SecretKeySpec(random(bytes), "HmacSHA256");
    }

    /**
     * HMAC of {@code message}; {@code algorithm} in AWS's naming ({@code HMAC_SHA_256}, {@code HMAC_SHA_384}, …).
     */
    public static byte[] hmac(SecretKey key, String algorithm, byte[] message) throws GeneralSecurityException {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("Hmac"
                + algorithm.substring("HMAC_".length()).replace("_", ""));
        mac.init(new javax.crypto.spec.SecretKeySpec(key.getEncoded(), mac.getAlgorithm()));
        return mac.doFinal(message);
    }

    /** Random bytes. */
    public static byte[] random(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    /** AES-256-GCM: returns {@code iv || ciphertext || tag}; {@code aad} is authenticated, not stored. */
    public static byte[] seal(SecretKey key, byte[] aad, byte[] plaintext) throws GeneralSecurityException {
        byte[] iv = random(IV_BYTES);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
        c.updateAAD(aad);
        byte[] ct = c.doFinal(plaintext);
        byte[] out = Arrays.copyOf(iv, IV_BYTES + ct.length);
        System.arraycopy(ct, 0, out, IV_BYTES, ct.length);
        return out;
    }

    /** Opens what {@link #seal} made; throws {@link javax.crypto.AEADBadTagException} when tampered. */
    public static byte[] open(SecretKey key, byte[] aad, byte[] sealed) throws GeneralSecurityException {
        if (sealed.length < IV_BYTES + TAG_BITS / 8) {
            throw new javax.crypto.AEADBadTagException("ciphertext too short");
        }
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, IV_BYTES));
        c.updateAAD(aad);
        return c.doFinal(sealed, IV_BYTES, sealed.length - IV_BYTES);
    }

    /**
     * Signs. With {@code digest} true, {@code message} is the digest and must be exactly
     * {@link SigAlg#digestBytes()} long.
     *
     * @throws IllegalArgumentException for a digest of the wrong length
     */
    public static byte[] sign(PrivateKey key, SigAlg alg, boolean digest, byte[] message)
            throws GeneralSecurityException {
        Signature s = signature(alg, digest, message);
        s.initSign(key, RANDOM);
        s.update(digest && alg.scheme() == Scheme.RSA_PKCS1 ? digestInfo(alg, message) : message);
        return s.sign();
    }

    /** Verifies; false for a wrong or malformed signature. */
    public static boolean verify(PublicKey key, SigAlg alg, boolean digest, byte[] message, byte[] sig)
            throws GeneralSecurityException {
        Signature s = signature(alg, digest, message);
        s.initVerify(key);
        s.update(digest && alg.scheme() == Scheme.RSA_PKCS1 ? digestInfo(alg, message) : message);
        try {
            return s.verify(sig);
        } catch (java.security.SignatureException e) {
            return false;
        }
    }

    private static Signature signature(SigAlg alg, boolean digest, byte[] message) throws GeneralSecurityException {
        if (digest && message.length != alg.digestBytes()) {
            throw new IllegalArgumentException("a DIGEST message for " + alg.digest() + " must be "
                    + alg.digestBytes() + " bytes, was " + message.length);
        }
        String d = alg.jcaDigest();
        return switch (alg.scheme()) {
            case ECDSA -> Signature.getInstance(digest ? "NONEwithECDSA" : d + "withECDSA");
            case RSA_PKCS1 -> Signature.getInstance(digest ? "NONEwithRSA" : d + "withRSA");
            case RSA_PSS -> {
                // AWS KMS: MGF1 with the same digest, salt length = digest length
                Signature s = digest ? Signature.getInstance("NONEwithRSASSA-PSS", BC)
                        : Signature.getInstance("RSASSA-PSS");
                s.setParameter(new PSSParameterSpec(alg.digest(), "MGF1", new MGF1ParameterSpec(alg.digest()),
                        alg.digestBytes(), PSSParameterSpec.TRAILER_FIELD_BC));
                yield s;
            }
        };
    }

    /** DER DigestInfo for PKCS#1 v1.5 over a precomputed digest. */
    private static byte[] digestInfo(SigAlg alg, byte[] digest) {
        byte oid = switch (alg.digest()) {
            case "SHA-384" -> 2;
            case "SHA-512" -> 3;
            default -> 1;
        };
        int n = digest.length;
        byte[] prefix = {0x30, (byte) (0x11 + n), 0x30, 0x0d, 0x06, 0x09, 0x60, (byte) 0x86, 0x48,
                0x01, 0x65, 0x03, 0x04,
                0x02, oid, 0x05, 0x00, 0x04, (byte) n};
        byte[] out = Arrays.copyOf(prefix, prefix.length + n);
        System.arraycopy(digest, 0, out, prefix.length, n);
        return out;
    }

    /**
     * Parses an AWS signing algorithm name: {@code RSASSA_PSS_SHA_256}, {@code RSASSA_PKCS1_V1_5_SHA_384},
     * {@code ECDSA_SHA_256}, …
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static SigAlg awsAlgorithm(String name) {
        String n = name == null ? "" : name.toUpperCase(Locale.ROOT);
        String digest = n.endsWith("SHA_384") ? "SHA-384" : n.endsWith("SHA_512") ? "SHA-512"
                : n.endsWith("SHA_256") ? "SHA-256" : null;
        Scheme scheme = n.startsWith("RSASSA_PSS_") ? Scheme.RSA_PSS : n.startsWith("RSASSA_PKCS1_V1_5_")
                ? Scheme.RSA_PKCS1 : n.startsWith("ECDSA_") ? Scheme.ECDSA : null;
        if (digest == null || scheme == null) {
            throw new IllegalArgumentException("unknown signing algorithm " + name);
        }
        return new SigAlg(scheme, digest);
    }
}
