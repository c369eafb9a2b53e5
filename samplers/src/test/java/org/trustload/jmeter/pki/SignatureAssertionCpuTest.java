package org.trustload.jmeter.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.pki.CadesSigner;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PadesSigner;
import org.trustload.pki.SamplePdf;
import org.trustload.pki.SignOptions;
import org.trustload.pki.TestPki;
import org.trustload.pki.TimestampResponder;

/**
 * Prints the CPU time (this thread, ThreadMXBean) the Signature Assertion element spends per sample on
 * CAdES-B/-T and PAdES-B/-T signatures of a 137 KB PDF, as the pki plans check them: 3 CAs, signers
 * rotating over 60 users, trust anchors and the CAs' CRLs configured. Informational: nothing is asserted on
 * the numbers (performance belongs to bench/; this is the figure {@code ./trustload bench pki} cannot give).
 */
class SignatureAssertionCpuTest {
    @TempDir
    Path dir;

    @Test
    void printAssertionCpuPerSample() throws Exception {
        JMeterTestSupportAccess.init();
        TestPki pki = TestPki.generate(new TestPki.Spec().withSeed(11).withUsers(60).withRevokedEvery(0)
                .withExpiredCount(0), dir.resolve("pki"));
        TimestampResponder tsa = new TimestampResponder(pki.tsaKey(), TimestampResponder.DEFAULT_POLICY);
        byte[] pdf = SamplePdf.generate(137 * 1024);
        List<KeyMaterial> users = pki.users(List.of()).load();
        SignatureAssertion assertion = new SignatureAssertion();
        assertion.setName("check");
        assertion.setTrustAnchorsFile(pki.dir().resolve("trust-anchors.pem").toString());
        StringBuilder crls = new StringBuilder();
        for (int n = 1; n <= pki.caCertificates().size(); n++) {
            crls.append(n > 1 ? "," : "").append(pki.crlFile(n));
        }
        assertion.setCrlFiles(crls.toString());
        StringBuilder out = new StringBuilder("Signature Assertion CPU ms per sample (" + pdf.length + "-byte PDF, "
                + users.size() + " P-256 users of 3 CAs, CRLs configured):");
        for (String format : List.of("cades", "pades")) {
            for (SignOptions.Level level : SignOptions.Level.values()) {
                SignOptions.Builder b = SignOptions.builder().level(level).attached(false);
                if (level == SignOptions.Level.T) {
                    b.timestampSource(tsa);
                }
                SignOptions o = b.build();
                List<byte[]> signatures = new ArrayList<>();
                for (KeyMaterial k : users) {
                    signatures.add(format.equals("pades") ? PadesSigner.sign(pdf, k, o) : CadesSigner.sign(pdf, k, o));
                }
                double ms = cpuMsPerSample(assertion, format, signatures, pdf, 300, 600);
                out.append(String.format(Locale.ROOT, " %s-%s %.3f", format.toUpperCase(Locale.ROOT), level, ms));
            }
        }
        System.out.println(out);
    }

    private static double cpuMsPerSample(SignatureAssertion a, String format, List<byte[]> signatures, byte[] content,
            int warmup, int n) {
        JMeterVariables vars = new JMeterVariables();
        JMeterContextService.getContext().setVariables(vars);
        vars.putObject(AbstractSignSampler.LAST_FORMAT, format);
        vars.putObject(AbstractSignSampler.LAST_CONTENT, format.equals("cades") ? content : null);
        SampleResult sample = new SampleResult();
        sample.setSuccessful(true);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long t0 = 0;
        for (int i = 0; i < warmup + n; i++) {
            if (i == warmup) {
                t0 = mx.getCurrentThreadCpuTime();
            }
            vars.putObject(AbstractSignSampler.LAST_SIGNATURE, signatures.get(i % signatures.size()));
            AssertionResult r = a.getResult(sample);
            assertThat(r.isFailure() || r.isError()).as(r.getFailureMessage()).isFalse();
        }
        return (mx.getCurrentThreadCpuTime() - t0) / 1e6 / n;
    }
}
