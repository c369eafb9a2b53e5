package org.trustload.lab.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.DataKeyPairSpec;
import software.amazon.awssdk.services.kms.model.KeySpec;
import software.amazon.awssdk.services.kms.model.KeyUsageType;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The same SDK calls as {@link AwsKmsEmulatorSdkTest}, against moto 5.2.5: the contract passes, and the
 * tests below record, as assertions, where moto answers differently from AWS (and from our emulator,
 * which follows AWS there). If moto is fixed, a test here fails: then move the case to the contract.
 */
class AwsKmsMotoIT extends AwsKmsSdkContract {
    static MotoServer moto;
    static KmsClient kms;
    static SecretsManagerClient secrets;
    static String aes;
    static String rsa;
    static String hmac;

    @BeforeAll
    static void start() throws Exception {
        moto = MotoServer.start();
        kms = moto.kms();
        secrets = moto.secrets();
        aes = kms.createKey(b -> b.keySpec(KeySpec.SYMMETRIC_DEFAULT)).keyMetadata().keyId();
        rsa = kms.createKey(b -> b.keySpec(KeySpec.RSA_2048).keyUsage(KeyUsageType.SIGN_VERIFY)).keyMetadata().keyId();
        hmac = kms.createKey(b -> b.keySpec(KeySpec.HMAC_256).keyUsage(KeyUsageType.GENERATE_VERIFY_MAC)).keyMetadata()
                .keyId();
        kms.createAlias(b -> b.aliasName("alias/trustload-aes").targetKeyId(aes));
        secrets.createSecret(b -> b.name("trustload/moto").secretString("{\"password\":\"moto-secret\"}"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (kms != null) {
            kms.close();
            secrets.close();
        }
        if (moto != null) {
            moto.close();
        }
    }

    @Override
    Target target() {
        return new Target(kms, secrets, aes, "alias/trustload-aes", "123456789012", rsa, hmac, "trustload/moto",
                "moto-secret");
    }

    /* ---------------------------------------------------------------- where moto is not AWS */

    @Test
    void motoRunsContextPairsTogetherSoAnotherContextOpensTheCiphertext() {
        // AWS (and the emulator): InvalidCiphertextException
        SdkBytes ct = encrypt(Map.of("ab", "c"));
        assertThat(kms.decrypt(b -> b.ciphertextBlob(ct).encryptionContext(Map.of("a", "bc")))
                .plaintext().asUtf8String())
                .isEqualTo("the plaintext");
    }

    @Test
    void motoDescribeKeyOmitsKeyUsageAndMacAlgorithms() {
        // AWS (and the emulator): KeyUsage always; MacAlgorithms for HMAC keys (KMS Request's default MAC algorithm)
        assertThat(kms.describeKey(b -> b.keyId(aes)).keyMetadata().keyUsage()).isNull();
        assertThat(kms.describeKey(b -> b.keyId(hmac)).keyMetadata().macAlgorithms()).isEmpty();
    }

    @Test
    void motoAnswersDecryptNamingAnotherKeyWithAccessDenied() {
        // AWS (and the emulator): IncorrectKeyException
        SdkBytes ct = encrypt(CONTEXT);
        assertAwsError(() -> kms.decrypt(b -> b.ciphertextBlob(ct).encryptionContext(CONTEXT).keyId(rsa)), 400,
                "AccessDeniedException");
    }

    @Test
    void motoGivesASymmetricKeyAPublicKeyAndNamesKeysByBareId() {
        // AWS (and the emulator): UnsupportedOperationException; KeyId is the key ARN
        assertThat(kms.getPublicKey(b -> b.keyId(aes)).publicKey().asByteArray()).isNotEmpty();
        assertThat(kms.getPublicKey(b -> b.keyId(rsa)).keyId()).isEqualTo(rsa);
    }

    @Test
    void motoIgnoresKeyUsageAndDryRun() {
        // AWS (and the emulator): InvalidKeyUsageException (400) and DryRunOperationException (412)
        assertThat(kms.encrypt(b -> b.keyId(hmac).plaintext(bytes("x"))).ciphertextBlob().asByteArray()).isNotEmpty();
        assertThat(kms.encrypt(b -> b.keyId(aes).plaintext(bytes("x")).dryRun(true)).ciphertextBlob().asByteArray())
                .isNotEmpty();
    }

    @Test
    void motoDoesNotServeGenerateDataKeyPair() {
        // AWS (and the emulator): a key pair
        assertThatThrownBy(() -> kms.generateDataKeyPair(b -> b.keyId(aes).keyPairSpec(DataKeyPairSpec.RSA_2048)))
                .isInstanceOfSatisfying(AwsServiceException.class, e -> assertThat(e.statusCode()).isEqualTo(500));
    }
}
