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
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.bouncycastle.asn1.cms.ContentInfo;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.tsp.TimeStampToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.pki.CadesSigner;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PadesSigner;
import org.trustload.labkit.pki.SamplePdf;
import org.trustload.pki.SignOptions;
import org.trustload.labkit.pki.TestPki;
import org.trustload.labkit.pki.TimestampResponder;

/**
 * Prints the CPU time (this thread, ThreadMXBean) the Signature Assertion element spends per sample on
 * CAdES-B/-T and PAdES-B/-T signatures of the 140,576-byte sample PDF, as the pki plans check them: 3 CAs, signers
 * rotating over 60 users, trust anchors and the CAs' CRLs configured — beside a raw floor measured in
 * the same blocks (interleaved, so a loaded machine moves both alike): BouncyCastle's CMS verification of
 * the same signature (PDFBox loading the PDF and cutting the signed ranges for PAdES; the timestamp token's
 * own verification for -T), i.e. what any validator pays before it looks at a certificate path.
 * Informational: nothing is asserted on the numbers (performance belongs to bench/; this is the figure
 * {@code ./trustload bench pki} does not give).
 */
class SignatureAssertionCpuTest {
    static final BouncyCastleProvider BC = new BouncyCastleProvider();

    @TempDir
    Path dir;

    interface Op {
        void run(int i) throws Exception;
    }

    /**
     * Samples per format, from {@code -DassertionCpuSamples=N}; without it the measurement is skipped (it
     * would add ~10 s to {@code mvn verify} for a figure nobody reads there). The figures in
     * docs/elements/signature-assertion.md used 600.
     */
    static final int SAMPLES = Integer.getInteger("assertionCpuSamples", 0);

    @Test
    void printAssertionCpuPerSample() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(SAMPLES > 0, "run with -DassertionCpuSamples=600 to measure");
        int samples = SAMPLES;
        JMeterTestSupportAccess.init();
        TestPki pki = TestPki.generate(new TestPki.Spec().withSeed(11)
                .withUsers(Math.min(60, Math.max(6, samples / 10))).withRevokedEvery(0)
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
                + users.size() + " P-256 users of 3 CAs, CRLs configured, " + samples + " samples per format),"
                + " assertion / raw floor = ratio:");
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
                Op check = assertionOp(assertion, format, signatures, pdf);
                Op raw = format.equals("pades") ? i -> rawPades(signatures.get(i % signatures.size()))
                        : i -> rawCades(signatures.get(i % signatures.size()), pdf);
                double[] ms = interleaved(check, raw, samples / 2, 6, Math.max(1, samples / 6));
                out.append(
                        String.format(Locale.ROOT, " %s-%s %.3f / %.3f = %.2f", format.toUpperCase(Locale.ROOT), level,
                        ms[0], ms[1], ms[0] / ms[1]));
            }
        }
        System.out.println(out);
    }

    private static Op assertionOp(SignatureAssertion a, String format, List<byte[]> signatures, byte[] content) {
        JMeterVariables vars = new JMeterVariables();
        JMeterContextService.getContext().setVariables(vars);
        vars.putObject(AbstractSignSampler.LAST_FORMAT, format);
        vars.putObject(AbstractSignSampler.LAST_CONTENT, format.equals("cades") ? content : null);
        SampleResult sample = new SampleResult();
        sample.setSuccessful(true);
        return i -> {
            vars.putObject(AbstractSignSampler.LAST_SIGNATURE, signatures.get(i % signatures.size()));
            AssertionResult r = a.getResult(sample);
            assertThat(r.isFailure() || r.isError()).as(r.getFailureMessage()).isFalse();
        };
    }

    /** CPU ms per call of {@code a} and {@code b}: a warm-up of each, then {@code blocks} alternating blocks. */
    private static double[] interleaved(Op a, Op b, int warmup, int blocks, int perBlock) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < warmup; i++) {
            a.run(i);
            b.run(i);
        }
        long cpuA = 0;
        long cpuB = 0;
        int i = 0;
        for (int k = 0; k < blocks; k++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int j = 0; j < perBlock; j++) {
                a.run(i + j);
            }
            long t1 = mx.getCurrentThreadCpuTime();
            for (int j = 0; j < perBlock; j++) {
                b.run(i + j);
            }
            long t2 = mx.getCurrentThreadCpuTime();
            cpuA += t1 - t0;
            cpuB += t2 - t1;
            i += perBlock;
        }
        int n = blocks * perBlock;
        return new double[] {cpuA / 1e6 / n, cpuB / 1e6 / n};
    }

    /** The CMS signature over the content, and a signature timestamp's own signature when there is one. */
    static void rawCades(byte[] cms, byte[] content) throws Exception {
        verifyCms(new CMSSignedData(new CMSProcessableByteArray(content), cms));
    }

    static void verifyCms(CMSSignedData sd) throws Exception {
        SignerInformation si = sd.getSignerInfos().getSigners().iterator().next();
        @SuppressWarnings("unchecked")
        X509CertificateHolder h =
                (X509CertificateHolder) sd.getCertificates().getMatches(si.getSID()).iterator().next();
        assertThat(si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider(BC).build(h))).isTrue();
        if (si.getUnsignedAttributes() != null
                && si.getUnsignedAttributes().get(PKCSObjectIdentifiers.id_aa_signatureTimeStampToken) != null) {
            TimeStampToken t = new TimeStampToken(ContentInfo.getInstance(si.getUnsignedAttributes()
                    .get(PKCSObjectIdentifiers.id_aa_signatureTimeStampToken).getAttrValues().getObjectAt(0)));
            @SuppressWarnings("unchecked")
            X509CertificateHolder tsa =
                    (X509CertificateHolder) t.getCertificates().getMatches(t.getSID()).iterator().next();
            t.validate(new JcaSimpleSignerInfoVerifierBuilder().setProvider(BC).build(tsa));
        }
    }

    /** PDFBox loads the PDF and hands the signed ranges and the CMS; the CMS as above. */
    static void rawPades(byte[] signedPdf) throws Exception {
        try (PDDocument doc = Loader.loadPDF(signedPdf)) {
            PDSignature sig = doc.getLastSignatureDictionary();
            byte[] contents = sig.getContents(signedPdf);
            byte[] signed = sig.getSignedContent(signedPdf);
            verifyCms(new CMSSignedData(new CMSProcessableByteArray(signed), contents));
        }
    }
}
