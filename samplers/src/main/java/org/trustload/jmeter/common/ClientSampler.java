package org.trustload.jmeter.common;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.common.ClientException;

/**
 * The template of every TrustLoad sampler: {@link #prepare} validates and resolves the properties
 * outside the timed part, then the sample starts, {@link #execute} calls the client, the sample
 * ends, and a failure is mapped once by {@link SampleFailures}. A sampler writes only these two
 * methods (and {@link #onFailure} when a failure must close something).
 *
 * @param <R> the prepared request: everything {@link #execute} needs, already parsed
 */
public abstract class ClientSampler<R> extends AbstractSampler implements TestBean {
    private static final long serialVersionUID = 1L;

    /** The element's description for messages, and the name it was built from. */
    private transient String description;
    private transient String describedName;
    /** The config's client this thread found, and the name and thread variables it was found with. */
    private transient Object found;
    private transient String foundName;
    private transient JMeterVariables foundIn;
    private transient long foundAt;

    @Override
    public final SampleResult sample(Entry entry) {
        SampleResult res = new SampleResult();
        // The name is read once per sample: a plan's label such as "search ${__P(filter)}" is a JMeter
        // function evaluated again on every read (a profile of the LDAP search showed two per sample).
        String label = getName();
        res.setSampleLabel(label);
        res.setDataType(SampleResult.TEXT);
        PropertyParser props = new PropertyParser(() -> element(label));
        R request;
        try {
            request = prepare(props, res);
        } catch (ClientException e) {
            // Nothing was sent: a zero-length failed sample.
            SampleFailures.apply(res, props.wrap(e), element(label));
            return res;
        } catch (RuntimeException e) {
            SampleFailures.unexpected(res, e);
            return res;
        }
        res.sampleStart();
        try {
            execute(request, res);
            if (res.getEndTime() == 0) {
                res.sampleEnd();
            }
        } catch (ClientException e) {
            if (res.getEndTime() == 0) {
                res.sampleEnd();
            }
            SampleFailures.apply(res, props.wrap(e), element(label));
            onFailure(request, e, res);
        } catch (RuntimeException e) {
            if (res.getEndTime() == 0) {
                res.sampleEnd();
            }
            SampleFailures.unexpected(res, e);
            onFailure(request, null, res);
        }
        return res;
    }

    /** How messages and the log name this sampler: its kind and its name. */
    protected String element() {
        return element(getName());
    }

    /** {@link #element()} for the name this sample already read. */
    private String element(String name) {
        // built again only when the name changed
        if (description == null || !name.equals(describedName)) {
            description = PropertyParser.describe(kind(), name);
            describedName = name;
        }
        return description;
    }

    /**
     * The client of the config named {@code name} ({@link ClientConfig#find}), looked up again only
     * when the thread, the name or any config's start or end ({@link ClientConfig#changes}) changed: a
     * config publishes its client before the first sample and keeps it for the test, and the lookup's
     * key string showed in the per-sample profile.
     */
    protected final <H> H config(Class<H> type, String kind, String name, PropertyParser props) throws ClientException {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        long changes = ClientConfig.changes();
        Object c = found;
        if (c != null && vars != null && vars == foundIn && changes == foundAt && type.isInstance(c)
                && java.util.Objects.equals(foundName, name)) {
            return type.cast(c);
        }
        H h = ClientConfig.find(type, kind, name, props);
        found = h;
        foundName = name;
        foundIn = vars;
        foundAt = changes;
        return h;
    }

    /** The element's kind as users see it in menus, e.g. {@code LDAP Request}. */
    protected abstract String kind();

    /**
     * Reads, validates and resolves the properties (and finds the config element) before the clock
     * starts; may fill the request tab ({@link SampleResult#setSamplerData}). A configuration error
     * thrown here fails the sample without timing anything and stops the thread.
     */
    protected abstract R prepare(PropertyParser props, SampleResult res) throws ClientException;

    /**
     * The timed part: calls the client and fills the result (success, code, message, body). May
     * call {@code connectEnd}, {@code latencyEnd} and {@code sampleEnd} itself; the template ends the
     * sample if it did not. Throws the client's failure unchanged.
     */
    protected abstract void execute(R request, SampleResult res) throws ClientException;

    /**
     * Called after a failure of {@link #execute} was mapped ({@code e} null for an unexpected
     * exception): close what can no longer be used, or stop the thread where the target can never be
     * reached ({@link SampleResult#setStopThread}).
     */
    protected void onFailure(R request, ClientException e, SampleResult res) {
    }
}
