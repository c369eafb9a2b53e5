package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The secrets check finds what it must and ignores the lookalikes it must not flag. */
class SecretsTest {

    @TempDir
    Path tmp;

    @Test
    void findsPasswordsAndPemKeyBodiesButNotShortPasswordsInsideNames() throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance("EC").generateKeyPair();
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(kp.getPrivate().getEncoded());
        Path pem = Files.writeString(tmp.resolve("client.key"),
                "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n");
        Map<String, String> lab = Map.of("x.keystore.password", "0123456789abcdef", "ldap.admin.password", "example",
                "x.client.key", pem.toString(), "x.port", "10389");
        Secrets secrets = new Secrets().addProperties(lab, "lab").addKeyFiles(lab, "lab");
        assertThat(secrets.size()).isGreaterThanOrEqualTo(3);

        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("clean.log"),
                "INFO o.example.jmeter.Foo started, port 10389, uid=example1, key " + pem + "\n");
        assertThat(secrets.findIn(out, Set.of())).isEmpty();

        Files.writeString(out.resolve("leak1.log"), "bindPassword=example\n");
        Files.writeString(out.resolve("leak2.jtl"), "label,0123456789abcdef,200\n");
        Files.writeString(out.resolve("leak3.txt"), "key: " + body.lines().findFirst().orElseThrow() + "\n");
        assertThat(secrets.findIn(out, Set.of())).hasSize(3)
                .anyMatch(l -> l.startsWith("leak1.log: lab ldap.admin.password"))
                .anyMatch(l -> l.startsWith("leak2.jtl: lab x.keystore.password"))
                .anyMatch(l -> l.startsWith("leak3.txt: lab x.client.key (PEM private key)"));
        assertThat(secrets.findIn(out, Set.of(out.resolve("leak1.log")))).hasSize(2);
    }

    @Test
    void everyValueOfACredentialsFileCountsAndSecretNamedPropertiesIncludeTokensAndKeys() throws Exception {
        Map<String, String> creds = Map.of("my.note", "Zq8vTt2LmW4pXy6R", "db.user", "alice-the-admin");
        Map<String, String> props = Map.of("api.token", "tok-9f8e7d6c5b4a", "aws.secret_access_key", "sak-1a2b3c4d5e6f",
                "signing_key", "sk-0a1b2c3d4e5f6a", "kms.key_id", "alias/not-a-secret", "x.key.file",
                "/not/a/secret.key");
        Secrets secrets = new Secrets().addAllValues(creds, "-q creds").addProperties(props, "run");
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("jmeter.log"), String.join("\n", "Zq8vTt2LmW4pXy6R", "alice-the-admin",
                "tok-9f8e7d6c5b4a", "sak-1a2b3c4d5e6f", "sk-0a1b2c3d4e5f6a", "alias/not-a-secret",
                "/not/a/secret.key"));
        assertThat(secrets.findIn(out, Set.of())).containsExactlyInAnyOrder(
                "jmeter.log: -q creds my.note", "jmeter.log: -q creds db.user", "jmeter.log: run api.token",
                "jmeter.log: run aws.secret_access_key", "jmeter.log: run signing_key");
    }

    @Test
    void findsThePrivateKeysOfAKeyStoreOpenedWithAKnownPassword() throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance("EC").generateKeyPair();
        var cert = org.trustload.plans.SecretsTest.selfSigned(kp);
        var ks = java.security.KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("user1", kp.getPrivate(), "storepass-123".toCharArray(),
                new java.security.cert.Certificate[] {cert});
        Path p12 = tmp.resolve("users.p12");
        try (var o = Files.newOutputStream(p12)) {
            ks.store(o, "storepass-123".toCharArray());
        }
        Map<String, String> lab = Map.of("pki.keystore", p12.toString(), "pki.keystore.password", "storepass-123");
        Secrets secrets = new Secrets().addProperties(lab, "lab").addKeyFiles(lab, "lab");
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("dump.txt"), Base64.getEncoder().encodeToString(kp.getPrivate().getEncoded()));
        assertThat(secrets.findIn(out, Set.of())).anyMatch(l -> l.contains("key user1 (base64)"));
    }

    static java.security.cert.X509Certificate selfSigned(KeyPair kp) throws Exception {
        var name = new org.bouncycastle.asn1.x500.X500Name("CN=test");
        var now = new java.util.Date();
        var b = new org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder(name, java.math.BigInteger.ONE, now,
                new java.util.Date(now.getTime() + 86_400_000L), name, kp.getPublic());
        var signer =
                new org.bouncycastle.operator.jcajce.JcaContentSignerBuilder("SHA256withECDSA").build(kp.getPrivate());
        return new org.bouncycastle.cert.jcajce.JcaX509CertificateConverter().getCertificate(b.build(signer));
    }
}
