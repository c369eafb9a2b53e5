package org.trustload.lab;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.Collections;
import javax.crypto.spec.PBEParameterSpec;

/**
 * The lab's credentials: every password and secret a service writes to {@code lab.properties} is drawn
 * here, per lab start, so no two labs share one and none is a word that also appears in paths, labels or
 * user names (a secrets check can then tell a leak from ordinary text).
 */
public final class LabSecrets {

    /** Length of a generated secret: 24 characters of 62 give 142 bits. */
    public static final int LENGTH = 24;

    private static final char[] ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private LabSecrets() {
    }

    /**
     * A new random secret of {@value #LENGTH} letters and digits: safe unescaped in properties files,
     * command lines, URLs and HTTP Basic credentials.
     */
    public static String generate() {
        char[] c = new char[LENGTH];
        for (int i = 0; i < c.length; i++) {
            c[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return new String(c);
    }

    /**
     * Writes the entries of {@code source} (opened with its own password) to a new PKCS#12 file {@code to}
     * (0600) protected by {@code password}: how a cached key store with a fixed internal password is
     * handed to plans under the lab's random one. Keys are protected with one PBKDF2 iteration, as the
     * cache's are: the password is random, so a higher count would only slow the lab's start.
     */
    public static void reexport(KeyStore source, char[] sourcePassword, Path to, char[] password)
            throws IOException, GeneralSecurityException {
        KeyStore out = KeyStore.getInstance(source.getType(), source.getProvider());
        out.load(null, null);
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        boolean jdk = source.getProvider().getName().startsWith("Sun");
        KeyStore.PasswordProtection protection = jdk
                ? new KeyStore.PasswordProtection(password, "PBEWithHmacSHA256AndAES_256", new PBEParameterSpec(salt, 1))
                : new KeyStore.PasswordProtection(password);
        for (String alias : Collections.list(source.aliases())) {
            if (source.isKeyEntry(alias)) {
                Key key = source.getKey(alias, sourcePassword);
                Certificate[] chain = source.getCertificateChain(alias);
                if (jdk && key instanceof PrivateKey pk && chain != null) {
                    out.setEntry(alias, new KeyStore.PrivateKeyEntry(pk, chain), protection);
                } else {
                    out.setKeyEntry(alias, key, password, chain);
                }
            } else {
                out.setCertificateEntry(alias, source.getCertificate(alias));
            }
        }
        Files.createDirectories(to.getParent());
        Files.deleteIfExists(to);
        Files.createFile(to, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (OutputStream o = Files.newOutputStream(to, StandardOpenOption.TRUNCATE_EXISTING)) {
            out.store(o, password);
        }
    }
}
