package org.trustload.jmeter.kms;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.testbeans.gui.FileEditor;
import org.apache.jmeter.testbeans.gui.PasswordEditor;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.ClientConfig;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.kms.KmsConnection;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsRequest;

/**
 * The KMS Client Config + KMS Request pair without a KMS server: serialization, GUI metadata, the
 * bad-configuration table (every wrong setting is one zero-time {@code configError} sample naming
 * element, property and file, that stops the thread; never an exception), closing at test end,
 * verify-invalid as a failure, and no secret in any result. The backends against real servers: the
 * lab and moto tests, and the plans' KmsBadConfigIT.
 */
class KmsRequestSamplerTest {
    private static final String CONFIG = "KMS Client Config 'kms unit config'";
    private static final String REQUEST = "KMS Request 'kms unit'";

    @BeforeAll
    static void jmeter() {
        JMeterTestSupportAccess.init();
    }

    private Pair pair;

    @AfterEach
    void endTest() {
        if (pair != null) {
            pair.end();
        }
    }

    /** A config and a request that names it, driven as JMeter drives them. */
    static final class Pair {
        private static int names;
        final KmsClientConfig config = new KmsClientConfig();
        final KmsRequestSampler sampler = new KmsRequestSampler();
        private boolean started;

        Pair() {
            String name = "kms-unit-" + ++names;
            config.setName("kms unit config");
            config.setConfigName(name);
            sampler.setName("kms unit");
            sampler.setConfigName(name);
            config.setBackend("aws-kms");
            config.setEndpoint("http://127.0.0.1:1");
            config.setRegion("us-east-1");
            config.setAccessKeyId("AKIAUNIT");
            config.setSecretAccessKey("unit-secret-key");
            config.setClientKeyPassword("unit-client-password");
            config.setConnectTimeout("1000");
            config.setResponseTimeout("1000");
            sampler.setOperation("encrypt");
            sampler.setKeyId("alias/k");
        }

        /** Sets {@code name=value,...} on the request, or on the config for its properties. */
        Pair with(String settings) {
            for (String kv : settings.split(",")) {
                int eq = kv.indexOf('=');
                String name = kv.substring(0, eq).trim();
                String value = kv.substring(eq + 1).trim();
                String setter = "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
                try {
                    Object target = sampler;
                    Method m;
                    try {
                        m = KmsRequestSampler.class.getMethod(setter, String.class);
                    } catch (NoSuchMethodException e) {
                        m = KmsClientConfig.class.getMethod(setter, String.class);
                        target = config;
                    }
                    m.invoke(target, value);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalArgumentException(name, e);
                }
            }
            return this;
        }

        SampleResult sample() {
            if (!started) {
                config.testStarted();
                sampler.threadStarted();
                started = true;
            }
            return sampler.sample(null);
        }

        /** Thread end, then test end: the config closes its client. */
        void end() {
            if (started) {
                sampler.threadFinished();
                config.testEnded();
                started = false;
            }
        }
    }

    private Pair pair(String settings) {
        pair = new Pair();
        return settings.isEmpty() ? pair : pair.with(settings);
    }

    private static int refusedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown backend      | backend=nope                  | CONFIG:backend: unknown backend 'nope' (available: ",
        "bad timeout          | responseTimeout=0             | CONFIG:responseTimeout: 0 is out of range 1-",
        "timeout text         | connectTimeout=soon           | CONFIG:connectTimeout: not a whole number: 'soon'",
        "no connections       | maxConnections=0              | CONFIG:maxConnections: 0 is out of range 1-100000",
        "negative retries     | retries=-1                    | CONFIG:retries: -1 is out of range 0-100",
        "endpoint not a URL   | endpoint=http://[bad          | CONFIG:endpoint: not a URL: 'http://[bad'",
        "endpoint scheme      | endpoint=ftp://127.0.0.1:21   | CONFIG:endpoint: must be http(s)://host[:port], was "
                + "'ftp://127.0.0.1:21'",
        "unknown host         | endpoint=http://no-such-host.invalid:1 | CONFIG:endpoint: unknown host "
                + "'no-such-host.invalid'",
        "missing CA file      | caFile=/nonexistent/ca.pem    | CONFIG:caFile: file not found (/nonexistent/ca.pem)",
        "missing client key   | clientKeyFile=/nonexistent/ClientKey.json | CONFIG:clientKeyFile: file not found "
                + "(/nonexistent/ClientKey.json)",
        "half credentials     | secretAccessKey=              | CONFIG:secretAccessKey: set both the access key id and "
                + "the secret access key",
        "no config named so   | configName=nosuch             | REQUEST:configName: no KMS Client Config named "
                + "'nosuch' in this test plan",
        "unknown operation    | operation=delete              | REQUEST:operation: unknown operation 'delete'",
        "bad message type     | messageType=HASH              | REQUEST:messageType: unknown value 'HASH' (expected "
                + "raw, digest)",
        "data size text       | dataSize=lots                 | REQUEST:dataSize: not a whole number: 'lots'",
        "data size zero       | dataSize=0                    | REQUEST:dataSize: must be 1 to 4096 bytes",
        "data size too large  | dataSize=5000                 | REQUEST:dataSize: 5000 is out of range 0-4096",
        "no key id            | keyId=                        | REQUEST:keyId: encrypt needs a key id",
        "no secret name       | operation=get_secret_value    | REQUEST:secretName: get_secret_value needs a secret "
                + "name",
        "context not pairs    | encryptionContext=no-pairs-here | REQUEST:encryptionContext: the encryption context "
                + "must be",
        "operation not served | backend=test-limited,endpoint=valid,operation=describe_key | REQUEST:operation: the "
                + "test-limited backend does not serve describe_key (it serves encrypt)",
    })
    void aWrongSettingIsOneConfigErrorSampleNamingElementAndPropertyThatStopsTheThread(String what, String settings,
            String expected) {
        SampleResult r = pair(settings).sample();
        String message = expected.replace("CONFIG:", CONFIG + ": ").replace("REQUEST:", REQUEST + ": ");
        assertThat(r.isSuccessful()).as(what).isFalse();
        assertThat(r.getResponseCode()).as(what + ": " + r.getResponseDataAsString())
                .isEqualTo(ClientException.CONFIG_ERROR);
        assertThat(r.getResponseMessage()).as(what).startsWith(message);
        assertThat(r.isStopThread()).as(what + ": the same request cannot succeed").isTrue();
        assertThat(r.getResponseDataAsString()).as(what + ": one readable cause").doesNotContain("\tat ")
                .doesNotContain("Exception: ");
        assertNoSecrets(r);
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> hostileInputs() {
        return org.trustload.jmeter.common.HostileInputChecks.everyTextProperty(KmsRequestSampler.class,
                KmsClientConfig.class);
    }

    /**
     * The generated corpus of bad input in every text property of the pair, one at a time ({@code
     * HostileInputChecks}).
     */
    @ParameterizedTest(name = "{0} = {1}")
    @org.junit.jupiter.params.provider.MethodSource("hostileInputs")
    void everyTextPropertyTakesTheHostileCorpusWithOneClearOutcome(String property,
            org.trustload.testing.HostileInputs.Input input) throws Exception {
        Pair p = pair("");
        Object target = p.sampler;
        Method setter;
        try {
            setter = KmsRequestSampler.class.getMethod("set" + property, String.class);
        } catch (NoSuchMethodException e) {
            setter = KmsClientConfig.class.getMethod("set" + property, String.class);
            target = p.config;
        }
        setter.invoke(target, input.value());
        long t0 = System.nanoTime();
        SampleResult r = p.sample();
        org.trustload.jmeter.common.HostileInputChecks.assertOneClearOutcome(r, (System.nanoTime() - t0) / 1_000_000,
                property, input, "unit-secret-key", "unit-client-password");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "nothing listens      | endpoint=http://127.0.0.1:PORT | KMS.ConnectionError | -:ConnectionRefused | true",
        "throttled            | backend=test-scripted,endpoint=throttled | KMS.LimitExceeded | 429:ThrottlingException "
                + "| false",
        "invalid signature    | backend=test-scripted,endpoint=invalid-signature,operation=verify | KMS.VerifyFailed | "
                + "-:SignatureInvalid | false",
        "invalid MAC          | backend=test-scripted,endpoint=invalid-signature,operation=verify_mac | "
                + "KMS.VerifyFailed | -:MacInvalid | false",
        "context mismatch     | "
                + "backend=test-scripted,endpoint=context-required,operation=decrypt,encryptionContext=tenant=other | "
                + "KMS.ClientError | 400:InvalidCiphertextException | false",
        "other plaintext      | backend=test-scripted,endpoint=wrong-plaintext,operation=decrypt | KMS.WrongOutput | "
                + "-:PlaintextMismatch | false",
        "empty ciphertext     | backend=test-scripted,endpoint=empty-output,operation=encrypt | KMS.WrongOutput | "
                + "-:EmptyOutput | false",
        "empty signature      | backend=test-scripted,endpoint=empty-output,operation=sign | KMS.WrongOutput | "
                + "-:EmptyOutput | false",
        "empty data key       | backend=test-scripted,endpoint=empty-output,operation=generate_data_key | "
                + "KMS.WrongOutput | -:EmptyOutput | false",
    })
    void aFailedCallIsAFailedSampleWithACategory(String what, String settings, String code, String message,
            boolean stops) throws Exception {
        SampleResult r = pair(settings.replace("PORT", String.valueOf(refusedPort()))).sample();
        assertThat(r.isSuccessful()).as(what).isFalse();
        assertThat(r.getResponseCode()).as(what + ": " + r.getResponseDataAsString()).isEqualTo(code);
        assertThat(r.getResponseMessage()).as(what).isEqualTo(message);
        assertThat(r.isStopThread()).as(what + ": stops a thread that never reached the KMS").isEqualTo(stops);
        assertNoSecrets(r);
    }

    /**
     * An endpoint that answers HTTP 200 with something that is not the KMS JSON protocol (a maintenance page, a
     * proxy's answer) is a bad answer of the service, not a connection failure: {@code KMS.ServerError
     * -:MalformedResponse}, one readable cause, no parser stack trace; the thread goes on. Against a real server
     * on 127.0.0.1 answering the faults bench's garbage, an HTML body as JSON and an HTML page.
     */
    @ParameterizedTest
    @ValueSource(strings = {"application/x-amz-json-1.1", "text/html"})
    void anAnswerThatIsNotJsonIsAMalformedResponseNotAConnectionError(String contentType) {
        byte[] html = "<html><body>maintenance</body></html>".getBytes(StandardCharsets.UTF_8);
        try (org.trustload.testing.FaultServer garbage = org.trustload.testing.FaultServer.answering(
                org.trustload.testing.FaultServer.Garbage.http(200, contentType, html))) {
            for (String op : new String[] {"encrypt", "get_secret_value"}) {
                SampleResult r = pair("endpoint=http://127.0.0.1:" + garbage.port() + ",operation=" + op
                        + ",secretName=s").sample();
                assertThat(r.isSuccessful()).isFalse();
                assertThat(r.getResponseCode()).as(op + ": " + r.getResponseDataAsString())
                        .isEqualTo("KMS.ServerError");
                assertThat(r.getResponseMessage()).isEqualTo("-:MalformedResponse");
                assertThat(r.getResponseDataAsString()).as("one readable cause, no stack trace")
                        .contains("not the KMS JSON protocol").doesNotContain("\tat ").doesNotContain("\n\tat")
                        .hasSizeLessThan(4000);
                assertThat(r.isStopThread()).isFalse();
                assertNoSecrets(r);
                pair.end();
            }
        }
    }

    @Test
    void aSuccessShowsLengthsButNeverTheOutput() {
        SampleResult r = pair("backend=test-scripted,endpoint=valid,operation=sign").sample();
        assertThat(r.isSuccessful()).isTrue();
        assertThat(r.getResponseCode()).isEqualTo("200");
        assertThat(r.getResponseDataAsString()).contains("sign: 16 bytes out").doesNotContain("secret-plaintext");
        assertThat(r.getSamplerData()).startsWith("test-scripted ");
        assertNoSecrets(r);
    }

    @Test
    void aDecryptSucceedsOnlyWithThePlaintextItsThreadEncryptedAndNeverShowsIt() {
        SampleResult r = pair("backend=test-scripted,endpoint=valid,operation=decrypt,dataSize=24").sample();
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseDataAsString()).contains("decrypt: 24 bytes out");
        pair.end();
        SampleResult wrong =
                pair("backend=test-scripted,endpoint=wrong-plaintext,operation=decrypt,dataSize=24").sample();
        assertThat(wrong.isSuccessful()).isFalse();
        assertThat(wrong.getResponseDataAsString()).contains("decrypt: 16 bytes out",
                "decrypt returned 16 bytes that are not the 24 bytes encrypted");
        assertNoSecrets(wrong);
    }

    static void assertNoSecrets(SampleResult r) {
        String all = r.getResponseDataAsString() + r.getSamplerData() + r.getResponseMessage() + r.getResponseHeaders();
        assertThat(all).doesNotContain("unit-secret-key").doesNotContain("unit-client-password")
                .doesNotContain("secret-plaintext");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tenant=acme", "{\"tenant\":\"acme\"}", " tenant = acme "})
    void theEncryptionContextReachesTheRequestInEitherSyntax(String context) {
        for (String op : new String[] {"encrypt", "decrypt", "re_encrypt", "generate_data_key",
            "generate_data_key_without_plaintext"}) {
            Pair p = pair("backend=test-scripted,endpoint=context-required,operation=" + op);
            p.sampler.setEncryptionContext(context);
            SampleResult r = p.sample();
            assertThat(r.isSuccessful()).as(op + ": " + r.getResponseDataAsString()).isTrue();
            assertThat(r.getSamplerData()).contains("context=1 pairs").doesNotContain("acme");
            p.end();
        }
    }

    @Test
    void aPropertyChangedBetweenSamplesIsParsedAgainAndAnUnchangedOneIsNot() {
        Pair p = pair("backend=test-scripted,endpoint=valid,operation=encrypt,dataSize=16");
        SampleResult first = p.sample();
        assertThat(first.isSuccessful()).isTrue();
        assertThat(first.getSentBytes()).isEqualTo(16);
        assertThat(p.sample().getSamplerData()).as("same values: the prepared request is reused")
                .isSameAs(first.getSamplerData());
        p.with("dataSize=24"); // e.g. a ${variable} that changed this iteration
        SampleResult changed = p.sample();
        assertThat(changed.isSuccessful()).isTrue();
        assertThat(changed.getSentBytes()).as("the new size is used").isEqualTo(24);
        p.with("dataSize=many");
        assertThat(p.sample().getResponseCode()).as("a new invalid value is still refused")
                .isEqualTo(ClientException.CONFIG_ERROR);
        p.end();
    }

    @Test
    void everyOperationRunsThroughTheScriptedBackend() {
        for (String op : new String[] {"encrypt", "decrypt", "sign", "verify", "get_secret_value", "generate_data_key",
            "generate_random", "get_public_key", "describe_key", "generate_mac", "verify_mac"}) {
            Pair p = pair("backend=test-scripted,endpoint=valid,secretName=s,operation=" + op);
            SampleResult r = p.sample();
            assertThat(r.isSuccessful()).as(op + ": " + r.getResponseDataAsString()).isTrue();
            p.end();
        }
    }

    @Test
    void theConfigOpensOneClientAtTestStartAndClosesItAtTestEnd() throws Exception {
        int opened = ScriptedKmsBackend.OPENED.get();
        int closed = ScriptedKmsBackend.CLOSED.get();
        Pair p = pair("backend=test-scripted,endpoint=valid");
        for (int i = 0; i < 3; i++) {
            assertThat(p.sample().isSuccessful()).isTrue();
        }
        assertThat(ScriptedKmsBackend.OPENED.get() - opened).as("one client per test, shared").isEqualTo(1);
        assertThat(ScriptedKmsBackend.CLOSED.get() - closed).isZero();
        p.end();
        assertThat(ScriptedKmsBackend.CLOSED.get() - closed).as("closed at test end").isEqualTo(1);
        assertThat(p.config.client()).as("the config forgets its client").isNull();
        // and the next test builds a new one
        assertThat(p.sample().isSuccessful()).isTrue();
        assertThat(ScriptedKmsBackend.OPENED.get() - opened).isEqualTo(2);
    }

    @Test
    void theRealAwsClientIsClosedAtTestEnd() throws Exception {
        Pair p = pair("");
        p.config.testStarted();
        KmsConnection c = ClientConfig.find(KmsConnection.class, KmsClientConfig.KIND, p.sampler.getConfigName(),
                new PropertyParser("test"));
        assertThat(c.backend()).isEqualTo("aws-kms");
        p.config.testEnded();
        try {
            c.execute(KmsRequest.encrypt("alias/k", new byte[] {1}));
            throw new AssertionError("a closed client must refuse requests");
        } catch (KmsException e) {
            assertThat(e.errorCode()).isEqualTo("ClientClosed");
        }
    }

    @Test
    void bothElementsJavaSerializeWithoutTheirClientAndEachEngineBuildsItsOwn() throws Exception {
        Pair p = pair("backend=test-scripted,endpoint=valid");
        assertThat(p.sample().isSuccessful()).isTrue();
        assertThat(Modifier.isTransient(KmsRequestSampler.class.getDeclaredField("prepared").getModifiers())).isTrue();
        KmsClientConfig config = copy(p.config);
        KmsRequestSampler sampler = copy(p.sampler);
        p.end();
        assertThat(config.client()).as("no client travels to an engine").isNull();
        assertThat(config.getBackend()).isEqualTo("test-scripted");
        assertThat(sampler.getConfigName()).isEqualTo(p.sampler.getConfigName());
        // an engine: its own testStarted builds its own client
        config.testStarted();
        try {
            sampler.threadStarted();
            assertThat(sampler.sample(null).isSuccessful()).isTrue();
        } finally {
            sampler.threadFinished();
            config.testEnded();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T copy(T o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void aSavedPlanReloadsEveryPropertyIntoTheBeans() throws Exception {
        KmsClientConfig c = new KmsClientConfig();
        c.setName("saved config");
        c.setProperty(TestElement.TEST_CLASS, KmsClientConfig.class.getName());
        c.setProperty(TestElement.GUI_CLASS, "org.apache.jmeter.testbeans.gui.TestBeanGUI");
        c.setProperty("configName", "aliyun");
        c.setProperty("backend", "aliyun-kms-instance");
        c.setProperty("endpoint", "127.0.0.1:18600");
        c.setProperty("clientKeyFile", "ClientKey_x.json");
        c.setProperty("maxConnections", "64");
        KmsRequestSampler s = new KmsRequestSampler();
        s.setName("saved");
        s.setProperty(TestElement.TEST_CLASS, KmsRequestSampler.class.getName());
        s.setProperty(TestElement.GUI_CLASS, "org.apache.jmeter.testbeans.gui.TestBeanGUI");
        s.setProperty("configName", "aliyun");
        s.setProperty("operation", "generate_data_key_without_plaintext");
        s.setProperty("encryptionContext", "{\"tenant\":\"acme\"}");
        s.setProperty("dataKeyBytes", "16");
        // a plan saved before the config existed: its connection properties load and are ignored
        s.setProperty("endpoint", "http://old-style:1");
        s.setProperty("clientKeyPassword", "old-style-password");
        HashTree tree = new HashTree();
        tree.add(c);
        tree.add(s);
        ByteArrayOutputStream xml = new ByteArrayOutputStream();
        SaveService.saveTree(tree, xml);
        assertThat(xml.toString(StandardCharsets.UTF_8)).contains("name=\"encryptionContext\"")
                .contains("name=\"clientKeyFile\"");
        Path file = Files.createTempFile("kms-saved", ".jmx");
        Files.write(file, xml.toByteArray());
        HashTree loaded = SaveService.loadTree(file.toFile());
        Files.delete(file);
        KmsClientConfig config = null;
        KmsRequestSampler back = null;
        for (Object o : loaded.getArray()) {
            if (o instanceof KmsClientConfig k) {
                config = k;
            } else {
                back = (KmsRequestSampler) o;
            }
        }
        TestBeanHelper.prepare(config);
        TestBeanHelper.prepare(back);
        assertThat(config.getConfigName()).isEqualTo("aliyun");
        assertThat(config.getBackend()).isEqualTo("aliyun-kms-instance");
        assertThat(config.getMaxConnections()).isEqualTo("64");
        assertThat(back.getConfigName()).isEqualTo("aliyun");
        assertThat(back.getOperation()).isEqualTo("generate_data_key_without_plaintext");
        PropertyParser p = new PropertyParser("test");
        assertThat(back.spec(p).context().map()).containsEntry("tenant", "acme");
        assertThat(back.spec(p).dataKeyBytes()).isEqualTo(16);
    }

    static Stream<Class<?>> beans() {
        return Stream.of(KmsClientConfig.class, KmsRequestSampler.class);
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("beans")
    void everyPropertyIsGroupedHasADisplayNameADescriptionAndAMatchingDefault(Class<?> bean) throws Exception {
        ResourceBundle bundle = ResourceBundle.getBundle(bean.getName() + "Resources", Locale.ROOT);
        BeanInfo info = Introspector.getBeanInfo(bean);
        assertThat(info.getBeanDescriptor().getDisplayName()).isEqualTo(bundle.getString("displayName"))
                .endsWith("(TrustLoad)");
        Object fresh = bean.getDeclaredConstructor().newInstance();
        TreeSet<String> grouped = new TreeSet<>();
        for (PropertyDescriptor pd : info.getPropertyDescriptors()) {
            Object group = pd.getValue("group");
            if (group == null) {
                continue;
            }
            String n = pd.getName();
            grouped.add(n);
            assertThat(pd.getDisplayName()).as(n).isEqualTo(bundle.getString(n + ".displayName"));
            assertThat(pd.getShortDescription()).as(n).isEqualTo(bundle.getString(n + ".shortDescription"))
                    .isNotBlank();
            assertThat(bundle.containsKey(group + ".displayName")).as("group " + group).isTrue();
            Object def = pd.getValue("default");
            assertThat(pd.getReadMethod().invoke(fresh)).as(n).isEqualTo(def);
            Class<?> type = pd.getPropertyType() == boolean.class ? Boolean.class : pd.getPropertyType();
            assertThat(def).as(n + ": a default of another type makes JMeter warn").isInstanceOf(type);
            if (n.toLowerCase(Locale.ROOT).contains("password") || n.equals("secretAccessKey")) {
                assertThat(pd.getPropertyEditorClass()).as(n).isEqualTo(PasswordEditor.class);
            }
            if (n.endsWith("File")) {
                assertThat(pd.getPropertyEditorClass()).as(n).isEqualTo(FileEditor.class);
            }
        }
        TreeSet<String> declared = new TreeSet<>();
        // the element's own properties and those of our bases (ClientConfig: configName and the timeouts)
        for (Class<?> c = bean; c.getName().startsWith("org.trustload."); c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) && m.getName().startsWith("set")
                        && m.getParameterCount() == 1) {
                    declared.add(Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4));
                }
            }
        }
        declared.add(ClientConfig.CONFIG_NAME);
        assertThat(grouped).isEqualTo(declared);
        new KmsPeriodicReportBeanInfo();
    }
}
