package org.trustload.kms.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsRequest;
import org.trustload.kms.KmsSettings;
import org.trustload.kms.MessageType;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.model.KeySpec;
import software.amazon.awssdk.services.kms.model.KeyUsageType;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The {@code aws-kms} backend against moto 5.2.5 (an independent AWS emulator from PyPI, started here
 * from the venv {@code ci/fixtures/moto/venv.sh} makes), for what moto does like AWS: Encrypt, Decrypt,
 * GenerateDataKey, RAW Sign/Verify (RSA and ECDSA), GetSecretValue and its error codes. Not DIGEST
 * signatures (moto hashes the digest again) nor throttling (moto has none): the lab emulator covers those.
 */
class AwsKmsBackendMotoIT {
    static Process moto;
    static int port;
    static String aes;
    static String rsa;
    static String ec;
    static KmsClient client;

    @BeforeAll
    static void startMoto() throws Exception {
        Path root = Paths.get(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
        Process venv = new ProcessBuilder(root.resolve("ci/fixtures/moto/venv.sh").toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String server = new String(venv.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(venv.waitFor(10, TimeUnit.MINUTES) && venv.exitValue() == 0)
                .as("ci/fixtures/moto/venv.sh must install moto[server] 5.2.5 (PyPI)").isTrue();
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        Path log = Files.createTempFile("moto", ".log");
        moto = new ProcessBuilder(server, "-H", "127.0.0.1", "-p", String.valueOf(port)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!listening(port)) {
            assertThat(moto.isAlive()).as("moto_server exited; see " + log).isTrue();
            assertThat(System.nanoTime()).as("moto_server did not listen within 60 s").isLessThan(deadline);
            Thread.sleep(200);
        }
        setUpKeys();
        client = KmsBackends.byName("aws-kms").open(settings().build());
    }

    static KmsSettings.Builder settings() {
        return KmsSettings.builder().endpoint("http://127.0.0.1:" + port).region("us-east-1")
                .credentials("testing", "testing").connectTimeoutMs(5000).responseTimeoutMs(30000).maxConnections(4);
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Keys and the secret, made with the plain SDK (moto starts empty). */
    private static void setUpKeys() {
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing"));
        var endpoint = java.net.URI.create("http://127.0.0.1:" + port);
        try (var http = ApacheHttpClient.builder().build();
                var kms = software.amazon.awssdk.services.kms.KmsClient.builder().httpClient(http).region(Region.US_EAST_1)
                        .credentialsProvider(creds).endpointOverride(endpoint).build();
                var sm = SecretsManagerClient.builder().httpClient(http).region(Region.US_EAST_1)
                        .credentialsProvider(creds).endpointOverride(endpoint).build()) {
            aes = kms.createKey(b -> b.keySpec(KeySpec.SYMMETRIC_DEFAULT)).keyMetadata().keyId();
            rsa = kms.createKey(b -> b.keySpec(KeySpec.RSA_2048).keyUsage(KeyUsageType.SIGN_VERIFY)).keyMetadata().keyId();
            ec = kms.createKey(b -> b.keySpec(KeySpec.ECC_NIST_P256).keyUsage(KeyUsageType.SIGN_VERIFY)).keyMetadata().keyId();
            sm.createSecret(b -> b.name("trustload/moto").secretString("{\"password\":\"moto-secret\"}"));
        }
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        if (moto != null) {
            moto.destroy();
            if (!moto.waitFor(10, TimeUnit.SECONDS)) {
                moto.destroyForcibly();
            }
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
    void getSecretValue() throws Exception {
        assertThat(new String(client.execute(KmsRequest.getSecretValue("trustload/moto")).output(), StandardCharsets.UTF_8))
                .contains("moto-secret");
    }

    @Test
    void rawSignaturesVerifyThroughMotoAndTheJdk() throws Exception {
        byte[] msg = "message".getBytes(StandardCharsets.UTF_8);
        for (String[] k : new String[][] {{rsa, "RSASSA_PKCS1_V1_5_SHA_256", "SHA256withRSA"},
                {ec, "ECDSA_SHA_256", "SHA256withECDSA"}}) {
            byte[] sig = client.execute(KmsRequest.sign(k[0], k[1], MessageType.RAW, msg)).output();
            assertThat(client.execute(KmsRequest.verify(k[0], k[1], MessageType.RAW, msg, sig)).signatureValid()).isTrue();
            Signature jdk = Signature.getInstance(k[2]);
            jdk.initVerify(publicKey(k[0]));
            jdk.update(msg);
            assertThat(jdk.verify(sig)).as(k[1] + " checked by the JDK").isTrue();
            byte[] bad = sig.clone();
            bad[bad.length - 1] ^= 1;
            assertThat(client.execute(KmsRequest.verify(k[0], k[1], MessageType.RAW, msg, bad)).signatureValid()).isFalse();
        }
    }

    @Test
    void unknownKeyAndSecretAreClientErrors() {
        assertThatThrownBy(() -> client.execute(KmsRequest.encrypt("00000000-0000-0000-0000-000000000000", new byte[] {1})))
                .isInstanceOfSatisfying(KmsException.class, e -> {
                    assertThat(e.category().code()).isEqualTo("KMS.ClientError");
                    assertThat(e.getMessage()).isEqualTo("400:NotFoundException");
                });
        assertThatThrownBy(() -> client.execute(KmsRequest.getSecretValue("no-such-secret")))
                .isInstanceOfSatisfying(KmsException.class, e -> {
                    // AWS answers 400; moto 5.2.5 answers 404. Both are client errors.
                    assertThat(e.category().code()).isEqualTo("KMS.ClientError");
                    assertThat(e.getMessage()).isIn("400:ResourceNotFoundException", "404:ResourceNotFoundException");
                });
    }

    private static PublicKey publicKey(String keyId) throws Exception {
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing"));
        try (var kms = software.amazon.awssdk.services.kms.KmsClient.builder().httpClient(ApacheHttpClient.builder().build())
                .region(Region.US_EAST_1).credentialsProvider(creds)
                .endpointOverride(java.net.URI.create("http://127.0.0.1:" + port)).build()) {
            byte[] der = kms.getPublicKey(b -> b.keyId(keyId)).publicKey().asByteArray();
            String alg = keyId.equals(ec) ? "EC" : "RSA";
            return KeyFactory.getInstance(alg).generatePublic(new X509EncodedKeySpec(der));
        }
    }
}
