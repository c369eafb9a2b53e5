package org.trustload.bench.kms;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
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
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.harness.JMeter;

/**
 * KMS bench: AES-256 Encrypt of 32 bytes against the lab's AWS emulator (its own JVM), at 1, 8 and 32
 * threads: the KMS Request sampler inside the assembled JMeter (plan kms/kms-benchmark-aws) vs a raw AWS
 * SDK v2 loop with the same client settings, each cell in a fresh JVM. Both are measured over the same kind of
 * window after a warm-up: requests/s, and client CPU ms per request from the client process's CPU time
 * in the window (/proc for JMeter, the JVM's process CPU here). The ratio is the sampler's overhead.
 *
 * <pre>./trustload bench kms [threads=1,8,32] [warmup=5] [window=10] [case=encrypt]</pre>
 */
public final class KmsBench {
    private static final long CLK_TCK = 100;

    private KmsBench() {
    }

    record Cell(String impl, int threads, long requests, double seconds, double cpuMs, long errors) {
        double rps() {
            return requests / seconds;
        }

        double cpuPerRequest() {
            return requests == 0 ? Double.NaN : cpuMs / requests;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 5 && args[0].equals("backend-cell")) {
            Properties lab = new Properties();
            try (var in = Files.newInputStream(Paths.get(args[1]))) {
                lab.load(in);
            }
            Cell c = backend(lab, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            System.out.printf(Locale.ROOT, "RAWCELL %d %f %f %d%n", c.requests(), c.seconds(), c.cpuMs(), c.errors());
            System.exit(0);
        }
        if (args.length == 5 && args[0].equals("raw-cell")) {
            // a raw cell in a fresh JVM, like each JMeter cell: both pay their own JIT warm-up
            Properties lab = new Properties();
            try (var in = Files.newInputStream(Paths.get(args[1]))) {
                lab.load(in);
            }
            Cell c = raw(lab, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            System.out.printf(Locale.ROOT, "RAWCELL %d %f %f %d%n", c.requests(), c.seconds(), c.cpuMs(), c.errors());
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
        int warmup = Integer.parseInt(o.getProperty("warmup", "5"));
        int window = Integer.parseInt(o.getProperty("window", "10"));
        String kase = o.getProperty("case", "encrypt");
        List<Integer> threads = new ArrayList<>();
        for (String t : o.getProperty("threads", "1,8,32").split(",")) {
            threads.add(Integer.parseInt(t.trim()));
        }
        int base = 20_000 + 1000 * ThreadLocalRandom.current().nextInt(0, 36);
        List<Cell> cells = new ArrayList<>();
        try (Lab lab = Lab.start(Layout.current(), "kms", out.resolve("lab.properties"), out.resolve("lab.log"),
                List.of("--port-base", String.valueOf(base), "--socket-dir", "/tmp/tl-kmsbench-" + base), Duration.ofSeconds(300))) {
            Properties labProps = new Properties();
            try (var in = Files.newInputStream(lab.properties())) {
                labProps.load(in);
            }
            for (int n : threads) {
                cells.add(rawInChild(out, "raw-cell", n, warmup, window));
                cells.add(rawInChild(out, "backend-cell", n, warmup, window));
                cells.add(jmeter(root, out, labProps, kase, n, warmup, window));
                print(cells.get(cells.size() - 3));
                print(cells.get(cells.size() - 2));
                print(cells.get(cells.size() - 1));
            }
        }
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "case %s, 32-byte data, warm-up %d s, window %d s, load at end %s%n", kase,
                warmup, window, Files.readString(Paths.get("/proc/loadavg")).trim()));
        table.append("| threads | raw SDK req/s | backend (no JMeter) req/s | sampler req/s | sampler/raw |"
                + " raw CPU ms/req | backend CPU ms/req | sampler CPU ms/req | errors |\n");
        table.append("|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < cells.size(); i += 3) {
            Cell r = cells.get(i);
            Cell b = cells.get(i + 1);
            Cell s = cells.get(i + 2);
            table.append(String.format(Locale.ROOT, "| %d | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f | %d/%d/%d |%n",
                    r.threads(), r.rps(), b.rps(), s.rps(), s.rps() / r.rps(), r.cpuPerRequest(), b.cpuPerRequest(),
                    s.cpuPerRequest(), r.errors(), b.errors(), s.errors()));
        }
        Files.writeString(out.resolve("table.md"), table);
        System.out.print(table);
    }

    private static void print(Cell c) {
        System.out.printf(Locale.ROOT, "%-8s threads=%-3d requests=%-7d %.1f req/s  %.2f CPU ms/req  errors=%d%n",
                c.impl(), c.threads(), c.requests(), c.rps(), c.cpuPerRequest(), c.errors());
    }


    private static Cell rawInChild(Path out, String mode, int threads, int warmup, int window) throws Exception {
        Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xms256m",
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), KmsBench.class.getName(), mode,
                out.resolve("lab.properties").toString(), String.valueOf(threads), String.valueOf(warmup),
                String.valueOf(window)).redirectError(out.resolve(mode + "-" + threads + ".log").toFile()).start();
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
            throw new IllegalStateException("raw cell failed; see " + out.resolve("raw-" + threads + ".log"));
        }
        String[] f = result.split(" ");
        return new Cell(mode.equals("raw-cell") ? "raw SDK" : "backend", threads, Long.parseLong(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]),
                Long.parseLong(f[4]));
    }

    /** The raw SDK loop: one client, {@code threads} threads encrypting until told to stop. */
    static Cell raw(Properties lab, int threads, int warmup, int window) throws Exception {
        SdkHttpClient http = ApacheHttpClient.builder().maxConnections(threads)
                .connectionTimeout(Duration.ofSeconds(5)).socketTimeout(Duration.ofSeconds(30)).build();
        try (KmsClient kms = KmsClient.builder().httpClient(http).region(Region.of(lab.getProperty("kms.aws.region")))
                .endpointOverride(URI.create(lab.getProperty("kms.aws.endpoint")))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        lab.getProperty("kms.aws.access_key_id"), lab.getProperty("kms.aws.secret_access_key"))))
                .overrideConfiguration(ClientOverrideConfiguration.builder().retryPolicy(RetryPolicy.none()).build())
                .build()) {
            String key = lab.getProperty("kms.aws.key_id");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong done = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            CountDownLatch finished = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                byte[] data = new byte[32];
                ThreadLocalRandom.current().nextBytes(data);
                SdkBytes plain = SdkBytes.fromByteArray(data);
                Thread th = new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            try {
                                kms.encrypt(b -> b.keyId(key).plaintext(plain));
                            } catch (RuntimeException e) {
                                errors.incrementAndGet();
                            }
                            done.incrementAndGet();
                        }
                    } finally {
                        finished.countDown();
                    }
                }, "raw-" + t);
                th.start();
            }
            Thread.sleep(warmup * 1000L);
            long n0 = done.get();
            long e0 = errors.get();
            long c0 = processCpuNanos();
            long t0 = System.nanoTime();
            Thread.sleep(window * 1000L);
            long n1 = done.get();
            long e1 = errors.get();
            long c1 = processCpuNanos();
            long t1 = System.nanoTime();
            stop.set(true);
            finished.await(60, TimeUnit.SECONDS);
            return new Cell("raw SDK", threads, n1 - n0, (t1 - t0) / 1e9, (c1 - c0) / 1e6, e1 - e0);
        } finally {
            http.close();
        }
    }

    /** Our aws-kms backend through KmsWorkload, the same calls the sampler makes, without JMeter. */
    static Cell backend(Properties lab, int threads, int warmup, int window) throws Exception {
        org.trustload.kms.KmsSettings settings = org.trustload.kms.KmsSettings.builder()
                .endpoint(lab.getProperty("kms.aws.endpoint")).region(lab.getProperty("kms.aws.region"))
                .credentials(lab.getProperty("kms.aws.access_key_id"), lab.getProperty("kms.aws.secret_access_key"))
                .maxConnections(threads).build();
        try (org.trustload.kms.KmsClient client = org.trustload.kms.KmsBackends.byName("aws-kms").open(settings)) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong done = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            CountDownLatch finished = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                org.trustload.kms.KmsRequest req = org.trustload.kms.KmsWorkload.prepare(client,
                        new org.trustload.kms.KmsWorkload.Spec(org.trustload.kms.KmsOperation.ENCRYPT,
                                lab.getProperty("kms.aws.key_id"), 32, "", org.trustload.kms.MessageType.RAW, "", 32), t);
                Thread th = new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            try {
                                client.execute(req);
                            } catch (org.trustload.kms.KmsException e) {
                                errors.incrementAndGet();
                            }
                            done.incrementAndGet();
                        }
                    } finally {
                        finished.countDown();
                    }
                }, "backend-" + t);
                th.start();
            }
            Thread.sleep(warmup * 1000L);
            long n0 = done.get();
            long e0 = errors.get();
            long c0 = processCpuNanos();
            long t0 = System.nanoTime();
            Thread.sleep(window * 1000L);
            long n1 = done.get();
            long e1 = errors.get();
            long c1 = processCpuNanos();
            long t1 = System.nanoTime();
            stop.set(true);
            finished.await(60, TimeUnit.SECONDS);
            return new Cell("backend", threads, n1 - n0, (t1 - t0) / 1e9, (c1 - c0) / 1e6, e1 - e0);
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** The sampler in the assembled JMeter running the real plan; CPU from /proc/PID/stat over the window. */
    static Cell jmeter(Path root, Path out, Properties lab, String kase, int threads, int warmup, int window)
            throws Exception {
        Path dir = out.resolve("jmeter-" + threads);
        Files.createDirectories(dir);
        Path jtl = dir.resolve("results.jtl");
        Files.deleteIfExists(jtl);
        // a bound only: the bench stops the test after its window through JMeter's UDP shutdown port
        int duration = warmup + window + 120;
        int udp;
        try (java.net.DatagramSocket probe = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            udp = probe.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(new JMeter(Layout.current(), List.of("-Xms256m", "-Xmx512m"), List.of()).command());
        cmd.addAll(List.of("-n",
                "-t", root.resolve("test-plans/kms/kms-benchmark-aws.jmx").toString(),
                "-q", out.resolve("lab.properties").toString(), "-l", jtl.toString(),
                "-j", dir.resolve("jmeter.log").toString(), "-Jsampleresult.timestamp.start=true",
                "-Jjmeter.save.saveservice.output_format=csv",
                "-Jjmeter.save.saveservice.autoflush=true", "-Jjmeter.save.saveservice.timestamp_format=ms",
                "-Jcase=" + kase, "-Jthreads=" + threads, "-Jduration=" + duration, "-Jreport_file=" + dir.resolve("report.log"),
                "-Jsummariser.interval=30", "-Jjmeterengine.nongui.port=" + udp,
                "-Jjmeterengine.nongui.maxport=" + udp));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.txt").toFile()).start();
        // the warm-up starts once samples flow (the periodic report counts them), i.e. after JMeter's start-up
        Path report = dir.resolve("report.log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!responding(report) && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        Thread.sleep(warmup * 1000L);
        long c0 = procCpuMs(p.pid());
        long w0 = System.currentTimeMillis();
        Thread.sleep(window * 1000L);
        long c1 = procCpuMs(p.pid());
        long w1 = System.currentTimeMillis();
        if (c0 < 0 || c1 < 0) {
            throw new IllegalStateException("JMeter ended before the window did; see " + dir);
        }
        // "Shutdown": threads finish their current sample, listeners end normally (results flushed)
        byte[] cmd2 = "Shutdown".getBytes(StandardCharsets.US_ASCII);
        try (java.net.DatagramSocket s = new java.net.DatagramSocket()) {
            s.send(new java.net.DatagramPacket(cmd2, cmd2.length, java.net.InetAddress.getLoopbackAddress(), udp));
        }
        if (!p.waitFor(duration + 120L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
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
        return new Cell("sampler", threads, n, (w1 - w0) / 1000.0, c1 - c0, errors);
    }

    private static boolean responding(Path report) throws IOException {
        return Files.exists(report) && Files.readString(report).matches("(?s).*ResponseCount: [1-9].*");
    }

    /** utime + stime of a process, ms. */
    private static long procCpuMs(long pid) throws IOException {
        Path file = Paths.get("/proc/" + pid + "/stat");
        if (!Files.exists(file)) {
            return -1;
        }
        String stat = Files.readString(file);
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000 / CLK_TCK;
    }
}
