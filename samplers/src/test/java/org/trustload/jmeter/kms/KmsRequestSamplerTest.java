package org.trustload.jmeter.kms;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;

/**
 * The sampler without a KMS: serialization, GUI metadata, the bad-input table (every bad setting is a
 * failed sample with a category and a stable message, never an exception), verify-invalid as a failure,
 * and no secret in any result. The backends against real servers: lab and moto tests.
 */
class KmsRequestSamplerTest {

    @BeforeAll
    static void jmeter() {
        JMeterTestSupportAccess.init();
    }

    @AfterEach
    void endTest() {
        new KmsRequestSampler().testEnded();
    }

    static KmsRequestSampler sampler(Consumer<KmsRequestSampler> tweak) {
        KmsRequestSampler s = new KmsRequestSampler();
        s.setName("kms unit");
        s.setBackend("aws-kms");
        s.setOperation("encrypt");
        s.setKeyId("alias/k");
        s.setEndpoint("http://127.0.0.1:1");
        s.setRegion("us-east-1");
        s.setAccessKeyId("AKIAUNIT");
        s.setSecretAccessKey("unit-secret-key");
        s.setClientKeyPassword("unit-client-password");
        s.setConnectTimeout("1000");
        s.setResponseTimeout("1000");
        tweak.accept(s);
        return s;
    }

    static SampleResult run(KmsRequestSampler s) {
        s.testStarted();
        s.threadStarted();
        try {
            return s.sample(null);
        } finally {
            s.threadFinished();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown backend      | backend=nope                 | KMS.ConfigError     | -:UnknownBackend",
        "unknown operation    | operation=delete             | KMS.ConfigError     | -:BadOperation",
        "bad message type     | messageType=HASH             | KMS.ConfigError     | -:BadMessageType",
        "data size text       | dataSize=lots                | KMS.ConfigError     | -:BadNumber",
        "data size zero       | dataSize=0                   | KMS.ConfigError     | -:BadDataSize",
        "data size too large  | dataSize=5000                | KMS.ConfigError     | -:BadDataSize",
        "timeout zero         | responseTimeout=0            | KMS.ConfigError     | -:BadTimeout",
        "no connections       | maxConnections=0             | KMS.ConfigError     | -:BadMaxConnections",
        "negative retries     | retries=-1                   | KMS.ConfigError     | -:BadRetries",
        "no key id            | keyId=                       | KMS.ConfigError     | -:MissingKeyId",
        "no secret name       | operation=get_secret_value   | KMS.ConfigError     | -:MissingSecretName",
        "endpoint not a URL   | endpoint=http://[bad         | KMS.ConfigError     | -:BadEndpoint",
        "endpoint scheme      | endpoint=ftp://127.0.0.1:21  | KMS.ConfigError     | -:BadEndpoint",
        "missing CA file      | caFile=/nonexistent/ca.pem   | KMS.ConfigError     | -:BadCaFile",
        "half credentials     | secretAccessKey=             | KMS.ConfigError     | -:IncompleteCredentials",
        "nothing listens      | endpoint=http://127.0.0.1:PORT | KMS.ConnectionError | -:ConnectionRefused",
        "throttled            | backend=test-scripted,endpoint=throttled | KMS.LimitExceeded | 429:ThrottlingException",
        "invalid signature    | backend=test-scripted,endpoint=invalid-signature,operation=verify | KMS.VerifyFailed | -:SignatureInvalid",
        "invalid MAC          | backend=test-scripted,endpoint=invalid-signature,operation=verify_mac | KMS.VerifyFailed | -:MacInvalid",
        "context not pairs    | encryptionContext=no-pairs-here | KMS.ConfigError   | -:BadEncryptionContext",
        "context mismatch     | backend=test-scripted,endpoint=context-required,operation=decrypt,encryptionContext=tenant=other | KMS.ClientError | 400:InvalidCiphertextException",
        "operation not served | backend=aliyun-kms-instance,operation=describe_key | KMS.ConfigError | -:UnsupportedOperation",
        "aliyun lacks MACs    | backend=aliyun-kms-instance,operation=GenerateMac | KMS.ConfigError | -:UnsupportedOperation",
    })
    void badInputIsAFailedSampleWithACategory(String what, String settings, String code, String message) throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closed = s.getLocalPort();
        }
        KmsRequestSampler s = sampler(x -> apply(x, settings.replace("PORT", String.valueOf(closed))));
        SampleResult r = run(s);
        assertThat(r.isSuccessful()).as(what).isFalse();
        assertThat(r.getResponseCode()).as(what + ": " + r.getResponseDataAsString()).isEqualTo(code);
        assertThat(r.getResponseMessage()).as(what).isEqualTo(message);
        assertNoSecrets(r);
    }

    @Test
    void aSuccessShowsLengthsButNeverTheOutput() {
        SampleResult r = run(sampler(x -> apply(x, "backend=test-scripted,endpoint=valid,operation=decrypt")));
        assertThat(r.isSuccessful()).isTrue();
        assertThat(r.getResponseCode()).isEqualTo("200");
        assertThat(r.getResponseDataAsString()).contains("decrypt: 16 bytes out").doesNotContain("secret-plaintext");
        assertNoSecrets(r);
    }

    static void assertNoSecrets(SampleResult r) {
        String all = r.getResponseDataAsString() + r.getSamplerData() + r.getResponseMessage() + r.getResponseHeaders();
        assertThat(all).doesNotContain("unit-secret-key").doesNotContain("unit-client-password")
                .doesNotContain("secret-plaintext");
    }

    private static void apply(KmsRequestSampler s, String settings) {
        for (String kv : settings.split(",")) {
            int eq = kv.indexOf('=');
            String name = kv.substring(0, eq).trim();
            String value = kv.substring(eq + 1).trim();
            try {
                Method m = KmsRequestSampler.class.getMethod("set" + Character.toUpperCase(name.charAt(0)) + name.substring(1),
                        String.class);
                m.invoke(s, value);
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException(name, e);
            }
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"tenant=acme", "{\"tenant\":\"acme\"}", " tenant = acme "})
    void theEncryptionContextReachesTheRequestInEitherSyntax(String context) {
        for (String op : new String[] {"encrypt", "decrypt", "re_encrypt", "generate_data_key",
            "generate_data_key_without_plaintext"}) {
            KmsRequestSampler s = sampler(x -> apply(x, "backend=test-scripted,endpoint=context-required,operation=" + op));
            s.setEncryptionContext(context);
            SampleResult r = run(s);
            assertThat(r.isSuccessful()).as(op + ": " + r.getResponseDataAsString()).isTrue();
            assertThat(r.getSamplerData()).contains("context=1 pairs").doesNotContain("acme");
        }
    }

    @Test
    void theNewOperationsRunThroughTheScriptedBackend() {
        for (String op : new String[] {"generate_random", "get_public_key", "describe_key", "generate_mac", "verify_mac"}) {
            SampleResult r = run(sampler(x -> apply(x, "backend=test-scripted,endpoint=valid,operation=" + op)));
            assertThat(r.isSuccessful()).as(op + ": " + r.getResponseDataAsString()).isTrue();
        }
    }

    @Test
    void aSavedPlanReloadsTheNewPropertiesIntoTheBean() throws Exception {
        KmsRequestSampler s = new KmsRequestSampler();
        s.setName("saved");
        s.setProperty(org.apache.jmeter.testelement.TestElement.TEST_CLASS, KmsRequestSampler.class.getName());
        s.setProperty(org.apache.jmeter.testelement.TestElement.GUI_CLASS, "org.apache.jmeter.testbeans.gui.TestBeanGUI");
        s.setProperty("operation", "generate_data_key_without_plaintext");
        s.setProperty("encryptionContext", "{\"tenant\":\"acme\"}");
        s.setProperty("dataKeyBytes", "16");
        // what the GUI stores beside them (TestBeanHelper sets absent properties to null)
        for (String[] p : new String[][] {{"keyId", "alias/k"}, {"dataSize", "32"}, {"algorithm", ""},
            {"messageType", "RAW"}, {"secretName", ""}}) {
            s.setProperty(p[0], p[1]);
        }
        org.apache.jorphan.collections.HashTree tree = new org.apache.jorphan.collections.HashTree();
        tree.add(s);
        ByteArrayOutputStream xml = new ByteArrayOutputStream();
        org.apache.jmeter.save.SaveService.saveTree(tree, xml);
        assertThat(xml.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("name=\"encryptionContext\"");
        java.nio.file.Path file = java.nio.file.Files.createTempFile("kms-saved", ".jmx");
        java.nio.file.Files.write(file, xml.toByteArray());
        org.apache.jorphan.collections.HashTree loaded = org.apache.jmeter.save.SaveService.loadTree(file.toFile());
        java.nio.file.Files.delete(file);
        KmsRequestSampler back = (KmsRequestSampler) loaded.getArray()[0];
        org.apache.jmeter.testbeans.TestBeanHelper.prepare(back);
        assertThat(back.getOperation()).isEqualTo("generate_data_key_without_plaintext");
        assertThat(back.getEncryptionContext()).isEqualTo("{\"tenant\":\"acme\"}");
        assertThat(back.spec().context().map()).containsEntry("tenant", "acme");
        assertThat(back.spec().dataKeyBytes()).isEqualTo(16);
    }

    @Test
    void elementJavaSerializesWithoutItsPreparedRequest() throws Exception {
        KmsRequestSampler s = sampler(x -> apply(x, "backend=test-scripted,endpoint=valid"));
        s.testStarted();
        assertThat(s.sample(null).isSuccessful()).isTrue();
        assertThat(Modifier.isTransient(KmsRequestSampler.class.getDeclaredField("prepared").getModifiers())).isTrue();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(s);
        }
        KmsRequestSampler copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (KmsRequestSampler) in.readObject();
        }
        assertThat(copy.getName()).isEqualTo("kms unit");
        assertThat(copy.getBackend()).isEqualTo("test-scripted");
        assertThat(copy.sample(null).isSuccessful()).isTrue();
    }

    @Test
    void everyBeanPropertyHasADisplayNameAndDescription() throws Exception {
        for (Class<?> c : new Class<?>[] {KmsRequestSampler.class, KmsPeriodicReport.class}) {
            Properties res = new Properties();
            try (var in = c.getResourceAsStream(c.getSimpleName() + "Resources.properties")) {
                res.load(in);
            }
            assertThat(res.getProperty("displayName")).contains("(TrustLoad)");
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) && m.getName().startsWith("set") && m.getParameterCount() == 1) {
                    String p = Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
                    assertThat(res.getProperty(p + ".displayName")).as(c.getSimpleName() + "." + p).isNotBlank();
                    assertThat(res.getProperty(p + ".shortDescription")).as(c.getSimpleName() + "." + p).isNotBlank();
                }
            }
        }
        new KmsRequestSamplerBeanInfo();
        new KmsPeriodicReportBeanInfo();
    }
}
