package org.trustload.lab.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.lacunasoftware.restpkicore.AuthenticationFailures;
import com.lacunasoftware.restpkicore.AuthenticationResult;
import com.lacunasoftware.restpkicore.CadesSignaturePostRequestV2;
import com.lacunasoftware.restpkicore.CadesSignaturePostResponse;
import com.lacunasoftware.restpkicore.CadesSignaturePostSignedBytesRequest;
import com.lacunasoftware.restpkicore.CadesSignaturePostSignedBytesResponse;
import com.lacunasoftware.restpkicore.CompleteAuthenticationOptions;
import com.lacunasoftware.restpkicore.ErrorCodes;
import com.lacunasoftware.restpkicore.FileModel;
import com.lacunasoftware.restpkicore.PadesSignaturePostRequestV2;
import com.lacunasoftware.restpkicore.PadesSignaturePostResponse;
import com.lacunasoftware.restpkicore.PadesSignaturePostSignedBytesRequest;
import com.lacunasoftware.restpkicore.PrepareAuthenticationOptions;
import com.lacunasoftware.restpkicore.PrepareAuthenticationResult;
import com.lacunasoftware.restpkicore.RestErrorException;
import com.lacunasoftware.restpkicore.RestPkiException;
import com.lacunasoftware.restpkicore.RestPkiOptions;
import com.lacunasoftware.restpkicore.RestPkiService;
import com.lacunasoftware.restpkicore.RestPkiServiceFactory;
import com.lacunasoftware.restpkicore.SecurityContext;
import com.lacunasoftware.restpkicore.ValidationException;
import com.lacunasoftware.restpkicore.ValidationItemTypes;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.SignatureValidator;
import org.trustload.pki.ValidationReport;

/**
 * Lacuna's own Rest PKI Core client ({@code com.lacunasoftware.restpki:restpkicore-client:1.4.0}, from
 * Maven Central, unchanged) against the lab's pki service, for every flow the client offers that the lab
 * serves: start/complete CAdES and PAdES at levels B and T, and prepare/complete authentication (a valid
 * user accepted; a revoked and an expired one refused with validation results), plus the errors the
 * client turns into its own exceptions. Like the AWS SDK against the KMS emulator.
 */
class LacunaRestPkiCoreClientIT {
    private static final UUID CADES_BES = UUID.fromString("a4522485-c9e5-46c3-950b-0d6e951e17d1");
    private static final UUID CADES_ADR_TEMPO = UUID.fromString("a5332ad1-d105-447c-a4bb-b5d02177e439");
    private static final UUID PADES_BASIC = UUID.fromString("78d20b33-014d-440e-ad07-929f05d00cdf");
    private static final UUID PADES_T = UUID.fromString("6a39aeea-a2d0-4754-bf8c-19da15296ddb");

    @TempDir
    static Path socketDir;

    static PkiLabService lab;
    static Map<String, String> props;
    static RestPkiService restPki;
    static byte[] pdf;
    static List<X509Certificate> anchors = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        lab = new PkiLabService();
        // 60 users: user0050 is revoked, user0059 and user0060 are expired
        lab.start(new LabContext(TestPorts.freeBase(), 0, socketDir, 60));
        props = lab.properties();
        RestPkiOptions options = new RestPkiOptions();
        options.setEndpoint(props.get("pki.url") + "/");
        options.setApiKey(props.get("pki.credential"));
        restPki = RestPkiServiceFactory.getService(options);
        pdf = Files.readAllBytes(Path.of(props.get("pki.document")));
        try (InputStream in = Files.newInputStream(Path.of(props.get("pki.trust.anchors")))) {
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                anchors.add((X509Certificate) c);
            }
        }
    }

    @AfterAll
    static void stop() {
        if (lab != null) {
            lab.close();
        }
    }

    static KeyMaterial key(String alias) throws Exception {
        return RestPkiHttp.key(props, alias);
    }

    static String first(String listKey) {
        return props.get(listKey).split(",")[0].trim();
    }

    static SignatureValidator validator() throws Exception {
        List<X509CRL> crls = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            try (InputStream in = URI.create(props.get("pki.crl.url") + "ca-" + n + ".crl").toURL().openStream()) {
                crls.add((X509CRL) CertificateFactory.getInstance("X.509").generateCRL(in));
            }
        }
        return new SignatureValidator(anchors, crls, Instant.now());
    }

    static CadesSignaturePostRequestV2 cades(KeyMaterial key, UUID policy, byte[] content) throws Exception {
        CadesSignaturePostRequestV2 r = new CadesSignaturePostRequestV2();
        r.setContentToSign(content);
        r.setCertificate(key.certificate().getEncoded());
        r.setSignaturePolicyId(policy);
        r.setEncapsulateContent(true);
        return r;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void cadesStartAndCompleteAtLevelsBAndT(boolean levelT) throws Exception {
        KeyMaterial key = key("user0001");
        byte[] content = "Lacuna's client signs this".getBytes(StandardCharsets.UTF_8);
        CadesSignaturePostRequestV2 request = cades(key, levelT ? CADES_ADR_TEMPO : CADES_BES, content);
        request.setCallbackArgument("order-42");
        CadesSignaturePostResponse started = restPki.startCadesSignature(request);
        assertThat(started.getToken()).isNotBlank();
        assertThat(started.getDigestAlgorithmOid()).isEqualTo("2.16.840.1.101.3.4.2.1");
        assertThat(started.getToSignHash())
                .isEqualTo(MessageDigest.getInstance("SHA-256").digest(started.getToSignData()));
        assertThat(started.getCertificate().getSubjectCommonName()).isEqualTo("user0001");
        assertThat(started.getCertificate().getSerialNumber())
                .isEqualTo(key.certificate().getSerialNumber().toString());

        // sign the hash, as Web PKI's signHash does
        byte[] signature = key.signHash("SHA-256", started.getToSignHash());
        CadesSignaturePostSignedBytesRequest signed = new CadesSignaturePostSignedBytesRequest();
        signed.setSignature(signature);
        CadesSignaturePostSignedBytesResponse done = restPki.completeCadesSignature(started.getToken(), signed);
        assertThat(done.getCallbackArgument()).isEqualTo("order-42");
        assertThat(done.getCertificate().getIssuer().getSubjectName().getCommonName()).isNotBlank();
        ValidationReport report = validator().validateCades(done.getCms(), null);
        assertThat(report.valid()).as(report.toString()).isTrue();
        assertThat(report.timestamped()).isEqualTo(levelT);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void padesStartAndCompleteAtLevelsBAndT(boolean levelT) throws Exception {
        KeyMaterial key = key("user0002");
        PadesSignaturePostRequestV2 request = new PadesSignaturePostRequestV2();
        request.setPdfToSign(new FileModel().content(pdf).mimeType("application/pdf"));
        request.setCertificate(key.certificate().getEncoded());
        request.setSignaturePolicyId(levelT ? PADES_T : PADES_BASIC);
        request.setSecurityContextId(UUID.fromString(SecurityContext.lacunaTest.getId()));
        PadesSignaturePostResponse started = restPki.startPadesSignature(request);
        // sign the data, as a client with the key at hand does
        byte[] signature = key.sign("SHA256withECDSA", started.getToSignData());
        PadesSignaturePostSignedBytesRequest signed = new PadesSignaturePostSignedBytesRequest();
        signed.setSignature(signature);
        byte[] signedPdf = restPki.completePadesSignature(started.getToken(), signed).getSignedPdf();
        ValidationReport report = validator().validatePades(signedPdf);
        assertThat(report.valid()).as(report.toString()).isTrue();
        assertThat(report.timestamped()).isEqualTo(levelT);
        assertThat(report.signer()).isEqualTo(key.certificate().getSubjectX500Principal().getName());
    }

    static AuthenticationResult authenticate(KeyMaterial key) throws Exception {
        PrepareAuthenticationResult prepared = restPki.prepareAuthentication(new PrepareAuthenticationOptions());
        assertThat(prepared.getToSignHash().getAlgorithm().getName()).isEqualTo("SHA-256");
        CompleteAuthenticationOptions complete = new CompleteAuthenticationOptions();
        complete.setState(prepared.getState());
        complete.setCertificate(key.certificate().getEncoded());
        complete.setSignature(key.signHash("SHA-256", prepared.getToSignHash().getValue()));
        return restPki.completeAuthentication(complete);
    }

    @Test
    void authenticationAcceptsAValidUser() throws Exception {
        AuthenticationResult r = authenticate(key("user0003"));
        assertThat(r.isSuccess()).as(String.valueOf(r.getValidationResults())).isTrue();
        assertThat(r.getFailure()).isNull();
        assertThat(r.getCertificate().getSubjectName().getCommonName()).isEqualTo("user0003");
        assertThat(r.getValidationResults().isValid()).isTrue();
    }

    @Test
    void authenticationRefusesARevokedAndAnExpiredUserWithValidationResults() throws Exception {
        AuthenticationResult revoked = authenticate(key(first("pki.aliases.revoked")));
        assertThat(revoked.isSuccess()).isFalse();
        assertThat(revoked.getFailure()).isEqualTo(AuthenticationFailures.CERTIFICATEFAILEDVALIDATION);
        assertThat(revoked.getValidationResults().getErrors()).extracting(e -> e.getType())
                .containsExactly(ValidationItemTypes.CERTIFICATEREVOKED);

        AuthenticationResult expired = authenticate(key(first("pki.aliases.expired")));
        assertThat(expired.isSuccess()).isFalse();
        assertThat(expired.getValidationResults().getErrors()).extracting(e -> e.getType())
                .containsExactly(ValidationItemTypes.CERTIFICATEEXPIRED);
    }

    @Test
    void authenticationWithAStateUsedTwiceIsAStaleSession() throws Exception {
        KeyMaterial key = key("user0004");
        PrepareAuthenticationResult prepared = restPki.prepareAuthentication(new PrepareAuthenticationOptions());
        CompleteAuthenticationOptions complete = new CompleteAuthenticationOptions();
        complete.setState(prepared.getState());
        complete.setCertificate(key.certificate().getEncoded());
        complete.setSignature(key.signHash("SHA-256", prepared.getToSignHash().getValue()));
        assertThat(restPki.completeAuthentication(complete).isSuccess()).isTrue();
        AuthenticationResult again = restPki.completeAuthentication(complete);
        assertThat(again.isSuccess()).isFalse();
        assertThat(again.getFailure()).isEqualTo(AuthenticationFailures.STALESESSION);
    }

    @Test
    void errorsBecomeTheClientsOwnExceptions() throws Exception {
        KeyMaterial key = key("user0005");
        byte[] content = {1, 2, 3};

        // revoked signer: ValidationException with the validation results
        assertThatThrownBy(() -> restPki.startCadesSignature(
                cades(key(first("pki.aliases.revoked")), CADES_BES, content)))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.getValidationResults().getErrors())
                        .extracting(i -> i.getType()).containsExactly(ValidationItemTypes.CERTIFICATEREVOKED));

        // a signature by another key: ValidationException, and the token is used up
        CadesSignaturePostResponse started = restPki.startCadesSignature(cades(key, CADES_BES, content));
        CadesSignaturePostSignedBytesRequest wrong = new CadesSignaturePostSignedBytesRequest();
        wrong.setSignature(key("user0006").sign("SHA256withECDSA", started.getToSignData()));
        assertThatThrownBy(() -> restPki.completeCadesSignature(started.getToken(), wrong))
                .isInstanceOf(ValidationException.class);
        CadesSignaturePostSignedBytesRequest right = new CadesSignaturePostSignedBytesRequest();
        right.setSignature(key.sign("SHA256withECDSA", started.getToSignData()));
        assertThatThrownBy(() -> restPki.completeCadesSignature(started.getToken(), right))
                .isInstanceOfSatisfying(RestPkiException.class, e -> assertThat(e.getErrorCode())
                        .isEqualTo(ErrorCodes.EntityNotFound));

        // an unknown policy, and a PAdES policy on the CAdES route
        assertThatThrownBy(() -> restPki.startCadesSignature(cades(key, UUID.randomUUID(), content)))
                .isInstanceOfSatisfying(RestPkiException.class, e -> assertThat(e.getErrorCode())
                        .isEqualTo(ErrorCodes.EntityNotFound));
        assertThatThrownBy(() -> restPki.startCadesSignature(cades(key, PADES_BASIC, content)))
                .isInstanceOfSatisfying(RestPkiException.class, e -> assertThat(e.getErrorCode())
                        .isEqualTo(ErrorCodes.EntityUnusable));

        // an expired token
        CadesSignaturePostResponse late = restPki.startCadesSignature(cades(key, CADES_BES, content));
        lab.expireSignatureToken(late.getToken());
        CadesSignaturePostSignedBytesRequest lateSignature = new CadesSignaturePostSignedBytesRequest();
        lateSignature.setSignature(key.sign("SHA256withECDSA", late.getToSignData()));
        assertThatThrownBy(() -> restPki.completeCadesSignature(late.getToken(), lateSignature))
                .isInstanceOfSatisfying(RestPkiException.class, e -> assertThat(e.getErrorCode())
                        .isEqualTo(ErrorCodes.EntityNotFound));

        // a wrong API key: 401
        RestPkiOptions options = new RestPkiOptions();
        options.setEndpoint(props.get("pki.url") + "/");
        options.setApiKey("not-the-key");
        assertThatThrownBy(() -> RestPkiServiceFactory.getService(options)
                .startCadesSignature(cades(key, CADES_BES, content)))
                .isInstanceOfSatisfying(RestErrorException.class, e -> assertThat(e.getStatusCode()).isEqualTo(401));
    }

    @Test
    void detachedCadesCarriesNoContent() throws Exception {
        KeyMaterial key = key("user0007");
        byte[] content = "detached".getBytes(StandardCharsets.UTF_8);
        CadesSignaturePostRequestV2 request = cades(key, CADES_BES, content);
        request.setEncapsulateContent(false);
        CadesSignaturePostResponse started = restPki.startCadesSignature(request);
        CadesSignaturePostSignedBytesRequest signed = new CadesSignaturePostSignedBytesRequest();
        signed.setSignature(key.sign("SHA256withECDSA", started.getToSignData()));
        byte[] cms = restPki.completeCadesSignature(started.getToken(), signed).getCms();
        assertThat(new org.bouncycastle.cms.CMSSignedData(new ByteArrayInputStream(cms)).getSignedContent()).isNull();
        ValidationReport report = validator().validateCades(cms, content);
        assertThat(report.valid()).as(report.toString()).isTrue();
    }
}
