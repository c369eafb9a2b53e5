package org.trustload.pki;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where signing keys come from: a PKCS#12 or JKS file, a PEM key plus certificate chain, or a
 * PKCS#11 token through the JDK's SunPKCS11 provider. A source is an immutable description; {@link
 * #load()} opens it and returns the keys. Create sources with the static factories.
 *
 * <p>Passwords and PINs are copied on creation and never appear in {@link #toString()} or in any
 * exception message.
 */
public abstract class KeySource {

    /** The kinds of key store a source can read. */
    public enum Kind {
        PKCS12, JKS, PEM, PKCS11
    }

    private final Kind kind;
    private final List<String> aliases;

    KeySource(Kind kind, List<String> aliases) {
        this.kind = kind;
        this.aliases = aliases == null ? List.of() : List.copyOf(aliases);
    }

    /** What kind of store this reads. */
    public Kind kind() {
        return kind;
    }

    /** The aliases to load; empty means every private-key entry. */
    public List<String> aliases() {
        return aliases;
    }

    /**
     * Opens the store and returns the selected keys (the listed aliases in their order, or every
     * key entry sorted by alias).
     *
     * @throws PkiException {@link PkiException#KEY_ERROR} when the store cannot be opened, the
     *                      password is wrong, or an alias is missing; {@link PkiException#CONFIG_ERROR}
     *                      when a file does not exist
     */
    public abstract List<KeyMaterial> load() throws PkiException;

    /**
     * A PKCS#12 file. Falls back to BouncyCastle's loader when the JDK's cannot read a key (SM2).
     *
     * @param aliases the aliases to load, or empty for every key entry
     */
    public static KeySource pkcs12(Path file, char[] password, List<String> aliases) {
        return new StoreSource(Kind.PKCS12, file, password, aliases);
    }

    /** A Java key store (JKS) file; key entries use the store password. */
    public static KeySource jks(Path file, char[] password, List<String> aliases) {
        return new StoreSource(Kind.JKS, file, password, aliases);
    }

    /**
     * A PEM private key (PKCS#8, PKCS#1 RSA or SEC1 EC, optionally encrypted) and a PEM file with
     * its certificate chain, signer first.
     *
     * @param password the key's password when it is encrypted, otherwise null
     * @param alias    the name the key gets in results
     */
    public static KeySource pem(Path keyFile, Path chainFile, char[] password, String alias) {
        return new PemSource(keyFile, chainFile, password, alias);
    }

    /**
     * Keys on a PKCS#11 token, through the JDK's SunPKCS11 provider configured with {@code
     * configFile} (one provider per configuration file and JVM, see {@link
     * KeyStores#pkcs11Provider(Path)}).
     *
     * @param pin     the user PIN
     * @param aliases the aliases (certificate labels) to load, or empty for every key entry
     */
    public static KeySource pkcs11(Path configFile, char[] pin, List<String> aliases) {
        return new Pkcs11Source(configFile, pin, aliases);
    }

    private static char[] copy(char[] secret) {
        return secret == null ? null : secret.clone();
    }

    private static final class StoreSource extends KeySource {
        private final Path file;
        private final char[] password;

        StoreSource(Kind kind, Path file, char[] password, List<String> aliases) {
            super(kind, aliases);
            this.file = Objects.requireNonNull(file, "file");
            this.password = copy(password);
        }

        @Override
        public List<KeyMaterial> load() throws PkiException {
            return KeyStores.keys(KeyStores.open(kind(), file, password), file.toString(), password, aliases(), null);
        }

        @Override
        public String toString() {
            return kind() + "[" + file + ", aliases " + (aliases().isEmpty() ? "all" : aliases()) + "]";
        }
    }

    private static final class PemSource extends KeySource {
        private final Path keyFile;
        private final Path chainFile;
        private final char[] password;
        private final String alias;

        PemSource(Path keyFile, Path chainFile, char[] password, String alias) {
            super(Kind.PEM, alias == null ? List.of() : List.of(alias));
            this.keyFile = Objects.requireNonNull(keyFile, "keyFile");
            this.chainFile = Objects.requireNonNull(chainFile, "chainFile");
            this.password = copy(password);
            this.alias = alias == null ? keyFile.getFileName().toString() : alias;
        }

        @Override
        public List<KeyMaterial> load() throws PkiException {
            return List.of(KeyStores.pem(keyFile, chainFile, password, alias));
        }

        @Override
        public String toString() {
            return "PEM[" + keyFile + ", " + chainFile + "]";
        }
    }

    private static final class Pkcs11Source extends KeySource {
        private final Path configFile;
        private final char[] pin;

        Pkcs11Source(Path configFile, char[] pin, List<String> aliases) {
            super(Kind.PKCS11, aliases);
            this.configFile = Objects.requireNonNull(configFile, "configFile");
            this.pin = copy(pin);
        }

        @Override
        public List<KeyMaterial> load() throws PkiException {
            return KeyStores.pkcs11(configFile, pin, aliases());
        }

        @Override
        public String toString() {
            return "PKCS11[" + configFile + ", aliases " + (aliases().isEmpty() ? "all" : aliases()) + "]";
        }
    }
}
