package org.trustload.jmeter.common;

import org.apache.jmeter.config.ConfigElement;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.trustload.common.ClientException;

/**
 * The base of every TrustLoad config element, on the model of JMeter's JDBC and Bolt connection
 * configurations: in {@code testStarted} it validates its properties and builds the shared client
 * ({@link #build}), publishes it under its {@value #CONFIG_NAME} for the samplers of the test (through
 * the test's variables, as JDBC publishes its pool), and closes it in {@code testEnded}. A
 * configuration error found there stops the test before the first sample with one log line naming
 * element, property and file ({@link FailFast}). The client field is transient: in distributed mode
 * each engine builds its own.
 *
 * <p>It also holds what every config has besides its name: the connect and response timeouts
 * ({@code connectTimeout}, {@code responseTimeout}, stored in plans under these names), with the
 * element's own defaults. A config writes its own properties and {@link #build}; its BeanInfo calls
 * {@code BeanInfoHelper.clientConfig} for the shared fields.
 *
 * @param <H> the shared client this config builds
 */
public abstract class ClientConfig<H extends AutoCloseable> extends AbstractTestElement
        implements ConfigElement, TestStateListener, TestBean {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ClientConfig.class);

    /** The property that links a request to its config, the same name on both (stored in plans). */
    public static final String CONFIG_NAME = "configName";

    private static final String KEY_PREFIX = "trustload.config/";

    /** Counts every start and end of a config in this JVM: a sampler's cached lookup is good while it stands still. */
    private static final java.util.concurrent.atomic.AtomicLong CHANGES = new java.util.concurrent.atomic.AtomicLong();

    /** The element's kind as users see it in menus and messages, e.g. {@code LDAP Connection Config}. */
    private final String kind;
    /** The name of the type samplers look the client up by (a name: only plain values travel to engines). */
    private final String clientType;
    private final int connectTimeoutDefault;
    private final int responseTimeoutDefault;

    private String configName;
    private String connectTimeout;
    private String responseTimeout;
    private transient volatile H client;

    /**
     * @param kind the element's kind as users see it in menus and messages
     * @param clientType the type samplers look the client up by ({@link #find})
     * @param defaultName the config name a new element has, the one its samplers name by default
     * @param connectTimeoutMs the connect timeout a new element has, and the one a blank field means
     * @param responseTimeoutMs likewise the response timeout
     */
    protected ClientConfig(String kind, Class<H> clientType, String defaultName, int connectTimeoutMs,
            int responseTimeoutMs) {
        this.kind = kind;
        this.clientType = clientType.getName();
        this.connectTimeoutDefault = connectTimeoutMs;
        this.responseTimeoutDefault = responseTimeoutMs;
        this.configName = defaultName;
        this.connectTimeout = String.valueOf(connectTimeoutMs);
        this.responseTimeout = String.valueOf(responseTimeoutMs);
    }

    /** Validates and resolves the properties and builds the shared client. */
    protected abstract H build(PropertyParser props) throws ClientException;

    /** How messages and the log name this element. */
    protected String element() {
        return PropertyParser.describe(kind, getName());
    }

    @Override
    public void testStarted() {
        CHANGES.incrementAndGet();
        PropertyParser props = new PropertyParser(element());
        String name = configName == null ? "" : configName.trim();
        JMeterVariables vars = variables();
        try {
            if (name.isEmpty()) {
                throw props.error(CONFIG_NAME, "", "is empty: samplers find this config by that name", null);
            }
            Object existing = vars.getObject(key(clientType, name));
            if (existing instanceof Published && ((Published) existing).testStart == testStart()) {
                throw props.error(CONFIG_NAME, "", "another " + kind + " is named '" + name + "' too", null);
            }
            H built = build(props);
            client = built;
            vars.putObject(key(clientType, name), new Published(testStart(), built, null));
        } catch (ClientException e) {
            failed(vars, name, props.wrap(e));
        } catch (RuntimeException e) {
            failed(vars, name, props.error("settings", "", "cannot start", e));
        }
    }

    private void failed(JMeterVariables vars, String name, ClientException e) {
        vars.putObject(key(clientType, name), new Published(testStart(), null, e));
        FailFast.report(element(), e);
        FailFast.stopTest();
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        CHANGES.incrementAndGet();
        String name = configName == null ? "" : configName.trim();
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null) {
            Object mine = vars.getObject(key(clientType, name));
            if (mine instanceof Published && ((Published) mine).testStart == testStart()) {
                vars.remove(key(clientType, name));
            }
        }
        H c = client;
        client = null;
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                log.warn("{}: closing at test end failed: {}", element(), ClientException.readable(e));
            }
        }
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    /** The client built in testStarted, or null before and after the test (and on a remote engine's controller). */
    public H client() {
        return client;
    }

    /** The {@code connectTimeout} property in milliseconds; blank is the element's default. */
    protected int connectTimeoutMs(PropertyParser p) throws ClientException {
        return p.timeoutMs("connectTimeout", connectTimeout, connectTimeoutDefault);
    }

    /** The {@code responseTimeout} property in milliseconds; blank is the element's default. */
    protected int responseTimeoutMs(PropertyParser p) throws ClientException {
        return p.timeoutMs("responseTimeout", responseTimeout, responseTimeoutDefault);
    }

    /**
     * The client the config named {@code name} built for this test, as a sampler finds it. A missing
     * config, or one that failed to start, is a configuration error of the sampler's
     * {@value #CONFIG_NAME} property and stops the test.
     */
    public static <H> H find(Class<H> type, String kind, String name, PropertyParser sampler) throws ClientException {
        String n = name == null ? "" : name.trim();
        Object o = variables().getObject(key(type, n));
        if (!(o instanceof Published)) {
            FailFast.stopTest();
            throw sampler.error(CONFIG_NAME, "", "no " + kind + " named '" + n + "' in this test plan", null);
        }
        Published p = (Published) o;
        if (p.error != null) {
            FailFast.stopTest();
            throw p.error;
        }
        return type.cast(p.client);
    }

    /**
     * A number that changes whenever a config of this JVM starts or ends: a lookup by {@link #find}
     * stays valid while it does not change.
     */
    public static long changes() {
        return CHANGES.get();
    }

    private static String key(Class<?> type, String name) {
        return key(type.getName(), name);
    }

    private static String key(String type, String name) {
        return KEY_PREFIX + type + "/" + name;
    }

    private static long testStart() {
        return JMeterContextService.getTestStartTime();
    }

    private static JMeterVariables variables() {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars == null) {
            // Only outside a running engine (unit tests): JMeter's PreCompiler sets them for a test.
            vars = new JMeterVariables();
            JMeterContextService.getContext().setVariables(vars);
        }
        return vars;
    }

    @Override
    public void addConfigElement(ConfigElement config) {
        // nothing to merge: samplers find this element by name
    }

    @Override
    public boolean expectsModification() {
        return false;
    }

    public String getConfigName() {
        return configName;
    }

    public void setConfigName(String configName) {
        this.configName = configName;
    }

    public String getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(String connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public String getResponseTimeout() {
        return responseTimeout;
    }

    public void setResponseTimeout(String responseTimeout) {
        this.responseTimeout = responseTimeout;
    }

    /** What a config published for its test: the client, or why it has none. */
    private static final class Published {
        final long testStart;
        final Object client;
        final ClientException error;

        Published(long testStart, Object client, ClientException error) {
            this.testStart = testStart;
            this.client = client;
            this.error = error;
        }
    }
}
