package org.trustload.jmeter.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.trustload.jmeter.common.ClientConfig;
import org.trustload.ldap.LdapConnections;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Unit tests of the LDAP Connection Config + LDAP Request pair: serialization, the generated GUIs'
 * metadata, configuration errors, closing at test end, and password hygiene. Samples run against
 * UnboundID's in-memory server in this JVM.
 */
class LdapRequestSamplerTest {

    private static final String SECRET = "Sampler-S3cret-9f2c";
    private static final String BASE = "dc=testeperformance";
    private static final String ADMIN = "cn=admin," + BASE;

    private static InMemoryDirectoryServer server;

    @BeforeAll
    static void start() throws Exception {
        JMeterTestSupport.init();
        InMemoryDirectoryServerConfig cfg = new InMemoryDirectoryServerConfig(BASE);
        cfg.addAdditionalBindCredentials(ADMIN, SECRET);
        cfg.setListenerConfigs(
                InMemoryListenerConfig.createLDAPConfig("ldap", InetAddress.getLoopbackAddress(), 0, null));
        cfg.setSchema(null);
        server = new InMemoryDirectoryServer(cfg);
        server.add("dn: " + BASE, "objectClass: domain", "dc: testeperformance");
        server.add("dn: cn=fulano1," + BASE, "objectClass: person", "cn: fulano1", "sn: fulano1");
        for (int i = 1; i <= 20; i++) {
            server.add("dn: cn=user" + i + "," + BASE, "objectClass: person", "cn: user" + i, "sn: user" + i);
        }
        server.startListening();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.shutDown(true);
        }
    }

    private static LdapPair sampler(Consumer<LdapPair> custom) {
        LdapPair s = new LdapPair("ldap unit");
        s.setHost("127.0.0.1");
        s.setPort(String.valueOf(server.getListenPort()));
        s.setBindType("simple");
        s.setBindDn(ADMIN);
        s.setBindPassword(SECRET);
        s.setBaseDn(BASE);
        s.setFilter("(cn=fulano1)");
        custom.accept(s);
        return s;
    }

    static Stream<Arguments> hostileInputs() {
        return org.trustload.jmeter.common.HostileInputChecks.everyTextProperty(LdapPair.class);
    }

    /**
     * The generated corpus of bad input (empty, huge, malformed, hostile: {@code HostileInputs}) in every text
     * property, one at a time, the rest a working configuration: one clear outcome ({@code HostileInputChecks}).
     */
    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("hostileInputs")
    void everyTextPropertyTakesTheHostileCorpusWithOneClearOutcome(String property,
            org.trustload.testing.HostileInputs.Input input) throws Exception {
        Method setter = LdapPair.class.getMethod("set" + property, String.class);
        LdapPair s = sampler(x -> {
            try {
                setter.invoke(x, input.value());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            long t0 = System.nanoTime();
            SampleResult[] r = new SampleResult[1];
            assertThatCode(() -> r[0] = s.sample(null)).doesNotThrowAnyException();
            org.trustload.jmeter.common.HostileInputChecks.assertOneClearOutcome(r[0],
                    (System.nanoTime() - t0) / 1_000_000,
                    property, input, SECRET);
        } finally {
            s.end();
        }
    }

    static void assertNoSecret(SampleResult r, String secret) {
        assertThat(Stream.of(r.getSamplerData(), r.getResponseHeaders(), r.getRequestHeaders(),
                r.getResponseDataAsString(), r.getResponseMessage(), r.getResponseCode(), r.getSampleLabel(),
                r.getDataEncodingWithDefault(), r.getContentType()))
                .allSatisfy(field -> assertThat(String.valueOf(field)).doesNotContain(secret));
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    // ------------------------------------------------------------ serialization

    @Test
    void bothElementsJavaSerializeWithoutTheirLiveConnections() throws Exception {
        LdapPair p = sampler(x -> x.setConnectionMode("per-thread"));
        try {
            SampleResult first = p.sample(null);
            assertThat(first.isSuccessful()).as(first.getResponseDataAsString()).isTrue();
            assertThat(p.config.client().openCount()).as("live per-thread connection").isEqualTo(1);
            for (Class<?> c : List.of(ClientConfig.class, LdapRequestSampler.class)) {
                for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()
                            && f.getType() != String.class) {
                        assertThat(Modifier.isTransient(f.getModifiers())).as(c.getSimpleName() + "." + f.getName())
                                .isTrue();
                    }
                }
            }
            LdapConnectionConfig config = roundTrip(p.config);
            LdapRequestSampler request = roundTrip(p.sampler);
            assertThat(config.client()).isNull();
            assertThat(config.getConnectionMode()).isEqualTo("per-thread");
            assertThat(config.getPort()).isEqualTo(p.getPort());
            assertThat(config.getConfigName()).isEqualTo(p.config.getConfigName());
            assertThat(request.getConfigName()).isEqualTo(p.config.getConfigName());
            assertThat(request.getFilter()).isEqualTo("(cn=fulano1)");
            assertThat(p.sample(null).getResponseHeaders()).contains("connection: reused");
        } finally {
            p.end();
        }
    }

    // ------------------------------------------------------------ value patterns

    @Test
    void aValuePatternFilterDrawsAnotherEntryPerSampleAndSequentialRangesCountAcrossThreads() throws Exception {
        LdapPair p = sampler(x -> {
            x.setFilter("(cn=user[1-20])");
            x.setConnectionMode("per-thread");
        });
        try {
            Set<String> found = new TreeSet<>();
            for (int i = 0; i < 60; i++) {
                SampleResult r = p.sample(null);
                assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
                assertThat(r.getResponseMessage()).isEqualTo("search: 1 entry");
                assertThat(r.getSamplerData())
                        .contains("filter: (cn=user[1-20])", "sent: base " + BASE + ", filter (cn=user");
                found.add(r.getResponseDataAsString().lines().filter(l -> l.startsWith("dn: ")).findFirst()
                        .orElseThrow());
            }
            assertThat(found).as("60 random draws over 20 users").hasSizeGreaterThan(5);
        } finally {
            p.end();
        }
        // [1:20] counts up and wraps, one counter for the whole test: another thread's clone of the sampler shares it
        LdapPair q = sampler(x -> x.setFilter("(cn=user[1:20])"));
        LdapRequestSampler clone = new LdapRequestSampler();
        clone.setName(q.getName());
        clone.setConfigName(q.sampler.getConfigName());
        clone.setBaseDn(BASE);
        clone.setFilter("(cn=user[1:20])");
        try {
            assertThat(q.sample(null).getSamplerData()).contains("filter (cn=user1)");
            assertThat(clone.sample(null).getSamplerData()).contains("filter (cn=user2)");
            assertThat(q.sample(null).getSamplerData()).contains("filter (cn=user3)");
        } finally {
            clone.threadFinished();
            q.end();
        }
    }

    @Test
    void aFixedFilterIsSentAsItIsAndADoubledBracketIsALiteralOne() {
        LdapPair p = sampler(x -> {
            x.setFilter("(cn=[[x]])");
            x.setMinEntries("0"); // empty results allowed
        });
        try {
            SampleResult r = p.sample(null);
            assertThat(r.isSuccessful()).isTrue();
            assertThat(r.getSamplerData()).contains("filter (cn=[x])");
            assertThat(r.getResponseMessage()).isEqualTo("search: 0 entries");
        } finally {
            p.end();
        }
    }

    // ------------------------------------------------------------ expected entries (minEntries)

    @Test
    void aFixedSearchThatFindsNothingIsAConfigurationErrorNamingFilterBaseAndServerThatStopsTheThread() {
        LdapPair p = sampler(x -> x.setFilter("(cn=nobody)"));
        try {
            SampleResult r = p.sample(null);
            assertThat(r.isSuccessful()).isFalse();
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage())
                    .isEqualTo("LDAP Request 'ldap unit': filter: search finds no entries: filter"
                    + " (cn=nobody), base " + BASE + ", server ldap://127.0.0.1:" + server.getListenPort());
            assertThat(r.getResponseDataAsString()).contains("minEntries 0 where empty results are expected");
            assertThat(r.isStopThread()).as("the same search finds nothing again: the thread stops").isTrue();
            assertThat(r.getTime()).as("the search was timed").isGreaterThanOrEqualTo(0);
            assertThat(r.getSamplerData()).contains("expected: at least 1 entry");
        } finally {
            p.end();
        }
    }

    @Test
    void aPlanSavedBeforeMinEntriesExistedExpectsOneEntryAndZeroAllowsEmptyResults() {
        // TestBeanHelper gives a property missing from the .jmx as null
        LdapPair p = sampler(x -> {
            x.setFilter("(cn=nobody)");
            x.setMinEntries(null);
        });
        try {
            assertThat(p.sample(null).getResponseCode()).isEqualTo("configError");
        } finally {
            p.end();
        }
        LdapPair q = sampler(x -> {
            x.setFilter("(cn=nobody)");
            x.setMinEntries("0");
        });
        try {
            SampleResult r = q.sample(null);
            assertThat(r.isSuccessful()).isTrue();
            assertThat(r.getResponseMessage()).isEqualTo("search: 0 entries");
            assertThat(r.getSamplerData()).contains("expected: any number of entries (minEntries 0)");
        } finally {
            q.end();
        }
    }

    @Test
    void aVaryingSearchThatFindsNothingIsAConfigurationErrorAfterItsFirstProbes() {
        LdapPair p = sampler(x -> x.setFilter("(cn=nobody[1-1000])"));
        try {
            for (int i = 1; i < org.trustload.ldap.EntryRule.PROBES; i++) {
                SampleResult r = p.sample(null);
                assertThat(r.getResponseCode()).as("search " + i).isEqualTo("tooFewEntries");
                assertThat(r.getResponseMessage())
                        .isEqualTo("search found no entries (filter (cn=nobody[1-1000]), base "
                        + BASE + ")");
                assertThat(r.getResponseDataAsString()).contains("search of (cn=nobody", "returned 0 entries");
                assertThat(r.isStopThread()).isFalse();
            }
            SampleResult r = p.sample(null);
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage())
                    .contains("search finds no entries: filter (cn=nobody[1-1000]), base " + BASE,
                    "(none in the first " + org.trustload.ldap.EntryRule.PROBES + " searches)");
            assertThat(r.isStopThread()).isTrue();
        } finally {
            p.end();
        }
    }

    @Test
    void onceASearchFoundEntriesEmptyAnswersAndTooFewEntriesAreOrdinaryFailures() {
        // user1..user20 exist, user21..user40 do not: in turn, 20 found, then 20 empty
        LdapPair p = sampler(x -> {
            x.setFilter("(cn=user[1:40])");
            x.setConnectionMode("per-thread");
        });
        try {
            for (int i = 1; i <= 40; i++) {
                SampleResult r = p.sample(null);
                if (i <= 20) {
                    assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
                } else {
                    assertThat(r.getResponseCode()).as("search " + i).isEqualTo("tooFewEntries");
                    assertThat(r.isStopThread()).isFalse();
                }
            }
            SampleResult again = p.sample(null);
            assertThat(again.isSuccessful()).as("the connection stays usable after a broken rule").isTrue();
            assertThat(again.getResponseHeaders()).contains("connection: reused");
        } finally {
            p.end();
        }
        LdapPair q = sampler(x -> {
            x.setFilter("(cn=user1)");
            x.setMinEntries("3");
        });
        try {
            SampleResult r = q.sample(null);
            assertThat(r.getResponseCode()).isEqualTo("tooFewEntries");
            assertThat(r.getResponseMessage())
                    .isEqualTo("search found fewer than 3 entries (filter (cn=user1), base " + BASE + ")");
            assertThat(r.getResponseDataAsString()).contains("returned 1 entry; minEntries is 3");
        } finally {
            q.end();
        }
    }

    // ------------------------------------------------------------ BeanInfo and resources

    static Stream<Class<?>> beans() {
        return Stream.of(LdapConnectionConfig.class, LdapRequestSampler.class);
    }

    private static Set<String> declaredBeanProperties(Class<?> bean) {
        Set<String> names = new TreeSet<>();
        for (Class<?> c = bean; c != null && c.getName().startsWith("org.trustload"); c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (!Modifier.isPublic(m.getModifiers()) || m.getParameterCount() != 1
                        || !m.getName().startsWith("set")) {
                    continue;
                }
                names.add(Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4));
            }
        }
        return names;
    }

    @ParameterizedTest
    @MethodSource("beans")
    void beanInfoLoadsAndGroupsEveryDeclaredProperty(Class<?> bean) throws Exception {
        // The Introspector merges our explicit BeanInfo into a generic one: the groups prove it was found.
        BeanInfo info = Introspector.getBeanInfo(bean);
        Set<String> grouped = Arrays.stream(info.getPropertyDescriptors())
                .filter(pd -> pd.getValue("group") != null)
                .map(PropertyDescriptor::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(grouped).isEqualTo(declaredBeanProperties(bean)).contains(ClientConfig.CONFIG_NAME);
    }

    @ParameterizedTest
    @MethodSource("beans")
    void everyPropertyAndGroupHasDisplayNameAndShortDescriptionInTheResources(Class<?> bean) throws Exception {
        ResourceBundle bundle = ResourceBundle.getBundle(bean.getName() + "Resources", Locale.ROOT);
        BeanInfo info = Introspector.getBeanInfo(bean);
        assertThat(info.getBeanDescriptor().getDisplayName()).isEqualTo(bundle.getString("displayName"))
                .endsWith("(TrustLoad)");
        for (PropertyDescriptor pd : info.getPropertyDescriptors()) {
            Object group = pd.getValue("group");
            if (group == null) {
                continue;
            }
            String n = pd.getName();
            assertThat(bundle.getString(n + ".shortDescription")).as(n).isNotBlank();
            assertThat(pd.getDisplayName()).as(n).isEqualTo(bundle.getString(n + ".displayName"));
            assertThat(pd.getShortDescription()).as(n).isEqualTo(bundle.getString(n + ".shortDescription"));
            assertThat(bundle.containsKey(group + ".displayName")).as("group " + group).isTrue();
            assertThat(group).as("a group is not named like a property").isNotEqualTo(n);
            assertThat(pd.getValue("notUndefined")).as(n + " has a default").isEqualTo(Boolean.TRUE);
        }
    }

    @ParameterizedTest
    @MethodSource("beans")
    void beanInfoDefaultsMatchTheFieldDefaultsTheirTypesAndChoices(Class<?> bean) throws Exception {
        Object fresh = bean.getDeclaredConstructor().newInstance();
        for (PropertyDescriptor pd : Introspector.getBeanInfo(bean).getPropertyDescriptors()) {
            if (pd.getValue("group") == null) {
                continue;
            }
            Object def = pd.getValue("default");
            assertThat(pd.getReadMethod().invoke(fresh)).as(pd.getName()).isEqualTo(def);
            // JMeter's GenericTestBeanCustomizer warns when a default's class differs from the property's.
            Class<?> type = pd.getPropertyType() == boolean.class ? Boolean.class : pd.getPropertyType();
            assertThat(def).as(pd.getName()).isInstanceOf(type);
            String[] tags = (String[]) pd.getValue("tags");
            if (tags != null) {
                assertThat(tags).as(pd.getName()).contains((String) def);
            }
        }
    }

    @Test
    void passwordsUseThePasswordEditorAndFilesTheFileEditor() throws Exception {
        for (PropertyDescriptor pd : Introspector.getBeanInfo(LdapConnectionConfig.class).getPropertyDescriptors()) {
            String n = pd.getName();
            if (n.toLowerCase(Locale.ROOT).contains("password")) {
                assertThat(pd.getPropertyEditorClass()).as(n)
                        .isEqualTo(org.apache.jmeter.testbeans.gui.PasswordEditor.class);
            }
            if (n.equals("trustStore") || n.equals("socketPath")) {
                assertThat(pd.getPropertyEditorClass()).as(n)
                        .isEqualTo(org.apache.jmeter.testbeans.gui.FileEditor.class);
            }
        }
    }

    // ------------------------------------------------------------ configuration errors

    static Stream<Arguments> badConfigurations() {
        String config = "LDAP Connection Config 'ldap unit config': ";
        String request = "LDAP Request 'ldap unit': ";
        return Stream.<Arguments>of(
                Arguments.of("unknown scheme", (Consumer<LdapPair>) s -> s.setScheme("gopher"),
                        config + "scheme: unknown scheme 'gopher'"),
                Arguments.of("non-numeric port", (Consumer<LdapPair>) s -> s.setPort("38x9"),
                        config + "port: not a whole number: '38x9'"),
                Arguments.of("port out of range", (Consumer<LdapPair>) s -> s.setPort("70000"),
                        config + "port: 70000 is out of range 0-65535"),
                Arguments.of("unknown operation", (Consumer<LdapPair>) s -> s.setOperation("modrdn"),
                        request + "operation: unknown operation 'modrdn'"),
                Arguments.of("unknown connection mode", (Consumer<LdapPair>) s -> s.setConnectionMode("pooled"),
                        config + "connectionMode: unknown connection mode 'pooled'"),
                Arguments.of("unknown bind type", (Consumer<LdapPair>) s -> s.setBindType("kerberos"),
                        config + "bindType: unknown bind type 'kerberos'"),
                Arguments.of("unknown trust mode", (Consumer<LdapPair>) s -> s.setTrustMode("trust-me"),
                        config + "trustMode: unknown trust mode 'trust-me'"),
                Arguments.of("non-numeric connect timeout", (Consumer<LdapPair>) s -> s.setConnectTimeout("5s"),
                        config + "connectTimeout: not a whole number: '5s'"),
                Arguments.of("zero response timeout", (Consumer<LdapPair>) s -> s.setResponseTimeout("0"),
                        config + "responseTimeout: 0 is out of range"),
                Arguments.of("simple bind without DN", (Consumer<LdapPair>) s -> s.setBindDn(" "),
                        config + "bindDn: simple bind needs a bind DN"),
                Arguments.of("ldapi without socket", (Consumer<LdapPair>) s -> s.setScheme("ldapi"),
                        config + "socketPath: is empty"),
                Arguments.of("unknown host", (Consumer<LdapPair>) s -> s.setHost("no-such-host.invalid"),
                        config + "host: unknown host 'no-such-host.invalid'"),
                Arguments.of("unknown scope", (Consumer<LdapPair>) s -> s.setScope("children"),
                        request + "scope: unknown search scope 'children'"),
                Arguments.of("non-numeric size limit", (Consumer<LdapPair>) s -> s.setSizeLimit("all"),
                        request + "sizeLimit: not a whole number: 'all'"),
                Arguments.of("missing trust store file", (Consumer<LdapPair>) s -> {
                    s.setScheme("ldaps");
                    s.setTrustMode("trust-store");
                    s.setTrustStore("/nonexistent/trust.p12");
                    s.setTrustStorePassword(SECRET);
                }, config + "trustStore: file not found (/nonexistent/trust.p12)"),
                Arguments.of("more entries expected than the size limit allows", (Consumer<LdapPair>) s -> {
                    s.setSizeLimit("2");
                    s.setMinEntries("3");
                }, request + "minEntries: 3 is more than sizeLimit 2: no search can succeed"),
                Arguments.of("negative minimum of entries", (Consumer<LdapPair>) s -> s.setMinEntries("-1"),
                        request + "minEntries: -1 is out of range"),
                Arguments.of("bad value pattern", (Consumer<LdapPair>) s -> s.setFilter("(cn=fulano[1-x])"),
                        request + "filter: '(cn=fulano[1-x])' is not a value pattern"),
                Arguments.of("no such config", (Consumer<LdapPair>) s -> s.sampler.setConfigName("nosuch"),
                        request + "configName: no LDAP Connection Config named 'nosuch' in this test plan"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigurations")
    void badConfigurationIsOneZeroLengthConfigErrorSampleThatStopsTheThread(String what, Consumer<LdapPair> bad,
            String message) {
        // Port 1 on loopback: should any of these reach the network, it would fail differently.
        LdapPair s = sampler(bad.andThen(x -> {
            if (x.getPort().chars().allMatch(Character::isDigit) && !x.getPort().equals("70000")) {
                x.setPort("1");
            }
        }));
        try {
            SampleResult[] r = new SampleResult[1];
            assertThatCode(() -> r[0] = s.sample(null)).doesNotThrowAnyException();
            assertThat(r[0].isSuccessful()).isFalse();
            assertThat(r[0].getResponseCode()).isEqualTo("configError");
            assertThat(r[0].getResponseMessage()).startsWith(message);
            assertThat(r[0].getResponseDataAsString()).as("body").contains(message).doesNotContain("Exception(");
            assertThat(r[0].getSampleLabel()).isEqualTo("ldap unit");
            assertThat(r[0].getTime()).as("nothing was timed").isZero();
            assertThat(r[0].isStopThread()).as("the thread stops after its first configuration error").isTrue();
            assertNoSecret(r[0], SECRET);
        } finally {
            s.end();
        }
    }

    @Test
    void wrongTrustStorePasswordAndCorruptTrustStoreAreTellApartConfigErrors() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("tl-trust");
        java.nio.file.Path store = dir.resolve("trust.p12");
        java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(store)) {
            ks.store(out, "right-one".toCharArray());
        }
        java.nio.file.Path corrupt = java.nio.file.Files.writeString(dir.resolve("corrupt.p12"), "not a key store");
        LdapPair wrong = sampler(x -> {
            x.setScheme("ldaps");
            x.setTrustMode("trust-store");
            x.setTrustStore(store.toString());
            x.setTrustStorePassword(SECRET);
        });
        LdapPair bad = sampler(x -> {
            x.setScheme("ldaps");
            x.setTrustMode("trust-store");
            x.setTrustStore(corrupt.toString());
        });
        try {
            assertThat(wrong.sample(null).getResponseMessage()).isEqualTo(
                    "LDAP Connection Config 'ldap unit config': trustStorePassword: wrong trust store password ("
                    + store + ")");
            assertThat(bad.sample(null).getResponseMessage()).startsWith(
                    "LDAP Connection Config 'ldap unit config': trustStore: cannot read the trust store as PKCS12");
        } finally {
            wrong.end();
            bad.end();
        }
    }

    @Test
    void propertiesSetTheJMeterWayReachTheElements() {
        // What JMeter does before testStarted and each sample: copy stored properties into the bean fields.
        LdapConnectionConfig c = new LdapConnectionConfig();
        c.setProperty("scheme", "gopher");
        c.setProperty("bindPassword", SECRET);
        c.setProperty("configName", "from-props");
        TestBeanHelper.prepare(c);
        assertThat(c.getScheme()).isEqualTo("gopher");
        assertThat(c.getBindPassword()).isEqualTo(SECRET);
        assertThat(c.getConfigName()).isEqualTo("from-props");
        LdapRequestSampler s = new LdapRequestSampler();
        s.setProperty("configName", "from-props");
        TestBeanHelper.prepare(s);
        assertThat(s.getConfigName()).isEqualTo("from-props");
    }

    // ------------------------------------------------------------ closing

    @Test
    void theConfigClosesEveryConnectionItOpenedAtTestEnd() throws Exception {
        LdapPair p = sampler(x -> x.setConnectionMode("per-thread"));
        try {
            assertThat(p.sample(null).isSuccessful()).isTrue();
            LdapConnections connections = p.config.client();
            // Three more threads, each with its own clone of the request, that never see threadFinished.
            List<Thread> threads = new ArrayList<>();
            List<SampleResult> results = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int i = 0; i < 3; i++) {
                LdapRequestSampler clone = roundTrip(p.sampler);
                org.apache.jmeter.threads.JMeterVariables vars =
                        org.apache.jmeter.threads.JMeterContextService.getContext().getVariables();
                Thread t = new Thread(() -> {
                    org.apache.jmeter.threads.JMeterContextService.getContext().setVariables(vars);
                    results.add(clone.sample(null));
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(30_000);
            }
            assertThat(results).hasSize(3).allMatch(SampleResult::isSuccessful);
            assertThat(connections.openCount()).isEqualTo(4);
            p.config.testEnded();
            assertThat(connections.openCount()).as("open after testEnded").isZero();
        } finally {
            p.end();
        }
    }

    // ------------------------------------------------------------ passwords and success shape

    @Test
    void successfulSimpleBindSampleNeverShowsThePassword() {
        LdapPair s = sampler(x -> { });
        try {
            SampleResult r = s.sample(null);
            assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
            assertThat(r.getResponseCode()).isEqualTo("200");
            assertThat(r.getResponseMessage()).isEqualTo("search: 1 entry");
            assertThat(r.getResponseDataAsString()).contains("dn: cn=fulano1," + BASE);
            assertThat(r.getSamplerData()).contains("bind: simple as " + ADMIN).contains("filter: (cn=fulano1)");
            assertThat(r.getResponseHeaders()).contains("ldap-result: success (0)").contains("connection: new");
            assertNoSecret(r, SECRET);
            assertThat(s.config.client().openCount()).as("per iteration: closed within the sample").isZero();
        } finally {
            s.end();
        }
    }

    @Test
    void wrongPasswordSampleFailsWithInvalidCredentialsAndShowsNeitherPassword() {
        LdapPair s = sampler(x -> x.setBindPassword(SECRET + "-wrong"));
        try {
            SampleResult r = s.sample(null);
            assertThat(r.isSuccessful()).isFalse();
            assertThat(r.getResponseCode()).isEqualTo("invalidCredentials");
            assertThat(r.getResponseMessage()).isEqualTo("LDAP 49 invalidCredentials: wrong DN or password");
            assertThat(r.isStopThread()).as("a server answer is an ordinary failure").isFalse();
            assertNoSecret(r, SECRET);
        } finally {
            s.end();
        }
    }

    @Test
    void refusedConnectionStopsAThreadThatNeverReachedTheServer() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        int refused = port;
        LdapPair s = sampler(x -> x.setPort(String.valueOf(refused)));
        try {
            SampleResult r = s.sample(null);
            assertThat(r.getResponseCode()).isEqualTo("connectError");
            assertThat(r.getResponseMessage()).isEqualTo("LDAP 91 connectError: connection refused");
            assertThat(r.getResponseDataAsString())
                    .isEqualTo("ldap://127.0.0.1:" + refused + ": Connection refused (ConnectException)");
            assertThat(r.isStopThread()).isTrue();
        } finally {
            s.end();
        }
    }

    @Test
    void addAndModifyLdifIsShownButTheBindPasswordIsNot() {
        LdapPair s = sampler(x -> {
            x.setOperation("add");
            x.setLdif("dn: cn=tl-unit," + BASE + "\nobjectClass: person\ncn: tl-unit\nsn: one\n");
        });
        try {
            SampleResult r = s.sample(null);
            assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
            assertThat(r.getResponseMessage()).isEqualTo("add: cn=tl-unit," + BASE);
            assertThat(r.getSamplerData()).contains("cn: tl-unit");
            assertNoSecret(r, SECRET);
            s.setOperation("delete");
            s.setEntryDn("cn=tl-unit," + BASE);
            assertThat(s.sample(null).getResponseMessage()).isEqualTo("delete: cn=tl-unit," + BASE);
        } finally {
            s.end();
        }
    }

    @Test
    void interruptWithoutASampleInFlightReturnsFalse() {
        assertThat(new LdapRequestSampler().interrupt()).isFalse();
    }
}
