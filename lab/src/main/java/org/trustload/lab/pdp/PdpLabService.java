package org.trustload.lab.pdp;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabHttp;
import org.trustload.lab.LabSecrets;
import org.trustload.lab.LabService;
import org.trustload.lab.SelfSignedTls;
import org.trustload.lab.Tally;

/**
 * The {@code pdp} lab service: an XACML PDP (AuthzForce) behind ONAP's legacy PDP-X API
 * ({@link LegacyPdpApi}) and the current {@code /policy/pdpx/v1} decision API ({@link CurrentPdpApi}), over
 * HTTP and HTTPS, with the lab JVM's MBeans over JMX on 127.0.0.1 so a load test can watch the PDP's GC
 * and CPU. See {@code docs/lab.md} for the API.
 */
public final class PdpLabService implements LabService {
    static {
        LabHttp.noDelay();
    }

    /** Port offset of the HTTP listener. */
    public static final int HTTP_OFFSET = 8800;
    /** Port offset of the HTTPS listener. */
    public static final int HTTPS_OFFSET = 8801;
    /** Port offset of the JMX registry and connector server (127.0.0.1 only). */
    public static final int JMX_OFFSET = 8802;

    /*
     * User names are ONAP's defaults: the PDP's user ({@code Authorization}), the client ({@code ClientAuth})
     * and the current API's user. Passwords are random per lab process (LabSecrets), never ONAP's public
     * defaults or a word: a secrets check could not tell such a password from ordinary text.
     */
    static final String USER = "testpdp";
    static final String PASSWORD = LabSecrets.generate();
    static final String CLIENT_USER = "python";
    static final String CLIENT_PASSWORD = LabSecrets.generate();
    static final String ENVIRONMENT = "TEST";
    static final String PDPX_USER = "healthcheck";
    static final String PDPX_PASSWORD = LabSecrets.generate();
    static final String TLS_PASSWORD = LabSecrets.generate();

    static final int THREADS = Integer.getInteger("trustload.lab.pdp.threads",
            Math.max(16, 4 * Runtime.getRuntime().availableProcessors()));

    private final Map<String, String> properties = new LinkedHashMap<>();
    /** Guard decisions asked, by actor (each policy of the plans' setUp has its own), printed at stop. */
    private final Tally actors = new Tally();
    private HttpServer http;
    private HttpsServer https;
    private ExecutorService workers;
    private SelfSignedTls tls;
    private LoopbackJmx jmx;
    private XacmlPdp pdp;
    private LegacyPdpApi legacy;
    private boolean closed;

    @Override
    public String name() {
        return "pdp";
    }

    @Override
    public synchronized void start(LabContext ctx) throws Exception {
        int httpPort = ctx.port(HTTP_OFFSET);
        int httpsPort = ctx.port(HTTPS_OFFSET);
        http = LabHttp.bind(HttpServer.create(), ctx, httpPort, "pdp");
        https = LabHttp.bind(HttpsServer.create(), ctx, httpsPort, "pdp");
        jmx = LoopbackJmx.start(ctx, ctx.port(JMX_OFFSET));
        pdp = new XacmlPdp(ctx.socketDir().resolve("pdp"));
        // build the (empty) engine now: class loading and JAXB set-up cost ~1 s, not on the first request
        pdp.guard(new XacmlPdp.GuardRequest("warm-up", false, "warm-up", "warm-up", "warm-up", null, null));
        tls = SelfSignedTls.generate(ctx.socketDir(), "pdp", TLS_PASSWORD, ctx.host());

        workers = Executors.newFixedThreadPool(THREADS, LabHttp.daemon("pdp-lab-http"));
        legacy = new LegacyPdpApi(pdp, actors);
        CurrentPdpApi current = new CurrentPdpApi(pdp, actors);
        for (HttpServer s : new HttpServer[] {http, https}) {
            s.setExecutor(workers);
            s.createContext("/", ex -> LabHttp.serve("pdp", ex, e -> {
                throw new PdpException(404, "notFound", "no such resource: " + e.getRequestURI().getPath());
            }));
            legacy.bind(s);
            current.bind(s);
        }
        https.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()));
        http.start();
        https.start();

        String host = ctx.host();
        properties.put("pdp.host", host);
        properties.put("pdp.port", String.valueOf(httpPort));
        properties.put("pdp.https.port", String.valueOf(httpsPort));
        properties.put("pdp.protocol", "http");
        properties.put("pdp.url", "http://" + ctx.authority(httpPort));
        properties.put("pdp.https.url", "https://" + ctx.authority(httpsPort));
        properties.put("pdp.user", USER);
        properties.put("pdp.password", PASSWORD);
        properties.put("pdp.client.user", CLIENT_USER);
        properties.put("pdp.client.password", CLIENT_PASSWORD);
        properties.put("pdp.environment", ENVIRONMENT);
        properties.put("pdpx.user", PDPX_USER);
        properties.put("pdpx.password", PDPX_PASSWORD);
        properties.put("pdp.truststore", tls.trustStore().toAbsolutePath().toString());
        properties.put("pdp.truststore.password", tls.password());
        properties.put("pdp.truststore.type", "PKCS12");
        properties.put("pdp.truststore.pem", tls.pem().toAbsolutePath().toString());
        properties.put("pdp.jmx.url", jmx.url());
        properties.put("pdp.jmx.host", host);
        properties.put("pdp.jmx.port", String.valueOf(ctx.port(JMX_OFFSET)));
        properties.put("pdp.pid", String.valueOf(ProcessHandle.current().pid()));
    }

    @Override
    public Map<String, String> properties() {
        return properties;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        LabHttp.stop(workers, http, https);
        actors.print("pdp", "guard decisions", "actors");
        if (jmx != null) {
            jmx.close();
        }
        if (pdp != null) {
            pdp.close();
        }
        if (tls != null) {
            tls.delete();
        }
    }

    /** Policies created so far through the legacy API (for tests). */
    List<String> createdNames() {
        return legacy.createdNames();
    }
}
