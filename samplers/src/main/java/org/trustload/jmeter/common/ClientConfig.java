package org.trustload.jmeter.common;

import org.trustload.common.ClientException;

/**
 * The base of the config elements that own a protocol's client (LDAP Connection, KMS Client, TLCP Client,
 * Signature Server Config): the client's life is {@link SharedConfig}'s; samplers find it by the
 * {@value #CONFIG_NAME} they name ({@link #find}). It also holds what every such config has besides its
 * name: the connect and response timeouts ({@code connectTimeout}, {@code responseTimeout}, stored in plans
 * under these names), with the element's own defaults. A config writes its own properties and
 * {@link #build}; its BeanInfo calls {@code BeanInfoHelper.clientConfig} for the shared fields.
 *
 * @param <H> the shared client this config builds
 */
public abstract class ClientConfig<H extends AutoCloseable> extends SharedConfig<H> {
    private static final long serialVersionUID = 1L;

    /** The property that links a request to its config, the same name on both (stored in plans). */
    public static final String CONFIG_NAME = "configName";

    private final int connectTimeoutDefault;
    private final int responseTimeoutDefault;

    private String configName;
    private String connectTimeout;
    private String responseTimeout;

    /**
     * @param kind the element's kind as users see it in menus and messages
     * @param clientType the type samplers look the client up by ({@link #find})
     * @param defaultName the config name a new element has, the one its samplers name by default
     * @param connectTimeoutMs the connect timeout a new element has, and the one a blank field means
     * @param responseTimeoutMs likewise the response timeout
     */
    protected ClientConfig(String kind, Class<H> clientType, String defaultName, int connectTimeoutMs,
            int responseTimeoutMs) {
        super(kind, clientType);
        this.connectTimeoutDefault = connectTimeoutMs;
        this.responseTimeoutDefault = responseTimeoutMs;
        this.configName = defaultName;
        this.connectTimeout = String.valueOf(connectTimeoutMs);
        this.responseTimeout = String.valueOf(responseTimeoutMs);
    }

    @Override
    protected String sharedName() {
        return configName == null ? "" : configName.trim();
    }

    @Override
    protected String nameProperty() {
        return CONFIG_NAME;
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
        H h;
        try {
            h = published(type, name);
        } catch (ClientException e) {
            FailFast.stopTest();
            throw e;
        }
        if (h == null) {
            FailFast.stopTest();
            throw sampler.error(CONFIG_NAME, "", "no " + kind + " named '" + (name == null ? "" : name.trim())
                    + "' in this test plan", null);
        }
        return h;
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
}
