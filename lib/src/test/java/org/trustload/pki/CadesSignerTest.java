package org.trustload.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.cms.CMSAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

public class CadesSignerTest {
    public static final byte[] DATA = "TrustLoad CAdES test content\n".repeat(50).getBytes(StandardCharsets.UTF_8);

    public static TestTsa tsa() {
        return Holder.TSA;
    }

    static final class Holder {
        static final TestTsa TSA = new TestTsa(TestKeys.tsa(TestKeys.ca(TestKeys.Type.P256), TestKeys.Type.P256));
    }

    public static SignatureValidator validator() {
        return new SignatureValidator(List.of(TestKeys.ca(TestKeys.Type.RSA).cert(),
                TestKeys.ca(TestKeys.Type.P256).cert(), TestKeys.ca(TestKeys.Type.SM2).cert()));
    }

    static Stream<Arguments> combinations() {
        List<Arguments> out = new ArrayList<>();
        for (TestKeys.Type t : TestKeys.Type.values()) {
            List<String> digests = t == TestKeys.Type.SM2 ? List.of("SM3") : List.of("SHA-256", "SHA-384", "SHA-512");
            for (String d : digests) {
                for (boolean attached : new boolean[] {true, false}) {
                    for (SignOptions.Level level : SignOptions.Level.values()) {
                        out.add(Arguments.of(t, d, attached, level));
                    }
                }
            }
        }
        return out.stream();
    }

    public static SignOptions options(String digest, boolean attached, SignOptions.Level level) {
        SignOptions.Builder b = SignOptions.builder().digest(digest).attached(attached).level(level);
        if (level == SignOptions.Level.T) {
            b.timestampSource(tsa());
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} {1} attached={2} level={3}")
    @MethodSource("combinations")
    void signsAndValidates(TestKeys.Type type, String digest, boolean attached, SignOptions.Level level)
            throws Exception {
        KeyMaterial key = TestKeys.user(type);
        byte[] cms = CadesSigner.sign(DATA, key, options(digest, attached, level));

        ValidationReport r = validator().validateCades(cms, attached ? null : DATA);
        assertThat(r.problems()).isEmpty();
        assertThat(r.valid()).isTrue();
        assertThat(r.digestAlgorithm()).isEqualTo(digest);
        assertThat(r.signer()).contains("CN=User " + type);
        assertThat(r.signingTime()).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(1));
        assertThat(r.timestamped()).isEqualTo(level == SignOptions.Level.T);

        CMSSignedData sd = new CMSSignedData(cms);
        assertThat(sd.getSignedContent() != null).isEqualTo(attached);
        SignerInformation si = sd.getSignerInfos().getSigners().iterator().next();
        assertThat(si.getSignedAttributes().get(PKCSObjectIdentifiers.id_aa_signingCertificateV2)).isNotNull();
        assertThat(si.getSignedAttributes().get(CMSAttributes.signingTime)).isNotNull();
        assertThat(si.getSignedAttributes().get(CMSAttributes.contentType)).isNotNull();
        assertThat(si.getSignedAttributes().get(CMSAttributes.messageDigest)).isNotNull();

        // tampered content
        byte[] other = DATA.clone();
        other[3] ^= 1;
        if (attached) {
            byte[] bad = replace(cms, DATA, other);
            assertThat(validator().validateCades(bad, null).problems())
                    .contains(ValidationReport.MODIFIED).doesNotContain(ValidationReport.SIGNATURE_INVALID);
        } else {
            assertThat(validator().validateCades(cms, other).problems()).containsExactly(ValidationReport.MODIFIED);
            assertThat(validator().validateCades(cms, null).problems()).contains(ValidationReport.CONTENT_MISSING);
        }
        // tampered signature value
        byte[] sig = si.getSignature();
        byte[] badSig = sig.clone();
        badSig[badSig.length / 2] ^= 0x10;
        byte[] tampered = replace(cms, sig, badSig);
        ValidationReport bad = validator().validateCades(tampered, attached ? null : DATA);
        assertThat(bad.valid()).isFalse();
        assertThat(bad.problems()).contains(ValidationReport.SIGNATURE_INVALID);
        if (level == SignOptions.Level.T) {
            assertThat(bad.problems()).contains(ValidationReport.TIMESTAMP_INVALID);
        }
    }

    @ParameterizedTest(name = "{0} {1} attached={2} level={3}")
    @MethodSource("combinations")
    void twoStepValidatesLikeOneStep(TestKeys.Type type, String digest, boolean attached, SignOptions.Level level)
            throws Exception {
        KeyMaterial key = TestKeys.user(type);
        SignOptions o = options(digest, attached, level);
        CadesSigner.Prepared p = CadesSigner.prepare(DATA, key.chain(), o);
        // KeyMaterial.signatureAlgorithm does not recognise BC's SM2 certificates (reported); ours does
        assertThat(p.signatureAlgorithm()).isEqualTo(type == TestKeys.Type.SM2 ? "SM3withSM2"
                : key.signatureAlgorithm(digest));
        // the client only sees toBeSigned + algorithm
        byte[] value = key.sign(p.signatureAlgorithm(), p.toBeSigned());
        byte[] cms = p.complete(value);
        ValidationReport r = validator().validateCades(cms, attached ? null : DATA);
        assertThat(r.problems()).isEmpty();
        assertThat(r.timestamped()).isEqualTo(level == SignOptions.Level.T);

        // stateless: state() -> restore() -> complete()
        CadesSigner.Prepared restored = CadesSigner.restore(p.state(), tsa());
        assertThat(restored.toBeSigned()).isEqualTo(p.toBeSigned());
        byte[] cms2 = restored.complete(value);
        assertThat(validator().validateCades(cms2, attached ? null : DATA).problems()).isEmpty();
        if (level == SignOptions.Level.B) {
            assertThat(cms2).isEqualTo(cms);
        }
    }

    @Test
    void twoStepRejectsSignatureFromAnotherKey() throws Exception {
        KeyMaterial key = TestKeys.user(TestKeys.Type.P256);
        KeyMaterial other = TestKeys.newUser(TestKeys.ca(TestKeys.Type.P256), TestKeys.Type.P256, "Other",
                Instant.now().minusSeconds(60), Instant.now().plusSeconds(3600));
        CadesSigner.Prepared p = CadesSigner.prepare(DATA, key.chain(), SignOptions.DEFAULTS);
        byte[] wrong = other.sign(p.signatureAlgorithm(), p.toBeSigned());
        assertThatThrownBy(() -> p.complete(wrong)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.category()).isEqualTo(PkiException.INVALID_SIGNATURE));
        assertThatThrownBy(() -> p.complete(new byte[0])).isInstanceOf(PkiException.class);
    }

    @Test
    void restoreRejectsGarbage() {
        assertThatThrownBy(() -> CadesSigner.restore("nope".getBytes(StandardCharsets.US_ASCII), null))
                .isInstanceOfSatisfying(PkiException.class,
                        e -> assertThat(e.category()).isEqualTo(PkiException.INVALID_DOCUMENT));
    }

    @Test
    void sm3NeedsSm2Key() {
        assertThatThrownBy(() -> CadesSigner.sign(DATA, TestKeys.user(TestKeys.Type.RSA),
                SignOptions.builder().digest("SM3").build())).isInstanceOfSatisfying(PkiException.class,
                        e -> assertThat(e.category()).isEqualTo(PkiException.CONFIG_ERROR));
    }

    @Test
    void levelTWithoutTsaIsRejected() {
        assertThatThrownBy(() -> SignOptions.builder().level(SignOptions.Level.T).build())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void tsaFailureIsTsaError() {
        SignOptions o = SignOptions.builder().level(SignOptions.Level.T).timestampSource((imprint, alg) -> {
            throw new PkiException(PkiException.TSA_ERROR, "TSA down");
        }).build();
        assertThatThrownBy(() -> CadesSigner.sign(DATA, TestKeys.user(TestKeys.Type.P256), o))
                .isInstanceOfSatisfying(PkiException.class,
                        e -> assertThat(e.category()).isEqualTo(PkiException.TSA_ERROR));
        SignOptions garbage = SignOptions.builder().level(SignOptions.Level.T)
                .timestampSource((imprint, alg) -> new byte[] {0x30, 0x03, 0x02, 0x01, 0x01}).build();
        assertThatThrownBy(() -> CadesSigner.sign(DATA, TestKeys.user(TestKeys.Type.P256), garbage))
                .isInstanceOfSatisfying(PkiException.class,
                        e -> assertThat(e.category()).isEqualTo(PkiException.TSA_ERROR));
    }

    @Test
    void untrustedExpiredRevoked() throws Exception {
        TestKeys.Ca ca = TestKeys.ca(TestKeys.Type.P256);
        KeyMaterial key = TestKeys.user(TestKeys.Type.P256);
        byte[] cms = CadesSigner.sign(DATA, key, SignOptions.DEFAULTS);

        TestKeys.Ca otherCa = TestKeys.newCa(TestKeys.Type.P256, "Other CA");
        assertThat(new SignatureValidator(List.of(otherCa.cert())).validateCades(cms, null).problems())
                .containsExactly(ValidationReport.NOT_TRUSTED);

        X509Certificate userCert = key.certificate();
        SignatureValidator withCrl = new SignatureValidator(List.of(ca.cert()),
                List.of(TestKeys.crl(ca, userCert)), null);
        assertThat(withCrl.validateCades(cms, null).problems()).containsExactly(ValidationReport.REVOKED);
        SignatureValidator cleanCrl = new SignatureValidator(List.of(ca.cert()), List.of(TestKeys.crl(ca)), null);
        assertThat(cleanCrl.validateCades(cms, null).problems()).isEmpty();
        // a CRL not signed by the issuer does not count: revoked it is not, but its status is unknown (PKIX)
        SignatureValidator forgedCrl = new SignatureValidator(List.of(ca.cert()),
                List.of(TestKeys.crl(new TestKeys.Ca(otherCa.keys(), ca.cert(), otherCa.sigAlg()), userCert)), null);
        assertThat(forgedCrl.validateCades(cms, null).codes()).containsExactly("chain.revocationUnknown");

        SignatureValidator later = new SignatureValidator(List.of(ca.cert()), null,
                Instant.now().plus(Duration.ofDays(400)));
        assertThat(later.validateCades(cms, null).problems()).containsExactly(ValidationReport.EXPIRED);

        assertThat(validator().validateCades(new byte[] {1, 2, 3}, null).problems())
                .containsExactly(ValidationReport.INVALID_DOCUMENT);
    }

    @Test
    void aTimestampedSignatureIsValidatedAtItsGenTimeAnUntimestampedOneAtTheValidationTime() throws Exception {
        TestKeys.Ca ca = TestKeys.ca(TestKeys.Type.P256);
        Instant now = Instant.now();
        // the TSA outlives the user; 400 days from now the user's certificate has expired, the TSA's not
        KeyMaterial user = TestKeys.newUser(ca, TestKeys.Type.P256, "Short-lived signer", now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(365)));
        java.security.KeyPair tsaKeys = TestKeys.keyPair(TestKeys.Type.P256);
        X509Certificate tsaCert = TestKeys.certificate(
                new org.bouncycastle.asn1.x500.X500Name("CN=Long-lived TSA,O=TrustLoad"),
                tsaKeys.getPublic(), org.bouncycastle.asn1.x500.X500Name.getInstance(ca.cert()
                        .getSubjectX500Principal().getEncoded()),
                ca.keys().getPrivate(), ca.keys().getPublic(), ca.sigAlg(), now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(3000)), false, true);
        TestTsa tsa = new TestTsa(new KeyMaterial("tsa", tsaKeys.getPrivate(),
                List.of(tsaCert, ca.cert()), TestKeys.BC));
        byte[] cadesT = CadesSigner.sign(DATA, user,
                SignOptions.builder().level(SignOptions.Level.T).timestampSource(tsa).build());
        byte[] cadesB = CadesSigner.sign(DATA, user, SignOptions.DEFAULTS);
        SignatureValidator later = new SignatureValidator(List.of(ca.cert()), null, now.plus(Duration.ofDays(400)));
        ValidationReport t = later.validateCades(cadesT, null);
        assertThat(t.problems()).isEmpty();
        assertThat(t.timestamped()).isTrue();
        assertThat(later.validateCades(cadesB, null).codes()).containsExactly("chain.expired");
    }

    @Test
    void validatesTimestampTokens() throws Exception {
        byte[] data = "hello".getBytes(StandardCharsets.US_ASCII);
        byte[] token = tsa().timestamp(CmsSupport.digest("SHA-256", data), "SHA-256");
        SignatureValidator v = new SignatureValidator(List.of(TestKeys.ca(TestKeys.Type.P256).cert()));
        ValidationReport r = v.validateTimestamp(token, data);
        assertThat(r.problems()).isEmpty();
        assertThat(r.timestamped()).isTrue();
        assertThat(r.signer()).contains("TSA");
        assertThat(v.validateTimestamp(token, "other".getBytes(StandardCharsets.US_ASCII)).problems())
                .containsExactly(ValidationReport.TIMESTAMP_INVALID);
        assertThat(v.validateTimestamp(token, null).problems()).isEmpty();
        assertThat(validator().validateTimestamp(token, data).problems()).isEmpty();
        assertThat(new SignatureValidator(List.of(TestKeys.ca(TestKeys.Type.RSA).cert())).validateTimestamp(token, data)
                .problems()).containsExactly(ValidationReport.NOT_TRUSTED);
        assertThat(v.validateTimestamp(new byte[] {5}, data).problems())
                .containsExactly(ValidationReport.INVALID_DOCUMENT);
    }

    static byte[] replace(byte[] haystack, byte[] needle, byte[] with) {
        int i = indexOf(haystack, needle);
        assertThat(i).as("needle found").isGreaterThanOrEqualTo(0);
        byte[] out = haystack.clone();
        System.arraycopy(with, 0, out, i, with.length);
        return out;
    }

    public static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
