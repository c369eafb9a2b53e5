package org.trustload.lab.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLDistPoint;
import org.bouncycastle.asn1.x509.DistributionPoint;
import org.bouncycastle.asn1.x509.DistributionPointName;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.lab.LabHttp;
import org.trustload.pki.KeyMaterial;
import org.trustload.labkit.pki.TestPki;

/**
 * The lab's certificate checks (signature service, certificate login): every user of the lab's own PKI
 * (3 CAs × 1000 P-256 users, CRLs fetched over HTTP from the distribution points) gets its verdict, and
 * the path negative table — made with {@link TestPki#issue}, with CRLs for every CA — gets its answer.
 */
class CertificateCheckerTest {
    @TempDir
    static Path dir;
    static HttpServer crlServer;
    /** The served CRLs' base URL, {@code http://127.0.0.1:port/crl/}. */
    static String crlBase;
    static TestPki pki;
    static CrlCache crlCache;
    static CertificateChecker checker;
    /** CRL file name → DER, served under /crl/. */
    static final Map<String, byte[]> CRLS = new java.util.concurrent.ConcurrentHashMap<>();

    @BeforeAll
    static void setUp() throws Exception {
        crlServer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        crlServer.createContext("/crl/", ex -> {
            byte[] crl = CRLS.get(ex.getRequestURI().getPath().substring("/crl/".length()));
            LabHttp.send(ex, LabHttp.threadCpu(), crl == null ? 404 : 200, "application/pkix-crl",
                    crl == null ? new byte[0] : crl);
        });
        crlServer.start();
        crlBase = "http://127.0.0.1:" + crlServer.getAddress().getPort() + "/crl/";
        long t0 = System.nanoTime();
        pki = TestPki.generate(PkiLabService.spec(PkiLabService.SEED, 1000, crlBase), dir.resolve("pki"));
        System.err.printf(Locale.ROOT, "lab PKI (3 CAs x 1000 users) generated in %d ms%n",
                (System.nanoTime() - t0) / 1_000_000);
        for (int n = 1; n <= 3; n++) {
            CRLS.put("ca-" + n + ".crl", Files.readAllBytes(pki.crlFile(n)));
        }
        crlCache = new CrlCache();
        checker = new CertificateChecker(pki.caCertificates(), crlCache, crlBase);
    }

    @AfterAll
    static void tearDown() {
        if (crlCache != null) {
            crlCache.close();
        }
        if (crlServer != null) {
            crlServer.stop(0);
        }
    }

    @Test
    void everyUserOfTheLabGetsItsVerdictAndTheCostPerCheckIsPrinted() throws Exception {
        // the certificates only: no 1000 private keys to decrypt
        java.security.KeyStore store = pki.usersKeyStore();
        List<String> aliases = pki.userAliases();
        List<X509Certificate[]> chains = new java.util.ArrayList<>();
        for (String a : aliases) {
            chains.add(java.util.Arrays.stream(store.getCertificateChain(a)).map(c -> (X509Certificate) c)
                    .toArray(X509Certificate[]::new));
        }
        assertThat(chains).hasSize(1000);
        List<String> revoked = pki.revokedAliases();
        List<String> expired = pki.expiredAliases();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int valid = 0;
        long cpu0 = 0;
        for (int round = 0; round < 2; round++) { // the second round is measured: CRLs cached, JIT warm
            if (round == 1) {
                cpu0 = mx.getCurrentThreadCpuTime();
            }
            valid = 0;
            for (int i = 0; i < aliases.size(); i++) {
                String alias = aliases.get(i);
                X509Certificate cert = chains.get(i)[0];
                if (revoked.contains(alias)) {
                    assertApi(() -> checker.check(cert, List.of()), 403, ApiException.CERTIFICATE_REVOKED,
                            "certificate serial ");
                } else if (expired.contains(alias)) {
                    assertApi(() -> checker.check(cert, List.of()), 403, ApiException.CERTIFICATE_EXPIRED,
                            "the certificate expired on");
                } else {
                    List<X509Certificate> path = checker.check(cert,
                            List.of(chains.get(i)).subList(1, chains.get(i).length));
                    assertThat(checker.caNumber(path.get(path.size() - 1))).isEqualTo(pki.caOf(alias));
                    valid++;
                }
            }
        }
        double ms = (mx.getCurrentThreadCpuTime() - cpu0) / 1e6 / aliases.size();
        System.err.printf(Locale.ROOT,
                "lab certificate check (PKIX, cached CRLs): %.3f ms CPU per check over %d users%n",
                ms, aliases.size());
        assertThat(valid).isEqualTo(1000 - revoked.size() - expired.size()).isGreaterThan(900);
        assertThat(crlCache.downloads()).isEqualTo(3);
    }

    /**
     * A certificate below {@code issuer} with a distribution point on the test server; its CA publishes a CRL there.
     */
    static KeyMaterial issue(KeyMaterial issuer, String cn, Instant notAfter, boolean ca, Integer pathLen, int keyUsage,
            boolean oddCriticalExtension) throws Exception {
        String issuerCrl = issuer.alias().replace(' ', '-') + ".crl";
        KeyMaterial k = pki.issue(issuer, cn, notAfter, b -> {
            if (ca) {
                b.addExtension(Extension.basicConstraints, true, pathLen == null ? new BasicConstraints(true)
                        : new BasicConstraints(pathLen));
            }
            b.addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage));
            if (oddCriticalExtension) {
                b.addExtension(new ASN1ObjectIdentifier("1.3.6.1.4.1.99999.25.2"), true,
                        new DEROctetString(new byte[] {1}));
            }
            String url = issuer.alias().startsWith("ca-") ? crlBase + issuer.alias() + ".crl"
                    : crlBase + issuerCrl;
            b.addExtension(Extension.cRLDistributionPoints, false, new CRLDistPoint(new DistributionPoint[] {
                new DistributionPoint(new DistributionPointName(new GeneralNames(
                        new GeneralName(GeneralName.uniformResourceIdentifier, url))), null, null)}));
        });
        if (ca) {
            CRLS.put(cn.replace(' ', '-') + ".crl",
                    TestPki.buildCrl(k, Map.of(), Instant.now().minus(Duration.ofHours(1)),
                    Instant.now().plus(Duration.ofDays(7)), BigInteger.ONE).getEncoded());
        }
        return k;
    }

    static final int SIGNING = KeyUsage.digitalSignature | KeyUsage.nonRepudiation;
    static final int CA_USAGE = KeyUsage.keyCertSign | KeyUsage.cRLSign;

    @Test
    void pathNegativeTable() throws Exception {
        KeyMaterial ca1 = pki.caKey(1);
        KeyMaterial user = pki.userKey(pki.validAliases().get(0));
        Instant later = ca1.certificate().getNotAfter().toInstant();

        KeyMaterial intermediate = issue(ca1, "Lab intermediate", null, true, null, CA_USAGE, false);
        KeyMaterial below = issue(intermediate, "Below the intermediate", null, false, null, SIGNING, false);
        assertThat(checker.check(below.certificate(), below.chain().subList(1, below.chain().size()))).hasSize(3);

        assertRow(issue(user, "Issued by an end entity", null, false, null, SIGNING, false), 403,
                ApiException.UNTRUSTED_CERTIFICATE,
                "the certificate chain is not valid: issuer is not a CA: no basicConstraints cA=true");
        KeyMaterial noKcs = issue(ca1, "Lab CA without keyCertSign", null, true, null, KeyUsage.cRLSign, false);
        assertRow(issue(noKcs, "Below no keyCertSign", later, false, null, SIGNING, false), 403,
                ApiException.UNTRUSTED_CERTIFICATE,
                "the certificate chain is not valid: issuer may not sign certificates: key usage lacks keyCertSign");
        KeyMaterial zero = issue(ca1, "Lab CA pathLen 0", null, true, 0, CA_USAGE, false);
        KeyMaterial sub = issue(zero, "Lab sub-CA", null, true, null, CA_USAGE, false);
        assertRow(issue(sub, "Below the sub-CA", null, false, null, SIGNING, false), 403,
                ApiException.UNTRUSTED_CERTIFICATE,
                "the certificate chain is not valid: path too long: an issuer's pathLenConstraint is exceeded");
        assertRow(issue(ca1, "Odd critical extension", null, false, null, SIGNING, true), 403,
                ApiException.UNTRUSTED_CERTIFICATE,
                "the certificate chain is not valid: unrecognised critical extension in the chain");
        KeyMaterial expiredCa = issue(ca1, "Lab expired CA", Instant.parse("2025-06-01T00:00:00Z"), true,
                null, CA_USAGE, false);
        assertRow(issue(expiredCa, "Below the expired CA", later, false, null, SIGNING, false), 403,
                ApiException.CERTIFICATE_EXPIRED,
                "the issuer CN=Lab expired CA,OU=Path tests,O=TrustLoad Test PKI,C=BR expired on");
        assertRow(issue(ca1, "Encipherment only", null, false, null, KeyUsage.keyEncipherment, false), 403,
                ApiException.UNTRUSTED_CERTIFICATE,
                "the certificate chain is not valid: key usage does not permit signing:"
                        + " needs digitalSignature or nonRepudiation");
        KeyMaterial rogue = pki.issue(null, "Lab rogue root", Instant.now().plus(Duration.ofDays(30)), b -> {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(CA_USAGE));
        });
        assertRow(pki.issue(rogue, "Rogue user", null,
                b -> b.addExtension(Extension.keyUsage, true, new KeyUsage(SIGNING))),
                403, ApiException.UNTRUSTED_CERTIFICATE, "the certificate of CN=Rogue user");
    }

    static void assertRow(KeyMaterial k, int status, String code, String messageStart) {
        assertApi(() -> checker.check(k.certificate(), k.chain().subList(1, k.chain().size())), status,
                code, messageStart);
    }

    interface Call {
        Object run() throws Exception;
    }

    static void assertApi(Call call, int status, String code, String messageStart) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
            assertThat(e.status()).isEqualTo(status);
            assertThat(e.getMessage()).startsWith(messageStart);
        });
    }

    @Test
    void theMutualTlsTrustManagerRefusesAClientIssuedByAnEndEntity() throws Exception {
        KeyMaterial user = pki.userKey(pki.validAliases().get(0));
        KeyMaterial bad = pki.issue(user, "mTLS client of an end entity", null,
                b -> b.addExtension(Extension.keyUsage, true, new KeyUsage(SIGNING)));
        CertificateLogin login = new CertificateLogin(checker, new CertificateModels(),
                org.trustload.pki.KeyStores.bouncyCastle(),
                java.time.Duration.ofMinutes(2));
        X509Certificate[] chain = bad.chain().toArray(new X509Certificate[0]);
        assertThatThrownBy(() -> login.trustManager().checkClientTrusted(chain, "EC"))
                .isInstanceOf(java.security.cert.CertificateException.class)
                .hasMessageContaining("issuer is not a CA");
        // an expired user passes the handshake: /auth/mtls answers certificateExpired with a code
        KeyMaterial expired = pki.userKey(pki.expiredAliases().get(0));
        login.trustManager().checkClientTrusted(expired.chain().toArray(new X509Certificate[0]), "EC");
    }
}
