package org.trustload.lab.kms;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import java.net.URI;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.DataKeyPairSpec;
import software.amazon.awssdk.services.kms.model.EncryptionAlgorithmSpec;
import software.amazon.awssdk.services.kms.model.MacAlgorithmSpec;
import software.amazon.awssdk.services.kms.model.MessageType;
import software.amazon.awssdk.services.kms.model.SigningAlgorithmSpec;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The lab's AWS KMS emulator with the plain AWS SDK v2: every call it serves ({@link AwsKmsEmulator#OPERATIONS};
 * {@link #everyServedOperationIsCoveredHere} keeps this list honest), the shared contract, and where it is
 * faithful to AWS and moto is not (see {@link AwsKmsMotoIT} for moto's side).
 */
class AwsKmsEmulatorSdkTest extends AwsKmsSdkContract {
    /** The served operations and the tests (here or in the contract) that send them. */
    static final Map<String, String> COVERAGE = Map.ofEntries(
            Map.entry("Encrypt", "encryptThenDecryptWithTheSameContextGivesThePlaintextBack"),
            Map.entry("Decrypt", "decryptWithAnotherMissingOrLargerContextIsInvalidCiphertext"),
            Map.entry("ReEncrypt", "reEncryptChecksTheSourceContextAndBindsTheDestinationOne"),
            Map.entry("GenerateDataKey", "generateDataKeyBindsItsContext"),
            Map.entry("GenerateDataKeyWithoutPlaintext",
                    "generateDataKeyWithoutPlaintextReturnsOnlyTheBoundCiphertext"),
            Map.entry("GenerateDataKeyPair", "generateDataKeyPairGivesAMatchingPairAndABoundPrivateKeyCiphertext"),
            Map.entry("GenerateDataKeyPairWithoutPlaintext", "generateDataKeyPairWithoutPlaintextHasNoPrivateKey"),
            Map.entry("GenerateRandom", "generateRandomGivesTheAskedNumberOfBytesUpTo1024"),
            Map.entry("Sign", "getPublicKeyGivesTheKeyThatVerifiesKmsSignatures"),
            Map.entry("Verify", "anInvalidSignatureIsKmsInvalidSignatureException"),
            Map.entry("GenerateMac", "generateMacThenVerifyMacAndAWrongMacIsInvalidMac"),
            Map.entry("VerifyMac", "generateMacThenVerifyMacAndAWrongMacIsInvalidMac"),
            Map.entry("GetPublicKey", "getPublicKeyOfASymmetricKeyIsUnsupportedOperation"),
            Map.entry("DescribeKey", "describeKeyResolvesIdArnAliasNameAndAliasArn"),
            Map.entry("ListKeys", "listKeysPagesWithLimitAndMarker"),
            Map.entry("ListAliases", "listKeysAndListAliasesShowTheKeys"),
            Map.entry("secretsmanager.GetSecretValue", "getSecretValueReturnsTheSecretString"));

    @TempDir
    static Path socketDir;

    static KmsLabService service;
    static Map<String, String> props;
    static SdkHttpClient http;
    static KmsClient kms;
    static SecretsManagerClient secrets;

    @BeforeAll
    static void start() throws Exception {
        service = new KmsLabService();
        service.start(new LabContext(TestPorts.freeBase(), 0, socketDir));
        props = service.properties();
        http = ApacheHttpClient.builder().build();
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create(props.get("kms.aws.access_key_id"),
                props.get("kms.aws.secret_access_key")));
        URI endpoint = URI.create(props.get("kms.aws.endpoint"));
        kms = KmsClient.builder().httpClient(http).region(Region.US_EAST_1).credentialsProvider(creds)
                .overrideConfiguration(o -> o.retryPolicy(RetryPolicy.none()).addExecutionInterceptor(LAST_BODY))
                .endpointOverride(endpoint).build();
        secrets = SecretsManagerClient.builder().httpClient(http).region(Region.US_EAST_1).credentialsProvider(creds)
                .overrideConfiguration(o -> o.retryPolicy(RetryPolicy.none()).addExecutionInterceptor(LAST_BODY))
                .endpointOverride(endpoint).build();
    }

    @AfterAll
    static void stop() {
        if (kms != null) {
            kms.close();
            secrets.close();
            http.close();
        }
        service.close();
    }

    /** Keeps the raw JSON body of the last response, to compare its field names with the SDK model. */
    static final class LastBody implements ExecutionInterceptor {
        volatile byte[] body = new byte[0];

        @Override
        public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                ExecutionAttributes attributes) {
            try {
                body = context.responseBody().isPresent() ? context.responseBody().get().readAllBytes() : new byte[0];
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return Optional.of(new ByteArrayInputStream(body));
        }
    }

    static final LastBody LAST_BODY = new LastBody();

    @Override
    Target target() {
        return new Target(kms, secrets, AwsKmsEmulator.AES_KEY_ID, "alias/trustload-aes", AwsKmsEmulator.ACCOUNT,
                AwsKmsEmulator.RSA_KEY_ID, AwsKmsEmulator.HMAC_KEY_ID, AwsKmsEmulator.SECRET_NAME,
                "\"username\":\"trustload\"");
    }

    @Test
    void everyServedOperationIsCoveredHere() throws Exception {
        assertThat(COVERAGE.keySet()).containsExactlyInAnyOrderElementsOf(AwsKmsEmulator.OPERATIONS);
        for (String test : COVERAGE.values()) {
            Class<?> c = getClass();
            boolean found = false;
            for (; c != null && !found; c = c.getSuperclass()) {
                found = java.util.Arrays.stream(c.getDeclaredMethods()).anyMatch(m -> m.getName().equals(test));
            }
            assertThat(found).as(test).isTrue();
        }
    }

    /**
     * Every field name the emulator writes is a member of the SDK's model of that response (a misspelt
     * field would be dropped silently by the SDK, so the other tests could not see it).
     */
    @Test
    void everyResponseFieldIsInTheSdkModel() {
        SdkBytes msg = bytes("m");
        SdkBytes ct = encrypt(CONTEXT);
        SdkBytes mac = kms.generateMac(b -> b.keyId(hmac()).message(msg).macAlgorithm(MacAlgorithmSpec.HMAC_SHA_256))
                .mac();
        SdkBytes sig = kms.sign(b -> b.keyId(rsa()).message(msg).messageType(MessageType.RAW)
                .signingAlgorithm(SigningAlgorithmSpec.RSASSA_PSS_SHA_256)).signature();
        List<Supplier<SdkPojo>> calls = List.of(
            () -> kms.encrypt(b -> b.keyId(aes()).plaintext(msg)),
            () -> kms.decrypt(b -> b.ciphertextBlob(ct).encryptionContext(CONTEXT)),
            () -> kms.reEncrypt(b -> b.ciphertextBlob(ct).sourceEncryptionContext(CONTEXT).destinationKeyId(aes())),
            () -> kms.generateDataKey(b -> b.keyId(aes()).numberOfBytes(32)),
            () -> kms.generateDataKeyWithoutPlaintext(b -> b.keyId(aes()).numberOfBytes(32)),
            () -> kms.generateDataKeyPair(b -> b.keyId(aes()).keyPairSpec(DataKeyPairSpec.ECC_NIST_P256)),
            () -> kms.generateDataKeyPairWithoutPlaintext(b -> b.keyId(aes())
                    .keyPairSpec(DataKeyPairSpec.ECC_NIST_P256)),
            () -> kms.generateRandom(b -> b.numberOfBytes(8)),
            () -> kms.sign(b -> b.keyId(rsa()).message(msg).messageType(MessageType.RAW)
                    .signingAlgorithm(SigningAlgorithmSpec.RSASSA_PSS_SHA_256)),
            () -> kms.verify(b -> b.keyId(rsa()).message(msg).messageType(MessageType.RAW).signature(sig)
                    .signingAlgorithm(SigningAlgorithmSpec.RSASSA_PSS_SHA_256)),
            () -> kms.generateMac(b -> b.keyId(hmac()).message(msg).macAlgorithm(MacAlgorithmSpec.HMAC_SHA_256)),
            () -> kms.verifyMac(b -> b.keyId(hmac()).message(msg).mac(mac).macAlgorithm(MacAlgorithmSpec.HMAC_SHA_256)),
            () -> kms.getPublicKey(b -> b.keyId(rsa())),
            () -> kms.describeKey(b -> b.keyId(hmac())),
            () -> kms.describeKey(b -> b.keyId(aes())),
            () -> kms.describeKey(b -> b.keyId(rsa())),
            () -> kms.listKeys(b -> b.limit(1)),
            () -> kms.listAliases(b -> b.limit(1)),
            () -> secrets.getSecretValue(b -> b.secretId(AwsKmsEmulator.SECRET_NAME)));
        for (Supplier<SdkPojo> call : calls) {
            SdkPojo response = call.get();
            JsonNode json = readJson(LAST_BODY.body);
            assertThat(json.size()).as(response.getClass().getSimpleName() + " body read").isPositive();
            assertKnownFields(response.getClass().getSimpleName(), json, response);
        }
    }

    private static JsonNode readJson(byte[] body) {
        try {
            return new ObjectMapper().readTree(body);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void assertKnownFields(String where, JsonNode json, SdkPojo pojo) {
        Map<String, SdkField<?>> fields = new java.util.HashMap<>();
        pojo.sdkFields().forEach(f -> fields.put(f.locationName(), f));
        json.fieldNames().forEachRemaining(name -> {
            assertThat(fields.keySet()).as(where + " has no member " + name).contains(name);
            Object value = fields.get(name).getValueOrDefault(pojo);
            JsonNode node = json.get(name);
            if (value instanceof SdkPojo nested) {
                assertKnownFields(where + "." + name, node, nested);
            } else if (value instanceof List<?> list && node.isArray()) {
                for (int i = 0; i < list.size(); i++) {
                    if (list.get(i) instanceof SdkPojo element) {
                        assertKnownFields(where + "." + name + "[" + i + "]", node.get(i), element);
                    }
                }
            }
        });
    }

    /* ---------------------------------------------------------------- where moto is not AWS */

    @Test
    void contextPairsAreBoundOneByOneNotConcatenated() {
        // moto hashes name+value run together, so {"ab":"c"} opens what {"a":"bc"} sealed; AWS does not
        SdkBytes ct = encrypt(Map.of("ab", "c"));
        assertAwsError(() -> kms.decrypt(b -> b.ciphertextBlob(ct).encryptionContext(Map.of("a", "bc"))), 400,
                "InvalidCiphertextException");
    }

    @Test
    void describeKeyNamesTheUsageAndTheAlgorithms() {
        var aesMeta = kms.describeKey(b -> b.keyId(aes())).keyMetadata();
        assertThat(aesMeta.keyUsageAsString()).isEqualTo("ENCRYPT_DECRYPT");
        assertThat(aesMeta.encryptionAlgorithmsAsStrings()).containsExactly("SYMMETRIC_DEFAULT");
        var hmacMeta = kms.describeKey(b -> b.keyId(hmac())).keyMetadata();
        assertThat(hmacMeta.keyUsageAsString()).isEqualTo("GENERATE_VERIFY_MAC");
        assertThat(hmacMeta.macAlgorithmsAsStrings()).containsExactly("HMAC_SHA_256");
        assertThat(kms.describeKey(b -> b.keyId(rsa())).keyMetadata().signingAlgorithms()).isNotEmpty();
    }

    @Test
    void decryptNamingAnotherKeyIsIncorrectKey() {
        SdkBytes ct = encrypt(CONTEXT);
        assertAwsError(() -> kms.decrypt(b -> b.ciphertextBlob(ct).encryptionContext(CONTEXT).keyId(rsa())), 400,
                "IncorrectKeyException");
    }

    @Test
    void getPublicKeyOfASymmetricKeyIsUnsupportedOperation() {
        assertAwsError(() -> kms.getPublicKey(b -> b.keyId(aes())), 400, "UnsupportedOperationException");
        assertThat(kms.getPublicKey(b -> b.keyId(rsa())).keyId()).isEqualTo(
                "arn:aws:kms:us-east-1:" + AwsKmsEmulator.ACCOUNT + ":key/" + rsa());
    }

    @Test
    void keyUsageIsEnforced() {
        assertAwsError(() -> kms.encrypt(b -> b.keyId(hmac()).plaintext(bytes("x"))), 400, "InvalidKeyUsageException");
        assertAwsError(() -> kms.sign(b -> b.keyId(aes()).message(bytes("x")).messageType(MessageType.RAW)
                .signingAlgorithm(SigningAlgorithmSpec.RSASSA_PSS_SHA_256)), 400, "InvalidKeyUsageException");
        assertAwsError(() -> kms.generateMac(b -> b.keyId(rsa()).message(bytes("x"))
                .macAlgorithm(MacAlgorithmSpec.HMAC_SHA_256)), 400, "InvalidKeyUsageException");
        assertAwsError(() -> kms.encrypt(b -> b.keyId(aes()).plaintext(bytes("x"))
                .encryptionAlgorithm(EncryptionAlgorithmSpec.RSAES_OAEP_SHA_256)), 400, "InvalidKeyUsageException");
    }

    @Test
    void dryRunChecksTheRequestAndAnswersDryRunOperation() {
        assertAwsError(() -> kms.encrypt(b -> b.keyId(aes()).plaintext(bytes("x")).dryRun(true)), 412,
                "DryRunOperationException");
        assertAwsError(() -> kms.encrypt(b -> b.keyId("alias/none").plaintext(bytes("x")).dryRun(true)), 400,
                "NotFoundException");
    }

    @Test
    void anInvalidSignatureIsKmsInvalidSignatureException() {
        SdkBytes msg = bytes("message");
        SdkBytes sig = kms.sign(b -> b.keyId(rsa()).message(msg).messageType(MessageType.RAW)
                .signingAlgorithm(SigningAlgorithmSpec.RSASSA_PSS_SHA_256)).signature();
        assertAwsError(() -> kms.verify(b -> b.keyId(rsa()).message(bytes("other")).messageType(MessageType.RAW)
                .signature(sig).signingAlgorithm(SigningAlgorithmSpec.RSASSA_PSS_SHA_256)), 400,
                "KMSInvalidSignatureException");
    }

    @ParameterizedTest
    @CsvSource({"RSA_2048, RSA, SHA256withRSA", "ECC_NIST_P256, EC, SHA256withECDSA"})
    void generateDataKeyPairGivesAMatchingPairAndABoundPrivateKeyCiphertext(DataKeyPairSpec spec, String alg,
            String sigAlg) throws Exception {
        var pair = kms.generateDataKeyPair(b -> b.keyId(aesAlias()).keyPairSpec(spec).encryptionContext(CONTEXT));
        assertThat(pair.keyPairSpec()).isEqualTo(spec);
        assertThat(pair.keyId()).endsWith(aes());
        KeyFactory f = KeyFactory.getInstance(alg);
        Signature s = Signature.getInstance(sigAlg);
        s.initSign(f.generatePrivate(new PKCS8EncodedKeySpec(pair.privateKeyPlaintext().asByteArray())));
        s.update(new byte[] {1, 2, 3});
        byte[] sig = s.sign();
        s.initVerify(f.generatePublic(new X509EncodedKeySpec(pair.publicKey().asByteArray())));
        s.update(new byte[] {1, 2, 3});
        assertThat(s.verify(sig)).isTrue();
        assertThat(kms.decrypt(b -> b.ciphertextBlob(pair.privateKeyCiphertextBlob()).encryptionContext(CONTEXT))
                .plaintext()).isEqualTo(pair.privateKeyPlaintext());
        assertAwsError(() -> kms.decrypt(b -> b.ciphertextBlob(pair.privateKeyCiphertextBlob())), 400,
                "InvalidCiphertextException");
    }

    @Test
    void generateDataKeyPairWithoutPlaintextHasNoPrivateKey() {
        var pair = kms.generateDataKeyPairWithoutPlaintext(b -> b.keyId(aes())
                .keyPairSpec(DataKeyPairSpec.ECC_NIST_P256));
        assertThat(pair.publicKey().asByteArray()).isNotEmpty();
        assertThat(kms.decrypt(b -> b.ciphertextBlob(pair.privateKeyCiphertextBlob())).plaintext().asByteArray())
                .isNotEmpty();
    }

    @Test
    void listKeysPagesWithLimitAndMarker() {
        var first = kms.listKeys(b -> b.limit(1));
        assertThat(first.keys()).hasSize(1);
        assertThat(first.truncated()).isTrue();
        var rest = kms.listKeys(b -> b.limit(100).marker(first.nextMarker()));
        assertThat(rest.truncated()).isFalse();
        assertThat(rest.keys()).hasSize(3 * AwsKmsEmulator.KEYS_PER_KIND).doesNotContainAnyElementsOf(first.keys());
        assertAwsError(() -> kms.listKeys(b -> b.marker("bogus")), 400, "InvalidMarkerException");
        assertAwsError(() -> kms.generateRandom(b -> { }), 400, "ValidationException");
    }
}
