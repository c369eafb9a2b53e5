package org.trustload.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.trustload.common.ChildProcess;

/**
 * An HTTP server of known CPU cost, for sizing tests: every request (any path but {@code /stats}) spins its
 * thread until the thread's own CPU clock has advanced by a set time, then answers {@code 200 ok}. One thread
 * serves every request in turn (the JDK server's dispatcher), so on one CPU its capacity is 1 / (its CPU per
 * request). {@code /stats} gives what it measured itself: requests served, its process CPU (spin, HTTP, JIT,
 * GC) and its handler's thread CPU; it prints the same as it stops. {@link #start} runs it in a lean JVM of its
 * own (C1 only, serial GC, 1 CPU) pinned with {@code taskset}; {@link #main} is that JVM.
 */
public final class SpinServer implements AutoCloseable {

    /** The line the server prints once it listens: {@code SPIN-SERVER READY http://127.0.0.1:PORT/}. */
    public static final String READY = "SPIN-SERVER READY ";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** What the server measured: requests served, its process CPU and its handler's thread CPU since it started. */
    public record Stats(long requests, double cpuMs, double handlerCpuMs) {

        /** Process CPU per request between {@code earlier} and this, ms; NaN without requests. */
        public double cpuMsPerRequestSince(Stats earlier) {
            long n = requests - earlier.requests;
            return n <= 0 ? Double.NaN : (cpuMs - earlier.cpuMs) / n;
        }
    }

    private final ChildProcess process;
    private final URI uri;
    private final Path dir;

    private SpinServer(ChildProcess process, URI uri, Path dir) {
        this.process = process;
        this.uri = uri;
        this.dir = dir;
    }

    /**
     * Starts the server in a JVM of its own on a free loopback port, pinned to {@code cpus} ({@code taskset -c}, e.g.
     * {@code 1}; null: not pinned), spinning {@code cpuPerRequest} per request; waits up to 60 s for it to listen.
     */
    public static SpinServer start(Duration cpuPerRequest, String cpus) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("trustload-spin");
        List<String> cmd = new ArrayList<>();
        if (cpus != null) {
            cmd.addAll(List.of("taskset", "-c", cpus));
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // the lean JVM: C1 only (compiled within a few hundred requests, no later C2 recompilation), serial GC, one
        // CPU's worth of helper threads
        cmd.addAll(List.of(java, "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:ActiveProcessorCount=1",
                "-Xshare:auto", "-cp", codeSource(), SpinServer.class.getName(),
                "cpu-us=" + cpuPerRequest.toNanos() / 1000));
        ChildProcess p = ChildProcess.start("the spin server", cmd, dir, dir.resolve("spin.log"), READY,
                Duration.ofSeconds(60));
        return new SpinServer(p, URI.create(p.readyLine().substring(READY.length()).strip()), dir);
    }

    private static String codeSource() throws IOException {
        try {
            return Path.of(SpinServer.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IOException("where SpinServer's class was loaded from: " + e.getMessage(), e);
        }
    }

    /** {@code http://127.0.0.1:PORT/}. */
    public URI uri() {
        return uri;
    }

    public int port() {
        return uri.getPort();
    }

    public long pid() {
        return process.handle().pid();
    }

    /** What it measured so far ({@code GET /stats}). */
    public Stats stats() throws IOException, InterruptedException {
        HttpRequest get = HttpRequest.newBuilder(uri.resolve("/stats")).timeout(Duration.ofSeconds(30)).build();
        HttpResponse<String> r = HTTP.send(get, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("spin server /stats answered " + r.statusCode());
        }
        Properties p = new Properties();
        p.load(new java.io.StringReader(r.body()));
        return new Stats(Long.parseLong(p.getProperty("requests")), Double.parseDouble(p.getProperty("cpu_ms")),
                Double.parseDouble(p.getProperty("handler_cpu_ms")));
    }

    /** Sends {@code n} requests one after the other (its JIT compiles the request path on the first few hundred). */
    public void warm(int n) throws IOException, InterruptedException {
        HttpRequest get = HttpRequest.newBuilder(uri.resolve("/warm")).timeout(Duration.ofSeconds(30)).build();
        for (int i = 0; i < n; i++) {
            HTTP.send(get, HttpResponse.BodyHandlers.discarding());
        }
    }

    public Path log() {
        return process.log();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
        Slapd.deleteTree(dir);
    }

    /** {@code SpinServer cpu-us=N [port=P]}: the server itself, until SIGTERM. */
    public static void main(String[] args) throws IOException {
        long cpuNs = 4_000_000;
        int port = 0;
        for (String a : args) {
            if (a.startsWith("cpu-us=")) {
                cpuNs = Long.parseLong(a.substring(7)) * 1000;
            } else if (a.startsWith("port=")) {
                port = Integer.parseInt(a.substring(5));
            } else {
                System.err.println("usage: SpinServer cpu-us=N [port=P]");
                System.exit(1);
            }
        }
        System.setProperty("sun.net.httpserver.nodelay", "true"); // no delayed-ACK waits on small answers
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        AtomicLong requests = new AtomicLong();
        AtomicLong handlerNs = new AtomicLong();
        long spin = cpuNs;
        byte[] ok = "ok\n".getBytes(StandardCharsets.US_ASCII);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        server.createContext("/", exchange -> {
            long t0 = threads.getCurrentThreadCpuTime();
            try (exchange) {
                drain(exchange);
                long x = t0;
                while (threads.getCurrentThreadCpuTime() - t0 < spin) {
                    // work the JIT cannot remove: its result is used below
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
                if (x == 42) {
                    System.out.println("unlikely");
                }
                reply(exchange, ok);
            } finally {
                requests.incrementAndGet();
                handlerNs.addAndGet(threads.getCurrentThreadCpuTime() - t0);
            }
        });
        server.createContext("/stats", exchange -> {
            try (exchange) {
                drain(exchange);
                String text = stats(requests.get(), os.getProcessCpuTime(), handlerNs.get());
                reply(exchange, text.getBytes(StandardCharsets.US_ASCII));
            }
        });
        server.start(); // no executor: the dispatcher thread serves every request itself, one at a time
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            long n = requests.get();
            long cpu = os.getProcessCpuTime();
            System.out.printf(Locale.ROOT, "SPIN-SERVER STOPPED served %d requests, %.3f ms process CPU per request"
                    + " (%s)%n", n, n == 0 ? Double.NaN : cpu / 1e6 / n,
                    stats(n, cpu, handlerNs.get()).replace('\n', ' ').strip());
        }, "spin-server-stop"));
        System.out.println(READY + "http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    private static String stats(long requests, long cpuNs, long handlerNs) {
        return String.format(Locale.ROOT, "requests=%d%ncpu_ms=%.3f%nhandler_cpu_ms=%.3f%n", requests, cpuNs / 1e6,
                handlerNs / 1e6);
    }

    private static void drain(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            in.transferTo(OutputStream.nullOutputStream());
        }
    }

    private static void reply(HttpExchange exchange, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
