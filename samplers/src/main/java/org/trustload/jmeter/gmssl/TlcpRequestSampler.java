package org.trustload.jmeter.gmssl;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.ThreadListener;
import org.trustload.common.ClientException;
import org.trustload.gmssl.TlcpErrors;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpMode;
import org.trustload.gmssl.TlcpOutcome;
import org.trustload.gmssl.TlcpTarget;
import org.trustload.gmssl.TlcpWorker;
import org.trustload.jmeter.common.ClientSampler;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.jmeter.common.SampleFailures;

/**
 * TLCP Request (TrustLoad): one GM-SSL sample in a {@link TlcpMode} (handshake, cps, throughput,
 * hold) on the client of the {@link TlcpClientConfig} it names ({@code configName}). Holds only what
 * varies per request, the mode and the page; the mode machine is lib's {@link TlcpWorker}, one per
 * thread. Connect time = TCP connect + handshake; latency = until the response's first byte.
 *
 * <p>Property names are stored in users' plans: never rename them.
 */
public class TlcpRequestSampler extends ClientSampler<TlcpRequestSampler.Prepared>
        implements ThreadListener, Interruptible {
    private static final long serialVersionUID = 1L;

    /** What users see in menus and messages. */
    static final String KIND = "TLCP Request";

    /** Connect failures after which the same connect can only fail the same way. */
    private static final Set<String> DEFINITIVE = Set.of("connection refused", "unknown host", "no route to host");

    private String configName = "tlcp";
    private String mode = TlcpMode.CPS.id();
    private String path = "/1k";

    /** This thread's mode machine, on the target of the current test. */
    private transient volatile TlcpWorker worker;

    /** A request ready to run. */
    record Prepared(TlcpWorker worker, TlcpMode mode, String path) {
    }

    @Override
    protected String kind() {
        return KIND;
    }

    @Override
    protected Prepared prepare(PropertyParser p, SampleResult res) throws ClientException {
        TlcpTarget target = config(TlcpTarget.class, TlcpClientConfig.KIND, configName, p);
        TlcpMode m = TlcpMode.parse(mode);
        String page = m.fetches() ? p.required("path", path) : path;
        TlcpWorker w = worker;
        if (w == null || w.target() != target) {
            if (w != null) {
                w.close(); // a worker of an earlier test (GUI runs reuse the element)
            }
            w = target.worker();
            worker = w;
        }
        res.setSamplerData(target.describe() + "mode: " + m.id() + "\n" + (m.fetches() ? "GET " + page + "\n" : ""));
        return new Prepared(w, m, page);
    }

    @Override
    protected void execute(Prepared r, SampleResult res) throws ClientException {
        TlcpOutcome o = r.worker().run(r.mode(), r.path());
        res.sampleEnd();
        if (o.newConnection()) {
            res.setConnectTime(ms(o.connectNanos() + o.handshakeNanos()));
        }
        res.setLatency(res.getConnectTime() + (o.response() == null ? 0 : ms(o.response().firstByteNanos())));
        res.setResponseHeaders(o.headers());
        if (o.response() != null) {
            res.setBodySize(o.response().bodyBytes());
            res.setHeadersSize(o.response().statusLine().length() + o.response().headers().length() + 4);
        }
        if (!o.ok()) {
            SampleFailures.fail(res, TlcpException.HTTP_ERROR, "HTTP " + o.response().status(),
                    o.response().statusLine());
            return;
        }
        res.setSuccessful(true);
        res.setResponseCodeOK();
        res.setResponseMessage(o.summary());
        res.setResponseData(o.body(r.path()), StandardCharsets.UTF_8.name());
    }

    @Override
    protected void onFailure(Prepared r, ClientException e, SampleResult res) {
        if (e != null && !r.worker().reached() && definitive(e)) {
            // This thread never completed a handshake and the same attempt can only fail the same way:
            // one failed sample per thread says it. Timeouts are not definitive: under load they come and go.
            res.setStopThread(true);
        }
    }

    /**
     * A refused connect or unknown host, or a handshake whose peer speaks another protocol (a TLS 1.3
     * client at a TLCP-only port, a TLCP client at a TLS port, a plain HTTP port): as LDAP Request stops
     * at a refused connect.
     */
    static boolean definitive(ClientException e) {
        if (ClientException.CONNECT_ERROR.equals(e.category())) {
            return DEFINITIVE.contains(e.getMessage());
        }
        return e instanceof TlcpException && TlcpErrors.isProtocolMismatch((TlcpException) e);
    }

    private static long ms(long nanos) {
        return Math.round(nanos / 1_000_000.0);
    }

    @Override
    public void threadStarted() {
        // the worker is made by the first sample, once the config is found
    }

    @Override
    public void threadFinished() {
        TlcpWorker w = worker;
        worker = null;
        if (w != null) {
            w.close();
        }
    }

    /** Stop Test Now: close the connection in use so a blocked read returns at once. */
    @Override
    public boolean interrupt() {
        TlcpWorker w = worker;
        return w != null && w.interrupt();
    }

    // ---- bean accessors (names are the stored property names) ----

    public String getConfigName() {
        return configName;
    }

    public void setConfigName(String v) {
        configName = v;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String v) {
        mode = v;
    }

    public String getPath() {
        return path;
    }

    public void setPath(String v) {
        path = v;
    }
}
