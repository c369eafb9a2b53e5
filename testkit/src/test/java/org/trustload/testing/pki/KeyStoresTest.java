package org.trustload.testing.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMEncryptorBuilder;
import org.bouncycastle.operator.OutputEncryptor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.trustload.labkit.pki.TestPki;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.pki.PkiException;

class KeyStoresTest {

    /** A password that must never show up in any message or detail. */
    static final String SECRET = "s3cr3t-Pa55word";

    @TempDir
    static Path tmp;

    static TestPki ec;
    static TestPki rsa;
    static TestPki sm2;

    @BeforeAll
    static void pkis() throws Exception {
        ec = TestPki.generate(new TestPki.Spec().withUsers(6), tmp.resolve("ec"));
        rsa = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.RSA2048).withCas(1).withUsers(2),
                tmp.resolve("rsa"));
        sm2 = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withUsers(3), tmp.resolve("sm2"));
    }

    static TestPki pki(TestPki.KeyType t) {
        return t == TestPki.KeyType.P256 ? ec : t == TestPki.KeyType.RSA2048 ? rsa : sm2;
    }

    static void assertSignsAndVerifies(KeyMaterial k) throws Exception {
        String alg = k.signatureAlgorithm("SHA-256");
        byte[] data = "payload".getBytes(StandardCharsets.UTF_8);
        byte[] sig = k.sign(alg, data);
        Signature v = k.keyAlgorithm().equals("SM2") ? Signature.getInstance(alg, KeyStores.bouncyCastle())
                : Signature.getInstance(alg);
        v.initVerify(k.certificate().getPublicKey());
        v.update(data);
        assertThat(v.verify(sig)).as(k.alias()).isTrue();
    }

    static PkiException failure(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String category) {
        PkiException e = catchThrowableOfType(call, PkiException.class);
        assertThat(e).isNotNull();
        assertThat(e.category()).isEqualTo(category);
        assertThat(e.getMessage()).doesNotContain(SECRET).doesNotContain(TestPki.PASSWORD);
        assertThat(e.detail()).doesNotContain(SECRET).doesNotContain(TestPki.PASSWORD);
        return e;
    }

    @ParameterizedTest
    @EnumSource(TestPki.KeyType.class)
    void pkcs12EveryKeyOrListedAliases(TestPki.KeyType type) throws Exception {
        TestPki p = pki(type);
        List<KeyMaterial> all = p.users(List.of()).load();
        assertThat(all).extracting(KeyMaterial::alias).isEqualTo(p.userAliases());
        for (KeyMaterial k : all) {
            assertThat(k.chain()).hasSize(2);
            assertSignsAndVerifies(k);
        }
        assertThat(all.get(0).keyAlgorithm())
                .isEqualTo(type == TestPki.KeyType.P256 ? "EC" : type == TestPki.KeyType.SM2 ? "SM2" : "RSA");
        List<KeyMaterial> two = p.users(List.of("user0002", "user0001")).load();
        assertThat(two).extracting(KeyMaterial::alias).containsExactly("user0002", "user0001");
    }

    @Test
    void pkcs12Failures() throws Exception {
        Path users = ec.usersFile();
        PkiException e = failure(() ->
                KeySource.pkcs12(users, TestPki.PASSWORD.toCharArray(), List.of("user0001", "nobody")).load(),
                PkiException.KEY_ERROR);
        assertThat(e).hasMessage("alias nobody not found");
        e = failure(() -> KeySource.pkcs12(users, SECRET.toCharArray(), List.of()).load(), PkiException.KEY_ERROR);
        assertThat(e).hasMessage("cannot open key store (wrong password?)");
        e = failure(() -> KeySource.pkcs12(sm2.usersFile(), SECRET.toCharArray(), List.of()).load(),
                PkiException.KEY_ERROR);
        assertThat(e).hasMessage("cannot open key store (wrong password?)");
        Path corrupt = tmp.resolve("corrupt.p12");
        byte[] bytes = Files.readAllBytes(users);
        Files.write(corrupt, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        e = failure(() -> KeySource.pkcs12(corrupt, SECRET.toCharArray(), List.of()).load(), PkiException.KEY_ERROR);
        assertThat(e).hasMessage("cannot open key store (corrupt or unsupported file)");
        Files.writeString(corrupt, "not a key store at all");
        failure(() -> KeySource.pkcs12(corrupt, SECRET.toCharArray(), List.of()).load(), PkiException.KEY_ERROR);
        e = failure(() -> KeySource.pkcs12(tmp.resolve("missing.p12"), SECRET.toCharArray(), List.of()).load(),
                PkiException.CONFIG_ERROR);
        assertThat(e).hasMessage("key store not found");
        // a store holding only certificates has no keys to offer
        Path certsOnly = tmp.resolve("certs.p12");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("ca", ec.caCertificates().get(0));
        try (var out = Files.newOutputStream(certsOnly)) {
            ks.store(out, SECRET.toCharArray());
        }
        e = failure(() -> KeySource.pkcs12(certsOnly, SECRET.toCharArray(), List.of()).load(), PkiException.KEY_ERROR);
        assertThat(e).hasMessage("key store has no private key entries");
        e = failure(() -> KeySource.pkcs12(certsOnly, SECRET.toCharArray(), List.of("ca")).load(),
                PkiException.KEY_ERROR);
        assertThat(e).hasMessage("alias ca not found");
        assertThat(KeySource.pkcs12(users, SECRET.toCharArray(), List.of()).toString()).doesNotContain(SECRET);
    }

    @Test
    void jks() throws Exception {
        KeyMaterial a = ec.userKey("user0001");
        KeyMaterial b = rsa.userKey("user0002");
        KeyStore ks = KeyStore.getInstance("JKS");
        ks.load(null, null);
        for (KeyMaterial k : List.of(a, b)) {
            ks.setKeyEntry(k.alias() + "-" + k.keyAlgorithm(), k.privateKey(), SECRET.toCharArray(),
                    k.chain().toArray(new X509Certificate[0]));
        }
        ks.setCertificateEntry("trusted", ec.caCertificates().get(0));
        Path file = tmp.resolve("keys.jks");
        try (var out = Files.newOutputStream(file)) {
            ks.store(out, SECRET.toCharArray());
        }
        List<KeyMaterial> keys = KeySource.jks(file, SECRET.toCharArray(), List.of()).load();
        assertThat(keys).extracting(KeyMaterial::alias).containsExactly("user0001-ec", "user0002-rsa");
        for (KeyMaterial k : keys) {
            assertSignsAndVerifies(k);
        }
        PkiException e = failure(() -> KeySource.jks(file, "wrong".toCharArray(), List.of()).load(),
                PkiException.KEY_ERROR);
        assertThat(e).hasMessage("cannot open key store (wrong password?)");
        e = failure(() -> KeySource.jks(file, SECRET.toCharArray(), List.of("trusted")).load(), PkiException.KEY_ERROR);
        assertThat(e).hasMessage("alias trusted not found");
    }

    enum PemForm { PKCS8, TRADITIONAL, PKCS8_ENCRYPTED, TRADITIONAL_ENCRYPTED }

    @ParameterizedTest
    @EnumSource(PemForm.class)
    void pemKeysOfEveryType(PemForm form) throws Exception {
        for (TestPki.KeyType type : TestPki.KeyType.values()) {
            KeyMaterial k = pki(type).userKey("user0001");
            Path key = tmp.resolve("key-" + type + "-" + form + ".pem");
            Path chain = tmp.resolve("chain-" + type + ".pem");
            writePem(chain, k.chain().toArray());
            writePem(key, pemObject(k, form));
            String header = Files.readString(key);
            switch (form) {
                case PKCS8: assertThat(header).startsWith("-----BEGIN PRIVATE KEY-----"); break;
                case PKCS8_ENCRYPTED: assertThat(header).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"); break;
                case TRADITIONAL: assertThat(header).containsPattern("BEGIN (RSA|EC) PRIVATE KEY"); break;
                default: assertThat(header).contains("Proc-Type: 4,ENCRYPTED");
            }
            boolean encrypted = form.name().endsWith("ENCRYPTED");
            KeyMaterial loaded = KeySource.pem(key, chain, encrypted ? SECRET.toCharArray() : null, "signer").load()
                    .get(0);
            assertThat(loaded.alias()).isEqualTo("signer");
            assertThat(loaded.chain()).hasSize(2);
            assertThat(loaded.keyAlgorithm()).isEqualTo(k.keyAlgorithm());
            assertSignsAndVerifies(loaded);
            if (encrypted) {
                PkiException e = failure(() -> KeySource.pem(key, chain, "wrong".toCharArray(), "x").load(),
                        PkiException.KEY_ERROR);
                assertThat(e.getMessage()).isEqualTo("cannot read PEM key (wrong password?)");
                e = failure(() -> KeySource.pem(key, chain, null, "x").load(), PkiException.KEY_ERROR);
                assertThat(e.getMessage()).isEqualTo("PEM key is encrypted and no password was given");
            }
        }
    }

    @Test
    void pemFailures() throws Exception {
        Path chain = tmp.resolve("c.pem");
        writePem(chain, ec.caCertificates().get(0));
        PkiException e = failure(() -> KeySource.pem(chain, chain, null, "x").load(), PkiException.KEY_ERROR);
        assertThat(e).hasMessage("no private key in PEM file");
        Path key = tmp.resolve("k.pem");
        writePem(key, new JcaPKCS8Generator(ec.userKey("user0001").privateKey(), null).generate());
        e = failure(() -> KeySource.pem(key, key, null, "x").load(), PkiException.KEY_ERROR);
        assertThat(e).hasMessage("no certificate in certificate file");
        e = failure(() -> KeySource.pem(tmp.resolve("none.pem"), chain, null, "x").load(), PkiException.CONFIG_ERROR);
        assertThat(e).hasMessage("key file not found");
    }

    private static Object pemObject(KeyMaterial k, PemForm form) throws Exception {
        switch (form) {
            case PKCS8: // "PRIVATE KEY" (JcaPEMWriter would turn a bare PrivateKeyInfo into the traditional form)
                return new JcaPKCS8Generator(k.privateKey(), null).generate();
            case TRADITIONAL: // PKCS#1 RSA PRIVATE KEY / SEC1 EC PRIVATE KEY
                return k.privateKey();
            case PKCS8_ENCRYPTED: {
                OutputEncryptor enc = new JceOpenSSLPKCS8EncryptorBuilder(JcaPKCS8Generator.AES_256_CBC)
                        .setProvider(KeyStores.bouncyCastle()).setIterationCount(1000)
                        .setPassword(SECRET.toCharArray()).build();
                return new JcaPKCS8Generator(k.privateKey(), enc).generate();
            }
            default:
                return new Encrypted(k.privateKey());
        }
    }

    /** Marks a key to be written in OpenSSL's legacy encrypted form. */
    record Encrypted(Object key) {
    }

    private static void writePem(Path file, Object... objects) throws Exception {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            for (Object o : objects) {
                if (o instanceof Encrypted) {
                    w.writeObject(((Encrypted) o).key(), new JcePEMEncryptorBuilder("AES-128-CBC")
                            .setProvider(KeyStores.bouncyCastle()).build(SECRET.toCharArray()));
                } else {
                    w.writeObject(o);
                }
            }
        }
        Files.writeString(file, s.toString(), StandardCharsets.US_ASCII);
    }

    @Test
    void bouncyCastleIsAddedLastNeverFirst() {
        KeyStores.bouncyCastle();
        java.security.Provider[] providers = java.security.Security.getProviders();
        assertThat(providers[0].getName()).isNotEqualTo("BC");
        assertThat(providers[providers.length - 1].getName()).isEqualTo("BC");
    }
}
