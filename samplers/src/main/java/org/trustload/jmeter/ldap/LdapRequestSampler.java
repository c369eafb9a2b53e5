package org.trustload.jmeter.ldap;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.ThreadListener;
import org.trustload.ldap.BindType;
import org.trustload.ldap.LdapClient;
import org.trustload.ldap.LdapClientException;
import org.trustload.ldap.LdapConnectionSettings;
import org.trustload.ldap.LdapOperation;
import org.trustload.ldap.LdapOutcome;
import org.trustload.ldap.LdapRequest;
import org.trustload.ldap.LdapScheme;
import org.trustload.ldap.SearchScopes;
import org.trustload.ldap.TrustMode;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * LDAP Request (TrustLoad): one LDAP operation over ldap, ldaps, StartTLS or ldapi, with an
 * anonymous, simple or SASL EXTERNAL bind, on a connection opened per iteration (connect, bind,
 * operation, unbind: all inside the sample, like the published reference script) or kept per
 * thread. Thin: it maps properties to {@link LdapClient} and fills the {@link SampleResult}.
 *
 * <p>Property names are stored in users' plans: never rename them.
 */
public class LdapRequestSampler extends AbstractSampler implements TestBean, ThreadListener, Interruptible {
    private static final long serialVersionUID = 1L;

    /** Connection mode: connect, bind, operate and unbind within every sample. */
    public static final String MODE_PER_ITERATION = "per-iteration";
    /** Connection mode: one connection per thread, bound once, reopened after a failure. */
    public static final String MODE_PER_THREAD = "per-thread";

    /** Response code of a failure that is neither an LDAP result nor a configuration error. */
    static final String CLIENT_ERROR = "clientError";

    // Bean properties (TestBean): plain values, so the element serializes for distributed mode.
    private String scheme = "ldap";
    private String host = "127.0.0.1";
    private String port = "";
    private String socketPath = "";
    private boolean startTls;
    private String connectionMode = MODE_PER_ITERATION;
    private String connectTimeout = String.valueOf(LdapConnectionSettings.DEFAULT_CONNECT_TIMEOUT_MS);
    private String responseTimeout = String.valueOf(LdapConnectionSettings.DEFAULT_RESPONSE_TIMEOUT_MS);
    private String trustMode = "jvm-default";
    private String trustStore = "";
    private String trustStorePassword = "";
    private String trustStoreType = "PKCS12";
    private boolean verifyHostname;
    private String bindType = "anonymous";
    private String bindDn = "";
    private String bindPassword = "";
    private String authzId = "";
    private String operation = "search";
    private String baseDn = "";
    private String scope = "sub";
    private String filter = "(objectClass=*)";
    private String attributes = "";
    private String sizeLimit = "0";
    private String timeLimit = "0";
    private String entryDn = "";
    private String compareAttribute = "";
    private String compareValue = "";
    private String ldif = "";
    private String maxEntriesShown = "10";

    /** The per-thread connection (mode per-thread), or the one in use during a sample (for interrupt). */
    private transient volatile LdapClient client;
    private transient volatile LdapClient inFlight;

    @Override
    public SampleResult sample(Entry e) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.setDataType(SampleResult.TEXT);
        res.sampleStart();
        LdapClient c = null;
        boolean perThread = false;
        boolean fresh = false;
        try {
            LdapConnectionSettings settings = settings();
            LdapRequest request = request();
            perThread = perThread();
            res.setSamplerData(describe(settings, request, perThread));
            c = perThread ? reusable(settings) : null;
            if (c == null) {
                c = LdapClient.connect(settings);
                fresh = true;
                inFlight = c;
                res.connectEnd();
                if (request.operation() != LdapOperation.BIND) {
                    c.bind();
                }
                if (perThread) {
                    client = c;
                }
            } else {
                inFlight = c;
            }
            LdapOutcome outcome = c.execute(request, parseInt("maxEntriesShown", maxEntriesShown, 0));
            res.latencyEnd();
            if (!perThread) {
                c.close(); // the unbind belongs to the measured iteration, as in the reference script
                c = null;
            }
            res.sampleEnd();
            res.setSuccessful(true);
            res.setResponseCodeOK();
            res.setResponseMessage(outcome.summary());
            res.setResponseHeaders("ldap-result: " + outcome.resultName() + " (" + outcome.resultCode().intValue()
                    + ")\nconnection: " + (fresh ? "new" : "reused") + "\n");
            res.setResponseData(outcome.render(parseInt("maxEntriesShown", maxEntriesShown, 0)),
                    StandardCharsets.UTF_8.name());
        } catch (LdapClientException ex) {
            endIfRunning(res);
            fail(res, ex.category(), ex.getMessage(), ex.detail());
            if (c != null && (!perThread || ex.connectionLost() || !c.isBound())) {
                dropConnection(c);
            }
        } catch (RuntimeException ex) {
            endIfRunning(res);
            fail(res, CLIENT_ERROR, "unexpected " + ex.getClass().getSimpleName(), String.valueOf(ex));
            if (c != null) {
                dropConnection(c);
            }
        } finally {
            inFlight = null;
        }
        return res;
    }

    private LdapClient reusable(LdapConnectionSettings settings) {
        LdapClient current = client;
        if (current == null) {
            return null;
        }
        if (current.isConnected() && current.isBound() && current.settings().equals(settings)) {
            return current;
        }
        dropConnection(current);
        return null;
    }

    private void dropConnection(LdapClient c) {
        if (client == c) {
            client = null;
        }
        c.close();
    }

    private static void endIfRunning(SampleResult res) {
        if (res.getEndTime() == 0) {
            res.sampleEnd();
        }
    }

    private static void fail(SampleResult res, String code, String message, String detail) {
        res.setSuccessful(false);
        res.setResponseCode(code);
        res.setResponseMessage(message);
        res.setResponseData(detail == null ? "" : detail, StandardCharsets.UTF_8.name());
    }

    private boolean perThread() throws LdapClientException {
        String m = connectionMode == null ? "" : connectionMode.trim().toLowerCase(Locale.ROOT);
        if (m.isEmpty() || m.equals(MODE_PER_ITERATION)) {
            return false;
        }
        if (m.equals(MODE_PER_THREAD)) {
            return true;
        }
        throw LdapClientException.config("unknown connection mode '" + connectionMode
                + "' (expected per-iteration or per-thread)");
    }

    LdapConnectionSettings settings() throws LdapClientException {
        return LdapConnectionSettings.builder()
                .scheme(LdapScheme.parse(scheme))
                .host(host)
                .port(parseInt("port", port, 0))
                .socketPath(socketPath)
                .startTls(startTls)
                .connectTimeoutMs(parseInt("connectTimeout", connectTimeout, LdapConnectionSettings.DEFAULT_CONNECT_TIMEOUT_MS))
                .responseTimeoutMs(parseInt("responseTimeout", responseTimeout, LdapConnectionSettings.DEFAULT_RESPONSE_TIMEOUT_MS))
                .trustMode(TrustMode.parse(trustMode))
                .trustStorePath(trustStore)
                .trustStorePassword(trustStorePassword)
                .trustStoreType(trustStoreType)
                .verifyHostname(verifyHostname)
                .bindType(BindType.parse(bindType))
                .bindDn(bindDn)
                .bindPassword(bindPassword)
                .authzId(authzId)
                .build();
    }

    LdapRequest request() throws LdapClientException {
        LdapOperation op = LdapOperation.parse(operation);
        if (op == LdapOperation.SEARCH) {
            SearchScopes.parse(scope); // a bad scope is a configError before connecting, not after
        }
        return LdapRequest.builder(op)
                .baseDn(baseDn)
                .scope(scope)
                .filter(filter)
                .attributes(attributes)
                .sizeLimit(parseInt("sizeLimit", sizeLimit, 0))
                .timeLimitSeconds(parseInt("timeLimit", timeLimit, 0))
                .entryDn(entryDn)
                .compareAttribute(compareAttribute)
                .compareValue(compareValue)
                .ldif(ldif)
                .build();
    }

    /** What was asked, for the request tab. Never contains a password. */
    private static String describe(LdapConnectionSettings s, LdapRequest r, boolean perThread) {
        StringBuilder sb = new StringBuilder();
        sb.append("target: ").append(s.target()).append('\n');
        sb.append("connection: ").append(perThread ? MODE_PER_THREAD : MODE_PER_ITERATION).append('\n');
        sb.append("bind: ").append(s.bindType().id());
        if (!s.bindDn().isEmpty()) {
            sb.append(" as ").append(s.bindDn());
        }
        sb.append('\n').append("operation: ").append(r.operation().id()).append('\n');
        switch (r.operation()) {
            case SEARCH:
                sb.append("base: ").append(r.baseDn()).append("\nscope: ").append(r.scope())
                        .append("\nfilter: ").append(r.filter()).append('\n');
                if (!r.attributes().isEmpty()) {
                    sb.append("attributes: ").append(String.join(",", r.attributes())).append('\n');
                }
                break;
            case COMPARE:
                sb.append("dn: ").append(r.entryDn()).append("\nattribute: ").append(r.compareAttribute()).append('\n');
                break;
            case ADD:
            case MODIFY:
                sb.append(r.ldif().strip()).append('\n');
                break;
            case DELETE:
                sb.append("dn: ").append(r.entryDn()).append('\n');
                break;
            default:
                break;
        }
        return sb.toString();
    }

    private static int parseInt(String name, String value, int blankDefault) throws LdapClientException {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            return blankDefault;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw LdapClientException.config(name + " is not a number: '" + value + "'");
        }
    }

    @Override
    public void threadStarted() {
        // connections are opened lazily by the first sample
    }

    @Override
    public void threadFinished() {
        LdapClient c = client;
        client = null;
        if (c != null) {
            c.close();
        }
    }

    /** Stop Test Now: close the socket so a blocked read returns at once. */
    @Override
    public boolean interrupt() {
        LdapClient c = inFlight;
        if (c != null) {
            c.close();
            return true;
        }
        return false;
    }

    // ---- bean accessors (names are the stored property names) ----

    public String getScheme() {
        return scheme;
    }

    public void setScheme(String scheme) {
        this.scheme = scheme;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public String getPort() {
        return port;
    }

    public void setPort(String port) {
        this.port = port;
    }

    public String getSocketPath() {
        return socketPath;
    }

    public void setSocketPath(String socketPath) {
        this.socketPath = socketPath;
    }

    public boolean isStartTls() {
        return startTls;
    }

    public void setStartTls(boolean startTls) {
        this.startTls = startTls;
    }

    public String getConnectionMode() {
        return connectionMode;
    }

    public void setConnectionMode(String connectionMode) {
        this.connectionMode = connectionMode;
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

    public String getTrustMode() {
        return trustMode;
    }

    public void setTrustMode(String trustMode) {
        this.trustMode = trustMode;
    }

    public String getTrustStore() {
        return trustStore;
    }

    public void setTrustStore(String trustStore) {
        this.trustStore = trustStore;
    }

    public String getTrustStorePassword() {
        return trustStorePassword;
    }

    public void setTrustStorePassword(String trustStorePassword) {
        this.trustStorePassword = trustStorePassword;
    }

    public String getTrustStoreType() {
        return trustStoreType;
    }

    public void setTrustStoreType(String trustStoreType) {
        this.trustStoreType = trustStoreType;
    }

    public boolean isVerifyHostname() {
        return verifyHostname;
    }

    public void setVerifyHostname(boolean verifyHostname) {
        this.verifyHostname = verifyHostname;
    }

    public String getBindType() {
        return bindType;
    }

    public void setBindType(String bindType) {
        this.bindType = bindType;
    }

    public String getBindDn() {
        return bindDn;
    }

    public void setBindDn(String bindDn) {
        this.bindDn = bindDn;
    }

    public String getBindPassword() {
        return bindPassword;
    }

    public void setBindPassword(String bindPassword) {
        this.bindPassword = bindPassword;
    }

    public String getAuthzId() {
        return authzId;
    }

    public void setAuthzId(String authzId) {
        this.authzId = authzId;
    }

    public String getOperation() {
        return operation;
    }

    public void setOperation(String operation) {
        this.operation = operation;
    }

    public String getBaseDn() {
        return baseDn;
    }

    public void setBaseDn(String baseDn) {
        this.baseDn = baseDn;
    }

    public String getScope() {
        return scope;
    }

    public void setScope(String scope) {
        this.scope = scope;
    }

    public String getFilter() {
        return filter;
    }

    public void setFilter(String filter) {
        this.filter = filter;
    }

    public String getAttributes() {
        return attributes;
    }

    public void setAttributes(String attributes) {
        this.attributes = attributes;
    }

    public String getSizeLimit() {
        return sizeLimit;
    }

    public void setSizeLimit(String sizeLimit) {
        this.sizeLimit = sizeLimit;
    }

    public String getTimeLimit() {
        return timeLimit;
    }

    public void setTimeLimit(String timeLimit) {
        this.timeLimit = timeLimit;
    }

    public String getEntryDn() {
        return entryDn;
    }

    public void setEntryDn(String entryDn) {
        this.entryDn = entryDn;
    }

    public String getCompareAttribute() {
        return compareAttribute;
    }

    public void setCompareAttribute(String compareAttribute) {
        this.compareAttribute = compareAttribute;
    }

    public String getCompareValue() {
        return compareValue;
    }

    public void setCompareValue(String compareValue) {
        this.compareValue = compareValue;
    }

    public String getLdif() {
        return ldif;
    }

    public void setLdif(String ldif) {
        this.ldif = ldif;
    }

    public String getMaxEntriesShown() {
        return maxEntriesShown;
    }

    public void setMaxEntriesShown(String maxEntriesShown) {
        this.maxEntriesShown = maxEntriesShown;
    }
}
