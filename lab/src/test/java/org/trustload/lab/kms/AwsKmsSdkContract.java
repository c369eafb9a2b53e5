package org.trustload.lab.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.AliasListEntry;
import software.amazon.awssdk.services.kms.model.DataKeySpec;
import software.amazon.awssdk.services.kms.model.KeyListEntry;
import software.amazon.awssdk.services.kms.model.MacAlgorithmSpec;
import software.amazon.awssdk.services.kms.model.MessageType;
import software.amazon.awssdk.services.kms.model.SigningAlgorithmSpec;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The KMS data-plane calls a load test makes, sent with the plain AWS SDK v2 (the independent client),
 * asserting what AWS documents. Run against the lab emulator ({@link AwsKmsEmulatorSdkTest}) and against
 * moto ({@link AwsKmsMotoIT}): both pass all of these. Where the two differ, each subclass has its own
 * tests saying which behaves like AWS.
 */
abstract class AwsKmsSdkContract {
    static final Map<String, String> CONTEXT = Map.of("tenant", "acme", "purpose", "bench");

    /**
     * What the contract runs against.
     *
     * @param kms SDK KMS client
     * @param secrets SDK Secrets Manager client
     * @param aes a symmetric ENCRYPT_DECRYPT key id
     * @param aesAlias the alias name of {@code aes}, e.g. {@code alias/trustload-aes}
     * @param account the account id in ARNs
     * @param rsa an RSA-2048 SIGN_VERIFY key id
     * @param hmac an HMAC_256 GENERATE_VERIFY_MAC key id
     * @param secretName a secret's name
     * @param secretFragment a string the secret's value contains
     */
    record Target(KmsClient kms, SecretsManagerClient secrets, String aes, String aesAlias, String account, String rsa,
            String hmac, String secretName, String secretFragment) {
    }

    abstract Target target();

    KmsClient kms() {
        return target().kms();
    }

    SecretsManagerClient secrets() {
        return target().secrets();
    }

    String aes() {
        return target().aes();
    }

    String aesAlias() {
        return target().aesAlias();
    }

    String account() {
        return target().account();
    }

    String rsa() {
        return target().rsa();
    }

    String hmac() {
        return target().hmac();
    }

    static SdkBytes bytes(String s) {
        return SdkBytes.fromString(s, StandardCharsets.UTF_8);
    }

    /** An AWS error with this HTTP status and {@code __type}. */
    static void assertAwsError(ThrowingCallable call, int status, String code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(AwsServiceException.class, e -> {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
            assertThat(e.statusCode()).isEqualTo(status);
        });
    }

    SdkBytes encrypt(Map<String, String> context) {
        return kms().encrypt(b -> b.keyId(aes()).plaintext(bytes("the plaintext")).encryptionContext(context))
                .ciphertextBlob();
    }

    @Test
    void encryptThenDecryptWithTheSameContextGivesThePlaintextBack() {
        SdkBytes ct = encrypt(CONTEXT);
        var out = kms().decrypt(b -> b.ciphertextBlob(ct)
                .encryptionContext(Map.of("purpose", "bench", "tenant", "acme")));
        assertThat(out.plaintext().asUtf8String()).isEqualTo("the plaintext");
        assertThat(out.keyId()).endsWith(aes());
    }

    @Test
    void decryptWithAnotherMissingOrLargerContextIsInvalidCiphertext() {
        SdkBytes ct = encrypt(CONTEXT);
        assertAwsError(() -> kms().decrypt(b -> b.ciphertextBlob(ct).encryptionContext(Map.of("tenant", "acme",
                "purpose", "other"))), 400, "InvalidCiphertextException");
        assertAwsError(() -> kms().decrypt(b -> b.ciphertextBlob(ct)), 400, "InvalidCiphertextException");
        assertAwsError(() -> kms().decrypt(b -> b.ciphertextBlob(ct).encryptionContext(Map.of("tenant", "acme",
                "purpose", "bench", "x", "y"))), 400, "InvalidCiphertextException");
        SdkBytes none = encrypt(Map.of());
        assertAwsError(() -> kms().decrypt(b -> b.ciphertextBlob(none).encryptionContext(CONTEXT)), 400,
                "InvalidCiphertextException");
    }

    @Test
    void generateDataKeyBindsItsContext() {
        var dk = kms().generateDataKey(b -> b.keyId(aes()).keySpec(DataKeySpec.AES_256).encryptionContext(CONTEXT));
        assertThat(dk.plaintext().asByteArray()).hasSize(32);
        assertThat(kms().decrypt(b -> b.ciphertextBlob(dk.ciphertextBlob()).encryptionContext(CONTEXT)).plaintext())
                .isEqualTo(dk.plaintext());
        assertAwsError(() -> kms().decrypt(b -> b.ciphertextBlob(dk.ciphertextBlob())), 400,
                "InvalidCiphertextException");
    }

    @Test
    void generateDataKeyWithoutPlaintextReturnsOnlyTheBoundCiphertext() {
        var dk = kms().generateDataKeyWithoutPlaintext(b -> b.keyId(aes()).numberOfBytes(16)
                .encryptionContext(CONTEXT));
        assertThat(dk.ciphertextBlob().asByteArray()).isNotEmpty();
        assertThat(dk.keyId()).endsWith(aes());
        assertThat(kms().decrypt(b -> b.ciphertextBlob(dk.ciphertextBlob()).encryptionContext(CONTEXT)).plaintext()
                .asByteArray()).hasSize(16);
        assertAwsError(() -> kms().decrypt(b -> b.ciphertextBlob(dk.ciphertextBlob())
                .encryptionContext(Map.of("a", "b"))),
                400, "InvalidCiphertextException");
    }

    @Test
    void generateDataKeyNeedsExactlyOneOfKeySpecAndNumberOfBytes() {
        assertAwsError(() -> kms().generateDataKey(b -> b.keyId(aes())), 400, "ValidationException");
        assertAwsError(() -> kms().generateDataKey(b -> b.keyId(aes()).keySpec(DataKeySpec.AES_256).numberOfBytes(32)),
                400, "ValidationException");
    }

    @Test
    void reEncryptChecksTheSourceContextAndBindsTheDestinationOne() {
        SdkBytes ct = encrypt(CONTEXT);
        Map<String, String> next = Map.of("tenant", "acme", "rotation", "2");
        var re = kms().reEncrypt(b -> b.ciphertextBlob(ct).sourceEncryptionContext(CONTEXT).destinationKeyId(aes())
                .destinationEncryptionContext(next));
        assertThat(re.keyId()).endsWith(aes());
        assertThat(re.sourceKeyId()).endsWith(aes());
        assertThat(kms().decrypt(b -> b.ciphertextBlob(re.ciphertextBlob()).encryptionContext(next)).plaintext()
                .asUtf8String()).isEqualTo("the plaintext");
        assertAwsError(() -> kms().decrypt(b -> b.ciphertextBlob(re.ciphertextBlob()).encryptionContext(CONTEXT)), 400,
                "InvalidCiphertextException");
        assertAwsError(() -> kms().reEncrypt(b -> b.ciphertextBlob(ct).destinationKeyId(aes())), 400,
                "InvalidCiphertextException");
    }

    @Test
    void generateRandomGivesTheAskedNumberOfBytesUpTo1024() {
        assertThat(kms().generateRandom(b -> b.numberOfBytes(32)).plaintext().asByteArray()).hasSize(32);
        assertThat(kms().generateRandom(b -> b.numberOfBytes(1024)).plaintext().asByteArray()).hasSize(1024);
        assertAwsError(() -> kms().generateRandom(b -> b.numberOfBytes(1025)), 400, "ValidationException");
    }

    @Test
    void getPublicKeyGivesTheKeyThatVerifiesKmsSignatures() throws Exception {
        var pk = kms().getPublicKey(b -> b.keyId(rsa()));
        assertThat(pk.keyUsageAsString()).isEqualTo("SIGN_VERIFY");
        assertThat(pk.customerMasterKeySpecAsString()).isEqualTo("RSA_2048");
        assertThat(pk.signingAlgorithms()).contains(SigningAlgorithmSpec.RSASSA_PSS_SHA_256,
                SigningAlgorithmSpec.RSASSA_PKCS1_V1_5_SHA_256);
        PublicKey key = KeyFactory.getInstance("RSA")
                .generatePublic(new X509EncodedKeySpec(pk.publicKey().asByteArray()));
        SdkBytes msg = bytes("message");
        SdkBytes sig = kms().sign(b -> b.keyId(rsa()).message(msg).messageType(MessageType.RAW)
                .signingAlgorithm(SigningAlgorithmSpec.RSASSA_PKCS1_V1_5_SHA_256)).signature();
        Signature jdk = Signature.getInstance("SHA256withRSA");
        jdk.initVerify(key);
        jdk.update(msg.asByteArray());
        assertThat(jdk.verify(sig.asByteArray())).isTrue();
        assertThat(kms().verify(b -> b.keyId(rsa()).message(msg).messageType(MessageType.RAW).signature(sig)
                .signingAlgorithm(SigningAlgorithmSpec.RSASSA_PKCS1_V1_5_SHA_256)).signatureValid()).isTrue();
    }

    @Test
    void describeKeyResolvesIdArnAliasNameAndAliasArn() {
        String arn = kms().describeKey(b -> b.keyId(aes())).keyMetadata().arn();
        assertThat(arn).endsWith(":key/" + aes());
        String aliasArn = arn.substring(0, arn.indexOf(":key/")) + ":" + aesAlias();
        for (String id : new String[] {aes(), arn, aesAlias(), aliasArn}) {
            var meta = kms().describeKey(b -> b.keyId(id)).keyMetadata();
            assertThat(meta.keyId()).as(id).isEqualTo(aes());
            assertThat(meta.enabled()).isTrue();
            assertThat(meta.awsAccountId()).isEqualTo(account());
        }
        assertAwsError(() -> kms().describeKey(b -> b.keyId("alias/no-such-alias")), 400, "NotFoundException");
        assertAwsError(() -> kms().describeKey(b -> b.keyId("00000000-0000-0000-0000-000000000000")), 400,
                "NotFoundException");
    }

    @Test
    void listKeysAndListAliasesShowTheKeys() {
        assertThat(kms().listKeys(b -> { }).keys()).extracting(KeyListEntry::keyId).contains(aes(), rsa(), hmac());
        var aliases = kms().listAliases(b -> b.keyId(aes())).aliases();
        assertThat(aliases).extracting(AliasListEntry::aliasName).containsExactly(aesAlias());
        assertThat(aliases.get(0).targetKeyId()).isEqualTo(aes());
        assertThat(aliases.get(0).aliasArn()).endsWith(":" + account() + ":" + aesAlias());
    }

    @Test
    void generateMacThenVerifyMacAndAWrongMacIsInvalidMac() {
        SdkBytes msg = bytes("message");
        var mac = kms().generateMac(b -> b.keyId(hmac()).macAlgorithm(MacAlgorithmSpec.HMAC_SHA_256).message(msg));
        assertThat(mac.mac().asByteArray()).hasSize(32);
        assertThat(kms().verifyMac(b -> b.keyId(hmac()).macAlgorithm(MacAlgorithmSpec.HMAC_SHA_256).message(msg)
                .mac(mac.mac())).macValid()).isTrue();
        assertAwsError(() -> kms().verifyMac(b -> b.keyId(hmac()).macAlgorithm(MacAlgorithmSpec.HMAC_SHA_256)
                .message(bytes("other")).mac(mac.mac())), 400, "KMSInvalidMacException");
    }

    @Test
    void unknownKeyIsNotFound() {
        assertAwsError(() -> kms().encrypt(b -> b.keyId("00000000-0000-0000-0000-000000000000").plaintext(bytes("x"))),
                400, "NotFoundException");
    }

    @Test
    void getSecretValueReturnsTheSecretString() {
        var v = secrets().getSecretValue(b -> b.secretId(target().secretName()));
        assertThat(v.secretString()).contains(target().secretFragment());
        assertThat(v.versionStages()).contains("AWSCURRENT");
    }
}
