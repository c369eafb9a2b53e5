package org.trustload.bench.kms;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.trustload.common.ChildProcess;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import org.trustload.bench.ProcCpu;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.bench.JMeterRun;

/**
 * KMS bench: AES-256 Encrypt of 32 bytes against the lab's AWS emulator (its own JVM), at 1, 8 and 32
 * threads: the KMS Request sampler inside the assembled JMeter (plan kms/kms-benchmark-aws) vs a raw AWS
 * SDK v2 loop with the same client settings, each cell in a fresh JVM. Both are measured over the same kind of
 * window after a warm-up: requests/s, and client CPU ms per request from the client process's CPU time
 * in the window (/proc for JMeter, the JVM's process CPU here). The ratio is the sampler's overhead.
 *
 * <p>Rounds ({@code rounds}) interleave the cells in a rotated order, so a change of the machine's load hits
 * every implementation alike; the table gives min–max over rounds, the emulator's own CPU per request (its
 * process CPU over the window), the JIT compiler threads' share of each cell's CPU in the window, and keeps a
 * JFR recording per cell in {@code out/jfr/}.
 *
 * <pre>./trustload bench kms [threads=1,32] [rounds=3] [warmup=30] [window=10] [case=encrypt] [jfr=true]
 *     [backend=true] [jtl=false]</pre>
 */
public final class KmsBench {
    /** Time between starting JFR and the window: JFR's own start-up CPU stays out of it. */
    private static final long JFR_SETTLE_MS = 2000;
    /** Name prefix of the raw loops' request threads (at most 15 characters reach /proc's comm). */
    private static final String WORKER = "w-";
    /** Name prefix of the plan's request threads ("kms clients 1-1", cut to 15 characters by /proc). */
    private static final String JMETER_WORKER = "kms clients";

    private KmsBench() {
    }

    public record Cell(String impl, int threads, long requests, double seconds, double cpuMs, long errors,
            double serverCpuMs, double workerCpuMs, double jitCpuMs) {
        double rps() {
            return requests / seconds;
        }

        double cpuPerRequest() {
            return requests == 0 ? Double.NaN : cpuMs / requests;
        }

        /** CPU of the threads that send the requests only: without JIT compiler and GC threads. */
        double workerPerRequest() {
            return requests == 0 ? Double.NaN : workerCpuMs / requests;
        }

        /**
         * The JIT compiler threads' share of the cell's CPU in the window: a window that still compiles
         * measures the warm-up, not the client (under other load a JMeter cell's 30 s warm-up was not enough).
         */
        double jitShare() {
            return cpuMs <= 0 ? Double.NaN : 100 * jitCpuMs / cpuMs;
        }

        double serverPerRequest() {
            return requests == 0 || serverCpuMs < 0 ? Double.NaN : serverCpuMs / requests;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 6 && (args[0].equals("backend-cell") || args[0].equals("raw-cell"))) {
            // a raw cell in a fresh JVM, like each JMeter cell: both pay their own JIT warm-up
            Properties lab = new Properties();
            try (var in = Files.newInputStream(Paths.get(args[1]))) {
                lab.load(in);
            }
            long labPid = Long.parseLong(args[5]);
            int n = Integer.parseInt(args[2]);
            int warmup = Integer.parseInt(args[3]);
            int window = Integer.parseInt(args[4]);
            Cell c = args[0].equals("raw-cell") ? raw(lab, n, warmup, window, labPid)
                    : backend(lab, n, warmup, window, labPid);
            System.out.printf(Locale.ROOT, "RAWCELL %d %f %f %d %f %f %f%n", c.requests(), c.seconds(), c.cpuMs(),
                    c.errors(), c.serverCpuMs(), c.workerCpuMs(), c.jitCpuMs());
            System.exit(0);
        }
        Properties o = new Properties();
        for (String a : args) {
            int eq = a.indexOf('=');
            o.setProperty(a.substring(0, eq), a.substring(eq + 1));
        }
        Path root = Paths.get(System.getProperty("trustload.root", ".")).toAbsolutePath().normalize();
        Path out = Paths.get(o.getProperty("out", root.resolve("bench/target/kms-bench").toString()));
        Files.createDirectories(out);
        int warmup = Integer.parseInt(o.getProperty("warmup", "30"));
        int window = Integer.parseInt(o.getProperty("window", "10"));
        int rounds = Integer.parseInt(o.getProperty("rounds", "3"));
        boolean jfr = Boolean.parseBoolean(o.getProperty("jfr", "true"));
        boolean backendCell = Boolean.parseBoolean(o.getProperty("backend", "true"));
        // jtl=false (default): JMeter writes no results file, like the vendor's tool (periodic report only);
        // counts come from the KMS Periodic Report. jtl=true adds -l results.jtl (CSV) and counts from it.
        boolean withJtl = Boolean.parseBoolean(o.getProperty("jtl", "false"));
        String kase = o.getProperty("case", "encrypt");
        List<Integer> threads = new ArrayList<>();
        for (String t : o.getProperty("threads", "1,32").split(",")) {
            threads.add(Integer.parseInt(t.trim()));
        }
        List<String> impls = new ArrayList<>(List.of("raw", "sampler"));
        if (backendCell) {
            impls.add(1, "backend");
        }
        int base = Lab.freePortBase();
        // cells.get(threads)[impl] = one Cell per round
        java.util.Map<Integer, java.util.Map<String, List<Cell>>> cells = new java.util.LinkedHashMap<>();
        String load0 = Files.readString(Paths.get("/proc/loadavg")).trim();
        List<String> loads = new ArrayList<>();
        try (Lab lab = Lab.start(Layout.current(), "kms", out.resolve("lab.properties"), out.resolve("lab.log"),
                List.of("--port-base", String.valueOf(base), "--socket-dir", "/tmp/tl-kmsbench-" + base),
                Duration.ofSeconds(300))) {
            Properties labProps = new Properties();
            try (var in = Files.newInputStream(lab.properties())) {
                labProps.load(in);
            }
            long labPid = lab.handle().pid();
            for (int r = 0; r < rounds; r++) {
                for (int n : threads) {
                    // interleaved: every round runs each implementation once, in a rotated order
                    for (int k = 0; k < impls.size(); k++) {
                        String impl = impls.get((k + r) % impls.size());
                        Path jfrFile = jfr ? out.resolve("jfr").resolve(impl + "-" + n + "t-r" + (r + 1) + ".jfr")
                                : null;
                        Cell c = impl.equals("sampler")
                                ? jmeter(root, out, kase, n, warmup, window, labPid, jfrFile, r, withJtl)
                                : rawInChild(out, impl + "-cell", n, warmup, window, labPid, jfrFile);
                        cells.computeIfAbsent(n, x -> new java.util.LinkedHashMap<>())
                                .computeIfAbsent(impl, x -> new ArrayList<>()).add(c);
                        print(c);
                    }
                }
                loads.add(Files.readString(Paths.get("/proc/loadavg")).trim().split(" ")[0]);
            }
        }
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT,
                "case %s, 32-byte data, %d rounds (cells interleaved, rotated each round, each a fresh JVM), warm-up %d"
                        + " s, window %d s; 1-min load before %s, after each round %s; JFR %s; JMeter results file"
                        + " %s%n",
                kase, rounds, warmup, window, load0.split(" ")[0], String.join(", ", loads),
                jfr ? "on in every cell" : "off",
                withJtl ? "CSV (jtl=true)" : "none, counts from the KMS Periodic Report (jtl=false)"));
        table.append("| threads | raw SDK req/s | " + (backendCell ? "backend (no JMeter) req/s | " : "")
                + "sampler req/s | sampler/raw | raw CPU ms/req | " + (backendCell ? "backend CPU ms/req | " : "")
                + "sampler CPU ms/req | raw threads' CPU ms/req | sampler threads' CPU ms/req | JIT share of CPU, raw /"
                + " sampler | emulator CPU ms/req | errors |\n");
        table.append("|---|---|" + (backendCell ? "---|" : "") + "---|---|---|" + (backendCell ? "---|" : "")
                + "---|---|---|---|---|---|\n");
        for (var e : cells.entrySet()) {
            List<Cell> raw = e.getValue().get("raw");
            List<Cell> smp = e.getValue().get("sampler");
            List<Cell> be = e.getValue().getOrDefault("backend", List.of());
            double[] ratio = new double[raw.size()];
            for (int i = 0; i < raw.size(); i++) {
                ratio[i] = smp.get(i).rps() / raw.get(i).rps();
            }
            List<Cell> all = new ArrayList<>(raw);
            all.addAll(smp);
            all.addAll(be);
            long errors = all.stream().mapToLong(Cell::errors).sum();
            table.append("| ").append(e.getKey()).append(" | ").append(range(raw, Cell::rps, "%.0f")).append(" | ");
            if (backendCell) {
                table.append(range(be, Cell::rps, "%.0f")).append(" | ");
            }
            table.append(range(smp, Cell::rps, "%.0f")).append(" | ").append(range(ratio, "%.2f")).append(" | ")
                    .append(range(raw, Cell::cpuPerRequest, "%.3f")).append(" | ");
            if (backendCell) {
                table.append(range(be, Cell::cpuPerRequest, "%.3f")).append(" | ");
            }
            table.append(range(smp, Cell::cpuPerRequest, "%.3f")).append(" | ")
                    .append(range(raw, Cell::workerPerRequest, "%.3f")).append(" | ")
                    .append(range(smp, Cell::workerPerRequest, "%.3f")).append(" | ")
                    .append(range(raw, Cell::jitShare, "%.0f%%")).append(" / ")
                    .append(range(smp, Cell::jitShare, "%.0f%%")).append(" | ")
                    .append(range(all, Cell::serverPerRequest, "%.3f")).append(" | ").append(errors).append(" |\n");
        }
        Files.writeString(out.resolve("table.md"), table);
        System.out.print(table);
    }

    static String range(List<Cell> cs, java.util.function.ToDoubleFunction<Cell> f, String fmt) {
        return range(cs.stream().mapToDouble(f).toArray(), fmt);
    }

    static String range(double[] v, String fmt) {
        double min = java.util.Arrays.stream(v).filter(d -> !Double.isNaN(d)).min().orElse(Double.NaN);
        double max = java.util.Arrays.stream(v).filter(d -> !Double.isNaN(d)).max().orElse(Double.NaN);
        String a = String.format(Locale.ROOT, fmt, min);
        String b = String.format(Locale.ROOT, fmt, max);
        return a.equals(b) ? a : a + "–" + b;
    }

    private static void print(Cell c) {
        System.out.printf(Locale.ROOT,
                "%-8s threads=%-3d requests=%-7d %.1f req/s  %.3f CPU ms/req (request threads %.3f, JIT %.0f%% of the"
                        + " CPU)  emulator %.3f CPU ms/req  errors=%d  load %s%n",
                c.impl(), c.threads(), c.requests(), c.rps(), c.cpuPerRequest(), c.workerPerRequest(), c.jitShare(),
                c.serverPerRequest(), c.errors(),
                loadNow());
    }

    private static String loadNow() {
        try {
            return Files.readString(Paths.get("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "?";
        }
    }

    private static List<String> jfrArgs(Path jfrFile) throws IOException {
        if (jfrFile == null) {
            return List.of();
        }
        Files.createDirectories(jfrFile.getParent());
        List<String> args = new ArrayList<>(jfrAtLaunch(jfrFile));
        args.add("-Dkmsbench.jfr=" + jfrFile);
        return args;
    }

    /**
     * JFR made live when a cell's JVM starts (an in-memory recording of no events), so that the window's
     * recording, started later, costs that JVM nothing but its events. On Java 17 the first JFR start in a
     * running JVM retransforms classes while the JIT has not recorded which compiled code depends on them,
     * so HotSpot throws all of it away (JDK-8324241): a 32-thread JMeter cell went from 6,927 compiled
     * methods to 2,330 at the window's start, its requests/s fell 10–30-fold for seconds, and the window
     * measured the SDK's code being compiled again (docs/bench.md, KMS cause 7).
     */
    static List<String> jfrAtLaunch(Path jfrFile) {
        return jfrFile == null ? List.of() : List.of("-XX:StartFlightRecording:name=launch,settings=none,disk=false");
    }

    private static Cell rawInChild(Path out, String mode, int threads, int warmup, int window, long labPid,
            Path jfrFile) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms256m", "-Xmx512m"));
        cmd.addAll(jfrArgs(jfrFile));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), KmsBench.class.getName(), mode,
                out.resolve("lab.properties").toString(), String.valueOf(threads), String.valueOf(warmup),
                String.valueOf(window), String.valueOf(labPid)));
        Path log = out.resolve(mode + "-" + threads + ".log");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        String result = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("RAWCELL ")) {
                    result = line;
                }
            }
        }
        if (!p.waitFor(warmup + window + 120L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        if (result == null) {
            throw new IllegalStateException("raw cell failed; see " + log);
        }
        String[] f = result.split(" ");
        return new Cell(mode.equals("raw-cell") ? "raw" : "backend", threads, Long.parseLong(f[1]),
                Double.parseDouble(f[2]),
                Double.parseDouble(f[3]), Long.parseLong(f[4]), Double.parseDouble(f[5]), Double.parseDouble(f[6]),
                Double.parseDouble(f[7]));
    }

    /** The raw SDK loop: one client, {@code threads} threads encrypting until told to stop. */
    static Cell raw(Properties lab, int threads, int warmup, int window, long labPid) throws Exception {
        SdkHttpClient http = ApacheHttpClient.builder().maxConnections(threads)
                .connectionTimeout(Duration.ofSeconds(5)).socketTimeout(Duration.ofSeconds(30)).build();
        try (KmsClient kms = KmsClient.builder().httpClient(http).region(Region.of(lab.getProperty("kms.aws.region")))
                .endpointOverride(URI.create(lab.getProperty("kms.aws.endpoint")))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        lab.getProperty("kms.aws.access_key_id"), lab.getProperty("kms.aws.secret_access_key"))))
                .overrideConfiguration(ClientOverrideConfiguration.builder().retryPolicy(RetryPolicy.none()).build())
                .build()) {
            String key = lab.getProperty("kms.aws.key_id");
            return loop("raw", threads, warmup, window, labPid, t -> {
                byte[] data = new byte[32];
                ThreadLocalRandom.current().nextBytes(data);
                SdkBytes plain = SdkBytes.fromByteArray(data);
                return () -> kms.encrypt(b -> b.keyId(key).plaintext(plain));
            });
        } finally {
            http.close();
        }
    }

    /** Our aws-kms backend through KmsWorkload, the same calls the sampler makes, without JMeter. */
    static Cell backend(Properties lab, int threads, int warmup, int window, long labPid) throws Exception {
        org.trustload.kms.KmsSettings settings = org.trustload.kms.KmsSettings.builder()
                .endpoint(lab.getProperty("kms.aws.endpoint")).region(lab.getProperty("kms.aws.region"))
                .credentials(lab.getProperty("kms.aws.access_key_id"), lab.getProperty("kms.aws.secret_access_key"))
                .maxConnections(threads).build();
        try (org.trustload.kms.KmsClient client = org.trustload.kms.KmsBackends.byName("aws-kms").open(settings)) {
            return loop("backend", threads, warmup, window, labPid, t -> {
                org.trustload.kms.KmsRequest req = org.trustload.kms.KmsWorkload.prepare(client,
                        new org.trustload.kms.KmsWorkload.Spec(org.trustload.kms.KmsOperation.ENCRYPT,
                                lab.getProperty("kms.aws.key_id"), 32, "", org.trustload.kms.MessageType.RAW, "", 32),
                                t);
                return () -> client.execute(req);
            });
        }
    }

    /** One request of a loop thread. */
    public interface Call {
        void call() throws Exception;
    }

    /** The call of loop thread {@code t}. */
    public interface Calls {
        Call of(int t) throws Exception;
    }

    /**
     * {@code threads} threads, each making the call {@code calls} gives it until stopped; the figures of the
     * window that follows the warm-up (this JVM's CPU, the workers', the JIT's and the lab's).
     */
    public static Cell loop(String impl, int threads, int warmup, int window, long labPid,
                             Calls calls) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        CountDownLatch finished = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Call call = calls.of(t);
            new Thread(() -> {
                try {
                    while (!stop.get()) {
                        try {
                            call.call();
                        } catch (Exception e) {
                            errors.incrementAndGet();
                        }
                        done.incrementAndGet();
                    }
                } finally {
                    finished.countDown();
                }
            }, WORKER + impl + "-" + t).start();
        }
        Thread.sleep(warmup * 1000L);
        long n0 = done.get();
        long e0 = errors.get();
        jdk.jfr.Recording rec = startRecording();
        long c0 = ProcCpu.selfNanos();
        long k0 = ProcCpu.threadsMs(ProcessHandle.current().pid(), WORKER);
        long j0 = jitMs(ProcessHandle.current().pid());
        long l0 = ProcCpu.processMs(labPid);
        long t0 = System.nanoTime();
        Thread.sleep(window * 1000L);
        long n1 = done.get();
        long e1 = errors.get();
        long c1 = ProcCpu.selfNanos();
        long k1 = ProcCpu.threadsMs(ProcessHandle.current().pid(), WORKER);
        long j1 = jitMs(ProcessHandle.current().pid());
        long l1 = ProcCpu.processMs(labPid);
        long t1 = System.nanoTime();
        stopRecording(rec);
        stop.set(true);
        finished.await(60, TimeUnit.SECONDS);
        return new Cell(impl, threads, n1 - n0, (t1 - t0) / 1e9, (c1 - c0) / 1e6, e1 - e0, l1 - l0, k1 - k0, j1 - j0);
    }

    /** JFR over the measured window only (not the JVM's start-up), when the parent asked for it. */
    static jdk.jfr.Recording startRecording() throws Exception {
        String file = System.getProperty("kmsbench.jfr");
        if (file == null) {
            return null;
        }
        jdk.jfr.Recording rec = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
        rec.setDestination(Paths.get(file));
        rec.start();
        Thread.sleep(JFR_SETTLE_MS); // JFR's own start-up CPU stays out of the window
        return rec;
    }

    static void stopRecording(jdk.jfr.Recording rec) {
        if (rec != null) {
            rec.stop(); // written to its destination
            rec.close();
        }
    }

    /** jcmd PID ARGS (JFR over a JMeter cell's window); no-op without a JFR file. */
    static void jcmd(long pid, Path jfrFile, String... args) throws Exception {
        if (jfrFile == null) {
            return;
        }
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "jcmd").toString(),
                String.valueOf(pid)));
        cmd.addAll(List.of(args));
        ChildProcess.run(cmd, Duration.ofSeconds(60));
    }


    /** The sampler in the assembled JMeter running the real plan; CPU from /proc/PID/stat over the window. */
    static Cell jmeter(Path root, Path out, String kase, int threads, int warmup, int window, long labPid, Path jfrFile,
            int round, boolean withJtl) throws Exception {
        Path dir = out.resolve("jmeter-" + threads + "t-r" + (round + 1));
        // a bound only: the bench stops the test after its window through JMeter's UDP shutdown port
        int duration = warmup + window + 120;
        int udp;
        try (java.net.DatagramSocket probe = new java.net.DatagramSocket(0,
                java.net.InetAddress.getLoopbackAddress())) {
            udp = probe.getLocalPort();
        }
        List<String> jvm = new ArrayList<>(List.of("-Xms256m", "-Xmx512m"));
        jvm.addAll(jfrAtLaunch(jfrFile));
        JMeterRun run = JMeterRun.start(Layout.current().jmeterHome(),
                root.resolve("test-plans/kms/kms-benchmark-aws.jmx"), dir,
                jvm, List.of("-q", out.resolve("lab.properties").toString(), "-Jcase=" + kase, "-Jthreads=" + threads,
                        "-Jduration=" + duration, "-Jreport_file=" + dir.resolve("report.log"),
                        "-Jsummariser.interval=30",
                        "-Jjmeterengine.nongui.port=" + udp, "-Jjmeterengine.nongui.maxport=" + udp),
                duration + 120L, withJtl);
        long pid = run.pid();
        Path jtl = dir.resolve("results.jtl");
        // the warm-up starts once samples flow (the periodic report counts them), i.e. after JMeter's start-up
        Path report = dir.resolve("report.log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!responding(report) && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        Thread.sleep(warmup * 1000L);
        if (jfrFile != null) {
            jcmd(pid, jfrFile, "JFR.start", "name=window", "settings=profile");
            Thread.sleep(JFR_SETTLE_MS);
        }
        long c0 = ProcCpu.processMs(pid);
        long k0 = ProcCpu.threadsMs(pid, JMETER_WORKER);
        long j0 = jitMs(pid);
        long l0 = ProcCpu.processMs(labPid);
        long w0 = System.currentTimeMillis();
        long[] r0 = lastReport(report);
        Thread.sleep(window * 1000L);
        long c1 = ProcCpu.processMs(pid);
        long k1 = ProcCpu.threadsMs(pid, JMETER_WORKER);
        long j1 = jitMs(pid);
        long l1 = ProcCpu.processMs(labPid);
        long w1 = System.currentTimeMillis();
        long[] r1 = lastReport(report);
        if (jfrFile != null) {
            Files.createDirectories(jfrFile.getParent());
            jcmd(pid, jfrFile, "JFR.stop", "name=window", "filename=" + jfrFile);
        }
        if (c0 < 0 || c1 < 0) {
            throw new IllegalStateException("JMeter ended before the window did; see " + dir);
        }
        // "Shutdown": threads finish their current sample, listeners end normally (results flushed)
        byte[] cmd2 = "Shutdown".getBytes(StandardCharsets.US_ASCII);
        try (java.net.DatagramSocket s = new java.net.DatagramSocket()) {
            s.send(new java.net.DatagramPacket(cmd2, cmd2.length, java.net.InetAddress.getLoopbackAddress(), udp));
        }
        run.await();
        double seconds = (w1 - w0) / 1000.0;
        if (!withJtl) {
            // the KMS Periodic Report ticks at a fixed rate (1 s): responses between two ticks over their distance
            if (r1[0] <= r0[0]) {
                throw new IllegalStateException("no KMS Periodic Report tick in the window; see " + report);
            }
            double rate = (r1[1] - r0[1]) / (double) (r1[0] - r0[0]);
            return new Cell("sampler", threads, Math.round(rate * seconds), seconds, c1 - c0, r1[2] - r0[2], l1 - l0,
                    k1 - k0, j1 - j0);
        }
        long n = 0;
        long errors = 0;
        List<String> lines = Files.readAllLines(jtl);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            if (f.length < 8 || !f[0].matches("\\d+")) {
                continue; // a line cut by the stop
            }
            long start = Long.parseLong(f[0]);
            long end = start + Long.parseLong(f[1]);
            if (end >= w0 && end < w1) {
                n++;
                if (!line.contains(",true,")) {
                    errors++;
                }
            }
        }
        return new Cell("sampler", threads, n, seconds, c1 - c0, errors, l1 - l0, k1 - k0, j1 - j0);
    }

    private static final java.util.regex.Pattern TICK = java.util.regex.Pattern.compile(
            "Time_(\\d+):.*?ResponseCount: (\\d+).*?ClientErrorCount: (\\d+)\\s+LimitExceededErrorCount: (\\d+)"
                    + "\\s+TimeoutErrorCount: (\\d+)", java.util.regex.Pattern.DOTALL);

    /** The KMS Periodic Report's last complete block: {tick number, responses, errors}. */
    static long[] lastReport(Path report) throws IOException {
        long[] last = {0, 0, 0};
        java.util.regex.Matcher m = TICK.matcher(Files.readString(report));
        while (m.find()) {
            last = new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)) + Long.parseLong(m.group(4)) + Long.parseLong(m.group(5))};
        }
        return last;
    }

    private static boolean responding(Path report) throws IOException {
        return Files.exists(report) && Files.readString(report).matches("(?s).*ResponseCount: [1-9].*");
    }

    /**
     * CPU ms of a JVM's JIT compiler threads (HotSpot names them "C1/C2 CompilerThreadN"; /proc keeps 15 characters).
     */
    static long jitMs(long pid) {
        return ProcCpu.threadsMs(pid, "C1 CompilerThre") + ProcCpu.threadsMs(pid, "C2 CompilerThre");
    }
}
