package org.trustload.testing.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.bouncycastle.asn1.cms.CMSAttributes;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.SignerInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.trustload.labkit.pki.SamplePdf;
import org.trustload.pki.CadesSignerTest;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PadesSigner;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignOptions;
import org.trustload.pki.SignatureValidator;
import org.trustload.pki.TestKeys;
import org.trustload.pki.ValidationReport;

class PadesSignerTest {
    static final byte[] PDF = SamplePdf.generate(SamplePdf.SCENARIO_BYTES);

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({"RSA,SHA-256,B", "RSA,SHA-512,T", "P256,SHA-256,B", "P256,SHA-384,T", "SM2,SM3,B", "SM2,SM3,T"})
    void signsAndValidates(TestKeys.Type type, String digest, SignOptions.Level level) throws Exception {
        KeyMaterial key = TestKeys.user(type);
        SignOptions o = CadesSignerTest.options(digest, false, level).toBuilder().reason("load test")
                .location("Lab").build();
        byte[] signed = PadesSigner.sign(PDF, key, o);
        assertThat(signed.length).isGreaterThan(PDF.length);
        assertThat(java.util.Arrays.copyOf(signed, PDF.length)).as("incremental update").isEqualTo(PDF);

        ValidationReport r = CadesSignerTest.validator().validatePades(signed);
        assertThat(r.problems()).isEmpty();
        assertThat(r.signatures()).hasSize(1);
        assertThat(r.digestAlgorithm()).isEqualTo(digest);
        assertThat(r.timestamped()).isEqualTo(level == SignOptions.Level.T);
        assertThat(r.signingTime()).as("from /M").isNotNull();

        try (PDDocument doc = Loader.loadPDF(signed)) {
            PDSignature sig = doc.getLastSignatureDictionary();
            assertThat(sig.getSubFilter()).isEqualTo("ETSI.CAdES.detached");
            assertThat(sig.getReason()).isEqualTo("load test");
            assertThat(sig.getSignDate()).isNotNull();
            CMSSignedData sd = cms(sig.getContents(signed));
            SignerInformation si = sd.getSignerInfos().getSigners().iterator().next();
            assertThat(si.getSignedAttributes().get(CMSAttributes.signingTime)).as("no signing-time in PAdES").isNull();
            assertThat(si.getSignedAttributes().get(PKCSObjectIdentifiers.id_aa_signingCertificateV2)).isNotNull();
            assertThat(sd.getSignedContent()).as("detached").isNull();
        }

        // two-step and restored two-step
        PadesSigner.Prepared p = PadesSigner.prepare(PDF, key.chain(), o);
        byte[] value = key.sign(p.signatureAlgorithm(), p.toBeSigned());
        assertThat(CadesSignerTest.validator().validatePades(p.complete(value)).problems()).isEmpty();
        PadesSigner.Prepared restored = PadesSigner.restore(p.state(), CadesSignerTest.tsa());
        byte[] signed2 = restored.complete(value);
        assertThat(CadesSignerTest.validator().validatePades(signed2).problems()).isEmpty();
        if (level == SignOptions.Level.B) {
            assertThat(signed2).isEqualTo(p.complete(value));
        }
    }

    @Test
    void detectsModificationsAndTamperedSignature() throws Exception {
        KeyMaterial key = TestKeys.user(TestKeys.Type.P256);
        byte[] signed = PadesSigner.sign(PDF, key, SignOptions.DEFAULTS);
        SignatureValidator v = CadesSignerTest.validator();

        // a byte inside the signed range changed
        byte[] changed = signed.clone();
        int i = CadesSignerTest.indexOf(changed, "TrustLoad sample document".getBytes(StandardCharsets.US_ASCII));
        changed[i] = 'X';
        assertThat(v.validatePades(changed).problems()).containsExactly(ValidationReport.MODIFIED);

        // bytes appended after signing (an unsigned incremental update)
        byte[] appended = java.util.Arrays.copyOf(signed, signed.length + 20);
        System.arraycopy("\n% appended later\n".getBytes(StandardCharsets.US_ASCII), 0, appended, signed.length, 18);
        assertThat(v.validatePades(appended).problems()).containsExactly(ValidationReport.MODIFIED);

        // signature value flipped inside the hex /Contents
        try (PDDocument doc = Loader.loadPDF(signed)) {
            CMSSignedData sd = cms(doc.getLastSignatureDictionary().getContents(signed));
            byte[] sigValue = sd.getSignerInfos().getSigners().iterator().next().getSignature();
            String hex = org.bouncycastle.util.encoders.Hex.toHexString(sigValue).toUpperCase();
            int at = CadesSignerTest.indexOf(signed, hex.getBytes(StandardCharsets.US_ASCII));
            byte[] bad = signed.clone();
            bad[at + 20] = (byte) (bad[at + 20] == '0' ? '1' : '0');
            assertThat(v.validatePades(bad).problems()).containsExactly(ValidationReport.SIGNATURE_INVALID);
        }

        // untrusted
        assertThat(new SignatureValidator(List.of(TestKeys.ca(TestKeys.Type.RSA).cert())).validatePades(signed)
                .problems()).containsExactly(ValidationReport.NOT_TRUSTED);
        // unsigned PDF
        assertThat(v.validatePades(PDF).problems()).containsExactly(ValidationReport.NO_SIGNATURE);
        assertThat(v.validatePades("not a pdf".getBytes(StandardCharsets.US_ASCII)).problems())
                .containsExactly(ValidationReport.INVALID_DOCUMENT);
    }

    @Test
    void secondSignatureKeepsTheFirstValid() throws Exception {
        byte[] once = PadesSigner.sign(PDF, TestKeys.user(TestKeys.Type.P256), SignOptions.DEFAULTS);
        byte[] twice = PadesSigner.sign(once, TestKeys.user(TestKeys.Type.RSA), SignOptions.DEFAULTS);
        ValidationReport r = CadesSignerTest.validator().validatePades(twice);
        assertThat(r.problems()).isEmpty();
        assertThat(r.signatures()).hasSize(2);
        assertThat(r.signer()).contains("User RSA");
    }

    @Test
    void corruptPdfIsInvalidDocument() {
        KeyMaterial key = TestKeys.user(TestKeys.Type.P256);
        for (byte[] bad : List.of("garbage".getBytes(StandardCharsets.US_ASCII), new byte[0],
                "%PDF-1.7\n1 0 obj <</Type/Catalog>> endobj\n%%EOF\n".getBytes(StandardCharsets.US_ASCII))) {
            assertThatThrownBy(() -> PadesSigner.sign(bad, key, SignOptions.DEFAULTS))
                    .isInstanceOfSatisfying(PkiException.class,
                            e -> assertThat(e.category()).isEqualTo(PkiException.INVALID_DOCUMENT));
        }
    }

    @Test
    void tooSmallReserveIsSigningError() {
        SignOptions o = SignOptions.builder().signatureSize(200).build();
        assertThatThrownBy(() -> PadesSigner.sign(PDF, TestKeys.user(TestKeys.Type.P256), o))
                .isInstanceOfSatisfying(PkiException.class,
                        e -> assertThat(e.category()).isEqualTo(PkiException.SIGNING_ERROR));
    }

    @Test
    void samplePdfHasTheScenarioSizeAndIsDeterministic() throws Exception {
        assertThat(PDF.length).isBetween((int) (SamplePdf.SCENARIO_BYTES * 0.95),
                (int) (SamplePdf.SCENARIO_BYTES * 1.05));
        assertThat(SamplePdf.generate(SamplePdf.SCENARIO_BYTES)).isEqualTo(PDF);
        byte[] small = SamplePdf.generate(20_000);
        assertThat(small.length).isBetween(19_000, 21_000);
        try (PDDocument doc = Loader.loadPDF(PDF)) {
            assertThat(doc.getNumberOfPages()).isGreaterThan(5);
        }
    }

    /**
     * The CMS of a signature's /Contents, which PDFBox returns with the zero padding of the reserved space:
     * BouncyCastle 1.87's {@code new CMSSignedData(byte[])} refuses bytes after the DER object ("Extra data
     * detected in stream"), so the first object is read on its own (as SignatureValidator cuts to the DER length).
     */
    private static CMSSignedData cms(byte[] paddedContents) throws Exception {
        try (org.bouncycastle.asn1.ASN1InputStream in = new org.bouncycastle.asn1.ASN1InputStream(paddedContents)) {
            return new CMSSignedData(org.bouncycastle.asn1.cms.ContentInfo.getInstance(in.readObject()));
        }
    }
}
