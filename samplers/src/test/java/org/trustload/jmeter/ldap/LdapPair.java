package org.trustload.jmeter.ldap;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.samplers.SampleResult;

/**
 * An LDAP Connection Config and an LDAP Request that names it, driven as JMeter drives them: the
 * config is (re)started before a sample when its settings changed, the request samples. Tests set
 * properties on the pair as they would in the GUI.
 */
final class LdapPair {
    private static final AtomicInteger NAMES = new AtomicInteger();

    final LdapConnectionConfig config = new LdapConnectionConfig();
    final LdapRequestSampler sampler = new LdapRequestSampler();
    private boolean dirty = true;
    private boolean started;

    LdapPair(String name) {
        String configName = "pair-" + NAMES.incrementAndGet();
        config.setName(name + " config");
        config.setConfigName(configName);
        sampler.setName(name);
        sampler.setConfigName(configName);
    }

    SampleResult sample(Object entry) {
        if (dirty) {
            end();
            config.testStarted();
            started = true;
            dirty = false;
        }
        return sampler.sample(null);
    }

    /** What JMeter does when the thread ends. */
    void threadFinished() {
        sampler.threadFinished();
    }

    /** What JMeter does at test end: the thread ends, then the config closes its connections. */
    void end() {
        sampler.threadFinished();
        if (started) {
            config.testEnded();
            started = false;
        }
        dirty = true;
    }

    boolean interrupt() {
        return sampler.interrupt();
    }

    String getName() {
        return sampler.getName();
    }

    public String getScheme() {
        return config.getScheme();
    }

    public void setScheme(String v) {
        config.setScheme(v); dirty = true;
    }

    public String getHost() {
        return config.getHost();
    }

    public void setHost(String v) {
        config.setHost(v); dirty = true;
    }

    public String getPort() {
        return config.getPort();
    }

    public void setPort(String v) {
        config.setPort(v); dirty = true;
    }

    public String getSocketPath() {
        return config.getSocketPath();
    }

    public void setSocketPath(String v) {
        config.setSocketPath(v); dirty = true;
    }

    public boolean isStartTls() {
        return config.isStartTls();
    }

    public void setStartTls(boolean v) {
        config.setStartTls(v); dirty = true;
    }

    public String getTrustMode() {
        return config.getTrustMode();
    }

    public void setTrustMode(String v) {
        config.setTrustMode(v); dirty = true;
    }

    public String getTrustStore() {
        return config.getTrustStore();
    }

    public void setTrustStore(String v) {
        config.setTrustStore(v); dirty = true;
    }

    public String getTrustStorePassword() {
        return config.getTrustStorePassword();
    }

    public void setTrustStorePassword(String v) {
        config.setTrustStorePassword(v); dirty = true;
    }

    public String getTrustStoreType() {
        return config.getTrustStoreType();
    }

    public void setTrustStoreType(String v) {
        config.setTrustStoreType(v); dirty = true;
    }

    public boolean isVerifyHostname() {
        return config.isVerifyHostname();
    }

    public void setVerifyHostname(boolean v) {
        config.setVerifyHostname(v); dirty = true;
    }

    public String getBindType() {
        return config.getBindType();
    }

    public void setBindType(String v) {
        config.setBindType(v); dirty = true;
    }

    public String getBindDn() {
        return config.getBindDn();
    }

    public void setBindDn(String v) {
        config.setBindDn(v); dirty = true;
    }

    public String getBindPassword() {
        return config.getBindPassword();
    }

    public void setBindPassword(String v) {
        config.setBindPassword(v); dirty = true;
    }

    public String getAuthzId() {
        return config.getAuthzId();
    }

    public void setAuthzId(String v) {
        config.setAuthzId(v); dirty = true;
    }

    public String getConnectionMode() {
        return config.getConnectionMode();
    }

    public void setConnectionMode(String v) {
        config.setConnectionMode(v); dirty = true;
    }

    public String getConnectTimeout() {
        return config.getConnectTimeout();
    }

    public void setConnectTimeout(String v) {
        config.setConnectTimeout(v); dirty = true;
    }

    public String getResponseTimeout() {
        return config.getResponseTimeout();
    }

    public void setResponseTimeout(String v) {
        config.setResponseTimeout(v); dirty = true;
    }

    public String getOperation() {
        return sampler.getOperation();
    }

    public void setOperation(String v) {
        sampler.setOperation(v);
    }

    public String getBaseDn() {
        return sampler.getBaseDn();
    }

    public void setBaseDn(String v) {
        sampler.setBaseDn(v);
    }

    public String getScope() {
        return sampler.getScope();
    }

    public void setScope(String v) {
        sampler.setScope(v);
    }

    public String getFilter() {
        return sampler.getFilter();
    }

    public void setFilter(String v) {
        sampler.setFilter(v);
    }

    public String getAttributes() {
        return sampler.getAttributes();
    }

    public void setAttributes(String v) {
        sampler.setAttributes(v);
    }

    public String getSizeLimit() {
        return sampler.getSizeLimit();
    }

    public void setSizeLimit(String v) {
        sampler.setSizeLimit(v);
    }

    public String getTimeLimit() {
        return sampler.getTimeLimit();
    }

    public void setTimeLimit(String v) {
        sampler.setTimeLimit(v);
    }

    public String getEntryDn() {
        return sampler.getEntryDn();
    }

    public void setEntryDn(String v) {
        sampler.setEntryDn(v);
    }

    public String getCompareAttribute() {
        return sampler.getCompareAttribute();
    }

    public void setCompareAttribute(String v) {
        sampler.setCompareAttribute(v);
    }

    public String getCompareValue() {
        return sampler.getCompareValue();
    }

    public void setCompareValue(String v) {
        sampler.setCompareValue(v);
    }

    public String getLdif() {
        return sampler.getLdif();
    }

    public void setLdif(String v) {
        sampler.setLdif(v);
    }

    public String getMaxEntriesShown() {
        return sampler.getMaxEntriesShown();
    }

    public void setMaxEntriesShown(String v) {
        sampler.setMaxEntriesShown(v);
    }

    public String getMinEntries() {
        return sampler.getMinEntries();
    }

    public void setMinEntries(String v) {
        sampler.setMinEntries(v);
    }
}
