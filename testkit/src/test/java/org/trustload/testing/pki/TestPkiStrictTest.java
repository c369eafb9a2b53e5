package org.trustload.testing.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.pkcs.Attribute;
import org.bouncycastle.asn1.pkcs.ContentInfo;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.bc.BcDefaultDigestProvider;
import org.bouncycastle.pkcs.PKCS12PfxPdu;
import org.bouncycastle.pkcs.PKCS12SafeBag;
import org.bouncycastle.pkcs.PKCS12SafeBagFactory;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.bc.BcPKCS12MacCalculatorBuilderProvider;
import org.bouncycastle.pkcs.jcajce.JcePKCSPBEInputDecryptorProviderBuilder;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.trustload.labkit.pki.TestPki;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeyStores;

/**
 * The test PKI's certificates pass strict validators and its PKCS#12 files pair every key with its
 * certificate unambiguously (issue 16: GmSSL 3 refused the empty critical BasicConstraints of the
 * end-entity certificates; the JDK's writer gave most keys of {@code users.p12} the same
 * {@code localKeyID}).
 */
class TestPkiStrictTest {
    private static final char[] PASSWORD = TestPki.PASSWORD.toCharArray();
    /** The DER of BasicConstraints with cA=false and no path length: an empty SEQUENCE. */
    private static final byte[] EMPTY_SEQUENCE = {0x30, 0x00};

    @TempDir
    static Path tmp;

    static final Map<TestPki.KeyType, TestPki> PKIS = new EnumMap<>(TestPki.KeyType.class);

    /** Every certificate of one PKI, by kind: ca, user, tsa, server, tlcp-sign, tlcp-enc. */
    record Cert(String name, String kind, X509CertificateHolder holder) {
    }

    @BeforeAll
    static void generate() throws Exception {
        // 60 P-256 users: the JDK's writer gave keys written within one millisecond the same localKeyID
        PKIS.put(TestPki.KeyType.P256, TestPki.generate(new TestPki.Spec().withUsers(60), tmp.resolve("p256")));
        PKIS.put(TestPki.KeyType.RSA2048, TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.RSA2048)
                .withCas(1).withUsers(2).withExpiredCount(0), tmp.resolve("rsa")));
        PKIS.put(TestPki.KeyType.SM2, TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2)
                .withCas(2).withUsers(4).withExpiredCount(0), tmp.resolve("sm2")));
    }

    @ParameterizedTest
    @EnumSource(TestPki.KeyType.class)
    void everyCertificateKindHasStrictExtensions(TestPki.KeyType type) throws Exception {
        TestPki pki = PKIS.get(type);
        List<Cert> certs = certificates(pki);
        Set<String> kinds = new HashSet<>();
        Map<String, byte[]> skiBySubject = new HashMap<>();
        for (Cert c : certs) {
            kinds.add(c.kind());
            Extension basic = c.holder().getExtension(Extension.basicConstraints);
            assertThat(basic != null && basic.isCritical()
                    && java.util.Arrays.equals(basic.getExtnValue().getOctets(), EMPTY_SEQUENCE))
                    .as("%s: empty and critical BasicConstraints (GmSSL 3 refuses it)", c.name()).isFalse();
            byte[] ski = SubjectKeyIdentifier.fromExtensions(c.holder().getExtensions()).getKeyIdentifier();
            assertThat(ski).as("SKI of %s is SHA-1 of its key bits", c.name()).isEqualTo(keyBitsSha1(c.holder()));
            skiBySubject.put(c.holder().getSubject().toString(), ski);
        }
        assertThat(kinds).contains("ca", "user", "tsa", "server");
        if (type == TestPki.KeyType.SM2) {
            assertThat(kinds).contains("tlcp-sign", "tlcp-enc");
        }
        for (Cert c : certs) {
            X509CertificateHolder h = c.holder();
            Extension bc = h.getExtension(Extension.basicConstraints);
            AuthorityKeyIdentifier aki = AuthorityKeyIdentifier.fromExtensions(h.getExtensions());
            assertThat(aki).as("%s has an AKI", c.name()).isNotNull();
            assertThat(aki.getKeyIdentifier()).as("%s: AKI is the issuer's SKI", c.name())
                    .isEqualTo(skiBySubject.get(h.getIssuer().toString()));
            Extension ku = h.getExtension(Extension.keyUsage);
            assertThat(ku).as("%s has a key usage", c.name()).isNotNull();
            assertThat(ku.isCritical()).as("%s: key usage critical", c.name()).isTrue();
            KeyUsage usage = KeyUsage.fromExtensions(h.getExtensions());
            if (c.kind().equals("ca")) {
                assertThat(bc).as("%s has BasicConstraints", c.name()).isNotNull();
                assertThat(bc.isCritical()).as("%s: BasicConstraints critical", c.name()).isTrue();
                assertThat(BasicConstraints.getInstance(bc.getParsedValue()).isCA()).isTrue();
                assertThat(usage.hasUsages(KeyUsage.keyCertSign | KeyUsage.cRLSign)).isTrue();
                continue;
            }
            // end entity: BasicConstraints absent (GmSSL 3 cannot parse the empty SEQUENCE of cA=false)
            assertThat(bc).as("%s: no BasicConstraints in an end-entity certificate", c.name()).isNull();
            assertThat(usage.hasUsages(KeyUsage.keyCertSign)).as("%s: keyCertSign", c.name()).isFalse();
            assertThat(usage.hasUsages(KeyUsage.cRLSign)).as("%s: cRLSign", c.name()).isFalse();
            switch (c.kind()) {
                case "tlcp-sign":
                    // bgm tells the two TLCP certificates apart by these bits
                    assertThat(usage.hasUsages(KeyUsage.digitalSignature | KeyUsage.nonRepudiation)).isTrue();
                    assertThat(usage.hasUsages(KeyUsage.keyEncipherment)).isFalse();
                    assertThat(usage.hasUsages(KeyUsage.keyAgreement)).isFalse();
                    break;
                case "tlcp-enc":
                    assertThat(usage.hasUsages(KeyUsage.keyEncipherment | KeyUsage.dataEncipherment
                            | KeyUsage.keyAgreement)).isTrue();
                    assertThat(usage.hasUsages(KeyUsage.digitalSignature)).isFalse();
                    break;
                default:
                    assertThat(usage.hasUsages(KeyUsage.digitalSignature))
                            .as("%s: digitalSignature", c.name()).isTrue();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TestPki.KeyType.class)
    void opensslStrictVerifiesEveryCertificate(TestPki.KeyType type) throws Exception {
        IndependentValidationTest.requireTool("openssl");
        TestPki pki = PKIS.get(type);
        Path out = Files.createDirectories(tmp.resolve("openssl-" + type));
        Set<String> valid = new HashSet<>(pki.validAliases());
        Map<String, List<String>> byPurpose = new LinkedHashMap<>();
        for (Cert c : certificates(pki)) {
            if (c.kind().equals("user") && !valid.contains(c.name())) {
                continue; // expired: openssl would rightly refuse it
            }
            Path f = out.resolve(c.name() + ".pem");
            Files.writeString(f, pem(c.holder()), StandardCharsets.US_ASCII);
            String purpose = switch (c.kind()) {
                case "server" -> "sslserver";
                case "user" -> "sslclient";
                case "tsa" -> "timestampsign";
                default -> "any";
            };
            byPurpose.computeIfAbsent(purpose, k -> new ArrayList<>()).add(f.toString());
        }
        for (Map.Entry<String, List<String>> e : byPurpose.entrySet()) {
            List<String> cmd = new ArrayList<>(List.of("openssl", "verify", "-x509_strict", "-purpose", e.getKey()));
            if (type == TestPki.KeyType.SM2) {
                cmd.addAll(List.of("-vfyopt", "distid:1234567812345678"));
            }
            cmd.addAll(List.of("-CAfile", pki.dir().resolve("trust-anchors.pem").toString()));
            cmd.addAll(e.getValue());
            String output = run(cmd);
            assertThat(output.lines().filter(l -> l.endsWith(": OK")).count())
                    .as("openssl verify -x509_strict -purpose %s: %s", e.getKey(), output)
                    .isEqualTo(e.getValue().size());
        }
    }

    @ParameterizedTest
    @EnumSource(TestPki.KeyType.class)
    void everyKeyOfEveryPkcs12FileHasItsOwnLocalKeyIdMatchingItsCertificate(TestPki.KeyType type) throws Exception {
        TestPki pki = PKIS.get(type);
        List<Path> files;
        try (Stream<Path> s = Files.list(pki.dir())) {
            files = s.filter(p -> p.toString().endsWith(".p12")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        int keysSeen = 0;
        for (Path file : files) {
            PKCS12PfxPdu pfx = new PKCS12PfxPdu(Files.readAllBytes(file));
            assertThat(pfx.isMacValid(new BcPKCS12MacCalculatorBuilderProvider(BcDefaultDigestProvider.INSTANCE),
                    PASSWORD))
                    .as("MAC of %s", file).isTrue();
            Map<String, PrivateKey> keys = new LinkedHashMap<>();
            Map<String, X509CertificateHolder> certs = new HashMap<>();
            for (ContentInfo ci : pfx.getContentInfos()) {
                PKCS12SafeBagFactory f = ci.getContentType().equals(PKCSObjectIdentifiers.encryptedData)
                        ? new PKCS12SafeBagFactory(ci, decryptor()) : new PKCS12SafeBagFactory(ci);
                for (PKCS12SafeBag bag : f.getSafeBags()) {
                    byte[] id = localKeyId(bag);
                    if (bag.getBagValue() instanceof PKCS8EncryptedPrivateKeyInfo enc) {
                        assertThat(id).as("a key of %s without localKeyID", file).isNotNull();
                        PrivateKey k = new JcaPEMKeyConverter().setProvider(KeyStores.bouncyCastle())
                                .getPrivateKey(enc.decryptPrivateKeyInfo(decryptor()));
                        assertThat(keys.put(HexFormat.of().formatHex(id), k))
                                .as("two keys of %s share the localKeyID %s", file, HexFormat.of().formatHex(id))
                                .isNull();
                    } else if (bag.getBagValue() instanceof X509CertificateHolder h && id != null) {
                        assertThat(certs.put(HexFormat.of().formatHex(id), h))
                                .as("two certificates of %s share a localKeyID", file).isNull();
                    }
                }
            }
            assertThat(keys).as("keys in %s", file).isNotEmpty();
            for (Map.Entry<String, PrivateKey> e : keys.entrySet()) {
                X509CertificateHolder cert = certs.get(e.getKey());
                assertThat(cert).as("%s: no certificate with the key's localKeyID %s", file, e.getKey()).isNotNull();
                assertThat(HexFormat.of().formatHex(
                        SubjectKeyIdentifier.fromExtensions(cert.getExtensions()).getKeyIdentifier()))
                        .as("%s: localKeyID is the certificate's SKI", file).isEqualTo(e.getKey());
                assertThat(signsFor(e.getValue(), cert, type))
                        .as("%s: key %s belongs to its certificate", file, e.getKey())
                        .isTrue();
            }
            keysSeen += keys.size();
        }
        // users, CAs, TSA, server (+ 3 TLCP parties x 2 keys for SM2)
        int expected = pki.userAliases().size() + pki.caCertificates().size() + 2
                + (type == TestPki.KeyType.SM2 ? 6 : 0);
        assertThat(keysSeen).isEqualTo(expected);
    }

    @Test
    void opensslSeesOneDistinctLocalKeyIdPerKeyInUsersP12() throws Exception {
        IndependentValidationTest.requireTool("openssl");
        TestPki pki = PKIS.get(TestPki.KeyType.P256);
        String out = run(List.of("openssl", "pkcs12", "-in", pki.usersFile().toString(), "-passin",
                "pass:" + TestPki.PASSWORD, "-nodes", "-nocerts"));
        List<String> ids = new ArrayList<>();
        Matcher m = Pattern.compile("localKeyID: ([0-9A-F ]+)").matcher(out);
        while (m.find()) {
            ids.add(m.group(1).trim());
        }
        assertThat(ids).as(out).hasSize(60).doesNotHaveDuplicates();
        // and the JDK's key store, which pairs by localKeyID too, gives every alias its own certificate
        var ks = pki.usersKeyStore();
        Set<java.math.BigInteger> serials = new HashSet<>();
        for (String alias : pki.userAliases()) {
            serials.add(((java.security.cert.X509Certificate) ks.getCertificate(alias)).getSerialNumber());
            assertThat(((java.security.cert.X509Certificate) ks.getCertificate(alias)).getSerialNumber())
                    .isEqualTo(pki.serialOf(alias));
        }
        assertThat(serials).hasSize(60);
    }

    /* ---------------------------------------------------------------- helpers */

    static List<Cert> certificates(TestPki pki) throws Exception {
        List<Cert> out = new ArrayList<>();
        for (int n = 1; n <= pki.caCertificates().size(); n++) {
            out.add(new Cert("ca-" + n, "ca", new X509CertificateHolder(pki.caCertificates().get(n - 1).getEncoded())));
        }
        for (String alias : pki.userAliases()) {
            out.add(new Cert(alias, "user", holder(pki.userKey(alias))));
        }
        out.add(new Cert("tsa", "tsa", holder(pki.tsaKey())));
        var server = pki.serverKeyStore();
        out.add(new Cert("server", "server", new X509CertificateHolder(server.getCertificate("server").getEncoded())));
        if (pki.keyType() == TestPki.KeyType.SM2) {
            for (String party : List.of(TestPki.TLCP_SERVER, TestPki.TLCP_CLIENT, TestPki.TLCP_CLIENT_EXPIRED)) {
                if (party.equals(TestPki.TLCP_CLIENT_EXPIRED)) {
                    continue; // expired on purpose; its extensions equal the client's
                }
                for (String use : List.of("sign", "enc")) {
                    out.add(new Cert("tlcp-" + party + "-" + use, "tlcp-" + use, holder(pki.tlcpKey(party, use))));
                }
            }
        }
        return out;
    }

    private static X509CertificateHolder holder(KeyMaterial k) throws Exception {
        return new X509CertificateHolder(k.certificate().getEncoded());
    }

    private static byte[] keyBitsSha1(X509CertificateHolder h) throws Exception {
        return MessageDigest.getInstance("SHA-1").digest(h.getSubjectPublicKeyInfo().getPublicKeyData().getBytes());
    }

    private static byte[] localKeyId(PKCS12SafeBag bag) {
        Attribute[] attrs = bag.getAttributes();
        if (attrs == null) {
            return null;
        }
        for (Attribute a : attrs) {
            if (a.getAttrType().equals(PKCS12SafeBag.localKeyIdAttribute)) {
                return ASN1OctetString.getInstance(a.getAttrValues().getObjectAt(0)).getOctets();
            }
        }
        return null;
    }

    private static org.bouncycastle.operator.InputDecryptorProvider decryptor() throws Exception {
        return new JcePKCSPBEInputDecryptorProviderBuilder().setProvider(KeyStores.bouncyCastle()).build(PASSWORD);
    }

    private static boolean signsFor(PrivateKey key, X509CertificateHolder cert, TestPki.KeyType type) throws Exception {
        String alg = switch (type) {
            case SM2 -> "SM3withSM2";
            case RSA2048 -> "SHA256withRSA";
            default -> "SHA256withECDSA";
        };
        byte[] data = "pairing check".getBytes(StandardCharsets.UTF_8);
        Signature s = Signature.getInstance(alg, KeyStores.bouncyCastle());
        s.initSign(key);
        s.update(data);
        byte[] sig = s.sign();
        Signature v = Signature.getInstance(alg, KeyStores.bouncyCastle());
        v.initVerify(new JcaPEMKeyConverter().setProvider(KeyStores.bouncyCastle())
                .getPublicKey(cert.getSubjectPublicKeyInfo()));
        v.update(data);
        return v.verify(sig);
    }

    private static String pem(Object o) throws IOException {
        java.io.StringWriter w = new java.io.StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(o);
        }
        return w.toString();
    }

    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            Assertions.fail("did not finish: " + String.join(" ", cmd));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
