package org.trustload.jmeter.gmssl;

import static org.trustload.jmeter.common.SampleFailures.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.testelement.ThreadListener;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpHttp;

/**
 * <i>TLCP Request</i>: GM-SSL load in the three metrics of the published GM-SSL method, plus bare
 * handshakes. Modes:
 * <ul>
 *   <li>{@code handshake}: new TCP connection, full handshake (no session reuse unless asked), close;</li>
 *   <li>{@code cps}: the same plus a GET of a small page with {@code Connection: close};</li>
 *   <li>{@code throughput}: GET of a (large) page on a connection kept per thread;</li>
 *   <li>{@code hold}: open one more connection per sample and keep it, to find the maximum of
 *       concurrent connections; every held connection is closed when the thread or the test ends.</li>
 * </ul>
 * Connect time = TCP connect + handshake; latency = until the response's first byte; the separate
 * timings, the negotiated protocol and suite are in the response headers. The SSL context is built
 * once per test and shared ({@link TlcpClients}).
 */
public class TlcpRequestSampler extends AbstractSampler implements TestBean, ThreadListener, TestStateListener,
        Interruptible {
    private static final long serialVersionUID = 1L;

    public static final String MODE_HANDSHAKE = "handshake";
    public static final String MODE_CPS = "cps";
    public static final String MODE_THROUGHPUT = "throughput";
    public static final String MODE_HOLD = "hold";

    /** Every connection held by hold mode in this JVM, closed at test end even if a thread never finished. */
    private static final Set<TlcpConnection> HELD = ConcurrentHashMap.newKeySet();

    // Bean properties (TestBean): plain values, so the element serializes for distributed mode.
    private String engine = "bgm";
    private String host = "127.0.0.1";
    private String port = "";
    private String protocol = "TLCP";
    private String suite = "ECC_SM4_CBC_SM3";
    private String mode = MODE_CPS;
    private String path = "/1k";
    private String caFile = "";
    private String clientKeyStore = "";
    private String clientKeyStorePassword = "";
    private String clientSignAlias = "sign";
    private String clientEncAlias = "enc";
    private boolean sessionReuse;
    private String connectTimeout = "5000";
    private String responseTimeout = "10000";

    // Per thread (JMeter clones the sampler for every thread).
    private transient TlcpHttp kept;
    private transient List<TlcpConnection> held;
    private transient volatile TlcpConnection inFlight;

    @Override
    public SampleResult sample(Entry e) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.setDataType(SampleResult.TEXT);
        res.sampleStart();
        TlcpConnection fresh = null;
        String m = mode == null ? "" : mode.trim().toLowerCase(Locale.ROOT);
        try {
            TlcpClients.Key key = key();
            int p = key.port(port);
            res.setSamplerData(describe(m, key, p));
            if (!List.of(MODE_HANDSHAKE, MODE_CPS, MODE_THROUGHPUT, MODE_HOLD).contains(m)) {
                throw new TlcpException(TlcpException.CONFIG_ERROR, "unknown mode '" + mode
                        + "' (handshake, cps, throughput, hold)");
            }
            TlcpClient client = TlcpClients.get(key);
            StringBuilder headers = new StringBuilder();
            TlcpHttp http = m.equals(MODE_THROUGHPUT) ? kept : null;
            TlcpConnection conn;
            if (http == null) {
                conn = client.connect(key.host(), p);
                fresh = conn;
                inFlight = conn;
                long connectMs = ms(conn.connectNanos() + conn.handshakeNanos());
                res.setConnectTime(connectMs);
                res.setLatency(connectMs);
                headers.append("connection: new\n");
            } else {
                conn = http.connection();
                inFlight = conn;
                headers.append("connection: reused\n");
            }
            headers.append("protocol: ").append(conn.protocol()).append('\n')
                    .append("cipher-suite: ").append(conn.cipherSuite()).append('\n')
                    .append("session-resumed: ").append(conn.resumed()).append('\n');
            if (fresh != null) {
                headers.append("tcp-connect-ms: ").append(fmt(conn.connectNanos())).append('\n')
                        .append("handshake-ms: ").append(fmt(conn.handshakeNanos())).append('\n');
            }
            String body;
            switch (m) {
                case MODE_HANDSHAKE:
                    conn.close();
                    fresh = null;
                    body = "handshake " + conn.protocol() + " " + conn.cipherSuite();
                    break;
                case MODE_HOLD:
                    if (held == null) {
                        held = new ArrayList<>();
                    }
                    held.add(conn);
                    HELD.add(conn);
                    fresh = null;
                    headers.append("held-connections: ").append(held.size()).append('\n');
                    body = "holding " + held.size() + " connection(s) in this thread";
                    break;
                default:
                    boolean keepAlive = m.equals(MODE_THROUGHPUT);
                    if (http == null) {
                        http = new TlcpHttp(conn);
                    }
                    TlcpHttp.Response r = http.get(key.host(), path, keepAlive);
                    res.setLatency(res.getConnectTime() + ms(r.firstByteNanos()));
                    headers.append("first-byte-ms: ").append(fmt(r.firstByteNanos())).append('\n')
                            .append("transfer-ms: ").append(fmt(r.transferNanos())).append('\n')
                            .append(r.statusLine()).append('\n').append(r.headers()).append('\n');
                    res.setBodySize(r.bodyBytes());
                    res.setHeadersSize(r.statusLine().length() + r.headers().length() + 4);
                    if (keepAlive && r.keepAlive()) {
                        kept = http;
                        fresh = null;
                    } else {
                        if (kept == http) {
                            kept = null;
                        }
                        conn.close();
                        fresh = null;
                    }
                    if (r.status() != 200) {
                        res.setResponseHeaders(headers.toString());
                        fail(res, TlcpException.HTTP_ERROR, "HTTP " + r.status(), r.statusLine());
                        return res;
                    }
                    body = "GET " + path + " -> " + r.status() + ", " + r.bodyBytes() + " bytes";
            }
            res.sampleEnd();
            res.setSuccessful(true);
            res.setResponseCodeOK();
            res.setResponseMessage(conn.protocol() + " " + conn.cipherSuite());
            res.setResponseHeaders(headers.toString());
            res.setResponseData(body, StandardCharsets.UTF_8.name());
        } catch (TlcpException ex) {
            fail(res, ex.category(), ex.getMessage(), ex.detail());
            dropKept();
        } catch (RuntimeException ex) {
            fail(res, "clientError",
                    "unexpected " + ex.getClass().getSimpleName(), String.valueOf(ex));
            dropKept();
        } finally {
            if (fresh != null) {
                fresh.close();
            }
            inFlight = null;
        }
        return res;
    }

    TlcpClients.Key key() throws TlcpException {
        return TlcpClients.key(engine, host, protocol, suite, caFile, clientKeyStore, clientKeyStorePassword,
                clientSignAlias, clientEncAlias, sessionReuse, connectTimeout, responseTimeout);
    }

    private void dropKept() {
        TlcpHttp k = kept;
        kept = null;
        if (k != null) {
            k.connection().close();
        }
    }

    private String describe(String m, TlcpClients.Key key, int p) {
        // never the key store password
        StringBuilder b = new StringBuilder();
        b.append("engine: ").append(key.engine()).append('\n')
                .append("target: ").append(key.host()).append(':').append(p).append('\n')
                .append("protocol: ").append(key.protocol().label()).append('\n')
                .append("suite: ").append(key.suite()).append('\n')
                .append("mode: ").append(m).append('\n');
        if (m.equals(MODE_CPS) || m.equals(MODE_THROUGHPUT)) {
            b.append("GET ").append(path).append('\n');
        }
        b.append("client certificates: ").append(key.clientKeyStore().isEmpty() ? "none" : key.clientKeyStore())
                .append('\n').append("session reuse: ").append(key.sessionReuse()).append('\n');
        return b.toString();
    }

    private static long ms(long nanos) {
        return Math.round(nanos / 1_000_000.0);
    }

    private static String fmt(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1_000_000.0);
    }

    @Override
    public void threadStarted() {
        // connections open lazily in the first sample
    }

    @Override
    public void threadFinished() {
        dropKept();
        List<TlcpConnection> h = held;
        held = null;
        if (h != null) {
            for (TlcpConnection c : h) {
                HELD.remove(c);
                c.close();
            }
        }
    }

    @Override
    public void testStarted() {
        TlcpClients.clear();
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        for (TlcpConnection c : HELD) {
            c.close();
        }
        HELD.clear();
        TlcpClients.clear();
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    /** Connections held by hold mode in this JVM (tests check that the test end releases them). */
    static int heldConnections() {
        return HELD.size();
    }

    /** Stop Test Now: close the socket so a blocked read returns at once. */
    @Override
    public boolean interrupt() {
        TlcpConnection c = inFlight;
        if (c != null) {
            c.close();
            return true;
        }
        return false;
    }

    // ---- bean accessors (names are the stored property names) ----

    public String getEngine() { return engine; }

    public void setEngine(String v) { engine = v; }

    public String getHost() { return host; }

    public void setHost(String v) { host = v; }

    public String getPort() { return port; }

    public void setPort(String v) { port = v; }

    public String getProtocol() { return protocol; }

    public void setProtocol(String v) { protocol = v; }

    public String getSuite() { return suite; }

    public void setSuite(String v) { suite = v; }

    public String getMode() { return mode; }

    public void setMode(String v) { mode = v; }

    public String getPath() { return path; }

    public void setPath(String v) { path = v; }

    public String getCaFile() { return caFile; }

    public void setCaFile(String v) { caFile = v; }

    public String getClientKeyStore() { return clientKeyStore; }

    public void setClientKeyStore(String v) { clientKeyStore = v; }

    public String getClientKeyStorePassword() { return clientKeyStorePassword; }

    public void setClientKeyStorePassword(String v) { clientKeyStorePassword = v; }

    public String getClientSignAlias() { return clientSignAlias; }

    public void setClientSignAlias(String v) { clientSignAlias = v; }

    public String getClientEncAlias() { return clientEncAlias; }

    public void setClientEncAlias(String v) { clientEncAlias = v; }

    public boolean isSessionReuse() { return sessionReuse; }

    public void setSessionReuse(boolean v) { sessionReuse = v; }

    public String getConnectTimeout() { return connectTimeout; }

    public void setConnectTimeout(String v) { connectTimeout = v; }

    public String getResponseTimeout() { return responseTimeout; }

    public void setResponseTimeout(String v) { responseTimeout = v; }
}
