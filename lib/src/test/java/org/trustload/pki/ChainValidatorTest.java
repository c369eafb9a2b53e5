package org.trustload.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

import org.bouncycastle.asn1.x500.X500Name;
import org.junit.jupiter.api.Test;

/**
 * What {@link ChainValidator} adds to or decides around BouncyCastle's PKIX: path assembly, the
 * end-entity usage per purpose, the trust anchor's own validity, revocation of CA certificates, CRLs that
 * are missing. The element-level negative table is {@code SignatureAssertionChainTest} (samplers).
 */
class ChainValidatorTest {
    static final Instant NOW = Instant.now();
    static final Instant FROM = NOW.minus(Duration.ofDays(1));
    static final Instant TO = NOW.plus(Duration.ofDays(365));

    static X500Name name(X509Certificate c) {
        return X500Name.getInstance(c.getSubjectX500Principal().getEncoded());
    }

    /** A CA issued by {@code issuer}. */
    static TestKeys.Ca intermediate(TestKeys.Ca issuer, String cn, Instant to) {
        KeyPair kp = TestKeys.keyPair(TestKeys.Type.P256);
        X509Certificate c = TestKeys.certificate(new X500Name("CN=" + cn + ",O=TrustLoad"), kp.getPublic(),
                name(issuer.cert()),
                issuer.keys().getPrivate(), issuer.keys().getPublic(), issuer.sigAlg(), FROM, to, true, false);
        return new TestKeys.Ca(kp, c, "SHA256withECDSA");
    }

    static ChainValidator.Problem problem(ChainValidator.Outcome o) {
        return o.problem();
    }

    @Test
    void aTsaCertificateIsNeededForTimestampsAndAnyCertificateWithDigitalSignatureSigns() {
        TestKeys.Ca ca = TestKeys.ca(TestKeys.Type.P256);
        ChainValidator v = new ChainValidator(List.of(ca.cert()));
        X509Certificate user = TestKeys.user(TestKeys.Type.P256).certificate();
        X509Certificate tsa = TestKeys.tsa(ca, TestKeys.Type.P256).certificate();
        Date now = new Date();
        assertThat(v.validate(tsa, List.of(), null, now, ChainValidator.Usage.TIMESTAMPING).valid()).isTrue();
        assertThat(problem(v.validate(user, List.of(), null, now, ChainValidator.Usage.TIMESTAMPING)))
                .isEqualTo(ChainValidator.Problem.TIMESTAMPING_USAGE);
        assertThat(v.validate(user, List.of(), null, now, ChainValidator.Usage.SIGNATURE).valid()).isTrue();
        assertThat(ChainValidator.Problem.TIMESTAMPING_USAGE.code()).isEqualTo("certificate.usage");
    }

    @Test
    void twoAnchorsWithOneNameAreToldApartByTheirKeyIdentifiers() {
        TestKeys.Ca first = TestKeys.newCa(TestKeys.Type.P256, "Twin CA");
        TestKeys.Ca second = TestKeys.newCa(TestKeys.Type.P256, "Twin CA");
        X509Certificate user = TestKeys.newUser(second, TestKeys.Type.P256, "Twin user", FROM, TO).certificate();
        ChainValidator v = new ChainValidator(List.of(first.cert(), second.cert()));
        assertThat(v.path(user, List.of())).containsExactly(user, second.cert());
        assertThat(v.validate(user, List.of(), null, new Date(), ChainValidator.Usage.SIGNATURE).valid()).isTrue();
    }

    @Test
    void aRevokedIntermediateAndAMissingCrlAreToldApart() {
        TestKeys.Ca root = TestKeys.newCa(TestKeys.Type.P256, "Path root");
        TestKeys.Ca inter = intermediate(root, "Path intermediate", TO);
        KeyMaterial user = TestKeys.newUser(inter, TestKeys.Type.P256, "Path user", FROM, TO);
        ChainValidator v = new ChainValidator(List.of(root.cert()));
        List<X509Certificate> extra = List.of(inter.cert());
        Date now = new Date();
        X509CRL rootClean = TestKeys.crl(root);
        X509CRL rootRevokes = TestKeys.crl(root, inter.cert());
        X509CRL interClean = TestKeys.crl(inter);
        assertThat(v.validate(user.certificate(), extra, List.of(rootClean, interClean), now,
                ChainValidator.Usage.SIGNATURE).valid()).isTrue();
        ChainValidator.Outcome revoked = v.validate(user.certificate(), extra, List.of(rootRevokes, interClean), now,
                ChainValidator.Usage.SIGNATURE);
        assertThat(revoked.problem()).isEqualTo(ChainValidator.Problem.CA_REVOKED);
        assertThat(revoked.certificate()).isEqualTo(inter.cert());
        assertThat(revoked.problem().code()).isEqualTo("chain.revoked");
        assertThat(problem(v.validate(user.certificate(), extra, List.of(rootClean), now,
                ChainValidator.Usage.SIGNATURE)))
                .isEqualTo(ChainValidator.Problem.REVOCATION_UNKNOWN);
        // no CRLs at all: no revocation checking
        assertThat(v.validate(user.certificate(), extra, null, now, ChainValidator.Usage.SIGNATURE).valid()).isTrue();
    }

    @Test
    void validityIsCheckedAtTheGivenTimeTheTrustAnchorsToo() {
        TestKeys.Ca ca = TestKeys.ca(TestKeys.Type.P256);
        ChainValidator v = new ChainValidator(List.of(ca.cert()));
        X509Certificate user = TestKeys.user(TestKeys.Type.P256).certificate();
        assertThat(problem(v.validate(user, List.of(), null, Date.from(NOW.minus(Duration.ofDays(30))),
                ChainValidator.Usage.SIGNATURE))).isEqualTo(ChainValidator.Problem.NOT_YET_VALID);
        // the anchor outlives the user by years; at a time the user is valid and the anchor is not:
        TestKeys.Ca shortRoot = TestKeys.newCa(TestKeys.Type.P256, "Short-lived root");
        TestKeys.Ca inter = intermediate(shortRoot, "Long-lived intermediate", NOW.plus(Duration.ofDays(5000)));
        KeyMaterial late = TestKeys.newUser(inter, TestKeys.Type.P256, "Late user", FROM,
                NOW.plus(Duration.ofDays(5000)));
        ChainValidator.Outcome o = new ChainValidator(List.of(shortRoot.cert())).validate(late.certificate(),
                List.of(inter.cert()), null, Date.from(NOW.plus(Duration.ofDays(4000))),
                ChainValidator.Usage.SIGNATURE);
        assertThat(o.problem()).isEqualTo(ChainValidator.Problem.CA_EXPIRED);
        assertThat(o.certificate()).isEqualTo(shortRoot.cert());
    }

    @Test
    void aDirectlyTrustedCertificateIsCheckedForValidityAndUsageOnly() {
        X509Certificate user = TestKeys.user(TestKeys.Type.P256).certificate();
        TestKeys.Ca ca = TestKeys.ca(TestKeys.Type.P256);
        ChainValidator v = new ChainValidator(List.of(user, ca.cert()));
        assertThat(v.path(user, List.of())).containsExactly(user);
        assertThat(v.validate(user, List.of(), null, new Date(), ChainValidator.Usage.SIGNATURE).valid()).isTrue();
        // a CA certificate (keyCertSign, cRLSign) does not sign documents
        assertThat(problem(v.validate(ca.cert(), List.of(), null, new Date(), ChainValidator.Usage.SIGNATURE)))
                .isEqualTo(ChainValidator.Problem.KEY_USAGE);
    }

    @Test
    void aCertificateOfAnUnknownIssuerHasNoPath() {
        X509Certificate user = TestKeys.user(TestKeys.Type.P256).certificate();
        ChainValidator v = new ChainValidator(List.of(TestKeys.newCa(TestKeys.Type.P256, "Someone else").cert()));
        assertThat(v.path(user, List.of())).isNull();
        ChainValidator.Outcome o = v.validate(user, List.of(), null, new Date(), ChainValidator.Usage.SIGNATURE);
        assertThat(o.problem()).isEqualTo(ChainValidator.Problem.UNTRUSTED);
        assertThat(o.toString()).startsWith("chain.untrusted: certificate not trusted");
    }
}
