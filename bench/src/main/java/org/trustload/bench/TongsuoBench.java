package org.trustload.bench;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpHttp;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.labkit.pki.TestPki;
import org.trustload.testing.NativeTlcpPeer;
import org.trustload.harness.results.Jtl;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * The tongsuo engine's numbers, measured in one run against one server (the native Tongsuo peer,
 * TLS 1.3 TLS_SM4_GCM_SM3, two pre-forked workers): new connections per second (connect + full
 * handshake + GET /1k with Connection: close + close) and MiB/s (GET /1m on a kept-alive connection),
 * 1 and 2 client threads, for the native C client ("native" reference), the tongsuo engine's raw loop,
 * the bgm engine's raw loop (same loop, for scale) and, when the gmssl plans are present, the
 * TLCP Request sampler in JMeter (gmssl-cps / gmssl-throughput with engine=tongsuo). Client CPU per
 * operation is measured per process (the server is another process), so it survives a loaded machine
 * better than rates do. Writes its section of docs/scenarios/gmssl.md between markers.
 *
 * <p>{@code ./trustload bench tongsuo [rounds=3] [seconds=8] [warmup=5] [count=200] [requests=60] [threads=1,2]
 * [parts=cps,throughput] [sampler=true] [jfr=true] [doc=true] [out=DIR]}; {@code doc=false} leaves
 * docs/scenarios/gmssl.md alone (tiny runs).
 */
public final class TongsuoBench {
    private static final String BEGIN = "<!-- tongsuo-bench:begin (./trustload bench tongsuo writes this section) -->";
    private static final String END = "<!-- tongsuo-bench:end -->";
    private static final String NOTES = "Java rows: CPU of the client JVM (JIT compilation and GC included; `warmup=`"
            + " seconds run first and are not counted, yet on a loaded machine the JIT may still be compiling). Sampler"
            + " rows: CPU of the whole JMeter JVM, start-up included, divided by all samples: an upper bound; their"
            + " rate counts samples that started after every thread's first sample (engine set-up) and the warm-up. cps"
            + " ops are connections; throughput ops are 1 MiB pages.";

    /** The bgm engine (bgmprovider 1.1.4) runs on Java 17 to 21 only. */
    private static final boolean BGM = Runtime.version().feature() <= 21;

    /** Seconds a sampler run allows for JMeter's start, the config's engine set-up and each thread's first sample. */
    private static final int SAMPLER_SETUP_SECONDS = 20;

    private final Map<String, String> opts = new HashMap<>();
    private final Path root;
    private TestPki pki;
    private X509Certificate ca;
    private int port;
    private final List<String> rows = new ArrayList<>();
    private final List<String> ratioRows = new ArrayList<>();
    private Path out;

    private final List<String> args;

    private TongsuoBench(String[] args) {
        this.args = List.of(args);
        for (String a : args) {
            int eq = a.indexOf('=');
            opts.put(a.substring(0, eq), a.substring(eq + 1));
        }
        root = Path.of(System.getProperty("trustload.root", ".")).toAbsolutePath();
    }

    private int opt(String k, int def) {
        return Integer.parseInt(opts.getOrDefault(k, String.valueOf(def)));
    }

    public static void main(String[] args) throws Exception {
        new TongsuoBench(args).run();
        System.exit(0);
    }

    private void run() throws Exception {
        Path work = Files.createTempDirectory("tongsuo-bench");
        out = opts.containsKey("out") ? Path.of(opts.get("out"))
                : root.resolve("bench/target/tongsuo-bench/" + Instant.now().toString().replace(':', '-'));
        Files.createDirectories(out);
        pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), work.resolve("pki"));
        ca = pki.caCertificates().get(0);
        String loadBefore = load();
        Instant started = Instant.now();
        int rounds = opt("rounds", 3);
        List<String> parts = List.of(opts.getOrDefault("parts", "cps,throughput").split(","));
        // the raw loops' profile (this JVM): kept beside the results
        Recording jfr = null;
        if (!"false".equals(opts.get("jfr"))) {
            jfr = new Recording(Configuration.getConfiguration("profile"));
            jfr.start();
        }
        try (NativeTlcpPeer.Server server = NativeTlcpPeer.server(List.of("--proto", "tls13", "--port", "0",
                "--workers", "2", "--timeout-ms", "30000",
                "--sign-cert", pki.dir().resolve("tlcp-server-sign.pem").toString(),
                "--sign-key", pki.dir().resolve("tlcp-server-sign.key").toString()))) {
            port = server.port();
            int seconds = opt("seconds", 8);
            for (String kind : parts) {
                boolean cps = kind.equals("cps");
                for (int threads : threads()) {
                    // warm-up once: JIT and the engines' lazy initialisation stay out of every round
                    try (TlcpClient t = client("tongsuo")) {
                        loop(t, threads, opt("warmup", 5), cps);
                    }
                    if (BGM) {
                        try (TlcpClient b = client("bgm")) {
                            loop(b, threads, opt("warmup", 5), cps);
                        }
                    }
                    List<double[]> ratios = new ArrayList<>();
                    for (int r = 1; r <= rounds; r++) {
                        // interleaved, one cell each per round: the machine's load hits all three alike
                        double[] nat = nativeClients(threads, cps, cps ? opt("count", 200) : opt("requests", 60));
                        double[] ts = raw("tongsuo", threads, seconds, cps);
                        // bgm (TLS 1.3 SM too) for scale where it runs: Java 17 to 21
                        double[] bgm = BGM ? raw("bgm", threads, seconds, cps) : new double[] {Double.NaN, Double.NaN};
                        // CPU per op vs native, rate vs native
                        ratios.add(new double[] {ts[1] / nat[1], bgm[1] / nat[1], ts[0] / nat[0]});
                    }
                    ratioRow(kind, threads, ratios);
                    sampler(cps ? "gmssl-cps" : "gmssl-throughput", threads, seconds, kind);
                }
            }
        } finally {
            if (jfr != null) {
                jfr.dump(out.resolve("tongsuo-bench-raw.jfr"));
                jfr.close();
            }
        }
        write(loadBefore, load(), started, rounds);
        Files.writeString(out.resolve("tongsuo-bench.md"),
                String.join("\n", rows) + "\n" + String.join("\n", ratioRows) + "\n");
        System.out.println("raw files and JFR in " + out);
    }

    private List<Integer> threads() {
        List<Integer> t = new ArrayList<>();
        for (String x : opts.getOrDefault("threads", "1,2").split(",")) {
            t.add(Integer.parseInt(x.trim()));
        }
        return t;
    }

    private void ratioRow(String kind, int threads, List<double[]> ratios) {
        String r = String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %d |", kind, threads, minMax(ratios, 0),
                minMax(ratios, 1), minMax(ratios, 2), ratios.size());
        System.out.println(r);
        ratioRows.add(r);
    }

    private static String minMax(List<double[]> v, int i) {
        double min = v.stream().mapToDouble(x -> x[i]).min().orElse(Double.NaN);
        double max = v.stream().mapToDouble(x -> x[i]).max().orElse(Double.NaN);
        if (Double.isNaN(min)) {
            return "—"; // not measured (bgm on Java 22+)
        }
        return String.format(Locale.ROOT, "%.2f–%.2f", min, max);
    }

    // ---- the server's own CPU: the native peer's processes (pre-forked workers included) ----

    private static long serverCpuMs() {
        long sum = 0;
        for (ProcessHandle h : ProcessHandle.current().descendants().toList()) {
            String cmd = h.info().commandLine().orElse("");
            if (cmd.contains("tlcp-peer") && cmd.contains(" server")) {
                sum += Math.max(0, ProcCpu.processMs(h.pid())); // -1: ended meanwhile
            }
        }
        return sum;
    }

    /** Milliseconds of the server's CPU since {@code ms0} ({@link #serverCpuMs()}), per op. */
    private static double serverMsPerOp(long ms0, double ops) {
        return (double) (serverCpuMs() - ms0) / Math.max(1, ops);
    }

    // ---- native C client: one process per thread ----

    /** cps: each process opens {@code n} connections (GET /1k each); else {@code n} GET /1m on one connection. */
    private double[] nativeClients(int threads, boolean cps, int n) throws Exception {
        long srv0 = serverCpuMs();
        List<NativeTlcpPeer.Result> rs = NativeTlcpPeer.clients(threads, List.of("--proto", "tls13", "--port",
                String.valueOf(port), "--cipher", "TLS_SM4_GCM_SM3", "--ca", caFile(), "--path", cps ? "/1k" : "/1m",
                cps ? "--count" : "--requests", String.valueOf(n)), Duration.ofMinutes(5));
        // cps: one op = one connection; throughput: one op = one MiB
        double ops = 0;
        double span = 0;
        double cpu = 0;
        for (NativeTlcpPeer.Result r : rs) {
            if (r.exit() != 0) {
                throw new IllegalStateException("native client failed: " + r);
            }
            String[] rate = r.line(cps ? "RATE" : "THROUGHPUT").split(" ");
            ops += Double.parseDouble(rate[1]) / (cps ? 1 : 1048576.0);
            span = Math.max(span, Double.parseDouble(rate[2]));
            cpu += Double.parseDouble(r.line("CPU"));
        }
        row(cps ? "cps" : "throughput", "native C client (Tongsuo 8.3.2)", threads, ops / span,
                cps ? "conn/s" : "MiB/s",
                cpu * 1000 / ops, serverMsPerOp(srv0, ops), cps ? (long) ops : (long) n * threads, 0);
        return new double[] {ops / span, cpu * 1000 / ops};
    }

    // ---- the engines' raw loops in this JVM ----

    private TlcpClient client(String engine) throws Exception {
        return TlcpEngines.get(engine).newClient(new TlcpClientSettings().withProtocol(TlcpProtocol.TLS13)
                .withSuites(List.of(TlcpSuite.TLS_SM4_GCM_SM3)).withTrustAnchors(List.of(ca))
                .withConnectTimeoutMillis(5000).withReadTimeoutMillis(30000));
    }

    /** One measured raw loop (the client built before, warm-up done by the caller): rate, client CPU ms per op. */
    private double[] raw(String engine, int threads, int seconds, boolean cps) throws Exception {
        try (TlcpClient c = client(engine)) {
            long srv0 = serverCpuMs();
            long[] r = loop(c, threads, seconds, cps);
            // cps: one op = one connection; throughput: one op = one 1 MiB page
            double rate = r[0] * 1e9 / r[2];
            double cpu = r[3] / 1e6 / Math.max(1, r[0]);
            row(cps ? "cps" : "throughput", engine + " engine, raw loop", threads, rate, cps ? "conn/s" : "MiB/s", cpu,
                    serverMsPerOp(srv0, r[0]), r[0], r[1]);
            return new double[] {rate, cpu};
        }
    }

    /** Returns ops, errors, wall nanos, process CPU nanos. cps: new connection per op; else GET /1m kept alive. */
    private long[] loop(TlcpClient c, int threads, int seconds, boolean cps) throws Exception {
        AtomicLong ops = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        long[] deadline = new long[1];
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                TlcpConnection kept = null;
                TlcpHttp http = null;
                while (System.nanoTime() < deadline[0]) {
                    try {
                        if (cps) {
                            try (TlcpConnection conn = c.connect("127.0.0.1", port)) {
                                if (new TlcpHttp(conn).get("127.0.0.1", "/1k", false).status() != 200) {
                                    throw new IllegalStateException("status");
                                }
                            }
                        } else {
                            if (kept == null) {
                                kept = c.connect("127.0.0.1", port);
                                http = new TlcpHttp(kept);
                            }
                            if (http.get("127.0.0.1", "/1m", true).bodyBytes() != 1 << 20) {
                                throw new IllegalStateException("short page");
                            }
                        }
                        ops.incrementAndGet();
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        if (kept != null) {
                            kept.close();
                            kept = null;
                        }
                    }
                }
                if (kept != null) {
                    kept.close();
                }
            });
            t.start();
            ts.add(t);
        }
        long cpu0 = ProcCpu.selfNanos();
        long t0 = System.nanoTime();
        deadline[0] = t0 + seconds * 1_000_000_000L;
        start.countDown();
        for (Thread t : ts) {
            t.join();
        }
        long t1 = System.nanoTime();
        return new long[] {ops.get(), errors.get(), t1 - t0, ProcCpu.selfNanos() - cpu0 };
    }

    // ---- the sampler in JMeter, through the gmssl plans ----

    private void sampler(String plan, int threads, int seconds, String kind) throws Exception {
        Path jmx = root.resolve("test-plans/gmssl/" + plan + ".jmx");
        Path home = root.resolve("dist/target/jmeter");
        if (!"true".equals(opts.getOrDefault("sampler", "true")) || !Files.isRegularFile(jmx)
                || !Files.isDirectory(home)) {
            return;
        }
        Path dir = Files.createTempDirectory("tongsuo-bench-" + plan);
        int warmup = opt("warmup", 5);
        // the TLCP Client Config builds the engine's client at test start and each thread's first sample
        // warms its own path (seconds on a loaded machine): the run
        // lasts long enough to measure `seconds` after it and the warm-up
        int duration = SAMPLER_SETUP_SECONDS + warmup + seconds;
        List<String> props = new ArrayList<>(List.of("-Jengine=tongsuo", "-Jprotocol=TLSv1.3",
                "-Jsuite=TLS_SM4_GCM_SM3", "-Jgmssl.host=127.0.0.1", "-Jgmssl.port=" + port,
                "-Jgmssl.ca.file=" + caFile(), "-Jthreads=" + threads, "-Jrampup=0", "-Jloops=-1",
                "-Jduration=" + duration, "-Jpage=" + (kind.equals("cps") ? "/1k" : "/1m")));
        List<String> jvm = new ArrayList<>(List.of("-Xmx512m",
                "-XX:StartFlightRecording=filename=" + out.resolve(plan + "-" + threads + ".jfr")
                + ",settings=profile"));
        // the same JDK-opening options this JVM got from bin/setenv.sh (bgm is loaded beside tongsuo)
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(a -> a.startsWith("--add-"))
                .forEach(jvm::add);
        long srv0 = serverCpuMs();
        JMeterRun.Result r = JMeterRun.run(home, jmx, dir, jvm, props, duration + 120L, false);
        List<Jtl.Sample> all = Jtl.read(r.jtl());
        // measured: samples that start once every thread finished its first sample (rampup 0: the first
        // `threads` samples by start time), plus the warm-up
        long ready = all.stream().sorted(java.util.Comparator.comparingLong(Jtl.Sample::timeStamp)).limit(threads)
                .mapToLong(Jtl.Sample::end).max().orElse(0);
        java.util.function.Predicate<Jtl.Sample> measured = x -> x.timeStamp() >= ready + warmup * 1000L;
        Jtl.Stats s = Jtl.stats(all, measured, measured);
        double perSec = s.samples() == 0 ? 0 : s.samples() * 1000.0 / s.spanMs();
        // throughput mode: one sample = one 1 MiB page, so samples/s = MiB/s. The JMeter JVM's CPU includes
        // start-up and warm-up: an upper bound per operation
        row(kind, "TLCP Request sampler (engine tongsuo), JMeter", threads, perSec,
                kind.equals("cps") ? "conn/s" : "MiB/s",
                r.cpuSeconds() * 1000 / Math.max(1, all.size()), serverMsPerOp(srv0, all.size()), s.samples(),
                s.errors());
    }

    // ---- helpers ----

    private String caFile() {
        return pki.dir().resolve("ca-1.pem").toString();
    }

    private void row(String metric, String who, int threads, double value, String unit, double cpuMsPerOp,
            double serverMsPerOp, long ops, long errors) {
        String r = String.format(Locale.ROOT, "| %s | %s | %d | %.1f %s | %.2f | %.2f | %d | %d |", metric, who,
                threads, value, unit, cpuMsPerOp, serverMsPerOp, ops, errors);
        System.out.println(r);
        rows.add(r);
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "?";
        }
    }

    private void write(String loadBefore, String loadAfter, Instant started, int rounds) throws Exception {
        StringBuilder b = new StringBuilder();
        b.append(BEGIN).append("\n\n## tongsuo engine and the native reference (TLS 1.3, TLS_SM4_GCM_SM3)\n\n");
        b.append("Measured by `./trustload bench tongsuo ").append(String.join(" ", args)).append("` on ")
                .append(started)
                .append(" (").append(InetAddress.getLocalHost().getHostName()).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(Runtime.version().feature()).append("). Load average before: `").append(loadBefore)
                .append("`, after: `").append(loadAfter)
                .append("`. The native client, the tongsuo raw loop and the bgm ")
                .append("raw loop run interleaved, one cell each per round (").append(rounds)
                .append(" rounds), so the ")
                .append("machine's load hits them alike; the client CPU per operation (the client process only) and"
                        + " the ")
                .append("server's CPU per operation (the native peer's processes, workers included, from /proc) are"
                        + " the ")
                .append("steadier figures. JFR recordings of the raw loops and of each JMeter run are kept beside the ")
                .append("raw results (`bench/target/tongsuo-bench/<timestamp>/`).\n\n");
        b.append("Server: the native Tongsuo peer (`ci/fixtures/tongsuo/tlcp-peer.c`, two pre-forked workers). ")
                .append("cps = TCP connect + full TLS 1.3 handshake (no resumption) + GET /1k with `Connection: close`"
                        + " + close; ")
                .append("throughput = GET /1m on one kept-alive connection per thread. The raw loops run the engines' ")
                .append("`TlcpClient` + `TlcpHttp` directly (no JMeter); client threads = processes for the C"
                        + " client.\n\n");
        b.append("Ratios per round, min–max over the rounds:\n\n");
        b.append("| metric | threads | tongsuo client CPU per op ÷ native's | bgm client CPU per op ÷ native's | ")
                .append("tongsuo rate ÷ native's | rounds |\n|---|---|---|---|---|---|\n");
        ratioRows.forEach(r -> b.append(r).append('\n'));
        b.append("\nEvery cell:\n\n");
        b.append("| metric | client | threads | rate | client CPU ms per op (per MiB) | server CPU ms per op (per MiB)"
                + " | ops | errors |\n");
        b.append("|---|---|---|---|---|---|---|---|\n");
        rows.forEach(r -> b.append(r).append('\n'));
        b.append("\n").append(NOTES).append("\n\n").append(END).append('\n');
        if ("false".equals(opts.get("doc"))) {
            Files.writeString(out.resolve("gmssl-section.md"), b);
            return;
        }
        Path doc = root.resolve("docs/scenarios/gmssl.md");
        String text = Files.isRegularFile(doc) ? Files.readString(doc) : "# GM-SSL (TLCP) scenarios\n\n";
        int i = text.indexOf(BEGIN);
        int j = text.indexOf(END);
        if (i >= 0 && j > i) {
            text = text.substring(0, i) + b + text.substring(j + END.length() + 1);
        } else {
            text = text + (text.endsWith("\n") ? "\n" : "\n\n") + b;
        }
        Files.writeString(doc, text);
        System.out.println("wrote " + doc);
    }
}
