package org.trustload.lab.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.trustload.kms.EncryptionContext;
import org.trustload.kms.KmsBackend;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsRequest;
import org.trustload.kms.KmsResult;
import org.trustload.kms.KmsSettings;
import org.trustload.kms.MessageType;
import org.trustload.lab.LabContext;
import org.trustload.lab.SelfSignedTls;
import org.trustload.lab.TestPorts;

/**
 * The {@code aliyun-kms-instance} backend (lib) against the lab's emulator: every operation, and every
 * error category produced on purpose and mapped. Lives in the lab module because the emulator does.
 */
class AliyunKmsInstanceBackendTest {
    @TempDir
    static Path dir;
    static AliyunKmsEmulator emulator;
    static KmsFaults faults = new KmsFaults();
    static SelfSignedTls tls;
    static Map<String, String> props;
    static KmsBackend backend;
    /** Everything the error tests produced, checked for secrets at the end. */
    static final List<String> seen = new ArrayList<>();
    KmsClient client;

    @BeforeAll
    static void start() throws Exception {
        tls = SelfSignedTls.generate(dir, "kms", "trustload");
        emulator = new AliyunKmsEmulator();
        emulator.start(new LabContext(TestPorts.freeBase(), 1, dir), tls.serverContext(), dir, faults);
        props = emulator.properties();
        backend = KmsBackends.byName(KmsBackends.ALIYUN);
    }

    @AfterAll
    static void stop() throws Exception {
        String password = props.get("kms.aliyun.client_key_password");
        String privateKeyData = Files.readString(Path.of(props.get("kms.aliyun.client_key_file"))).split("\"")[7];
        emulator.close();
        assertThat(seen).isNotEmpty();
        for (String s : seen) {
            assertThat(s).doesNotContain(password).doesNotContain(privateKeyData.substring(0, 40));
        }
    }

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
        faults.tpsLimit(0);
        faults.delayMs(0);
    }

    static KmsSettings.Builder settings() {
        return KmsSettings.builder().endpoint(props.get("kms.aliyun.endpoint")).caFile(tls.pem().toString())
                .clientKey(props.get("kms.aliyun.client_key_file"), props.get("kms.aliyun.client_key_password"))
                .connectTimeoutMs(2000).responseTimeoutMs(5000).maxConnections(8);
    }

    KmsClient open(KmsSettings.Builder b) throws KmsException {
        client = backend.open(b.build());
        return client;
    }

    static KmsException expectFailure(ThrowingCall call) {
        KmsException e = catchThrowableOfType(call::run, KmsException.class);
        assertThat(e).as("a KmsException").isNotNull();
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        seen.add(e.getMessage() + "\n" + e.detail() + "\n" + trace);
        return e;
    }

    interface ThrowingCall {
        void run() throws Exception;
    }

    @ParameterizedTest
    @CsvSource({"https", "http"})
    void encryptDecryptAndDataKeysRoundTrip(String protocol) throws Exception {
        String endpoint = protocol.equals("https") ? props.get("kms.aliyun.endpoint")
                : "http://" + props.get("kms.aliyun.http_endpoint");
        KmsClient c = open(settings().endpoint(endpoint));
        byte[] plain = new byte[32];
        plain[3] = 7;
        KmsResult enc = c.execute(KmsRequest.encrypt(AliyunKmsEmulator.AES_KEY_ID, plain));
        assertThat(enc.output()).hasSize(1 + 12 + 32 + 16);
        assertThat(enc.requestId()).isNotEmpty();
        KmsResult dec = c.execute(KmsRequest.decrypt(AliyunKmsEmulator.AES_KEY_ID, enc.output()));
        assertThat(dec.output()).isEqualTo(plain);

        KmsResult dk = c.execute(KmsRequest.generateDataKey(AliyunKmsEmulator.AES_KEY_ID, 32));
        assertThat(c.execute(KmsRequest.decrypt(AliyunKmsEmulator.AES_KEY_ID, dk.output())).output()).hasSize(32);
    }

    @Test
    void getSecretValueReturnsTheSecret() throws Exception {
        KmsResult r = open(settings()).execute(KmsRequest.getSecretValue(AliyunKmsEmulator.SECRET_NAME));
        assertThat(new String(r.output(), StandardCharsets.UTF_8)).isEqualTo(AliyunKmsEmulator.SECRET_DATA);
    }

    @ParameterizedTest
    @CsvSource({
        "key-trustload-rsa2048, RSA_PKCS1_SHA_256, RAW, SHA256withRSA",
        "key-trustload-rsa2048, RSA_PSS_SHA_256, DIGEST, RSASSA-PSS",
        "key-trustload-ecp256, ECDSA_SHA_256, RAW, SHA256withECDSA",
        "key-trustload-ecp256, ECDSA_SHA_256, DIGEST, SHA256withECDSA",
        "key-trustload-rsa2048, '', RAW, SHA256withRSA",
    })
    void signVerifyIsCorrectAndATamperedSignatureIsInvalid(String keyId, String algorithm, MessageType type,
            String jca) throws Exception {
        KmsClient c = open(settings());
        byte[] message = "32 bytes of data to be signed!!!".getBytes(StandardCharsets.US_ASCII);
        byte[] input = type == MessageType.RAW ? message : MessageDigest.getInstance("SHA-256").digest(message);
        byte[] sig = c.execute(KmsRequest.sign(keyId, algorithm, type, input)).output();

        Signature independent = Signature.getInstance(jca);
        if (jca.equals("RSASSA-PSS")) {
            independent.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
        }
        independent.initVerify(emulator.publicKey(keyId));
        independent.update(message);
        assertThat(independent.verify(sig)).isTrue();

        assertThat(c.execute(KmsRequest.verify(keyId, algorithm, type, input, sig)).signatureValid()).isTrue();
        byte[] tampered = sig.clone();
        tampered[tampered.length - 5] ^= 0x10;
        assertThat(c.execute(KmsRequest.verify(keyId, algorithm, type, input, tampered)).signatureValid()).isFalse();
    }

    @Test
    void throttlingIsLimitExceeded() throws Exception {
        KmsClient c = open(settings());
        faults.tpsLimit(1);
        KmsException e = expectFailure(() -> {
            for (int i = 0; i < 20; i++) {
                c.execute(KmsRequest.getSecretValue(AliyunKmsEmulator.SECRET_NAME));
            }
        });
        assertThat(e.kind()).isEqualTo(KmsException.Category.LIMIT_EXCEEDED);
        assertThat(e.getMessage()).isEqualTo("429:Rejected.Throttling");
    }

    @Test
    void aDelayBeyondTheResponseTimeoutIsTimeout() throws Exception {
        KmsClient c = open(settings().responseTimeoutMs(300));
        faults.delayMs(1500);
        long t0 = System.nanoTime();
        KmsException e = expectFailure(() -> c.execute(KmsRequest.getSecretValue(AliyunKmsEmulator.SECRET_NAME)));
        assertThat(e.kind()).isEqualTo(KmsException.Category.TIMEOUT);
        assertThat(e.getMessage()).isEqualTo("-:ReadTimeout");
        // one attempt only: retries are off
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(1400);
    }

    @Test
    void aClosedPortIsConnectionRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        KmsClient c = open(settings().endpoint("127.0.0.1:" + port));
        KmsException e = expectFailure(() -> c.execute(KmsRequest.encrypt(AliyunKmsEmulator.AES_KEY_ID, new byte[32])));
        assertThat(e.kind()).isEqualTo(KmsException.Category.CONNECTION_ERROR);
        assertThat(e.getMessage()).isEqualTo("-:ConnectionRefused");
    }

    @Test
    void aWrongCaIsATlsError() throws Exception {
        Path other = Files.createDirectories(dir.resolve("other"));
        SelfSignedTls stranger = SelfSignedTls.generate(other, "stranger", "trustload");
        KmsClient c = open(settings().caFile(stranger.pem().toString()));
        KmsException e = expectFailure(() -> c.execute(KmsRequest.encrypt(AliyunKmsEmulator.AES_KEY_ID, new byte[32])));
        assertThat(e.kind()).isEqualTo(KmsException.Category.TLS_ERROR);
        assertThat(e.getMessage()).isEqualTo("-:TlsHandshake");
    }

    @Test
    void trustAllIsAnExplicitChoiceAndHttpsWithoutCaIsAConfigError() throws Exception {
        KmsException e = expectFailure(() -> open(settings().caFile("")));
        assertThat(e.kind()).isEqualTo(KmsException.Category.CONFIG_ERROR);
        assertThat(e.errorCode()).isEqualTo("MissingCa");
        KmsClient c = open(settings().caFile("").trustAll(true));
        assertThat(c.execute(KmsRequest.getSecretValue(AliyunKmsEmulator.SECRET_NAME)).output()).isNotEmpty();
    }

    @Test
    void aWrongKeyIdIsAClientError() throws Exception {
        KmsClient c = open(settings());
        KmsException e = expectFailure(() -> c.execute(KmsRequest.encrypt("key-does-not-exist", new byte[32])));
        assertThat(e.kind()).isEqualTo(KmsException.Category.CLIENT_ERROR);
        assertThat(e.getMessage()).isEqualTo("404:Forbidden.KeyNotFound");
        assertThat(e.detail()).contains("RequestId");
        KmsException secret = expectFailure(() -> c.execute(KmsRequest.getSecretValue("no-such-secret")));
        assertThat(secret.getMessage()).isEqualTo("404:Forbidden.ResourceNotFound");
    }

    @Test
    void aWrongClientKeyPasswordIsAConfigErrorWithoutThePassword() {
        KmsException e = expectFailure(() -> open(settings().clientKey(props.get("kms.aliyun.client_key_file"),
                "not-the-password")));
        assertThat(e.kind()).isEqualTo(KmsException.Category.CONFIG_ERROR);
        assertThat(e.errorCode()).isEqualTo("BadClientKeyPassword");
        assertThat(e.detail()).doesNotContain("not-the-password");
    }

    @Test
    void badSettingsAreConfigErrors() {
        assertThat(expectFailure(() -> open(settings().endpoint(""))).errorCode()).isEqualTo("MissingEndpoint");
        assertThat(expectFailure(() -> open(settings().endpoint("ftp://x:1"))).errorCode()).isEqualTo("BadEndpoint");
        assertThat(expectFailure(() -> open(settings().clientKey(dir.resolve("nope.json").toString(), "x")))
                .errorCode()).isEqualTo("ClientKeyFileNotFound");
        assertThat(expectFailure(() -> open(settings().caFile(dir.resolve("nope.pem").toString()))).errorCode())
                .isEqualTo("BadCaFile");
    }

    @Test
    void aForeignCiphertextIsAConfigError() throws Exception {
        KmsClient c = open(settings());
        assertThat(expectFailure(() ->
                c.execute(KmsRequest.decrypt(AliyunKmsEmulator.AES_KEY_ID, new byte[] {(byte) 200})))
                .errorCode()).isEqualTo("BadCiphertext");
        KmsResult enc = c.execute(KmsRequest.encrypt(AliyunKmsEmulator.AES_KEY_ID, new byte[32]));
        byte[] broken = enc.output().clone();
        broken[broken.length - 1] ^= 1;
        KmsException e = expectFailure(() -> c.execute(KmsRequest.decrypt(AliyunKmsEmulator.AES_KEY_ID, broken)));
        assertThat(e.getMessage()).isEqualTo("400:Rejected.InvalidCiphertext");
    }

    @Test
    void theEncryptionContextIsSentAsAadAndAMismatchIsInvalidCiphertext() throws Exception {
        KmsClient c = open(settings());
        EncryptionContext ctx = EncryptionContext.parse("tenant=acme");
        byte[] ct = c.execute(KmsRequest.encrypt(AliyunKmsEmulator.AES_KEY_ID, new byte[] {4}).withContext(ctx))
                .output();
        assertThat(c.execute(KmsRequest.decrypt(AliyunKmsEmulator.AES_KEY_ID, ct).withContext(ctx)).output())
                .containsExactly(4);
        for (String other : new String[] {"", "tenant=acme ,", "base64:AAEC"}) {
            KmsException e = expectFailure(() -> c.execute(KmsRequest.decrypt(AliyunKmsEmulator.AES_KEY_ID, ct)
                    .withContext(EncryptionContext.parse(other))));
            assertThat(e.getMessage()).as(other).isEqualTo("400:Rejected.InvalidCiphertext");
        }
        byte[] dk = c.execute(KmsRequest.generateDataKey(AliyunKmsEmulator.AES_KEY_ID, 32)
                .withContext(EncryptionContext.parse("base64:AAEC"))).output();
        assertThat(c.execute(KmsRequest.decrypt(AliyunKmsEmulator.AES_KEY_ID, dk)
                .withContext(EncryptionContext.parse("base64:AAEC"))).output()).hasSize(32);
    }

    @Test
    void generateRandomAndGetPublicKeyAndWhatTheBackendDoesNotServe() throws Exception {
        KmsClient c = open(settings());
        assertThat(c.execute(KmsRequest.generateRandom(24)).output()).hasSize(24);
        assertThat(new String(c.execute(KmsRequest.getPublicKey(AliyunKmsEmulator.RSA_KEY_ID)).output(),
                java.nio.charset.StandardCharsets.US_ASCII)).startsWith("-----BEGIN PUBLIC KEY-----");
        KmsException e = expectFailure(() -> c.execute(KmsRequest.describeKey(AliyunKmsEmulator.AES_KEY_ID)));
        assertThat(e.errorCode()).isEqualTo("UnsupportedOperation");
        assertThat(e.detail()).startsWith(
                "the aliyun-kms-instance backend does not serve describe_key (it serves encrypt,");
    }

    @Test
    void runsOnOurOneBouncyCastle() throws Exception {
        // The SDK drags bcprov/bcpkix-jdk15on; they are excluded, so its signing code runs on jdk18on 1.82.
        String where = org.bouncycastle.jce.provider.BouncyCastleProvider.class.getProtectionDomain()
                .getCodeSource().getLocation().toString();
        assertThat(where).contains("bcprov-jdk18on");
        assertThat(System.getProperty("java.class.path")).doesNotContain("jdk15on").doesNotContain("org.jacoco.agent");
        assertThat(open(settings()).execute(KmsRequest.getSecretValue(AliyunKmsEmulator.SECRET_NAME)).output())
                .isNotEmpty();
    }
}
