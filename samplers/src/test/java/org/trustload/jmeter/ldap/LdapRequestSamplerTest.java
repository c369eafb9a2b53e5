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
import java.lang.reflect.Field;
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
 * Unit tests of the sampler: serialization, the generated GUI's metadata, configuration errors,
 * and password hygiene. Successful samples run against UnboundID's in-memory server in this JVM.
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
        cfg.setListenerConfigs(InMemoryListenerConfig.createLDAPConfig("ldap", InetAddress.getLoopbackAddress(), 0, null));
        cfg.setSchema(null);
        server = new InMemoryDirectoryServer(cfg);
        server.add("dn: " + BASE, "objectClass: domain", "dc: testeperformance");
        server.add("dn: cn=fulano1," + BASE, "objectClass: person", "cn: fulano1", "sn: fulano1");
        server.startListening();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.shutDown(true);
        }
    }

    private static LdapRequestSampler sampler(Consumer<LdapRequestSampler> custom) {
        LdapRequestSampler s = new LdapRequestSampler();
        s.setName("ldap unit");
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

    static void assertNoSecret(SampleResult r, String secret) {
        assertThat(Stream.of(r.getSamplerData(), r.getResponseHeaders(), r.getRequestHeaders(),
                r.getResponseDataAsString(), r.getResponseMessage(), r.getResponseCode(), r.getSampleLabel(),
                r.getDataEncodingWithDefault(), r.getContentType()))
                .allSatisfy(field -> assertThat(String.valueOf(field)).doesNotContain(secret));
    }

    private static Object connectionField(LdapRequestSampler s) throws Exception {
        Field f = LdapRequestSampler.class.getDeclaredField("client");
        f.setAccessible(true);
        return f.get(s);
    }

    // ------------------------------------------------------------ serialization

    @Test
    void elementWithALivePerThreadConnectionJavaSerializesWithoutIt() throws Exception {
        LdapRequestSampler s = sampler(x -> x.setConnectionMode("per-thread"));
        try {
            SampleResult first = s.sample(null);
            assertThat(first.isSuccessful()).as(first.getResponseDataAsString()).isTrue();
            assertThat(connectionField(s)).as("live per-thread connection").isNotNull();
            assertThat(Modifier.isTransient(LdapRequestSampler.class.getDeclaredField("client").getModifiers())).isTrue();
            assertThat(Modifier.isTransient(LdapRequestSampler.class.getDeclaredField("inFlight").getModifiers())).isTrue();

            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(s);
            }
            LdapRequestSampler copy;
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                copy = (LdapRequestSampler) in.readObject();
            }
            assertThat(connectionField(copy)).isNull();
            assertThat(copy.getName()).isEqualTo("ldap unit");
            assertThat(copy.getConnectionMode()).isEqualTo("per-thread");
            assertThat(copy.getFilter()).isEqualTo("(cn=fulano1)");
            assertThat(copy.getPort()).isEqualTo(s.getPort());

            // The original keeps its connection; the copy opens its own.
            assertThat(s.sample(null).getResponseHeaders()).contains("connection: reused");
            SampleResult fromCopy = copy.sample(null);
            assertThat(fromCopy.isSuccessful()).isTrue();
            assertThat(fromCopy.getResponseHeaders()).contains("connection: new");
            copy.threadFinished();
        } finally {
            s.threadFinished();
        }
        assertThat(connectionField(s)).isNull();
    }

    // ------------------------------------------------------------ BeanInfo and resources

    private static Set<String> declaredBeanProperties() {
        Set<String> names = new TreeSet<>();
        for (Method m : LdapRequestSampler.class.getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers()) || m.getParameterCount() != 1 || !m.getName().startsWith("set")) {
                continue;
            }
            String prop = Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
            names.add(prop);
        }
        return names;
    }

    @Test
    void beanInfoLoadsAndGroupsEveryDeclaredProperty() throws Exception {
        // The Introspector merges our explicit BeanInfo into a generic one: the groups prove it was found.
        BeanInfo info = Introspector.getBeanInfo(LdapRequestSampler.class);
        assertThat(new LdapRequestSamplerBeanInfo().getPropertyDescriptors()).isNotEmpty();
        Set<String> grouped = Arrays.stream(info.getPropertyDescriptors())
                .filter(pd -> pd.getValue("group") != null)
                .map(PropertyDescriptor::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(grouped).isEqualTo(declaredBeanProperties()).hasSize(29);
    }

    @Test
    void everyPropertyAndGroupHasDisplayNameAndShortDescriptionInTheResources() throws Exception {
        ResourceBundle bundle = ResourceBundle.getBundle(
                "org.trustload.jmeter.ldap.LdapRequestSamplerResources", Locale.ROOT);
        BeanInfo info = Introspector.getBeanInfo(LdapRequestSampler.class);
        assertThat(bundle.getString("displayName")).isEqualTo("LDAP Request (TrustLoad)");
        assertThat(info.getBeanDescriptor().getDisplayName()).isEqualTo("LDAP Request (TrustLoad)");
        for (PropertyDescriptor pd : info.getPropertyDescriptors()) {
            Object group = pd.getValue("group");
            if (group == null) {
                continue;
            }
            String n = pd.getName();
            assertThat(bundle.containsKey(n + ".displayName")).as(n + ".displayName").isTrue();
            assertThat(bundle.containsKey(n + ".shortDescription")).as(n + ".shortDescription").isTrue();
            assertThat(bundle.getString(n + ".shortDescription")).as(n).isNotBlank();
            assertThat(pd.getDisplayName()).as(n).isEqualTo(bundle.getString(n + ".displayName"));
            assertThat(pd.getShortDescription()).as(n).isEqualTo(bundle.getString(n + ".shortDescription"));
            assertThat(bundle.containsKey(group + ".displayName")).as("group " + group).isTrue();
            assertThat(pd.getValue("notUndefined")).as(n + " has a default").isEqualTo(Boolean.TRUE);
        }
    }

    @Test
    void beanInfoDefaultsMatchTheFieldDefaultsAndChoicesOfferTheirDefault() throws Exception {
        LdapRequestSampler fresh = new LdapRequestSampler();
        for (PropertyDescriptor pd : Introspector.getBeanInfo(LdapRequestSampler.class).getPropertyDescriptors()) {
            if (pd.getValue("group") == null) {
                continue;
            }
            Object def = pd.getValue("default");
            assertThat(pd.getReadMethod().invoke(fresh)).as(pd.getName()).isEqualTo(def);
            String[] tags = (String[]) pd.getValue("tags");
            if (tags != null) {
                assertThat(tags).as(pd.getName()).contains((String) def);
            }
        }
    }

    @Test
    void passwordsUseThePasswordEditor() throws Exception {
        for (PropertyDescriptor pd : Introspector.getBeanInfo(LdapRequestSampler.class).getPropertyDescriptors()) {
            if (pd.getName().toLowerCase(Locale.ROOT).contains("password")) {
                assertThat(pd.getPropertyEditorClass()).as(pd.getName())
                        .isEqualTo(org.apache.jmeter.testbeans.gui.PasswordEditor.class);
            }
        }
    }

    // ------------------------------------------------------------ configuration errors

    static Stream<Arguments> badConfigurations() {
        return Stream.<Arguments>of(
                Arguments.of("unknown scheme", (Consumer<LdapRequestSampler>) s -> s.setScheme("gopher"),
                        "unknown scheme 'gopher'"),
                Arguments.of("non-numeric port", (Consumer<LdapRequestSampler>) s -> s.setPort("38x9"),
                        "port is not a number: '38x9'"),
                Arguments.of("unknown operation", (Consumer<LdapRequestSampler>) s -> s.setOperation("modrdn"),
                        "unknown operation 'modrdn'"),
                Arguments.of("unknown connection mode", (Consumer<LdapRequestSampler>) s -> s.setConnectionMode("pooled"),
                        "unknown connection mode 'pooled'"),
                Arguments.of("unknown bind type", (Consumer<LdapRequestSampler>) s -> s.setBindType("kerberos"),
                        "unknown bind type 'kerberos'"),
                Arguments.of("unknown trust mode", (Consumer<LdapRequestSampler>) s -> s.setTrustMode("trust-me"),
                        "unknown trust mode 'trust-me'"),
                Arguments.of("non-numeric connect timeout", (Consumer<LdapRequestSampler>) s -> s.setConnectTimeout("5s"),
                        "connectTimeout is not a number"),
                Arguments.of("zero response timeout", (Consumer<LdapRequestSampler>) s -> s.setResponseTimeout("0"),
                        "timeouts must be positive"),
                Arguments.of("simple bind without DN", (Consumer<LdapRequestSampler>) s -> s.setBindDn(" "),
                        "simple bind needs a bind DN"),
                Arguments.of("ldapi without socket", (Consumer<LdapRequestSampler>) s -> s.setScheme("ldapi"),
                        "ldapi needs a socket path"),
                Arguments.of("unknown scope", (Consumer<LdapRequestSampler>) s -> s.setScope("children"),
                        "unknown search scope 'children'"),
                Arguments.of("non-numeric size limit", (Consumer<LdapRequestSampler>) s -> s.setSizeLimit("all"),
                        "sizeLimit is not a number"),
                Arguments.of("missing trust store file", (Consumer<LdapRequestSampler>) s -> {
                    s.setScheme("ldaps");
                    s.setTrustMode("trust-store");
                    s.setTrustStore("/nonexistent/trust.p12");
                    s.setTrustStorePassword(SECRET);
                }, "trust store file not found"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigurations")
    void badConfigurationIsAFailedSampleWithConfigErrorAndNoException(String what, Consumer<LdapRequestSampler> bad,
            String message) {
        // Port 1 on loopback: should any of these reach the network, it would fail differently.
        LdapRequestSampler s = sampler(bad.andThen(x -> {
            if (!"38x9".equals(x.getPort())) {
                x.setPort("1");
            }
        }));
        SampleResult[] r = new SampleResult[1];
        assertThatCode(() -> r[0] = s.sample(null)).doesNotThrowAnyException();
        assertThat(r[0].isSuccessful()).isFalse();
        assertThat(r[0].getResponseCode()).isEqualTo("configError");
        assertThat(r[0].getResponseMessage()).contains(message);
        assertThat(r[0].getSampleLabel()).isEqualTo("ldap unit");
        assertThat(r[0].getEndTime()).isGreaterThanOrEqualTo(r[0].getStartTime()).isPositive();
        assertNoSecret(r[0], SECRET);
        s.threadFinished();
    }

    @Test
    void propertiesSetTheJMeterWayReachTheSampler() {
        // What JMeter does before each sample: copy stored properties into the bean fields.
        LdapRequestSampler s = new LdapRequestSampler();
        s.setName("prepared");
        s.setProperty("scheme", "gopher");
        s.setProperty("bindPassword", SECRET);
        TestBeanHelper.prepare(s);
        assertThat(s.getScheme()).isEqualTo("gopher");
        assertThat(s.getBindPassword()).isEqualTo(SECRET);
        SampleResult r = s.sample(null);
        assertThat(r.getResponseCode()).isEqualTo("configError");
        assertThat(r.getResponseMessage()).contains("unknown scheme 'gopher'");
    }

    // ------------------------------------------------------------ passwords and success shape

    @Test
    void successfulSimpleBindSampleNeverShowsThePassword() {
        LdapRequestSampler s = sampler(x -> { });
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseCode()).isEqualTo("200");
        assertThat(r.getResponseMessage()).isEqualTo("search: 1 entry");
        assertThat(r.getResponseDataAsString()).contains("dn: cn=fulano1," + BASE);
        assertThat(r.getSamplerData()).contains("bind: simple as " + ADMIN).contains("filter: (cn=fulano1)");
        assertThat(r.getResponseHeaders()).contains("ldap-result: success (0)").contains("connection: new");
        assertNoSecret(r, SECRET);
    }

    @Test
    void wrongPasswordSampleFailsWithInvalidCredentialsAndShowsNeitherPassword() {
        LdapRequestSampler s = sampler(x -> x.setBindPassword(SECRET + "-wrong"));
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo("invalidCredentials");
        assertThat(r.getResponseMessage()).isEqualTo("LDAP 49 invalidCredentials");
        assertNoSecret(r, SECRET);
    }

    @Test
    void addAndModifyLdifIsShownButTheBindPasswordIsNot() {
        LdapRequestSampler s = sampler(x -> {
            x.setOperation("add");
            x.setLdif("dn: cn=tl-unit," + BASE + "\nobjectClass: person\ncn: tl-unit\nsn: one\n");
        });
        SampleResult r = s.sample(null);
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseMessage()).isEqualTo("add: cn=tl-unit," + BASE);
        assertThat(r.getSamplerData()).contains("cn: tl-unit");
        assertNoSecret(r, SECRET);
        s.setOperation("delete");
        s.setEntryDn("cn=tl-unit," + BASE);
        assertThat(s.sample(null).getResponseMessage()).isEqualTo("delete: cn=tl-unit," + BASE);
    }

    @Test
    void interruptWithoutASampleInFlightReturnsFalse() {
        assertThat(new LdapRequestSampler().interrupt()).isFalse();
    }
}
