package org.trustload.jmeter.common;

import java.util.concurrent.atomic.AtomicLong;
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
 * The life of every TrustLoad config element's shared object, on the model of JMeter's JDBC and Bolt
 * connection configurations: in {@code testStarted} it validates its properties and builds the object
 * ({@link #build}: a client, a key pool), publishes it under its name for the samplers of the test
 * (through the test's variables, as JDBC publishes its pool; {@link #published} finds it), and closes it
 * in {@code testEnded}. A configuration error found there stops the test before the first sample with one
 * log line naming element, property and file ({@link FailFast}). The object is transient: in distributed
 * mode each engine builds its own. It has no properties of its own: a subclass says which of its
 * properties holds the name ({@link ClientConfig}: {@code configName}; Key Store Config: {@code poolName}).
 *
 * @param <H> the shared object this config builds
 */
public abstract class SharedConfig<H extends AutoCloseable> extends AbstractTestElement
        implements ConfigElement, TestStateListener, TestBean {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(SharedConfig.class);

    private static final String KEY_PREFIX = "trustload.config/";

    /** Counts every start and end of a config in this JVM: a sampler's cached lookup is good while it stands still. */
    private static final AtomicLong CHANGES = new AtomicLong();

    /** The element's kind as users see it in menus and messages, e.g. {@code LDAP Connection Config}. */
    private final String kind;
    /** The name of the type samplers look the object up by (a name: only plain values travel to engines). */
    private final String clientType;

    private transient volatile H client;

    /**
     * @param kind the element's kind as users see it in menus and messages
     * @param clientType the type samplers look the object up by ({@link #published})
     */
    protected SharedConfig(String kind, Class<H> clientType) {
        this.kind = kind;
        this.clientType = clientType.getName();
    }

    /** Validates and resolves the properties and builds the shared object. */
    protected abstract H build(PropertyParser props) throws ClientException;

    /** The name samplers find the object by, as the user set it (trimmed). */
    protected abstract String sharedName();

    /** The property that holds {@link #sharedName()}, for messages. */
    protected abstract String nameProperty();

    /**
     * Whether several configs of this kind may carry one name in a test (the last one started serves it);
     * by default that is a configuration error.
     */
    protected boolean namesakesAllowed() {
        return false;
    }

    /** How messages and the log name this element. */
    protected String element() {
        return PropertyParser.describe(kind, getName());
    }

    @Override
    public void testStarted() {
        CHANGES.incrementAndGet();
        PropertyParser props = new PropertyParser(element());
        String name = sharedName();
        JMeterVariables vars = variables();
        try {
            if (name.isEmpty()) {
                throw props.error(nameProperty(), "", "is empty: samplers find this config by that name", null);
            }
            Object existing = vars.getObject(key(clientType, name));
            if (existing instanceof Published p && p.testStart() == testStart() && !namesakesAllowed()) {
                throw props.error(nameProperty(), "", "another " + kind + " is named '" + name + "' too", null);
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
        String name = sharedName();
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null) {
            Object mine = vars.getObject(key(clientType, name));
            if (mine instanceof Published p && p.testStart() == testStart()) {
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

    /** The object built in testStarted, or null before and after the test (and on a remote engine's controller). */
    public H client() {
        return client;
    }

    /**
     * What the config of {@code type} named {@code name} published for this test, as the calling thread
     * sees it: its object; null when there is no such config; the config's own error when it failed to
     * start.
     */
    protected static <H> H published(Class<H> type, String name) throws ClientException {
        Object o = variables().getObject(key(type, name == null ? "" : name.trim()));
        if (!(o instanceof Published p)) {
            return null;
        }
        if (p.error() != null) {
            throw p.error();
        }
        return type.cast(p.client());
    }

    /**
     * A number that changes whenever a config of this JVM starts or ends: a lookup by
     * {@link ClientConfig#find} stays valid while it does not change.
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

    /** What a config published for its test: the client, or why it has none. */
    private record Published(long testStart, Object client, ClientException error) {
    }
}
