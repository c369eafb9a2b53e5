package org.trustload.lab.kms;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import org.trustload.lab.EndpointInUseException;
import org.trustload.lab.LabContext;

/**
 * AWS KMS + Secrets Manager JSON-protocol emulator (HTTP on base+{@value #HTTP_OFFSET}, HTTPS on
 * base+{@value #HTTPS_OFFSET}). Work in progress: the operations follow in the next commits.
 */
public final class AwsKmsEmulator implements KmsEmulator {
    /** Port offset of the HTTP listener. */
    public static final int HTTP_OFFSET = 8610;
    /** Port offset of the HTTPS listener. */
    public static final int HTTPS_OFFSET = 8611;

    private final Map<String, String> properties = new LinkedHashMap<>();
    private HttpServer http;
    private HttpsServer https;
    private ExecutorService workers;
    private KmsFaults faults;

    @Override
    public String name() {
        return "aws";
    }

    @Override
    public void start(LabContext ctx, SSLContext tls, Path dir, KmsFaults faults) throws Exception {
        this.faults = faults;
        int httpPort = ctx.port(HTTP_OFFSET);
        int httpsPort = ctx.port(HTTPS_OFFSET);
        http = bind(HttpServer.create(), ctx, httpPort);
        https = bind(HttpsServer.create(), ctx, httpsPort);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "kms-lab-aws");
            t.setDaemon(true);
            return t;
        });
        for (HttpServer s : new HttpServer[] {http, https}) {
            s.setExecutor(workers);
            s.createContext("/", this::serve);
            s.createContext(KmsFaults.ADMIN_PATH, faults::handleAdmin);
            s.start();
        }
        properties.put("kms.aws.endpoint", "http://" + LabContext.HOST + ":" + httpPort);
        properties.put("kms.aws.https.endpoint", "https://" + LabContext.HOST + ":" + httpsPort);
        properties.put("kms.aws.region", "us-east-1");
    }

    private void serve(HttpExchange ex) throws IOException {
        byte[] body = "{\"__type\":\"UnknownOperationException\"}".getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(400, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private static <S extends HttpServer> S bind(S server, LabContext ctx, int port) throws IOException {
        try {
            server.bind(new InetSocketAddress(ctx.bindAddress(), port), 1024);
            return server;
        } catch (BindException e) {
            throw new EndpointInUseException(LabContext.HOST + ":" + port + " (kms aws)", e);
        }
    }

    @Override
    public Map<String, String> properties() {
        return Collections.unmodifiableMap(properties);
    }

    @Override
    public void close() {
        if (http != null) {
            http.stop(0);
        }
        if (https != null) {
            https.stop(0);
        }
        if (workers != null) {
            workers.shutdownNow();
        }
    }
}
