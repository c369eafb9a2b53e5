package org.trustload.testing.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.labkit.pki.TestPki;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;

/**
 * Keys on a real PKCS#11 token (SoftHSM2 from Debian) through {@link KeySource#pkcs11}: a token is
 * created in a temporary directory, a P-256 and an RSA-2048 user of a {@link TestPki} are imported
 * (key with {@code softhsm2-util --import}, certificates with {@code pkcs11-tool --write-object}),
 * then {@link SoftHsmChild} signs from 4 threads × 200 signatures per key and verifies each.
 *
 * <p>Why a child JVM: SoftHSM finds its token directory through the {@code SOFTHSM2_CONF}
 * environment variable of the process that loads it; a JVM cannot set its own environment, and the
 * default configuration (/etc/softhsm/softhsm2.conf) points at a system-wide token directory that
 * tests must not touch. A child started with its own environment keeps the test self-contained
 * (no Failsafe configuration, runs the same from an IDE). Skipped when SoftHSM is absent, except in
 * CI ({@code CI=true}) where {@code ci/test} installs it.
 */
class SoftHsmIT {

    static final Path LIBRARY = Path.of("/usr/lib/softhsm/libsofthsm2.so");
    static final String PIN = "4321";

    @TempDir
    Path tmp;

    @Test
    void signsFromSeveralThreadsOnTheToken() throws Exception {
        boolean present = Files.isRegularFile(LIBRARY) && onPath("softhsm2-util") && onPath("pkcs11-tool");
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("SoftHSM2 and OpenSC are required in CI (ci/test installs softhsm2 and opensc)");
        }
        Assumptions.assumeTrue(present, "softhsm2/opensc not installed");

        TestPki ec = TestPki.generate(new TestPki.Spec().withUsers(2), tmp.resolve("ec"));
        TestPki rsa = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.RSA2048).withCas(1).withUsers(1)
                .withSeed(2), tmp.resolve("rsa"));

        Path tokens = Files.createDirectories(tmp.resolve("tokens"));
        Path conf = tmp.resolve("softhsm2.conf");
        Files.writeString(conf, "directories.tokendir = " + tokens
                + "\nobjectstore.backend = file\nlog.level = ERROR\n");
        String init = run(conf, "softhsm2-util", "--init-token", "--free", "--label", "trustload", "--pin", PIN,
                "--so-pin", "87654321");
        Matcher m = Pattern.compile("reassigned to slot (\\d+)").matcher(init);
        assertThat(m.find()).as(init).isTrue();
        String slot = m.group(1);

        importKey(conf, ec.userKey("user0001"), "ec-user", "01");
        importKey(conf, rsa.userKey("user0001"), "rsa-user", "02");
        // the CA certificates, so that SunPKCS11 can build chains
        writeCert(conf, ec.caCertificates().get(0), "ca-ec", "a1");
        writeCert(conf, rsa.caCertificates().get(0), "ca-rsa", "a2");

        Path p11 = tmp.resolve("pkcs11.cfg");
        Files.writeString(p11, "name = TrustLoadSoftHSM\nlibrary = " + LIBRARY + "\nslot = " + slot + "\n");

        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SoftHsmChild.class.getName(), p11.toString(), PIN,
                "4", "200", "ec-user", "rsa-user"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("SOFTHSM2_CONF", conf.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        System.out.print(out.lines().filter(l -> l.startsWith("RESULT key=")).map(l -> "SoftHSM: " + l + "\n")
                .reduce("", String::concat));
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("RESULT wrongPin=keyError:cannot log in to the PKCS#11 token (wrong PIN?)")
                .contains("RESULT sameProvider=true")
                .contains("RESULT missingAlias=keyError:alias nobody not found")
                .contains("RESULT all=2")
                .containsPattern("RESULT key=ec-user alg=EC chain=2 verified=800 errors=0")
                .containsPattern("RESULT key=rsa-user alg=RSA chain=2 verified=800 errors=0")
                .doesNotContain(PIN);
    }

    private void importKey(Path conf, KeyMaterial k, String label, String id) throws Exception {
        Path pem = tmp.resolve(label + ".key.pem");
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(new JcaPKCS8Generator(k.privateKey(), null).generate()); // PKCS#8, as softhsm2-util wants
        }
        Files.writeString(pem, w.toString());
        run(conf, "softhsm2-util", "--import", pem.toString(), "--token", "trustload", "--label", label, "--id", id,
                "--pin", PIN);
        writeCert(conf, k.certificate(), label, id);
    }

    private void writeCert(Path conf, java.security.cert.X509Certificate cert, String label, String id)
            throws Exception {
        Path der = tmp.resolve(label + ".der");
        Files.write(der, cert.getEncoded());
        run(conf, "pkcs11-tool", "--module", LIBRARY.toString(), "--token-label", "trustload", "--login", "--pin", PIN,
                "--write-object", der.toString(), "--type", "cert", "--id", id, "--label", label);
    }

    private static String run(Path conf, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("SOFTHSM2_CONF", conf.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + "\n" + out).isZero();
        return out;
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
