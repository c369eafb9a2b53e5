package org.trustload.testing.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Signature;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertStore;
import java.security.cert.CertificateFactory;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXParameters;
import java.security.cert.PKIXReason;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CRL;
import java.security.cert.X509CRLEntry;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.bouncycastle.asn1.x509.CRLDistPoint;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.labkit.pki.TestPki;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeyStores;

class TestPkiTest {

    @TempDir
    static Path tmp;

    static TestPki pki;

    @BeforeAll
    static void generateThousandUsers() throws Exception {
        TestPki.Spec spec = new TestPki.Spec().withCrlBaseUrl("http://127.0.0.1:18080/crl/");
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        pki = TestPki.generate(spec, tmp.resolve("pki"));
        long genMs = (System.nanoTime() - t0) / 1_000_000;
        long genCpuMs = (mx.getCurrentThreadCpuTime() - cpu0) / 1_000_000;
        t0 = System.nanoTime();
        List<KeyMaterial> all = pki.users(List.of()).load();
        long loadMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("TestPki: 1000 P-256 users generated in %d ms (%d ms CPU of this thread), "
                + "opened from users.p12 in %d ms%n", genMs, genCpuMs, loadMs);
        assertThat(all).hasSize(1000);
    }

    @Test
    void thousandUsersSpreadOverThreeCas() throws Exception {
        assertThat(pki.userAliases()).hasSize(1000).startsWith("user0001", "user0002").endsWith("user1000");
        assertThat(pki.caCertificates()).hasSize(3);
        assertThat(pki.revokedAliases()).hasSize(20).contains("user0050", "user1000");
        assertThat(pki.expiredAliases()).containsExactly("user0998", "user0999");
        assertThat(pki.validAliases()).hasSize(978);
        assertThat(pki.caOf("user0001")).isEqualTo(1);
        assertThat(pki.caOf("user0002")).isEqualTo(2);
        assertThat(pki.caOf("user0004")).isEqualTo(1);
        Set<BigInteger> serials = pki.userAliases().stream().map(pki::serialOf).collect(Collectors.toSet());
        assertThat(serials).hasSize(1000);
        assertThat(Files.readString(pki.dir().resolve("pki.properties"))).contains("password=trustload", "users=1000");
        for (String f : List.of("ca-1.pem", "ca-3.crl", "ca-2.p12", "users.p12", "tsa.p12", "tsa.pem", "server.p12",
                "trust-anchors.pem", "users.csv")) {
            assertThat(pki.dir().resolve(f)).isNotEmptyFile();
        }
        assertThat(CertificateFactory.getInstance("X.509").generateCertificates(
                Files.newInputStream(pki.dir().resolve("trust-anchors.pem")))).hasSize(3);
    }

    @Test
    void userCertificatesCarryTheirChainAndCrlDistributionPoint() throws Exception {
        KeyMaterial u = pki.userKey("user0005"); // CA 2
        assertThat(u.chain()).hasSize(2);
        assertThat(u.chain().get(1)).isEqualTo(pki.caCertificates().get(1));
        assertThat(u.certificate().getSerialNumber()).isEqualTo(pki.serialOf("user0005"));
        assertThat(u.keyAlgorithm()).isEqualTo("EC");
        u.certificate().verify(pki.caCertificates().get(1).getPublicKey());
        CRLDistPoint cdp = CRLDistPoint.getInstance(org.bouncycastle.asn1.ASN1OctetString.getInstance(
                u.certificate().getExtensionValue(Extension.cRLDistributionPoints.getId())).getOctets());
        GeneralNames names = (GeneralNames) cdp.getDistributionPoints()[0].getDistributionPoint().getName();
        assertThat(names.getNames()[0].getName().toString()).isEqualTo("http://127.0.0.1:18080/crl/ca-2.crl");
        byte[] sig = u.sign("SHA256withECDSA", "hello".getBytes(StandardCharsets.UTF_8));
        Signature v = Signature.getInstance("SHA256withECDSA");
        v.initVerify(u.certificate());
        v.update("hello".getBytes(StandardCharsets.UTF_8));
        assertThat(v.verify(sig)).isTrue();
    }

    @Test
    void crlsListExactlyTheRevokedUsersAndVerify() throws Exception {
        for (int n = 1; n <= 3; n++) {
            X509CRL crl = pki.crl(n);
            crl.verify(pki.caCertificates().get(n - 1).getPublicKey());
            assertThat(crl.getIssuerX500Principal())
                    .isEqualTo(pki.caCertificates().get(n - 1).getSubjectX500Principal());
            int ca = n;
            Set<BigInteger> expected = pki.revokedAliases().stream().filter(a -> pki.caOf(a) == ca)
                    .map(pki::serialOf).collect(Collectors.toSet());
            Set<BigInteger> listed = new HashSet<>();
            for (X509CRLEntry e : crl.getRevokedCertificates()) {
                listed.add(e.getSerialNumber());
            }
            assertThat(listed).isEqualTo(expected).isNotEmpty();
            assertThat(Duration.between(crl.getThisUpdate().toInstant(), crl.getNextUpdate().toInstant()))
                    .isEqualTo(Duration.ofDays(7));
            assertThat(crl.getNextUpdate()).isInTheFuture();
            assertThat(crl.getThisUpdate()).isInThePast();
        }
        KeyMaterial ca1 = pki.caKey(1);
        assertThat(ca1.certificate()).isEqualTo(pki.caCertificates().get(0));
    }

    @Test
    void pkixAgreesWithTheStatusOfEachUser() throws Exception {
        assertThat(pkix(pki.validAliases().get(0))).isNull();
        assertThat(pkix(pki.validAliases().get(1))).isNull();
        assertThat(pkix(pki.revokedAliases().get(0)).getReason())
                .isEqualTo(CertPathValidatorException.BasicReason.REVOKED);
        assertThat(pkix(pki.expiredAliases().get(0)).getReason())
                .isEqualTo(CertPathValidatorException.BasicReason.EXPIRED);
    }

    private CertPathValidatorException pkix(String alias) throws Exception {
        X509Certificate cert = pki.userKey(alias).certificate();
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        Set<TrustAnchor> anchors = new HashSet<>();
        for (X509Certificate ca : pki.caCertificates()) {
            anchors.add(new TrustAnchor(ca, null));
        }
        PKIXParameters params = new PKIXParameters(anchors);
        params.setRevocationEnabled(true);
        List<Object> crls = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            crls.add(pki.crl(n));
        }
        params.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(crls)));
        try {
            CertPathValidator.getInstance("PKIX").validate(cf.generateCertPath(List.of(cert)), params);
            return null;
        } catch (CertPathValidatorException e) {
            return e;
        }
    }

    @Test
    void opensslVerifyAgrees() throws Exception {
        assumeOpenssl();
        String valid = pki.validAliases().stream().filter(a -> pki.caOf(a) == 1).findFirst().orElseThrow();
        String revoked = pki.revokedAliases().stream().filter(a -> pki.caOf(a) == 1).findFirst().orElseThrow();
        assertThat(opensslVerify(valid)).startsWith("0:").contains("OK");
        assertThat(opensslVerify(revoked)).doesNotStartWith("0:").contains("certificate revoked");
    }

    private String opensslVerify(String alias) throws Exception {
        Path pem = tmp.resolve(alias + ".pem");
        try (JcaPEMWriter w = new JcaPEMWriter(Files.newBufferedWriter(pem))) {
            w.writeObject(pki.userKey(alias).certificate());
        }
        return run("openssl", "verify", "-CAfile", pki.dir().resolve("ca-1.pem").toString(), "-crl_check",
                "-CRLfile", pki.crlFile(1).toString(), pem.toString());
    }

    static void assumeOpenssl() {
        boolean present = Files.isExecutable(Path.of("/usr/bin/openssl"));
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("openssl is required in CI (ci/test installs it)");
        }
        Assumptions.assumeTrue(present, "openssl not installed");
    }

    /** Runs a command, returns "exitcode:" + combined output. */
    static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() + ":" + new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void reproducibleFromTheSeed() throws Exception {
        TestPki.Spec spec = new TestPki.Spec().withSeed(42).withUsers(12).withRevokedEvery(5).withExpiredCount(1);
        TestPki a = TestPki.generate(spec, tmp.resolve("a"));
        TestPki b = TestPki.generate(spec, tmp.resolve("b"));
        TestPki c = TestPki.generate(spec.withSeed(43), tmp.resolve("c"));
        assertThat(b.caCertificates()).isEqualTo(a.caCertificates());
        assertThat(Files.readString(b.dir().resolve("users.csv")))
                .isEqualTo(Files.readString(a.dir().resolve("users.csv")));
        List<KeyMaterial> ka = a.users(List.of()).load();
        List<KeyMaterial> kb = b.users(List.of()).load();
        List<KeyMaterial> kc = c.users(List.of()).load();
        for (int i = 0; i < ka.size(); i++) {
            X509Certificate x = ka.get(i).certificate();
            X509Certificate y = kb.get(i).certificate();
            assertThat(y.getSerialNumber()).isEqualTo(x.getSerialNumber());
            assertThat(y.getSubjectX500Principal()).isEqualTo(x.getSubjectX500Principal());
            assertThat(y.getPublicKey().getEncoded()).isEqualTo(x.getPublicKey().getEncoded());
            assertThat(y.getEncoded()).isEqualTo(x.getEncoded()); // even the ECDSA signature
            assertThat(kc.get(i).certificate().getPublicKey().getEncoded()).isNotEqualTo(x.getPublicKey().getEncoded());
        }
        assertThat(a.revokedAliases()).containsExactly("user0005", "user0010");
        assertThat(a.expiredAliases()).containsExactly("user0012");
    }

    @Test
    void tsaAndServerCertificates() throws Exception {
        KeyMaterial tsa = pki.tsaKey();
        assertThat(tsa.chain()).hasSize(2);
        assertThat(tsa.certificate().getCriticalExtensionOIDs()).contains(Extension.extendedKeyUsage.getId());
        assertThat(tsa.certificate().getExtendedKeyUsage()).containsExactly(KeyPurposeId.id_kp_timeStamping.getId());
        tsa.certificate().verify(pki.caCertificates().get(0).getPublicKey());
        var server = pki.serverKeyStore();
        X509Certificate s = (X509Certificate) server.getCertificate("server");
        List<String> sans = new ArrayList<>();
        for (List<?> san : s.getSubjectAlternativeNames()) {
            sans.add(san.get(0) + "=" + san.get(1));
        }
        assertThat(sans).containsExactlyInAnyOrder(GeneralName.iPAddress + "=127.0.0.1",
                GeneralName.dNSName + "=localhost");
    }

    @Test
    void sm2PkiSignsWithSm3AndVerifies() throws Exception {
        TestPki sm2 = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withUsers(6)
                .withRevokedEvery(3), tmp.resolve("sm2"));
        List<KeyMaterial> keys = sm2.users(List.of()).load();
        assertThat(keys).hasSize(6);
        KeyMaterial u = keys.get(0);
        assertThat(u.keyAlgorithm()).isEqualTo("SM2");
        assertThat(u.signatureAlgorithm("SHA-256")).isEqualTo("SM3withSM2");
        byte[] sig = u.sign("SM3withSM2", new byte[] {1, 2, 3});
        Signature v = Signature.getInstance("SM3withSM2", KeyStores.bouncyCastle());
        v.initVerify(u.certificate().getPublicKey());
        v.update(new byte[] {1, 2, 3});
        assertThat(v.verify(sig)).isTrue();
        u.certificate().verify(sm2.caCertificates().get(0).getPublicKey(), KeyStores.bouncyCastle().getName());
        X509CRL crl = sm2.crl(3);
        crl.verify(sm2.caCertificates().get(2).getPublicKey(), KeyStores.bouncyCastle().getName());
        assertThat(crl.getRevokedCertificates()).hasSize(2); // users 3 and 6
        assertThat(sm2.tsaKey().keyAlgorithm()).isEqualTo("SM2");
        assertThat(sm2.caKey(2).keyAlgorithm()).isEqualTo("SM2");
    }

    @Test
    void rsaPki() throws Exception {
        TestPki rsa = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.RSA2048).withCas(1).withUsers(2)
                .withRevokedEvery(0).withExpiredCount(0), tmp.resolve("rsa"));
        KeyMaterial u = rsa.userKey("user0002");
        assertThat(u.keyAlgorithm()).isEqualTo("RSA");
        assertThat(rsa.revokedAliases()).isEmpty();
        assertThat(rsa.crl(1).getRevokedCertificates()).isNull();
        u.certificate().verify(rsa.caCertificates().get(0).getPublicKey());
    }

    @Test
    void badCaNumber() {
        IllegalArgumentException e = catchThrowableOfType(() -> pki.crl(4), IllegalArgumentException.class);
        assertThat(e).hasMessageContaining("CA 4 does not exist");
    }
}
