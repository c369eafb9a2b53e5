package org.trustload.lab.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.trustload.kms.EncryptionContext;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsException.Category;
import org.trustload.kms.KmsOperation;
import org.trustload.kms.KmsRequest;
import org.trustload.kms.KmsResult;
import org.trustload.kms.KmsSettings;
import org.trustload.kms.KmsWorkload;
import org.trustload.kms.MessageType;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;

/**
 * The {@code aws-kms} backend (real AWS SDK v2) against the lab's AWS emulator, in-process: every
 * operation, signatures checked independently with the JDK, and every error category produced on purpose.
 */
class AwsKmsEmulatorTest {

    @TempDir
    static Path socketDir;

    static KmsLabService service;
    static Map<String, String> props;
    static KmsClient client;

    @BeforeAll
    static void start() throws Exception {
        service = new KmsLabService();
        service.start(new LabContext(TestPorts.freeBase(), 0, socketDir));
        props = service.properties();
        client = open(b -> { });
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        service.close();
    }

    @AfterEach
    void resetFaults() {
        service.faults("aws").tpsLimit(0);
        service.faults("aws").delayMs(0);
    }

    static KmsClient open(Consumer<KmsSettings.Builder> tweak) throws KmsException {
        KmsSettings.Builder b = KmsSettings.builder().endpoint(props.get("kms.aws.endpoint"))
                .region(props.get("kms.aws.region"))
                .credentials(props.get("kms.aws.access_key_id"), props.get("kms.aws.secret_access_key"))
                .connectTimeoutMs(2000).responseTimeoutMs(5000).maxConnections(8);
        tweak.accept(b);
        return KmsBackends.byName("aws-kms").open(b.build());
    }

    static String aes() {
        return props.get("kms.aws.key_id");
    }

    @Test
    void encryptThenDecryptGivesThePlaintextBack() throws Exception {
        byte[] data = "32 bytes of data for the bench..".getBytes(StandardCharsets.US_ASCII);
        KmsResult enc = client.execute(KmsRequest.encrypt(aes(), data));
        assertThat(enc.output()).isNotEqualTo(data).hasSizeGreaterThan(data.length);
        KmsResult dec = client.execute(KmsRequest.decrypt(aes(), enc.output()));
        assertThat(dec.output()).isEqualTo(data);
        assertThat(dec.keyId()).endsWith(aes());
        assertThat(client.execute(KmsRequest.decrypt("", enc.output())).output()).isEqualTo(data);
    }

    @Test
    void aliasesWork() throws Exception {
        assertThat(client.execute(KmsRequest.encrypt("alias/trustload-aes", new byte[] {1})).output()).isNotEmpty();
    }

    @Test
    void generateDataKeyReturnsAnEncryptedKeyThatDecryptsTo32Bytes() throws Exception {
        KmsResult r = client.execute(KmsRequest.generateDataKey(aes(), 32));
        assertThat(client.execute(KmsRequest.decrypt(aes(), r.output())).output()).hasSize(32);
    }

    @Test
    void getSecretValueReturnsTheSecret() throws Exception {
        KmsResult r = client.execute(KmsRequest.getSecretValue(props.get("kms.aws.secret_name")));
        assertThat(new String(r.output(), StandardCharsets.UTF_8)).startsWith("{\"username\":\"trustload\"");
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "kms.aws.rsa_key_id, RSASSA_PSS_SHA_256, RAW", "kms.aws.rsa_key_id, RSASSA_PSS_SHA_256, DIGEST",
        "kms.aws.rsa_key_id, RSASSA_PSS_SHA_512, DIGEST", "kms.aws.rsa_key_id, RSASSA_PKCS1_V1_5_SHA_256, RAW",
        "kms.aws.rsa_key_id, RSASSA_PKCS1_V1_5_SHA_384, DIGEST", "kms.aws.ec_key_id, ECDSA_SHA_256, RAW",
        "kms.aws.ec_key_id, ECDSA_SHA_256, DIGEST"})
    void signaturesVerifyAndAreCorrectForTheRawMessage(String keyProp, String alg, MessageType type) throws Exception {
        String key = props.get(keyProp);
        byte[] data = new byte[32];
        new java.util.Random(7).nextBytes(data);
        byte[] message = type == MessageType.DIGEST ? KmsWorkload.digest(alg, data) : data;
        byte[] sig = client.execute(KmsRequest.sign(key, alg, type, message)).output();
        assertThat(client.execute(KmsRequest.verify(key, alg, type, message, sig)).signatureValid()).isTrue();
        // Independent check: a DIGEST signature must be the signature of the original data (moto gets this wrong).
        assertThat(jdkVerify(publicKey(key), alg, data, sig)).isTrue();
        byte[] tampered = sig.clone();
        tampered[tampered.length / 2] ^= 1;
        assertThat(client.execute(KmsRequest.verify(key, alg, type, message, tampered)).signatureValid()).isFalse();
    }

    @Test
    void signWithoutAlgorithmUsesTheKeysFirstAlgorithm() throws Exception {
        String key = props.get("kms.aws.ec_key_id");
        byte[] sig = client.execute(KmsRequest.sign(key, "", MessageType.RAW, new byte[] {1, 2, 3})).output();
        assertThat(client.execute(KmsRequest.verify(key, "", MessageType.RAW, new byte[] {1, 2, 3}, sig))
                .signatureValid()).isTrue();
    }

    @Test
    void workloadPreparesEveryCaseWithAContext() throws Exception {
        EncryptionContext ctx = EncryptionContext.parse("tenant=acme");
        for (KmsOperation op : KmsOperation.values()) {
            String key = switch (op) {
                case SIGN, VERIFY, GET_PUBLIC_KEY -> props.get("kms.aws.rsa_key_id");
                case GENERATE_MAC, VERIFY_MAC -> props.get("kms.aws.hmac_key_id");
                default -> aes();
            };
            String alg = op == KmsOperation.GENERATE_MAC || op == KmsOperation.VERIFY_MAC ? "" : "RSASSA_PSS_SHA_256";
            KmsRequest r = KmsWorkload.prepare(client, new KmsWorkload.Spec(op, key, 32, alg,
                    MessageType.DIGEST, props.get("kms.aws.secret_name"), 32, ctx), 1);
            KmsResult res = client.execute(r);
            assertThat(res.signatureValid()).as(op.name()).isTrue();
            if (op != KmsOperation.DESCRIBE_KEY && op != KmsOperation.VERIFY && op != KmsOperation.VERIFY_MAC) {
                assertThat(res.output()).as(op.name()).isNotEmpty();
            }
        }
    }

    @Test
    void theEncryptionContextIsBoundAndAMismatchIsInvalidCiphertext() throws Exception {
        EncryptionContext ctx = EncryptionContext.parse("{\"tenant\":\"acme\",\"purpose\":\"bench\"}");
        byte[] ct = client.execute(KmsRequest.encrypt(aes(), new byte[] {9}).withContext(ctx)).output();
        assertThat(client.execute(KmsRequest.decrypt(aes(), ct).withContext(EncryptionContext.parse(
                "purpose=bench, tenant=acme"))).output()).containsExactly(9);
        for (String other : new String[] {"", "tenant=acme", "tenant=acme,purpose=Bench"}) {
            assertThatThrownBy(() -> client.execute(KmsRequest.decrypt(aes(), ct)
                    .withContext(EncryptionContext.parse(other))))
                    .as(other).isInstanceOfSatisfying(KmsException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Category.CLIENT_ERROR);
                        assertThat(e.getMessage()).isEqualTo("400:InvalidCiphertextException");
                    });
        }
        byte[] dk = client.execute(KmsRequest.generateDataKey(aes(), 32).withContext(ctx)).output();
        assertThatThrownBy(() -> client.execute(KmsRequest.decrypt(aes(), dk)))
                .hasMessage("400:InvalidCiphertextException");
        assertThatThrownBy(() -> client.execute(KmsRequest.encrypt(aes(), new byte[] {1})
                .withContext(EncryptionContext.parse("no pairs here")))).isInstanceOfSatisfying(KmsException.class,
                        e -> assertThat(e.errorCode()).isEqualTo("BadEncryptionContext"));
    }

    @Test
    void newOperationsThroughTheBackend() throws Exception {
        assertThat(client.execute(KmsRequest.generateRandom(100)).output()).hasSize(100);
        assertThat(client.execute(KmsRequest.describeKey("alias/trustload-rsa")).keyId())
                .endsWith(props.get("kms.aws.rsa_key_id"));
        assertThat(client.execute(KmsRequest.getPublicKey(props.get("kms.aws.ec_key_id"))).output()).isNotEmpty();
        assertThatThrownBy(() -> client.execute(KmsRequest.getPublicKey(aes())))
                .hasMessage("400:UnsupportedOperationException");
        String hmac = props.get("kms.aws.hmac_key_id");
        byte[] mac = client.execute(KmsRequest.generateMac(hmac, "HMAC_SHA_256", new byte[] {1})).output();
        assertThat(client.execute(KmsRequest.verifyMac(hmac, "", new byte[] {2}, mac)).signatureValid()).isFalse();
        byte[] ct = client.execute(KmsRequest.encrypt(aes(), new byte[] {3})).output();
        byte[] re = client.execute(KmsRequest.reEncrypt("alias/trustload-aes", ct)).output();
        assertThat(re).isNotEqualTo(ct);
        assertThat(client.execute(KmsRequest.decrypt("", re)).output()).containsExactly(3);
        assertThatThrownBy(() -> client.execute(KmsRequest.generateRandom(2000))).hasMessage("400:ValidationException");
    }

    /* ---------------------------------------------------------------- error categories */

    @Test
    void throttlingIsLimitExceeded() throws Exception {
        service.faults("aws").tpsLimit(1);
        KmsException e = null;
        for (int i = 0; i < 5 && e == null; i++) {
            try {
                client.execute(KmsRequest.encrypt(aes(), new byte[] {1}));
            } catch (KmsException k) {
                e = k;
            }
        }
        assertThat(e).isNotNull();
        assertThat(e.category()).isEqualTo("KMS.LimitExceeded");
        assertThat(e.getMessage()).isEqualTo("429:ThrottlingException");
    }

    @Test
    void delayBeyondTheResponseTimeoutIsTimeout() throws Exception {
        service.faults("aws").delayMs(1500);
        try (KmsClient fast = open(b -> b.responseTimeoutMs(300))) {
            assertThatThrownBy(() -> fast.execute(KmsRequest.encrypt(aes(), new byte[] {1})))
                    .isInstanceOfSatisfying(KmsException.class, e -> {
                        assertThat(e.category()).isEqualTo("KMS.Timeout");
                        assertThat(e.getMessage()).startsWith("-:");
                    });
        }
    }

    @Test
    void unknownKeyIsClientError() {
        assertThatThrownBy(() -> client.execute(KmsRequest.encrypt("no-such-key", new byte[] {1})))
                .isInstanceOfSatisfying(KmsException.class, e -> {
                    assertThat(e.category()).isEqualTo("KMS.ClientError");
                    assertThat(e.getMessage()).isEqualTo("400:NotFoundException");
                });
    }

    @Test
    void wrongCredentialsAreClientError() throws Exception {
        try (KmsClient bad = open(b -> b.credentials("AKIAWRONG", "wrong-secret"))) {
            assertThatThrownBy(() -> bad.execute(KmsRequest.encrypt(aes(), new byte[] {1})))
                    .isInstanceOfSatisfying(KmsException.class, e -> {
                        assertThat(e.getMessage()).isEqualTo("400:UnrecognizedClientException");
                        assertThat(e.detail()).doesNotContain("wrong-secret");
                    });
        }
    }

    @Test
    void connectionRefusedIsConnectionError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        try (KmsClient c = open(b -> b.endpoint("http://127.0.0.1:" + port))) {
            assertThatThrownBy(() -> c.execute(KmsRequest.encrypt(aes(), new byte[] {1})))
                    .isInstanceOfSatisfying(KmsException.class, e ->
                            assertThat(e.getMessage()).isEqualTo("-:ConnectionRefused"));
        }
    }

    @Test
    void httpsWithoutTrustIsTlsErrorAndWorksWithTheCaFileOrTrustAll() throws Exception {
        String https = props.get("kms.aws.https.endpoint");
        try (KmsClient c = open(b -> b.endpoint(https))) {
            assertThatThrownBy(() -> c.execute(KmsRequest.encrypt(aes(), new byte[] {1})))
                    .isInstanceOfSatisfying(KmsException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Category.TLS_ERROR);
                        assertThat(e.getMessage()).isEqualTo("-:TlsHandshake");
                    });
        }
        try (KmsClient c = open(b -> b.endpoint(https).caFile(props.get("kms.ca.file")))) {
            assertThat(c.execute(KmsRequest.encrypt(aes(), new byte[] {1})).output()).isNotEmpty();
        }
        try (KmsClient c = open(b -> b.endpoint(https).trustAll(true))) {
            assertThat(c.execute(KmsRequest.encrypt(aes(), new byte[] {1})).output()).isNotEmpty();
        }
    }

    @Test
    void badSettingsAreConfigErrors() {
        assertConfigError(() -> open(b -> b.endpoint("ftp://x")), "BadEndpoint", "endpoint");
        assertConfigError(() -> open(b -> b.caFile("/nonexistent.pem")), "BadCaFile", "caFile");
        assertConfigError(() -> open(b -> b.credentials("AKIA", "")), "IncompleteCredentials", "secretAccessKey");
        assertConfigError(() -> open(b -> b.endpoint("http://no-such-host.invalid:1")), "UnknownHost", "endpoint");
        assertConfigError(() -> KmsBackends.byName("nope"), "UnknownBackend", "backend");
        assertConfigError(() -> client.execute(KmsRequest.encrypt("", new byte[] {1})), "MissingKeyId", "keyId");
    }

    private static void assertConfigError(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String code,
            String setting) {
        assertThatThrownBy(call).isInstanceOfSatisfying(KmsException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(code);
            assertThat(e.isConfigError()).isTrue();
            assertThat(e.setting()).isEqualTo(setting);
        });
    }

    @Test
    void settingsNeverPrintSecrets() throws Exception {
        KmsSettings s = KmsSettings.builder().credentials("AKIA1", "s3cr3t").clientKey("k.json", "pw0rd").build();
        assertThat(s.toString()).doesNotContain("s3cr3t").doesNotContain("pw0rd").contains("AKIA1");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        new PrintStream(buf).print(KmsRequest.decrypt(aes(), new byte[] {42}));
        assertThat(buf.toString()).doesNotContain("42,");
    }

    /* ---------------------------------------------------------------- independent verification */

    static PublicKey publicKey(String keyId) throws Exception {
        // the emulator's key pair, read in-process: the test checks the math, not the transport
        var f = AwsKmsEmulator.class.getDeclaredField("keys");
        f.setAccessible(true);
        var emulatorField = KmsLabService.class.getDeclaredField("started");
        emulatorField.setAccessible(true);
        @SuppressWarnings("unchecked")
        var started = (java.util.List<KmsEmulator>) emulatorField.get(service);
        AwsKmsEmulator aws = (AwsKmsEmulator) started.stream().filter(e -> e.name().equals("aws")).findFirst().get();
        @SuppressWarnings("unchecked")
        Map<String, Object> keys = (Map<String, Object>) f.get(aws);
        Object key = keys.get(keyId);
        var pair = key.getClass().getDeclaredMethod("pair");
        pair.setAccessible(true);
        return ((java.security.KeyPair) pair.invoke(key)).getPublic();
    }

    static boolean jdkVerify(PublicKey pub, String alg, byte[] data, byte[] sig) throws Exception {
        String d = alg.endsWith("384") ? "SHA-384" : alg.endsWith("512") ? "SHA-512" : "SHA-256";
        Signature s;
        if (alg.startsWith("RSASSA_PSS")) {
            s = Signature.getInstance("RSASSA-PSS");
            s.setParameter(new PSSParameterSpec(d, "MGF1", new MGF1ParameterSpec(d),
                    Integer.parseInt(d.substring(4)) / 8, 1));
        } else if (alg.startsWith("RSASSA_PKCS1")) {
            s = Signature.getInstance(d.replace("-", "") + "withRSA");
        } else {
            s = Signature.getInstance(d.replace("-", "") + "withECDSA");
        }
        s.initVerify(KeyFactory.getInstance(pub.getAlgorithm()).generatePublic(
                new java.security.spec.X509EncodedKeySpec(pub.getEncoded())));
        s.update(data);
        return s.verify(sig);
    }
}
