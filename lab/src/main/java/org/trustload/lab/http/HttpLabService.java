package org.trustload.lab.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabHttp;
import org.trustload.lab.LabService;
import org.trustload.lab.Tally;

/**
 * The {@code http} lab service: static pages on {@code http://127.0.0.1:<base+8900>/} for the
 * stock-HTTP scenarios (users x requests against one web server), keep-alive on.
 *
 * <p>Pages ({@link #PAGES}): {@code /} and {@code /index.html} (the same small HTML page, about the
 * size of a web server's welcome page), {@code /64b}, {@code /1k}, {@code /100k} (fixed bodies of
 * those sizes), and a small site of {@value #SITE_PAGES} pages {@code /pages/1.html} ... (HTML of 0.7 to
 * 4 KB, each different: what the plans ask by default, so a run spreads over many pages as users of a
 * site do, not one page a cache always holds). {@code GET} and {@code HEAD} only; anything else is 405,
 * an unknown path 404. Tests serve the same bytes from nginx so both targets answer alike. At stop it
 * prints how many GETs named each page.
 */
public final class HttpLabService implements LabService {
    static {
        LabHttp.noDelay();
        // The JDK server keeps at most 200 idle keep-alive connections by default and closes the rest,
        // which a 1000-user plan sees as "failed to respond"/"Connection reset" on reused connections.
        if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
            System.setProperty("sun.net.httpserver.maxIdleConnections", "4096");
        }
    }

    /** Port offset of the HTTP listener (docs/lab.md, "Port offsets"). */
    public static final int HTTP_OFFSET = 8900;

    /**
     * Handler threads; {@code -Dtrustload.lab.http.threads=N} overrides. Idle keep-alive connections
     * hold no thread (the JDK server parks them on its selector), so a few threads serve 1000 users.
     */
    static final int THREADS = Integer.getInteger("trustload.lab.http.threads",
            Math.max(8, 4 * Runtime.getRuntime().availableProcessors()));

    /** Pages of the site under {@code /pages/}. */
    public static final int SITE_PAGES = 100;

    /** Every page, path to body, in a stable order. */
    public static final Map<String, byte[]> PAGES = pages();

    private final Map<String, String> properties = new LinkedHashMap<>();
    private HttpServer server;
    private ExecutorService workers;
    private boolean closed;
    private final Tally asked = new Tally();

    @Override
    public String name() {
        return "http";
    }

    @Override
    public synchronized void start(LabContext ctx) throws IOException {
        int port = ctx.port(HTTP_OFFSET);
        server = LabHttp.bind(HttpServer.create(), ctx, port, "http");
        workers = Executors.newFixedThreadPool(THREADS, LabHttp.daemon("http-lab"));
        server.setExecutor(workers);
        server.createContext("/", this::serve);
        server.start();
        properties.put("http.protocol", "http");
        properties.put("http.host", ctx.host());
        properties.put("http.port", String.valueOf(port));
    }

    private void serve(HttpExchange ex) throws IOException {
        try (ex) {
            // Read a request body, if any, before answering, so the connection stays usable for keep-alive.
            LabHttp.drainRequestBody(ex);
            String method = ex.getRequestMethod();
            String path = ex.getRequestURI().getPath();
            byte[] body = PAGES.get(path);
            asked.add(body == null ? "(not found)" : path);
            if (!method.equals("GET") && !method.equals("HEAD")) {
                ex.getResponseHeaders().set("Allow", "GET, HEAD");
                send(ex, 405, "text/plain", "method not allowed\n".getBytes(StandardCharsets.US_ASCII), true);
            } else if (body == null) {
                send(ex, 404, "text/plain", "not found\n".getBytes(StandardCharsets.US_ASCII), method.equals("GET"));
            } else {
                String type = path.matches("/|/index\\.html|/pages/.*") ? "text/html; charset=utf-8"
                        : "application/octet-stream";
                send(ex, 200, type, body, method.equals("GET"));
            }
        }
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body, boolean withBody)
            throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        if (withBody) {
            ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } else {
            // HEAD: -1 means no body follows; the JDK server still keeps the connection.
            ex.getResponseHeaders().set("Content-Length", String.valueOf(body.length));
            ex.sendResponseHeaders(status, -1);
        }
    }

    private static Map<String, byte[]> pages() {
        Map<String, byte[]> pages = new LinkedHashMap<>();
        byte[] index = indexPage().getBytes(StandardCharsets.UTF_8);
        pages.put("/", index);
        pages.put("/index.html", index);
        pages.put("/64b", filler(64));
        pages.put("/1k", filler(1024));
        pages.put("/100k", filler(100 * 1024));
        for (int i = 1; i <= SITE_PAGES; i++) {
            pages.put("/pages/" + i + ".html", sitePage(i).getBytes(StandardCharsets.UTF_8));
        }
        return Collections.unmodifiableMap(pages);
    }

    /** Page {@code n} of the site: its own title and text, 0.7 to 4 KB, links to its neighbours. */
    private static String sitePage(int n) {
        StringBuilder text = new StringBuilder();
        int paragraphs = 1 + (n * 37) % 12;
        for (int p = 1; p <= paragraphs; p++) {
            text.append("<p>Paragraph ").append(p).append(" of page ").append(n)
                    .append(": static text of a small site, served from memory, different on every page.</p>\n");
            text.append("<p>").append(Integer.toHexString(n * 7919 + p * 104729).repeat(1 + (n + p) % 5))
                    .append("</p>\n");
        }
        return "<!DOCTYPE html>\n<html>\n<head>\n<title>TrustLoad lab page " + n
                + "</title>\n</head>\n<body>\n<h1>Page "
                + n + "</h1>\n" + text + "<p><a href=\"/pages/" + (n % SITE_PAGES + 1)
                + ".html\">next</a> <a href=\"/pages/"
                + ((n + SITE_PAGES - 2) % SITE_PAGES + 1) + ".html\">previous</a></p>\n</body>\n</html>\n";
    }

    /** A small page of the kind a default web server install greets with (625 bytes). */
    private static String indexPage() {
        return """
                <!DOCTYPE html>
                <html>
                <head>
                <title>TrustLoad lab</title>
                <style>
                html { color-scheme: light dark; }
                body { width: 35em; margin: 0 auto; font-family: Tahoma, Verdana, Arial, sans-serif; }
                </style>
                </head>
                <body>
                <h1>TrustLoad lab web server</h1>
                <p>If you see this page, the lab's <code>http</code> service is up. It serves static
                pages for the HTTP scenarios: <a href="/64b">/64b</a>, <a href="/1k">/1k</a> and
                <a href="/100k">/100k</a>.</p>
                <p>See docs/lab.md in TrustLoad for the endpoints and docs/scenarios/http.md for the
                plans that load it.</p>
                <p><em>Thank you for load-testing responsibly.</em></p>
                </body>
                </html>
                """;
    }

    private static byte[] filler(int size) {
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) 'x');
        for (int i = 63; i < size; i += 64) {
            b[i] = '\n';
        }
        return b;
    }

    @Override
    public Map<String, String> properties() {
        return Collections.unmodifiableMap(properties);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (server != null) {
            server.stop(0);
            asked.print("http", "requests", "pages");
        }
        if (workers != null) {
            workers.shutdownNow();
        }
    }
}
