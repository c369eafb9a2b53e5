package org.trustload.jmeter.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.pki.CadesSigner;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PadesSigner;
import org.trustload.labkit.pki.SamplePdf;
import org.trustload.pki.SignOptions;
import org.trustload.labkit.pki.TestPki;
import org.trustload.labkit.pki.TimestampResponder;

/**
 * The certificate-path negative table, through the Signature Assertion element: each row is a JMeter
 * sample whose response body is a CMS, a signed PDF or a timestamp token made with a bad certificate
 * path (built with {@link TestPki#issue}), and the assertion's result must carry that row's stable code
 * and message. Valid P-256 and SM2 chains, direct and through an intermediate CA, pass.
 */
class SignatureAssertionChainTest {
    static final byte[] TEXT = "TrustLoad path validation\n".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki sm2;
    static byte[] pdf;
    static Path anchors;
    static Path sm2Anchors;
    static String crlFiles;
    /** Row name → signature bytes, built once. */
    static final Map<String, byte[]> SIGNED = new java.util.LinkedHashMap<>();

    private static TestPki.Extensions ca(int pathLen, int keyUsage) {
        return b -> {
            b.addExtension(Extension.basicConstraints, true,
                    pathLen < 0 ? new BasicConstraints(true) : new BasicConstraints(pathLen));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage));
        };
    }

    private static TestPki.Extensions endEntity(int keyUsage) {
        return b -> b.addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage));
    }

    static final int SIGNING = KeyUsage.digitalSignature | KeyUsage.nonRepudiation;
    static final int CA_USAGE = KeyUsage.keyCertSign | KeyUsage.cRLSign;

    @BeforeAll
    static void setUp() throws Exception {
        JMeterTestSupportAccess.init();
        pki = TestPki.generate(new TestPki.Spec().withSeed(25).withUsers(6).withRevoked(List.of(2)).withRevokedEvery(0)
                .withExpiredCount(0), dir.resolve("pki"));
        sm2 = TestPki.generate(new TestPki.Spec().withSeed(25).withCas(1).withUsers(2).withRevokedEvery(0)
                .withExpiredCount(0).withKeyType(TestPki.KeyType.SM2), dir.resolve("sm2"));
        pdf = SamplePdf.generate(20_000);
        anchors = pki.dir().resolve("trust-anchors.pem");
        sm2Anchors = sm2.dir().resolve("trust-anchors.pem");

        KeyMaterial ca1 = pki.caKey(1);
        Instant later = ca1.certificate().getNotAfter().toInstant();
        KeyMaterial user = pki.userKey(pki.validAliases().get(0));
        KeyMaterial other = pki.userKey(pki.validAliases().get(1));
        KeyMaterial intermediate = pki.issue(ca1, "Intermediate CA", null, ca(-1, CA_USAGE));
        KeyMaterial noKeyCertSign = pki.issue(ca1, "CA without keyCertSign", null, ca(-1, KeyUsage.cRLSign));
        KeyMaterial pathLenZero = pki.issue(ca1, "CA with pathLen 0", null, ca(0, CA_USAGE));
        KeyMaterial subCa = pki.issue(pathLenZero, "Sub-CA below pathLen 0", null, ca(-1, CA_USAGE));
        KeyMaterial expiredCa = pki.issue(ca1, "Expired intermediate CA", Instant.parse("2025-06-01T00:00:00Z"),
                ca(-1, CA_USAGE));
        // with CRLs configured every certificate of a path needs its issuer's current CRL: the CAs made here
        // publish empty ones, so that each row fails for its own reason and not for a missing CRL
        List<String> crls = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            crls.add(pki.crlFile(n).toString());
        }
        for (KeyMaterial ca : List.of(intermediate, noKeyCertSign, pathLenZero, subCa, expiredCa)) {
            Path crl = dir.resolve(ca.alias().replace(' ', '-') + ".crl");
            Files.write(crl, TestPki.buildCrl(ca, Map.of(), Instant.now().minus(Duration.ofHours(1)),
                    Instant.now().plus(Duration.ofDays(7)), BigInteger.ONE).getEncoded());
            crls.add(crl.toString());
        }
        crlFiles = String.join(",", crls);

        SignOptions b = SignOptions.DEFAULTS;
        SIGNED.put("valid", CadesSigner.sign(TEXT, user, b));
        SIGNED.put("valid pdf", PadesSigner.sign(pdf, user, b));
        SIGNED.put("valid through an intermediate CA", CadesSigner.sign(TEXT,
                pki.issue(intermediate, "Signer below the intermediate", null, endEntity(SIGNING)), b));
        SIGNED.put("valid timestamp token", new TimestampResponder(pki.tsaKey(), TimestampResponder.DEFAULT_POLICY)
                .timestamp(sha256(TEXT), "SHA-256"));
        SIGNED.put("valid SM2", CadesSigner.sign(TEXT, sm2.userKey(sm2.validAliases().get(0)),
                SignOptions.builder().digest("SM3").build()));

        SIGNED.put("non-CA issuer", CadesSigner.sign(TEXT, pki.issue(user, "Signer issued by an end entity", null,
                endEntity(SIGNING)), b));
        SIGNED.put("non-CA issuer pdf", PadesSigner.sign(pdf, pki.issue(user, "PDF signer issued by an end entity",
                null, endEntity(SIGNING)), b));
        SIGNED.put("non-CA issuer SM2", CadesSigner.sign(TEXT, sm2.issue(sm2.userKey(sm2.validAliases().get(0)),
                "SM2 signer issued by an end entity", null, endEntity(SIGNING)),
                SignOptions.builder().digest("SM3").build()));
        SIGNED.put("CA without keyCertSign", CadesSigner.sign(TEXT, pki.issue(noKeyCertSign, "Signer below it", later,
                endEntity(SIGNING)), b));
        SIGNED.put("path length exceeded", CadesSigner.sign(TEXT, pki.issue(subCa, "Signer below the sub-CA", null,
                endEntity(SIGNING)), b));
        SIGNED.put("unknown critical extension", CadesSigner.sign(TEXT, pki.issue(ca1, "Signer with a private critical"
                + " extension", null, x -> {
                    x.addExtension(Extension.keyUsage, true, new KeyUsage(SIGNING));
                    x.addExtension(new ASN1ObjectIdentifier("1.3.6.1.4.1.99999.25.1"), true,
                            new DEROctetString(new byte[] {1}));
                }), b));
        SIGNED.put("expired intermediate", CadesSigner.sign(TEXT, pki.issue(expiredCa, "Signer below the expired CA",
                later, endEntity(SIGNING)), b));
        SIGNED.put("wrong signer key usage", CadesSigner.sign(TEXT, pki.issue(ca1, "Signer with keyEncipherment only",
                null, endEntity(KeyUsage.keyEncipherment)), b));
        SIGNED.put("wrong signer key usage pdf",
                PadesSigner.sign(pdf, pki.issue(ca1, "PDF signer with keyEncipherment only",
                null, endEntity(KeyUsage.keyEncipherment)), b));
        SIGNED.put("revoked signer", CadesSigner.sign(TEXT, pki.userKey(pki.revokedAliases().get(0)), b));
        KeyMaterial rogueRoot =
                pki.issue(null, "Rogue Root CA", Instant.now().plus(Duration.ofDays(365)), ca(-1, CA_USAGE));
        SIGNED.put("untrusted root", CadesSigner.sign(TEXT, pki.issue(rogueRoot, "Signer of the rogue root", null,
                endEntity(SIGNING)), b));
        KeyMaterial badTsa = pki.issue(ca1, "TSA with keyEncipherment only", null, x -> {
            x.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyEncipherment));
            x.addExtension(Extension.extendedKeyUsage, true, new ExtendedKeyUsage(KeyPurposeId.id_kp_timeStamping));
        });
        SIGNED.put("timestamp signer key usage", new TimestampResponder(badTsa, TimestampResponder.DEFAULT_POLICY)
                .timestamp(sha256(TEXT), "SHA-256"));

        // the value made with another key than the certificate's, as EU DSS returns at B level (it does not check the
        // value there)
        KeyMaterial wrongKey = new KeyMaterial(user.alias(), other.privateKey(), user.chain(), user.provider());
        SIGNED.put("wrong key", CadesSigner.sign(TEXT, wrongKey, b));
        SIGNED.put("wrong key pdf", PadesSigner.sign(pdf, wrongKey, b));
    }

    static byte[] sha256(byte[] data) throws Exception {
        return java.security.MessageDigest.getInstance("SHA-256").digest(data);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("valid", null),
                Arguments.of("valid pdf", null),
                Arguments.of("valid through an intermediate CA", null),
                Arguments.of("valid timestamp token", null),
                Arguments.of("non-CA issuer", "chain.invalid: cades: issuer is not a CA: no basicConstraints cA=true"),
                Arguments.of("non-CA issuer pdf",
                        "chain.invalid: pades: issuer is not a CA: no basicConstraints cA=true"),
                Arguments.of("CA without keyCertSign",
                        "chain.invalid: cades: issuer may not sign certificates: key usage lacks keyCertSign"),
                Arguments.of("path length exceeded",
                        "chain.invalid: cades: path too long: an issuer's pathLenConstraint is exceeded"),
                Arguments.of("unknown critical extension",
                        "chain.invalid: cades: unrecognised critical extension in the chain"),
                Arguments.of("expired intermediate", "chain.expired: cades: CA certificate in the chain expired"),
                Arguments.of("wrong signer key usage", "certificate.usage: cades: key usage does not permit signing:"
                        + " needs digitalSignature or nonRepudiation"),
                Arguments.of("wrong signer key usage pdf",
                        "certificate.usage: pades: key usage does not permit signing:"
                        + " needs digitalSignature or nonRepudiation"),
                Arguments.of("revoked signer", "chain.revoked: cades: certificate revoked"),
                Arguments.of("untrusted root",
                        "chain.untrusted: cades: certificate not trusted: no valid path to a trust anchor"),
                Arguments.of("timestamp signer key usage",
                        "certificate.usage: timestamp: key usage does not permit signing:"
                        + " needs digitalSignature or nonRepudiation"),
                Arguments.of("wrong key",
                        "signature.invalid: cades: signature value does not verify with the signer's key"),
                Arguments.of("wrong key pdf",
                        "signature.invalid: pades: signature value does not verify with the signer's key"));
    }

    static SignatureAssertion assertion(Path trustAnchors, String crls) {
        SignatureAssertion a = new SignatureAssertion();
        a.setName("chain check");
        a.setTrustAnchorsFile(trustAnchors.toString());
        a.setCrlFiles(crls);
        a.setSignatureSource(SignatureAssertion.SOURCE_RESPONSE);
        return a;
    }

    /** A successful sample whose response body is {@code body}, as a stock HTTP sampler would record it. */
    static SampleResult sample(byte[] body) {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        SampleResult s = new SampleResult();
        s.setSampleLabel("signature server");
        s.setSuccessful(true);
        s.setResponseCodeOK();
        s.setResponseData(body);
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void eachRowFailsWithItsOwnStableCodeAndMessage(String row, String expected) {
        AssertionResult r = assertion(anchors, crlFiles).getResult(sample(SIGNED.get(row)));
        assertThat(r.isError()).as(r.getFailureMessage()).isFalse();
        if (expected == null) {
            assertThat(r.isFailure()).as(r.getFailureMessage()).isFalse();
        } else {
            assertThat(r.isFailure()).isTrue();
            assertThat(r.getFailureMessage()).isEqualTo(expected);
        }
    }

    @Test
    void theSameRowsFailTheSameWayWithoutCrlsExceptTheRevokedSigner() {
        for (Arguments row : table().toList()) {
            String name = (String) row.get()[0];
            String expected = (String) row.get()[1];
            AssertionResult r = assertion(anchors, "").getResult(sample(SIGNED.get(name)));
            if (name.equals("revoked signer")) {
                expected = null;
            }
            assertThat(r.isFailure() ? r.getFailureMessage() : null).as(name).isEqualTo(expected);
        }
    }

    @Test
    void anIntermediateWithoutAConfiguredCrlIsRevocationUnknownAndAnEmbeddedTimestampIsChecked() throws Exception {
        String rootCrls = String.join(",", java.util.Arrays.asList(crlFiles.split(",")).subList(0, 3));
        AssertionResult r =
                assertion(anchors, rootCrls).getResult(sample(SIGNED.get("valid through an intermediate CA")));
        assertThat(r.getFailureMessage()).isEqualTo("chain.revocationUnknown: cades: revocation unknown: no current CRL"
                + " for a certificate of the chain");
        // CAdES-T whose TSA has no signing key usage: the signature is fine, its timestamp is not
        KeyMaterial badTsa = pki.issue(pki.caKey(1), "Embedded TSA with keyEncipherment only", null, x -> {
            x.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyEncipherment));
            x.addExtension(Extension.extendedKeyUsage, true, new ExtendedKeyUsage(KeyPurposeId.id_kp_timeStamping));
        });
        byte[] cadesT = CadesSigner.sign(TEXT, pki.userKey(pki.validAliases().get(0)), SignOptions.builder()
                .level(SignOptions.Level.T)
                .timestampSource(new TimestampResponder(badTsa, TimestampResponder.DEFAULT_POLICY))
                .build());
        AssertionResult t = assertion(anchors, crlFiles).getResult(sample(cadesT));
        assertThat(t.getFailureMessage()).isEqualTo("timestamp.invalid: cades: timestamp invalid");
    }

    @Test
    void sm2ChainsValidateAndAnSm2SignerIssuedByAnEndEntityFails() {
        AssertionResult ok =
                assertion(sm2Anchors, sm2.crlFile(1).toString()).getResult(sample(SIGNED.get("valid SM2")));
        assertThat(ok.isFailure() || ok.isError()).as(ok.getFailureMessage()).isFalse();
        AssertionResult bad = assertion(sm2Anchors, "").getResult(sample(SIGNED.get("non-CA issuer SM2")));
        assertThat(bad.getFailureMessage())
                .isEqualTo("chain.invalid: cades: issuer is not a CA: no basicConstraints cA=true");
    }

    @Test
    void aBase64ResponseBodyIsCheckedLikeTheRawOne() {
        byte[] b64 = Base64.getMimeEncoder().encode(SIGNED.get("wrong key"));
        AssertionResult r = assertion(anchors, crlFiles).getResult(sample(b64));
        assertThat(r.getFailureMessage()).isEqualTo("signature.invalid: cades: signature value does not verify with the"
                + " signer's key");
        AssertionResult garbage =
                assertion(anchors, crlFiles).getResult(sample("<html>busy</html>".getBytes(StandardCharsets.UTF_8)));
        assertThat(garbage.isFailure()).isTrue();
        assertThat(garbage.getFailureMessage()).startsWith("signature.malformed: ");
    }
}
