package org.trustload.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.trustload.labkit.pki.Pkcs12Writer;

/**
 * The lab's credentials: every password and secret a service writes to {@code lab.properties} is drawn
 * here, per lab start, so no two labs share one and none is a word that also appears in paths, labels or
 * user names (a secrets check can then tell a leak from ordinary text).
 */
public final class LabSecrets {

    /** Length of a generated secret: 24 characters of 62 give 142 bits. */
    public static final int LENGTH = 24;

    private static final char[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
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
     * Writes the key entries of {@code source} (opened with {@code sourcePassword}) to a new PKCS#12 file
     * {@code to} (0600) protected by {@code password}: how a cached key store with a fixed internal
     * password is handed to plans under the lab's random one. The file is written like the cache's
     * ({@link Pkcs12Writer}: one {@code localKeyID} per key, key iteration count 1; the password is
     * random, so a higher count would only slow every start). Every entry must be a private key with
     * an X.509 chain, as in the test PKI's stores.
     */
    public static void reexport(KeyStore source, char[] sourcePassword, Path to, char[] password)
            throws IOException, GeneralSecurityException {
        Map<String, Pkcs12Writer.KeyEntry> entries = new LinkedHashMap<>();
        for (String alias : Collections.list(source.aliases())) {
            Key key = source.isKeyEntry(alias) ? source.getKey(alias, sourcePassword) : null;
            Certificate[] chain = source.getCertificateChain(alias);
            if (!(key instanceof PrivateKey pk) || chain == null) {
                throw new GeneralSecurityException("entry " + alias + " is not a private key with a certificate chain");
            }
            List<X509Certificate> certs = new ArrayList<>();
            for (Certificate c : chain) {
                certs.add((X509Certificate) c);
            }
            entries.put(alias, new Pkcs12Writer.KeyEntry(pk, certs));
        }
        Files.createDirectories(to.getParent());
        Files.deleteIfExists(to);
        Files.createFile(to, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Pkcs12Writer.write(to, entries, password);
    }
}
