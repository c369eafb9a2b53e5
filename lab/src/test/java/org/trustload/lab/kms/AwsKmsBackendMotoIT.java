package org.trustload.lab.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.kms.EncryptionContext;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsRequest;
import org.trustload.kms.KmsSettings;
import org.trustload.kms.MessageType;
import software.amazon.awssdk.services.kms.model.KeySpec;
import software.amazon.awssdk.services.kms.model.KeyUsageType;

/**
 * The {@code aws-kms} backend (KMS Request's client) against moto 5.2.5 ({@link MotoServer}), for what moto
 * does like AWS: Encrypt, Decrypt, ReEncrypt and GenerateDataKey(WithoutPlaintext) with an encryption
 * context, GenerateRandom, GetPublicKey, DescribeKey, GenerateMac/VerifyMac, RAW Sign/Verify (RSA and
 * ECDSA), GetSecretValue and its error codes. Not DIGEST signatures (moto hashes the digest again) nor
 * throttling (moto has none): the lab emulator covers those ({@link AwsKmsEmulatorTest}).
 *
 * <p>CI budget: seconds, but ~1 min the first time on a machine: moto's install from PyPI (ci/test starts it in the
 * background while Maven builds, and this test waits for it).
 */
class AwsKmsBackendMotoIT {
    static MotoServer moto;
    static String aes;
    static String hmac;
    static String rsa;
    static String ec;
    static KmsClient client;

    @BeforeAll
    static void startMoto() throws Exception {
        moto = MotoServer.start();
        try (var kms = moto.kms(); var sm = moto.secrets()) {
            aes = kms.createKey(b -> b.keySpec(KeySpec.SYMMETRIC_DEFAULT)).keyMetadata().keyId();
            rsa = kms.createKey(b -> b.keySpec(KeySpec.RSA_2048).keyUsage(KeyUsageType.SIGN_VERIFY))
                    .keyMetadata().keyId();
            ec = kms.createKey(b -> b.keySpec(KeySpec.ECC_NIST_P256).keyUsage(KeyUsageType.SIGN_VERIFY))
                    .keyMetadata().keyId();
            hmac = kms.createKey(b -> b.keySpec(KeySpec.HMAC_256).keyUsage(KeyUsageType.GENERATE_VERIFY_MAC))
                    .keyMetadata()
                    .keyId();
            sm.createSecret(b -> b.name("trustload/moto").secretString("{\"password\":\"moto-secret\"}"));
        }
        client = KmsBackends.byName("aws-kms").open(KmsSettings.builder().endpoint(moto.endpoint()).region("us-east-1")
                .credentials("testing", "testing").connectTimeoutMs(5000).responseTimeoutMs(30000)
                .maxConnections(4).build());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        if (moto != null) {
            moto.close();
        }
    }

    @Test
    void encryptDecryptRoundTrip() throws Exception {
        byte[] data = new byte[32];
        data[3] = 7;
        byte[] ct = client.execute(KmsRequest.encrypt(aes, data)).output();
        assertThat(client.execute(KmsRequest.decrypt(aes, ct)).output()).isEqualTo(data);
    }

    @Test
    void generateDataKeyGivesA32ByteKey() throws Exception {
        byte[] ct = client.execute(KmsRequest.generateDataKey(aes, 32)).output();
        assertThat(client.execute(KmsRequest.decrypt(aes, ct)).output()).hasSize(32);
    }

    @Test
    void encryptionContextIsSentAndAMismatchIsInvalidCiphertext() throws Exception {
        EncryptionContext ctx = EncryptionContext.parse("tenant=acme,purpose=bench");
        byte[] ct = client.execute(KmsRequest.encrypt(aes, new byte[] {1, 2}).withContext(ctx)).output();
        assertThat(client.execute(KmsRequest.decrypt(aes, ct).withContext(EncryptionContext.parse(
                "{\"purpose\":\"bench\",\"tenant\":\"acme\"}"))).output()).containsExactly(1, 2);
        assertThatThrownBy(() -> client.execute(KmsRequest.decrypt(aes, ct)))
                .hasMessage("400:InvalidCiphertextException");
        byte[] re = client.execute(KmsRequest.reEncrypt(aes, ct).withContext(ctx)).output();
        assertThat(client.execute(KmsRequest.decrypt(aes, re).withContext(ctx)).output()).containsExactly(1, 2);
        byte[] dk = client.execute(KmsRequest.generateDataKeyWithoutPlaintext(aes, 16).withContext(ctx)).output();
        assertThat(client.execute(KmsRequest.decrypt(aes, dk).withContext(ctx)).output()).hasSize(16);
    }

    @Test
    void randomPublicKeyDescribeAndMacs() throws Exception {
        assertThat(client.execute(KmsRequest.generateRandom(48)).output()).hasSize(48);
        assertThat(client.execute(KmsRequest.getPublicKey(rsa)).output()).isNotEmpty();
        assertThat(client.execute(KmsRequest.describeKey(aes)).keyId()).endsWith(aes);
        // named: moto's DescribeKey lists no MacAlgorithms, so the backend's default cannot be found there
        byte[] mac = client.execute(KmsRequest.generateMac(hmac, "HMAC_SHA_256", new byte[] {5})).output();
        assertThat(client.execute(KmsRequest.verifyMac(hmac, "HMAC_SHA_256", new byte[] {5}, mac)).signatureValid())
                .isTrue();
        assertThat(client.execute(KmsRequest.verifyMac(hmac, "HMAC_SHA_256", new byte[] {6}, mac)).signatureValid())
                .isFalse();
    }

    @Test
    void getSecretValue() throws Exception {
        assertThat(new String(client.execute(KmsRequest.getSecretValue("trustload/moto")).output(),
                StandardCharsets.UTF_8))
                .contains("moto-secret");
    }

    @Test
    void rawSignaturesVerifyThroughMotoAndTheJdk() throws Exception {
        byte[] msg = "message".getBytes(StandardCharsets.UTF_8);
        for (String[] k : new String[][] {{rsa, "RSASSA_PKCS1_V1_5_SHA_256", "SHA256withRSA"},
                {ec, "ECDSA_SHA_256", "SHA256withECDSA"}}) {
            byte[] sig = client.execute(KmsRequest.sign(k[0], k[1], MessageType.RAW, msg)).output();
            assertThat(client.execute(KmsRequest.verify(k[0], k[1], MessageType.RAW, msg, sig)).signatureValid())
                    .isTrue();
            Signature jdk = Signature.getInstance(k[2]);
            jdk.initVerify(publicKey(k[0]));
            jdk.update(msg);
            assertThat(jdk.verify(sig)).as(k[1] + " checked by the JDK").isTrue();
            byte[] bad = sig.clone();
            bad[bad.length - 1] ^= 1;
            assertThat(client.execute(KmsRequest.verify(k[0], k[1], MessageType.RAW, msg, bad)).signatureValid())
                    .isFalse();
        }
    }

    @Test
    void unknownKeyAndSecretAreClientErrors() {
        assertThatThrownBy(() -> client.execute(
                KmsRequest.encrypt("00000000-0000-0000-0000-000000000000", new byte[] {1})))
                .isInstanceOfSatisfying(KmsException.class, e -> {
                    assertThat(e.category()).isEqualTo("KMS.ClientError");
                    assertThat(e.getMessage()).isEqualTo("400:NotFoundException");
                });
        assertThatThrownBy(() -> client.execute(KmsRequest.getSecretValue("no-such-secret")))
                .isInstanceOfSatisfying(KmsException.class, e -> {
                    // AWS answers 400; moto 5.2.5 answers 404. Both are client errors.
                    assertThat(e.category()).isEqualTo("KMS.ClientError");
                    assertThat(e.getMessage()).isIn("400:ResourceNotFoundException", "404:ResourceNotFoundException");
                });
    }

    private static PublicKey publicKey(String keyId) throws Exception {
        try (var kms = moto.kms()) {
            byte[] der = kms.getPublicKey(b -> b.keyId(keyId)).publicKey().asByteArray();
            return KeyFactory.getInstance(keyId.equals(ec) ? "EC" : "RSA").generatePublic(new X509EncodedKeySpec(der));
        }
    }
}
