package org.trustload.lab.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.dkms.gcs.openapi.models.Config;
import com.aliyun.dkms.gcs.openapi.util.models.RuntimeOptions;
import com.aliyun.dkms.gcs.sdk.Client;
import com.aliyun.dkms.gcs.sdk.models.DecryptRequest;
import com.aliyun.dkms.gcs.sdk.models.DecryptResponse;
import com.aliyun.dkms.gcs.sdk.models.EncryptRequest;
import com.aliyun.dkms.gcs.sdk.models.EncryptResponse;
import com.aliyun.dkms.gcs.sdk.models.GenerateDataKeyRequest;
import com.aliyun.dkms.gcs.sdk.models.GenerateDataKeyResponse;
import com.aliyun.dkms.gcs.sdk.models.GetPublicKeyRequest;
import com.aliyun.dkms.gcs.sdk.models.GetSecretValueRequest;
import com.aliyun.dkms.gcs.sdk.models.GetSecretValueResponse;
import com.aliyun.dkms.gcs.sdk.models.SignRequest;
import com.aliyun.dkms.gcs.sdk.models.SignResponse;
import com.aliyun.dkms.gcs.sdk.models.VerifyRequest;
import com.aliyun.tea.TeaException;
import com.aliyun.tea.TeaUnretryableException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.trustload.lab.LabContext;
import org.trustload.lab.SelfSignedTls;
import org.trustload.lab.TestPorts;

/** The emulator against the unmodified Alibaba KMS instance SDK: every operation, signatures, faults. */
class AliyunKmsEmulatorTest {
    @TempDir
    static Path dir;
    static AliyunKmsEmulator emulator;
    static Map<String, String> props;
    static Client https;
    static Client http;
    static KmsFaults faults = new KmsFaults();
    static SelfSignedTls tls;

    @BeforeAll
    static void start() throws Exception {
        emulator = new AliyunKmsEmulator();
        tls = SelfSignedTls.generate(dir, "kms", "trustload");
        emulator.start(new LabContext(TestPorts.freeBase(), 1, dir), tls.serverContext(), dir, faults);
        props = emulator.properties();
        https = new Client(config(props.get("kms.aliyun.endpoint"), "https"));
        http = new Client(config(props.get("kms.aliyun.http_endpoint"), "http"));
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static Config config(String endpoint, String protocol) {
        return new Config().setEndpoint(endpoint).setProtocol(protocol)
                .setClientKeyFile(props.get("kms.aliyun.client_key_file"))
                .setPassword(props.get("kms.aliyun.client_key_password"))
                .setCaFilePath(tls.pem().toString())
                .setConnectTimeout(2000).setReadTimeout(5000);
    }

    static RuntimeOptions noRetry() {
        return new RuntimeOptions().setAutoretry(false);
    }

    @Test
    void writesTheClientKeyFileTheSdkReadsAndAPemCa() throws Exception {
        String json = Files.readString(Path.of(props.get("kms.aliyun.client_key_file")));
        assertThat(json).startsWith("{\"KeyId\":\"KAAP.").contains("\"PrivateKeyData\":\"");
        assertThat(Files.readString(Path.of(props.get("kms.aliyun.client_key_password_file"))))
                .isEqualTo(props.get("kms.aliyun.client_key_password"));
    }

    @ParameterizedTest
    @CsvSource({"https", "http"})
    void encryptThenDecryptRoundTripsWithAesGcm(String protocol) throws Exception {
        Client c = protocol.equals("https") ? https : http;
        byte[] plain = "32 bytes of data for the bench!!".getBytes(StandardCharsets.US_ASCII);
        byte[] aad = "context".getBytes(StandardCharsets.US_ASCII);
        EncryptResponse enc = c.encryptWithOptions(new EncryptRequest().setKeyId(AliyunKmsEmulator.AES_KEY_ID)
                .setPlaintext(plain).setAad(aad), noRetry());
        assertThat(enc.getIv()).hasSize(12);
        assertThat(enc.getCiphertextBlob()).hasSize(plain.length + 16);
        DecryptResponse dec = c.decryptWithOptions(new DecryptRequest().setKeyId(AliyunKmsEmulator.AES_KEY_ID)
                .setCiphertextBlob(enc.getCiphertextBlob()).setIv(enc.getIv()).setAad(aad), noRetry());
        assertThat(dec.getPlaintext()).isEqualTo(plain);

        assertThatThrownBy(() -> c.decryptWithOptions(new DecryptRequest().setKeyId(AliyunKmsEmulator.AES_KEY_ID)
                .setCiphertextBlob(enc.getCiphertextBlob()).setIv(enc.getIv()), noRetry()))
                .isInstanceOfSatisfying(TeaException.class,
                        e -> assertThat(e.getCode()).isEqualTo("Rejected.InvalidCiphertext"));
    }

    @Test
    void theAadIsBoundIntoEncryptAndGenerateDataKeyCiphertexts() throws Exception {
        byte[] aad = "tenant=acme".getBytes(StandardCharsets.US_ASCII);
        EncryptResponse enc = https.encryptWithOptions(new EncryptRequest().setKeyId(AliyunKmsEmulator.AES_KEY_ID)
                .setPlaintext(new byte[] {1, 2, 3}).setAad(aad), noRetry());
        assertThatThrownBy(() -> https.decryptWithOptions(new DecryptRequest().setKeyId(AliyunKmsEmulator.AES_KEY_ID)
                .setCiphertextBlob(enc.getCiphertextBlob()).setIv(enc.getIv())
                .setAad("tenant=other".getBytes(StandardCharsets.US_ASCII)), noRetry()))
                .isInstanceOfSatisfying(TeaException.class,
                        e -> assertThat(e.getCode()).isEqualTo("Rejected.InvalidCiphertext"));
        GenerateDataKeyResponse dk = https.generateDataKeyWithOptions(new GenerateDataKeyRequest()
                .setKeyId(AliyunKmsEmulator.AES_KEY_ID).setNumberOfBytes(16).setAad(aad), noRetry());
        assertThat(https.decryptWithOptions(new DecryptRequest().setKeyId(AliyunKmsEmulator.AES_KEY_ID)
                .setCiphertextBlob(dk.getCiphertextBlob()).setIv(dk.getIv()).setAad(aad), noRetry()).getPlaintext())
                .isEqualTo(dk.getPlaintext());
        assertThatThrownBy(() -> https.decryptWithOptions(new DecryptRequest().setKeyId(AliyunKmsEmulator.AES_KEY_ID)
                .setCiphertextBlob(dk.getCiphertextBlob()).setIv(dk.getIv()), noRetry()))
                .isInstanceOfSatisfying(TeaException.class,
                        e -> assertThat(e.getCode()).isEqualTo("Rejected.InvalidCiphertext"));
    }

    @Test
    void generateRandomGivesTheAskedLength() throws Exception {
        assertThat(https.generateRandomWithOptions(
                new com.aliyun.dkms.gcs.sdk.models.GenerateRandomRequest().setLength(48),
                noRetry()).getRandom()).hasSize(48);
        assertThatThrownBy(() -> https.generateRandomWithOptions(
                new com.aliyun.dkms.gcs.sdk.models.GenerateRandomRequest()
                .setLength(0), noRetry()))
                .isInstanceOfSatisfying(TeaException.class, e -> assertThat(e.getCode()).isEqualTo("InvalidParameter"));
    }

    @Test
    void generateDataKeyReturnsAPlaintextKeyAndItsCiphertext() throws Exception {
        GenerateDataKeyResponse r = https.generateDataKeyWithOptions(new GenerateDataKeyRequest()
                .setKeyId(AliyunKmsEmulator.AES_KEY_ID).setNumberOfBytes(32), noRetry());
        assertThat(r.getPlaintext()).hasSize(32);
        DecryptResponse dec = https.decryptWithOptions(new DecryptRequest().setKeyId(AliyunKmsEmulator.AES_KEY_ID)
                .setCiphertextBlob(r.getCiphertextBlob()).setIv(r.getIv()), noRetry());
        assertThat(dec.getPlaintext()).isEqualTo(r.getPlaintext());
    }

    @Test
    void getSecretValueReturnsTheSecretAndUnknownNamesAre404() throws Exception {
        GetSecretValueResponse r = https.getSecretValueWithOptions(
                new GetSecretValueRequest().setSecretName(AliyunKmsEmulator.SECRET_NAME), noRetry());
        assertThat(r.getSecretData()).isEqualTo(AliyunKmsEmulator.SECRET_DATA);
        assertThatThrownBy(() -> https.getSecretValueWithOptions(
                new GetSecretValueRequest().setSecretName("nope"), noRetry()))
                .isInstanceOfSatisfying(TeaException.class, e -> {
                    assertThat(e.getCode()).isEqualTo("Forbidden.ResourceNotFound");
                    assertThat(e.getData()).containsEntry("httpCode", 404);
                });
    }

    /** Signatures are checked with the JDK's own algorithms over the raw message, not the emulator's code. */
    @ParameterizedTest
    @CsvSource({
        "key-trustload-rsa2048, RSA_PKCS1_SHA_256, RAW, SHA256withRSA",
        "key-trustload-rsa2048, RSA_PKCS1_SHA_256, DIGEST, SHA256withRSA",
        "key-trustload-rsa2048, RSA_PSS_SHA_256, RAW, RSASSA-PSS",
        "key-trustload-rsa2048, RSA_PSS_SHA_256, DIGEST, RSASSA-PSS",
        "key-trustload-ecp256, ECDSA_SHA_256, RAW, SHA256withECDSA",
        "key-trustload-ecp256, ECDSA_SHA_256, DIGEST, SHA256withECDSA",
    })
    void signaturesAreCorrectAndVerifyDetectsTampering(String keyId, String algorithm, String type, String jca)
            throws Exception {
        byte[] message = "the message to sign".getBytes(StandardCharsets.UTF_8);
        byte[] input = type.equals("RAW") ? message : MessageDigest.getInstance("SHA-256").digest(message);
        SignResponse s = https.signWithOptions(new SignRequest().setKeyId(keyId).setAlgorithm(algorithm)
                .setMessage(input).setMessageType(type), noRetry());

        Signature independent = Signature.getInstance(jca);
        if (jca.equals("RSASSA-PSS")) {
            independent.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
        }
        independent.initVerify(emulator.publicKey(keyId));
        independent.update(message);
        assertThat(independent.verify(s.getSignature())).isTrue();

        assertThat(https.verifyWithOptions(new VerifyRequest().setKeyId(keyId).setAlgorithm(algorithm)
                .setMessage(input).setMessageType(type).setSignature(s.getSignature()), noRetry()).getValue()).isTrue();
        byte[] tampered = s.getSignature().clone();
        tampered[tampered.length / 2] ^= 1;
        assertThat(https.verifyWithOptions(new VerifyRequest().setKeyId(keyId).setAlgorithm(algorithm)
                .setMessage(input).setMessageType(type).setSignature(tampered), noRetry()).getValue()).isFalse();
    }

    @Test
    void getPublicKeyReturnsPem() throws Exception {
        String pem = https.getPublicKeyWithOptions(new GetPublicKeyRequest().setKeyId(AliyunKmsEmulator.EC_KEY_ID),
                noRetry()).getPublicKey();
        assertThat(pem).startsWith("-----BEGIN PUBLIC KEY-----");
    }

    @Test
    void wrongAndUnknownKeysAreServiceErrors() {
        assertThatThrownBy(() -> https.encryptWithOptions(new EncryptRequest().setKeyId("key-nope")
                .setPlaintext(new byte[4]), noRetry()))
                .isInstanceOfSatisfying(TeaException.class,
                        e -> assertThat(e.getCode()).isEqualTo("Forbidden.KeyNotFound"));
        assertThatThrownBy(() -> https.signWithOptions(new SignRequest().setKeyId(AliyunKmsEmulator.AES_KEY_ID)
                .setMessage(new byte[4]).setMessageType("RAW"), noRetry()))
                .isInstanceOfSatisfying(TeaException.class, e -> assertThat(e.getCode()).isEqualTo("InvalidParameter"));
    }

    @Test
    void aRequestSignedWithAnotherKeyIsRejected() throws Exception {
        var other = KeyPairGenerator.getInstance("RSA");
        other.initialize(2048);
        String keyId = Files.readString(Path.of(props.get("kms.aliyun.client_key_file"))).split("\"")[3];
        Client forger = new Client(new Config().setEndpoint(props.get("kms.aliyun.endpoint")).setProtocol("https")
                .setAccessKeyId(keyId)
                .setPrivateKey(Base64.getEncoder().encodeToString(other.generateKeyPair().getPrivate().getEncoded()))
                .setCaFilePath(tls.pem().toString()));
        assertThatThrownBy(() -> forger.getSecretValueWithOptions(
                new GetSecretValueRequest().setSecretName(AliyunKmsEmulator.SECRET_NAME), noRetry()))
                .isInstanceOfSatisfying(TeaException.class, e -> {
                    assertThat(e.getCode()).isEqualTo("SignatureNotMatch");
                    assertThat(e.getData()).containsEntry("httpCode", 401);
                });
    }

    @Test
    void throttlingPerRequestHeaderGives429RejectedThrottling() {
        GetSecretValueRequest r = new GetSecretValueRequest().setSecretName(AliyunKmsEmulator.SECRET_NAME);
        r.requestHeaders = Map.of(KmsFaults.THROTTLE_HEADER, "true");
        // The SDK treats Rejected.Throttling as retryable: with retries off it still wraps it.
        assertThatThrownBy(() -> https.getSecretValueWithOptions(r, noRetry()))
                .isInstanceOf(TeaUnretryableException.class)
                .cause().isInstanceOfSatisfying(TeaException.class,
                        e -> assertThat(e.getCode()).isEqualTo("Rejected.Throttling"));
    }

    @Test
    void throttlingByLimitRejectsTheRequestsBeyondItInOneSecond() throws Exception {
        faults.tpsLimit(3);
        try {
            int ok = 0;
            int throttled = 0;
            for (int i = 0; i < 10; i++) {
                try {
                    https.getSecretValueWithOptions(
                            new GetSecretValueRequest().setSecretName(AliyunKmsEmulator.SECRET_NAME), noRetry());
                    ok++;
                } catch (TeaUnretryableException e) {
                    throttled++;
                }
            }
            // a second boundary may fall inside the loop: at most two windows of 3
            assertThat(ok).isBetween(3, 6);
            assertThat(throttled).isEqualTo(10 - ok);
        } finally {
            faults.tpsLimit(0);
        }
    }

    @Test
    void delayHeaderDelaysTheAnswer() throws Exception {
        GetSecretValueRequest r = new GetSecretValueRequest().setSecretName(AliyunKmsEmulator.SECRET_NAME);
        r.requestHeaders = Map.of(KmsFaults.DELAY_HEADER, "300");
        long t0 = System.nanoTime();
        https.getSecretValueWithOptions(r, noRetry());
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(300);
    }
}
