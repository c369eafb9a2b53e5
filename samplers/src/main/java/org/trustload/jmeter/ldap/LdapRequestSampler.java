package org.trustload.jmeter.ldap;

import java.nio.charset.StandardCharsets;
import com.unboundid.ldap.sdk.ResultCode;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.ThreadListener;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.ClientSampler;
import org.trustload.jmeter.common.ParsedOnChange;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.ldap.EntryRule;
import org.trustload.ldap.LdapClient;
import org.trustload.ldap.LdapClientException;
import org.trustload.ldap.LdapConnectionSettings;
import org.trustload.ldap.LdapConnections;
import org.trustload.ldap.LdapOperation;
import org.trustload.ldap.LdapOutcome;
import org.trustload.ldap.LdapRequest;
import org.trustload.ldap.LdapValue;
import org.trustload.ldap.SearchScopes;

/**
 * LDAP Request (TrustLoad): one LDAP operation on a connection of the {@link LdapConnectionConfig}
 * it names ({@code configName}). Per iteration, connect, bind, operation and unbind are all inside
 * the sample, like the published reference script; per thread, the thread's connection is reused.
 * Holds only what varies per request; the connection settings live in the config. Base DN, filter and
 * entry DN may be value patterns ({@link org.trustload.ldap.LdapValue}, searchrate's syntax:
 * {@code (uid=fulano[1-10000])}), drawn anew for every sample and shared by the test's threads; unlike a
 * JMeter function, a pattern works inside a {@code -J} property value.
 *
 * <p>Property names are stored in users' plans: never rename them.
 */
public class LdapRequestSampler extends ClientSampler<LdapRequestSampler.Prepared>
        implements ThreadListener, Interruptible {
    private static final long serialVersionUID = 1L;

    /** What users see in menus and messages. */
    static final String KIND = "LDAP Request";

    // Bean properties (TestBean): plain values, so the element serializes for distributed mode.
    private String configName = "ldap";
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
    /** Searches must return at least this many entries; blank (and plans saved before it existed) means 1. */
    private String minEntries = "1";

    /** The config's connections this thread used (to close its connection at thread end). */
    private transient volatile LdapConnections used;
    /** The connection in use during a sample, for Stop Test Now. */
    private transient volatile LdapClient inFlight;
    /**
     * Per thread: the thread's open, bound connection and the config's connections it came from, reused
     * without asking the config again (two map lookups per sample showed in the per-thread profile).
     */
    private transient LdapClient kept;
    private transient LdapConnections keptFrom;
    /** True once this thread reached the server: a later refusal is load, not a wrong target. */
    private transient boolean reached;
    /** The request, its description and entries shown, parsed again only when a property or the config changed. */
    private transient ParsedOnChange<Parsed> parsed;

    /**
     * The parsed request; {@code rule} is the expected-entries rule of a search (null for other operations or
     * minEntries 0).
     */
    private record Parsed(LdapRequest request, int shown, String description, EntryRule rule) {
    }

    /** A request ready to send: the config's connections, the parsed request, entries to show, the entries rule. */
    static final class Prepared {
        final LdapConnections connections;
        final LdapRequest request;
        final int shown;
        final EntryRule rule;
        LdapClient client;

        Prepared(LdapConnections connections, LdapRequest request, int shown, EntryRule rule) {
            this.connections = connections;
            this.request = request;
            this.shown = shown;
            this.rule = rule;
        }
    }

    @Override
    protected String kind() {
        return KIND;
    }

    @Override
    protected Prepared prepare(PropertyParser p, SampleResult res) throws ClientException {
        LdapConnections connections = config(LdapConnections.class, LdapConnectionConfig.KIND, configName, p);
        used = connections;
        if (parsed == null) {
            parsed = new ParsedOnChange<>();
        }
        Object[] inputs = {connections, operation, baseDn, scope, filter, attributes, sizeLimit, timeLimit, entryDn,
            compareAttribute, compareValue, ldif, maxEntriesShown, minEntries};
        Parsed r = parsed.get(inputs, () -> {
            LdapRequest request = request(p, connections);
            int shown = p.integer("maxEntriesShown", maxEntriesShown, 0, 0, Integer.MAX_VALUE);
            EntryRule rule = entryRule(p, connections, request);
            return new Parsed(request, shown, describe(connections, request, rule), rule);
        });
        LdapRequest request = r.request().draw();
        res.setSamplerData(request == r.request() ? r.description() : r.description() + drawn(request));
        return new Prepared(connections, request, r.shown(), r.rule());
    }

    @Override
    protected void execute(Prepared r, SampleResult res) throws ClientException {
        LdapConnections connections = r.connections;
        // A measured bind opens an unbound connection: the bind is the operation.
        boolean bindFirst = r.request.operation() != LdapOperation.BIND;
        LdapClient c = kept;
        boolean fresh;
        if (bindFirst && c != null && keptFrom == connections && c.isConnected() && c.isBound()) {
            fresh = false;
        } else {
            fresh = !connections.hasReusable();
            c = connections.acquire(bindFirst);
            boolean keep = bindFirst && connections.mode() == LdapConnections.Mode.PER_THREAD;
            kept = keep ? c : null;
            keptFrom = keep ? connections : null;
        }
        r.client = c;
        inFlight = c;
        try {
            reached = true;
            if (fresh) {
                res.setConnectTime(Math.max(1, c.connectNanos() / 1_000_000));
            }
            LdapOutcome outcome = c.execute(r.request, r.shown);
            res.latencyEnd();
            connections.release(c, false); // per iteration: the unbind belongs to the measured iteration
            r.client = null; // released: a broken rule below must not release it again
            res.sampleEnd();
            if (r.rule != null) {
                r.rule.check(r.request, outcome);
            }
            res.setSuccessful(true);
            res.setResponseCodeOK();
            res.setResponseMessage(outcome.summary());
            res.setResponseHeaders(outcome.resultCode() == ResultCode.SUCCESS ? (fresh ? SUCCESS_NEW : SUCCESS_REUSED)
                    : headers(outcome, fresh));
            res.setResponseData(outcome.renderUtf8(r.shown));
            res.setDataEncoding(StandardCharsets.UTF_8.name());
        } finally {
            inFlight = null;
        }
    }

    private static final String SUCCESS_NEW =
            headers(ResultCode.SUCCESS, LdapClientException.codeName(ResultCode.SUCCESS), true);
    private static final String SUCCESS_REUSED =
            headers(ResultCode.SUCCESS, LdapClientException.codeName(ResultCode.SUCCESS), false);

    private static String headers(LdapOutcome outcome, boolean fresh) {
        return headers(outcome.resultCode(), outcome.resultName(), fresh);
    }

    private static String headers(ResultCode code, String name, boolean fresh) {
        return "ldap-result: " + name + " (" + code.intValue() + ")\nconnection: " + (fresh ? "new" : "reused") + "\n";
    }

    @Override
    protected void onFailure(Prepared r, ClientException e, SampleResult res) {
        LdapClient c = r.client;
        if (c != null) {
            boolean lost = !(e instanceof LdapClientException) || ((LdapClientException) e).connectionLost()
                    || !c.isBound();
            r.connections.release(c, lost);
        }
        if (!reached && !r.connections.reachedServer() && e instanceof LdapClientException
                && ((LdapClientException) e).isDefinitiveConnectFailure()) {
            // No thread of this test ever reached the server, and the same connect can only fail the same way
            // (refused, no such socket, unknown host, TLS trust): one failed sample per thread says it.
            // Timeouts are not definitive: under load they come and go. Once the server was reached, a refusal
            // is an outage (a restart): the thread goes on and its next connect waits for the server.
            res.setStopThread(true);
        }
    }

    /** This sample's values of the varying fields, for the request tab. */
    private static String drawn(LdapRequest r) {
        return "sent: base " + r.baseDn() + ", filter " + r.filter()
                + (r.entryDn().isEmpty() ? "" : ", dn " + r.entryDn()) + "\n";
    }

    /**
     * The expected-entries rule of a search ({@code minEntries}, blank 1), shared through the config's
     * connections with every thread; null for other operations and for 0.
     */
    private EntryRule entryRule(PropertyParser p, LdapConnections connections, LdapRequest request)
            throws ClientException {
        int min = p.integer("minEntries", minEntries, 1, 0, Integer.MAX_VALUE);
        if (request.operation() != LdapOperation.SEARCH || min == 0) {
            return null;
        }
        if (request.sizeLimit() > 0 && min > request.sizeLimit()) {
            throw p.error("minEntries", "",
                    min + " is more than sizeLimit " + request.sizeLimit() + ": no search can succeed",
                    null);
        }
        return connections.entryRule(request, min);
    }

    LdapRequest request(PropertyParser p, LdapValue.Source patterns) throws ClientException {
        LdapOperation op = LdapOperation.parse(operation);
        if (op == LdapOperation.SEARCH) {
            SearchScopes.parse(scope); // a bad scope is a configError before connecting, not after
        }
        return LdapRequest.builder(op)
                .baseDn(baseDn)
                .scope(scope)
                .filter(filter)
                .attributes(attributes)
                .sizeLimit(p.integer("sizeLimit", sizeLimit, 0, 0, Integer.MAX_VALUE))
                .timeLimitSeconds(p.integer("timeLimit", timeLimit, 0, 0, Integer.MAX_VALUE))
                .entryDn(entryDn)
                .compareAttribute(compareAttribute)
                .compareValue(compareValue)
                .ldif(ldif)
                .build(patterns);
    }

    /** What was asked, for the request tab. Never contains a password. */
    private static String describe(LdapConnections connections, LdapRequest r, EntryRule rule) {
        LdapConnectionSettings s = connections.settings();
        StringBuilder sb = new StringBuilder();
        sb.append("target: ").append(s.target()).append('\n');
        sb.append("connection: ").append(connections.mode().id()).append('\n');
        sb.append("bind: ").append(s.bindType().id());
        if (!s.bindDn().isEmpty()) {
            sb.append(" as ").append(s.bindDn());
        }
        sb.append('\n').append("operation: ").append(r.operation().id()).append('\n');
        switch (r.operation()) {
            case SEARCH:
                sb.append("base: ").append(r.baseDn()).append("\nscope: ").append(r.scope())
                        .append("\nfilter: ").append(r.filter()).append('\n')
                        .append("expected: ").append(rule == null ? "any number of entries (minEntries 0)"
                                : "at least " + rule.minEntries() + (rule.minEntries() == 1 ? " entry" : " entries"))
                        .append('\n');
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

    @Override
    public void threadStarted() {
        // connections are opened lazily by the first sample
    }

    @Override
    public void threadFinished() {
        LdapConnections c = used;
        used = null;
        kept = null;
        keptFrom = null;
        if (c != null) {
            c.closeThread();
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

    public String getConfigName() {
        return configName;
    }

    public void setConfigName(String configName) {
        this.configName = configName;
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

    public String getMinEntries() {
        return minEntries;
    }

    public void setMinEntries(String minEntries) {
        this.minEntries = minEntries;
    }
}
