package org.trustload.bench;

import com.aliyun.dkms.gcs.openapi.models.Config;
import com.aliyun.dkms.gcs.openapi.util.models.RuntimeOptions;
import com.aliyun.dkms.gcs.sdk.Client;
import com.aliyun.dkms.gcs.sdk.models.EncryptRequest;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.trustload.bench.kms.KmsBench;
import org.trustload.common.ChildProcess;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;

/**
 * {@code ./trustload bench kms-aliyun}: Alibaba KMS instance Encrypt against the lab's emulator, requests/s and
 * client CPU per request at each thread count: the unmodified SDK in a raw loop, the plan
 * {@code kms/kms-benchmark-aliyun} in JMeter (CPU from the difference of a short and a long run), and with
 * {@code python=PATH} the vendor's Python SDK. Method and figures: docs/scenarios/kms-benchmark.md, "Bench".
 *
 * <pre>java -cp … org.trustload.bench.AliyunKmsBench out=DIR [threads=1,8,32] [seconds=20] [warmup=20]
 *     [python=PATH]</pre>
 */
public final class AliyunKmsBench {

    private AliyunKmsBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        Path root = Path.of(System.getProperty("trustload.root", "."));
        Path out = Path.of(a.getOrDefault("out", "bench/target/kms-aliyun-bench"));
        int seconds = Integer.parseInt(a.getOrDefault("seconds", "20"));
        int warmup = Integer.parseInt(a.getOrDefault("warmup", "20"));
        List<Integer> threads = new ArrayList<>();
        for (String t : a.getOrDefault("threads", "1,8,32").split(",")) {
            threads.add(Integer.parseInt(t.trim()));
        }
        Files.createDirectories(out);
        int base = a.containsKey("portBase") ? Integer.parseInt(a.get("portBase")) : Lab.freePortBase();
        Path labProps = out.resolve("lab.properties");
        try (Lab lab = Lab.start(Layout.current(), "kms", labProps, out.resolve("lab.log"),
                List.of("--port-base", String.valueOf(base), "--socket-dir",
                        "/tmp/tlkb-" + ProcessHandle.current().pid()),
                Duration.ofSeconds(300))) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(labProps)) {
                p.load(r);
            }
            Path python = a.containsKey("python") ? Path.of(a.get("python"))
                    : root.resolve("bench/target/py-kms/bin/python");
            boolean py = Files.isExecutable(python);
            if (!py) {
                System.out.println("Python SDK peer skipped: no " + python + " (python3 -m venv bench/target/py-kms && "
                        + "bench/target/py-kms/bin/pip install alibabacloud-dkms-gcs==1.0.2)");
            }
            System.out.printf(Locale.ROOT, "%-8s %12s %14s %12s %14s %8s %12s %14s %s%n", "threads", "raw req/s",
                    "raw CPU ms/req", "JMeter req/s", "JMeter CPU ms", "ratio", "Python req/s", "Python CPU ms",
                    "load (1 min) raw / JMeter / Python");
            for (int t : threads) {
                String loadRaw = load();
                double[] raw = raw(p, t, warmup, seconds);
                String loadJm = load();
                double[] jm = jmeter(root, out.resolve("t" + t), labProps, t, warmup, seconds);
                String loadPy = load();
                double[] pyr = py ? python(root, python, p, t, warmup, seconds) : new double[] {Double.NaN, Double.NaN};
                System.out.printf(Locale.ROOT, "%-8d %12.1f %14.3f %12.1f %14.3f %8.2f %12.1f %14.3f %s / %s / %s%n", t,
                        raw[0], raw[1], jm[0], jm[1], jm[0] / raw[0], pyr[0], pyr[1], loadRaw, loadJm,
                        py ? loadPy : "-");
            }
        }
    }

    private static String load() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }


    /** Raw SDK loop: {requests/s, CPU ms per request} over {@code seconds} after {@code warmup}. */
    static double[] raw(Properties p, int threads, int warmup, int seconds) throws Exception {
        Config config = new Config().setEndpoint(p.getProperty("kms.aliyun.endpoint")).setProtocol("https")
                .setClientKeyFile(p.getProperty("kms.aliyun.client_key_file"))
                .setPassword(p.getProperty("kms.aliyun.client_key_password"))
                .setCaFilePath(p.getProperty("kms.ca.file")).setConnectTimeout(5000).setReadTimeout(30000)
                .setMaxIdleConns(threads);
        Client client = new Client(config);
        RuntimeOptions noRetry = new RuntimeOptions().setAutoretry(false).setMaxIdleConns(threads);
        String keyId = p.getProperty("kms.aliyun.key_id");
        // the KMS bench's loop and window; a request that failed counts as an error, not as a request
        KmsBench.Cell c = KmsBench.loop("aliyun", threads, warmup, seconds, -1, t -> {
            byte[] data = new byte[32];
            data[0] = (byte) t;
            return () -> client.encryptWithOptions(new EncryptRequest().setKeyId(keyId).setPlaintext(data), noRetry);
        });
        if (c.errors() > 0) {
            System.out.println("raw loop, " + threads + " threads: " + c.errors() + " errors");
        }
        long n = c.requests() - c.errors();
        return new double[] {n / c.seconds(), c.cpuMs() / Math.max(1, n)};
    }

    /** The vendor's Python SDK loop in its own process: {requests/s, process CPU ms per request}. */
    static double[] python(Path root, Path python, Properties p, int threads, int warmup, int seconds)
            throws Exception {
        List<String> cmd = List.of(python.toString(),
                root.resolve("bench/src/main/python/kms_aliyun_loop.py").toString(),
                "--endpoint", p.getProperty("kms.aliyun.endpoint"), "--ca", p.getProperty("kms.ca.file"),
                "--client-key-file", p.getProperty("kms.aliyun.client_key_file"),
                "--password-file", p.getProperty("kms.aliyun.client_key_password_file"),
                "--key-id", p.getProperty("kms.aliyun.key_id"), "--threads", Integer.toString(threads),
                "--warmup", Integer.toString(warmup), "--seconds", Integer.toString(seconds));
        ChildProcess.Finished loop = ChildProcess.run(cmd, Duration.ofSeconds(warmup + seconds + 120L));
        if (loop.status() < 0) {
            throw new IllegalStateException("Python SDK loop timed out");
        }
        String text = loop.output().strip();
        String last = text.substring(text.lastIndexOf('\n') + 1);
        if (!loop.ok() || !last.startsWith("{")) {
            System.out.println("Python SDK loop, " + threads + " threads: exit " + loop.status() + ": " + text);
            return new double[] {Double.NaN, Double.NaN};
        }
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(last);
        if (json.path("errors").asLong() > 0) {
            System.out.println("Python SDK loop, " + threads + " threads: " + json.path("errors").asLong()
                    + " errors, first: " + json.path("firstError").asText());
        }
        return new double[] {json.path("perSecond").asDouble(), json.path("cpuMsPerRequest").asDouble(Double.NaN)};
    }

    /** The plan in JMeter: {requests/s of the long run, CPU ms per request from the two runs' difference}. */
    static double[] jmeter(Path root, Path dir, Path labProps, int threads, int warmup, int seconds) throws Exception {
        Path home = root.resolve("dist/target/jmeter");
        Path plan = root.resolve("test-plans/kms/kms-benchmark-aliyun.jmx");
        double[] shortRun = jmeterOnce(home, plan, dir.resolve("short"), labProps, threads, warmup, seconds);
        double[] longRun = jmeterOnce(home, plan, dir.resolve("long"), labProps, threads, warmup + seconds, seconds);
        double cpuMs = (longRun[2] - shortRun[2]) * 1000 / Math.max(1, longRun[1] - shortRun[1]);
        return new double[] {longRun[3], cpuMs};
    }

    /** {exit, samples, cpuSeconds, requests/s over the last {@code seconds} of the run}. */
    private static double[] jmeterOnce(Path home, Path plan, Path dir, Path labProps, int threads, int duration,
            int window) throws Exception {
        JMeterRun.Result r = JMeterRun.run(home, plan, dir, List.of("-Xms512m", "-Xmx512m"),
                List.of("-q", labProps.toString(), "-Jcase=encrypt", "-Jthreads=" + threads,
                        "-Jduration=" + duration, "-Jreport_file=" + dir.resolve("kms-report.log")),
                duration + 300L, false);
        List<Jtl.Sample> samples = Jtl.read(r.jtl());
        long errors = samples.stream().filter(s -> !s.success()).count();
        if (r.exit() != 0 || errors > 0) {
            System.out.println("JMeter " + dir + ": exit " + r.exit() + ", " + errors + " errors");
        }
        long lastEnd = samples.stream().mapToLong(Jtl.Sample::end).max().orElse(0);
        long inWindow = samples.stream().filter(s -> s.end() > lastEnd - window * 1000L).count();
        return new double[] {r.exit(), samples.size(), r.cpuSeconds(), inWindow / (double) window};
    }
}
