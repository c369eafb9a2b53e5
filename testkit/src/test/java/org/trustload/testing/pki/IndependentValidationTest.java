package org.trustload.testing.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.trustload.pki.CadesSigner;
import org.trustload.pki.CadesSignerTest;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PadesSigner;
import org.trustload.pki.SignOptions;
import org.trustload.pki.TestKeys;
import org.trustload.pki.ValidationReport;

/**
 * Our signatures checked by independent implementations (OpenSSL's {@code cms -verify}, poppler's
 * {@code pdfsig} on NSS) and theirs checked by ours. Skipped when a tool is missing, except with
 * {@code CI=true}, where a missing tool fails the test ({@code ci/test} installs them).
 */
class IndependentValidationTest {
    @TempDir
    Path dir;

    static void requireTool(String tool) {
        boolean present = false;
        for (String p : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(p, tool))) {
                present = true;
            }
        }
        if (!present && "true".equals(System.getenv("CI"))) {
            Assertions.fail(tool + " is not installed and CI=true, so this is not skipped");
        }
        Assumptions.assumeTrue(present, tool + " is not installed");
    }

    record Run(int exit, String output) {
    }

    Run run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            Assertions.fail("timed out: " + String.join(" ", cmd));
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0} attached={1} level={2}")
    @CsvSource({"RSA,true,B", "RSA,false,B", "P256,true,B", "P256,false,B", "RSA,true,T", "P256,false,T"})
    void opensslVerifiesOurCades(TestKeys.Type type, boolean attached, SignOptions.Level level) throws Exception {
        requireTool("openssl");
        KeyMaterial key = TestKeys.user(type);
        byte[] cms = CadesSigner.sign(CadesSignerTest.DATA, key, CadesSignerTest.options("SHA-256", attached, level));
        Files.write(dir.resolve("sig.p7s"), cms);
        Files.write(dir.resolve("data"), CadesSignerTest.DATA);
        TestKeys.writePem(dir.resolve("ca.pem"), TestKeys.ca(type).cert());
        List<String> cmd = new ArrayList<>(List.of("openssl", "cms", "-verify", "-binary", "-inform", "DER",
                "-in", "sig.p7s", "-CAfile", "ca.pem", "-out", "verified"));
        if (!attached) {
            cmd.addAll(List.of("-content", "data"));
        }
        Run r = run(cmd.toArray(String[]::new));
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("Verification successful");
        assertThat(Files.readAllBytes(dir.resolve("verified"))).isEqualTo(CadesSignerTest.DATA);

        // and a tampered content is refused by openssl too
        byte[] other = CadesSignerTest.DATA.clone();
        other[0] ^= 1;
        if (!attached) {
            Files.write(dir.resolve("data"), other);
            assertThat(run(cmd.toArray(String[]::new)).exit()).isNotZero();
        }
    }

    @ParameterizedTest(name = "{0} detached={1}")
    @CsvSource({"RSA,true", "RSA,false", "P256,true", "P256,false"})
    void weVerifyOpensslCms(TestKeys.Type type, boolean detached) throws Exception {
        requireTool("openssl");
        KeyMaterial key = TestKeys.user(type);
        Files.write(dir.resolve("data"), CadesSignerTest.DATA);
        TestKeys.writePem(dir.resolve("user.pem"), key.certificate());
        TestKeys.writePem(dir.resolve("key.pem"), key.privateKey());
        TestKeys.writePem(dir.resolve("ca.pem"), TestKeys.ca(type).cert());
        List<String> cmd = new ArrayList<>(List.of("openssl", "cms", "-sign", "-binary", "-outform", "DER",
                "-signer", "user.pem", "-inkey", "key.pem", "-certfile", "ca.pem", "-in", "data", "-out", "sig.der"));
        if (!detached) {
            cmd.add("-nodetach");
        }
        Run r = run(cmd.toArray(String[]::new));
        assertThat(r.exit()).as(r.output()).isZero();
        byte[] cms = Files.readAllBytes(dir.resolve("sig.der"));
        ValidationReport report = CadesSignerTest.validator()
                .validateCades(cms, detached ? CadesSignerTest.DATA : null);
        assertThat(report.problems()).isEmpty();
        assertThat(report.signer()).contains("User " + type);
        assertThat(report.signingTime()).isNotNull();
        byte[] other = CadesSignerTest.DATA.clone();
        other[0] ^= 1;
        if (detached) {
            assertThat(CadesSignerTest.validator().validateCades(cms, other).problems())
                    .containsExactly(ValidationReport.MODIFIED);
        }
    }

    /** An NSS database trusting {@code ca} (certutil), for pdfsig. */
    Path nssDb(TestKeys.Ca ca) throws Exception {
        requireTool("certutil");
        Path db = Files.createDirectories(dir.resolve("nssdb"));
        TestKeys.writePem(dir.resolve("nss-ca.pem"), ca.cert());
        Run n = run("certutil", "-N", "-d", "sql:" + db, "--empty-password");
        assertThat(n.exit()).as(n.output()).isZero();
        Run a = run("certutil", "-A", "-d", "sql:" + db, "-n", "trustload-ca", "-t", "CT,C,C", "-i", "nss-ca.pem");
        assertThat(a.exit()).as(a.output()).isZero();
        return db;
    }

    /**
     * pdfsig (poppler on NSS) validates our PAdES-B and -T: the signature math over the ByteRange
     * ("Signature is Valid.", "Total document signed") and, with the CA in an NSS db, the chain
     * ("Certificate is Trusted."). Our certificates carry no AIA, so NSS makes no OCSP request; poppler
     * 22.12's {@code -no-ocsp} switch itself breaks certificate validation ("Unknown issue"), so it is
     * not used.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"RSA,B", "P256,B", "RSA,T", "P256,T"})
    void pdfsigVerifiesOurPades(TestKeys.Type type, SignOptions.Level level) throws Exception {
        requireTool("pdfsig");
        Path db = nssDb(TestKeys.ca(type));
        byte[] signed = PadesSigner.sign(PadesSignerTest.PDF, TestKeys.user(type),
                CadesSignerTest.options("SHA-256", false, level));
        Files.write(dir.resolve("signed.pdf"), signed);
        Run r = run("pdfsig", "-nssdir", "sql:" + db, "signed.pdf");
        assertThat(r.output()).contains("Signature Type: ETSI.CAdES.detached", "Total document signed",
                "Signature Validation: Signature is Valid.", "Certificate Validation: Certificate is Trusted.");
        assertThat(r.exit()).as(r.output()).isZero();

        byte[] changed = signed.clone();
        int i = CadesSignerTest.indexOf(changed, "TrustLoad sample document".getBytes(StandardCharsets.US_ASCII));
        changed[i] = 'X';
        Files.write(dir.resolve("changed.pdf"), changed);
        assertThat(run("pdfsig", "-nssdir", "sql:" + db, "changed.pdf").output())
                .doesNotContain("Signature is Valid.");
    }

    /**
     * A PDF signed by poppler/NSS ({@code pdfsig -add-signature}, adbe.pkcs7.detached) validates with ours.
     * RSA only: poppler 22.12 fails to sign with EC keys ("signDocument: unable update signature").
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"RSA"})
    void weVerifyPdfsigSignatures(TestKeys.Type type) throws Exception {
        requireTool("pdfsig");
        requireTool("pk12util");
        requireTool("openssl");
        Path db = nssDb(TestKeys.ca(type));
        KeyMaterial key = TestKeys.user(type);
        TestKeys.writePem(dir.resolve("user.pem"), key.certificate());
        TestKeys.writePem(dir.resolve("key.pem"), key.privateKey());
        Run p12 = run("openssl", "pkcs12", "-export", "-in", "user.pem", "-inkey", "key.pem", "-name", "signer",
                "-out", "user.p12", "-passout", "pass:test");
        assertThat(p12.exit()).as(p12.output()).isZero();
        Run imp = run("pk12util", "-i", "user.p12", "-d", "sql:" + db, "-W", "test");
        assertThat(imp.exit()).as(imp.output()).isZero();
        Files.write(dir.resolve("in.pdf"), PadesSignerTest.PDF);
        Run sign = run("pdfsig", "-nssdir", "sql:" + db, "-add-signature", "-nick", "signer", "in.pdf", "out.pdf");
        Assumptions.assumeTrue(sign.exit() == 0, "pdfsig -add-signature failed here: " + sign.output());
        byte[] theirs = Files.readAllBytes(dir.resolve("out.pdf"));
        ValidationReport r = CadesSignerTest.validator().validatePades(theirs);
        assertThat(r.problems()).isEmpty();
        assertThat(r.signer()).contains("User " + type);
    }
}
