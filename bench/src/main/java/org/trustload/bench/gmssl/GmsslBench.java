package org.trustload.bench.gmssl;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.trustload.bench.BenchAccess;
import org.trustload.gmssl.JsseTlcpClient;
import org.trustload.gmssl.JsseTlcpServer;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpHttp;
import org.trustload.gmssl.TlcpPageServer;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.pki.TestPki;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import java.time.Duration;

/**
 * GM-SSL bench: handshakes/s and MB/s per suite, 1 and 2 threads — the TLCP Request sampler in the
 * assembled JMeter vs the bgm engine's raw loop in this JVM (same client code, no JMeter) vs SunJSSE
 * TLS 1.3 ECDHE-P256 on the same loop, beside {@code openssl speed} (the SM2/SM3/SM4 crypto bound).
 * The bgm server is the lab's gmssl service in its own JVM. Every loop is bounded by time.
 *
 * <p>Keys: {@code out=DIR parts=jmeter,raw,inprocess rounds=2 inprocessSuites=... seconds=6 warmup=4 threads=1,2 suites=... tpSuites=... jmeterHome=...}
 */
public final class GmsslBench {
    private GmsslBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        Path root = Path.of(System.getProperty("trustload.root", ".")).toAbsolutePath().normalize();
        o.put("out", root.resolve("bench/target/gmssl-bench/run").toString());
        o.put("seconds", "6");
        o.put("warmup", "4");
        o.put("parts", "jmeter,raw,inprocess");
        o.put("inprocessSuites", "ECC_SM4_CBC_SM3,TLS_SM4_GCM_SM3");
        o.put("rounds", "2");
        o.put("threads", "1,2");
        o.put("suites", "ECC_SM4_CBC_SM3,ECDHE_SM4_CBC_SM3,ECC_SM4_GCM_SM3,ECDHE_SM4_GCM_SM3,TLS_SM4_GCM_SM3");
        o.put("tpSuites", "ECC_SM4_CBC_SM3,ECC_SM4_GCM_SM3,TLS_SM4_GCM_SM3");
        o.put("jmeterHome", root.resolve("dist/target/jmeter").toString());
        for (String a : args) {
            int eq = a.indexOf('=');
            o.put(a.substring(0, eq), a.substring(eq + 1));
        }
        Path out = Path.of(o.get("out"));
        Files.createDirectories(out);
        int seconds = Integer.parseInt(o.get("seconds"));
        int warmup = Integer.parseInt(o.get("warmup"));
        List<Integer> threads = new ArrayList<>();
        for (String t : o.get("threads").split(",")) {
            threads.add(Integer.parseInt(t.trim()));
        }
        List<TlcpSuite> suites = parse(o.get("suites"));
        List<TlcpSuite> tpSuites = parse(o.get("tpSuites"));

        int base = 40000 + (int) (ProcessHandle.current().pid() % 15) * 1000;
        Path socketDir = Files.createTempDirectory("tlgmb");
        Path labProps = out.resolve("lab.properties");
        try (Lab lab = Lab.start(Layout.current(), "gmssl", labProps, out.resolve("lab.log"),
                List.of("--port-base", String.valueOf(base), "--socket-dir", socketDir.toString()), Duration.ofMinutes(2))) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(labProps)) {
                p.load(in);
            }
            List<X509Certificate> ca = List.of((X509Certificate) CertificateFactory.getInstance("X.509",
                    KeyStores.bouncyCastle()).generateCertificate(Files.newInputStream(Path.of(p.getProperty("gmssl.ca.file")))));
            Path ks = Path.of(p.getProperty("gmssl.client.keystore"));
            char[] pw = p.getProperty("gmssl.client.password").toCharArray();
            TlcpCredentials client = new TlcpCredentials(KeySource.pkcs12(ks, pw, List.of("sign")).load().get(0),
                    KeySource.pkcs12(ks, pw, List.of("enc")).load().get(0));
            String host = p.getProperty("gmssl.host");

            StringBuilder report = new StringBuilder();
            report.append("## GM-SSL bench (").append(seconds).append(" s per cell, load ").append(load())
                    .append(")\n\n");
            report.append("| what | suite | threads | raw loop | sampler (JMeter) | sampler / raw | load |\n|---|---|---|---|---|---|---|\n");

            List<String> parts = List.of(o.get("parts").split(","));
            Map<String, Double> sampler = new LinkedHashMap<>();
            for (int t : parts.contains("jmeter") ? threads : List.<Integer>of()) {
                sampler.putAll(samplerRun(o, out, p, suites, tpSuites, t, seconds, warmup));
            }
            for (TlcpSuite s : parts.contains("raw") ? suites : List.<TlcpSuite>of()) {
                TlcpClient c = TlcpEngines.get("bgm").newClient(settings(s, ca, client));
                int port = port(p, s);
                loop(t -> handshake(c, host, port), 1, warmup); // as long as the sampler's warm-up group
                for (int t : threads) {
                    double raw = loop(x -> handshake(c, host, port), t, seconds);
                    Double smp = sampler.get("hs-" + s + "-" + t);
                    row(report, "handshakes/s", s.name(), t, raw, smp);
                }
            }
            for (TlcpSuite s : parts.contains("raw") ? tpSuites : List.<TlcpSuite>of()) {
                TlcpClient c = TlcpEngines.get("bgm").newClient(settings(s, ca, client));
                int port = port(p, s);
                for (int t : threads) {
                    double raw = throughput(c, host, port, t, seconds);
                    Double smp = sampler.get("tp-" + s + "-" + t);
                    row(report, "MB/s (GET /1m kept alive)", s.name(), t, raw, smp);
                }
            }
            if (parts.contains("raw")) {
                sunJsse(report, threads, seconds, out);
                report.append("\n### openssl speed (crypto bound, one core)\n\n```\n").append(openssl()).append("```\n");
            }
            if (parts.contains("inprocess")) {
                InProcessRatio.run(report, p, ca, client, parse(o.get("inprocessSuites")), threads, seconds,
                        Integer.parseInt(o.get("rounds")));
            }
            Files.writeString(out.resolve("gmssl-bench.md"), report);
            System.out.println(report);
        }
    }

    private static void row(StringBuilder b, String what, String suite, int t, double raw, Double smp) {
        b.append(String.format(Locale.ROOT, "| %s | %s | %d | %.1f | %s | %s | %s |%n", what, suite, t, raw,
                smp == null ? "—" : String.format(Locale.ROOT, "%.1f", smp),
                smp == null ? "—" : String.format(Locale.ROOT, "%.2f", smp / raw), load()));
    }

    private static TlcpClientSettings settings(TlcpSuite s, List<X509Certificate> ca, TlcpCredentials client) {
        return new TlcpClientSettings().withProtocol(s.protocol()).withSuites(List.of(s)).withTrustAnchors(ca)
                .withCredentials(client);
    }

    private static int port(Properties p, TlcpSuite s) {
        return Integer.parseInt(p.getProperty(s.protocol() == TlcpProtocol.TLCP ? "gmssl.tlcp.port" : "gmssl.tls13.port"));
    }

    interface Op {
        long run(int thread) throws Exception;
    }

    private static long handshake(TlcpClient c, String host, int port) throws Exception {
        try (TlcpConnection conn = c.connect(host, port)) {
            return 1;
        }
    }

    /** Ops (or units an op returns) per second over {@code seconds}, {@code threads} threads. */
    static double loop(Op op, int threads, int seconds) throws InterruptedException {
        AtomicLong done = new AtomicLong();
        CountDownLatch end = new CountDownLatch(threads);
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long t0 = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            int id = i;
            Thread th = new Thread(() -> {
                try {
                    while (System.nanoTime() < deadline) {
                        done.addAndGet(op.run(id));
                    }
                } catch (Exception e) {
                    System.err.println("loop error: " + e);
                } finally {
                    end.countDown();
                }
            });
            th.start();
        }
        end.await();
        return done.get() * 1e9 / (System.nanoTime() - t0);
    }

    private static double throughput(TlcpClient c, String host, int port, int threads, int seconds) throws Exception {
        TlcpHttp[] conns = new TlcpHttp[threads];
        for (int i = 0; i < threads; i++) {
            conns[i] = new TlcpHttp(c.connect(host, port));
        }
        try {
            loop(t -> conns[t].get(host, "/1m", true).bodyBytes(), threads, 1); // warm-up
            return loop(t -> conns[t].get(host, "/1m", true).bodyBytes(), threads, seconds) / 1e6;
        } finally {
            for (TlcpHttp h : conns) {
                h.connection().close();
            }
        }
    }

    /** SunJSSE TLS 1.3 ECDHE-P256 handshakes on the same loop, server in this JVM. */
    private static void sunJsse(StringBuilder report, List<Integer> threads, int seconds, Path out) throws Exception {
        TestPki pki = TestPki.generate(new TestPki.Spec().withCas(1).withUsers(0).withExpiredCount(0)
                .withCrlBaseUrl(null), out.resolve("p256-pki"));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(pki.serverKeyStore(), TestPki.PASSWORD.toCharArray());
        SSLContext server = SSLContext.getInstance("TLSv1.3");
        server.init(kmf.getKeyManagers(), null, null);
        KeyStore ts = KeyStore.getInstance("PKCS12");
        ts.load(null, null);
        ts.setCertificateEntry("ca", pki.caCertificates().get(0));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(ts);
        SSLContext clientCtx = SSLContext.getInstance("TLSv1.3");
        clientCtx.init(null, tmf.getTrustManagers(), null);
        String[] protocols = {"TLSv1.3"};
        String[] suites = {"TLS_AES_128_GCM_SHA256"};
        TlcpServerSettings ss = new TlcpServerSettings().withProtocol(TlcpProtocol.TLS13);
        try (TlcpPageServer srv = TlcpPageServer.start(new JsseTlcpServer(ss, server, protocols, suites, x -> x),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 60_000)) {
            TlcpClient c = new JsseTlcpClient(new TlcpClientSettings().withProtocol(TlcpProtocol.TLS13), clientCtx,
                    protocols, suites, x -> x);
            loop(t -> handshake(c, "127.0.0.1", srv.port()), 1, 2);
            for (int t : threads) {
                double raw = loop(x -> handshake(c, "127.0.0.1", srv.port()), t, seconds);
                report.append(String.format(Locale.ROOT,
                        "| handshakes/s, SunJSSE TLS 1.3 ECDHE-P256 (server in the bench JVM) | TLS_AES_128_GCM_SHA256 | %d | %.1f | — | — | %s |%n",
                        t, raw, load()));
            }
        }
    }

    /** One JMeter run: serialized thread groups, one per suite and mode; returns label → rate. */
    private static Map<String, Double> samplerRun(Map<String, String> o, Path out, Properties p, List<TlcpSuite> suites,
            List<TlcpSuite> tpSuites, int threads, int seconds, int warmup) throws Exception {
        StringBuilder groups = new StringBuilder();
        for (TlcpSuite s : suites) {
            // the same warm-up as the raw loop gets, right before the measured group
            groups.append(BenchPlan.group("warmup-" + s, 1, warmup, p, s, "handshake"));
            groups.append(BenchPlan.group("hs-" + s + "-" + threads, threads, seconds, p, s, "handshake"));
        }
        for (TlcpSuite s : tpSuites) {
            groups.append(BenchPlan.group("tp-" + s + "-" + threads, threads, seconds, p, s, "throughput"));
        }
        Path dir = out.resolve("jmeter-" + threads);
        Files.createDirectories(dir);
        Path plan = dir.resolve("bench.jmx");
        Files.writeString(plan, BenchPlan.plan(groups.toString()));
        Path home = Path.of(o.get("jmeterHome"));
        List<String> jvm = new ArrayList<>(List.of("-Xms512m", "-Xmx512m"));
        jvm.addAll(BenchAccess.bgmFlags(home));
        BenchAccess.Result r = BenchAccess.runJMeter(home, plan, dir, jvm,
                120L + 10L * (seconds + warmup) * (suites.size() + tpSuites.size()));
        Map<String, Double> rates = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : BenchAccess.perLabel(r.jtl()).entrySet()) {
            long[] v = e.getValue(); // count, bytes, firstStart, lastEnd, errors
            double span = (v[3] - v[2]) / 1000.0;
            if (v[4] > 0) {
                System.err.println(e.getKey() + ": " + v[4] + " errors in the sampler run, see " + dir);
            }
            rates.put(e.getKey(), e.getKey().startsWith("tp-") ? v[1] / span / 1e6 : v[0] / span);
        }
        return rates;
    }

    private static String openssl() {
        StringBuilder b = new StringBuilder();
        for (List<String> cmd : List.of(List.of("openssl", "speed", "-seconds", "2", "sm2"),
                List.of("openssl", "speed", "-seconds", "2", "-evp", "sm3"),
                List.of("openssl", "speed", "-seconds", "2", "-evp", "sm4-cbc"))) {
            try {
                Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                List<String> lines = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
                pr.waitFor(60, TimeUnit.SECONDS);
                lines.subList(Math.max(0, lines.size() - 2), lines.size()).forEach(l -> b.append(l).append('\n'));
            } catch (IOException | InterruptedException e) {
                b.append(cmd).append(": ").append(e).append('\n');
            }
        }
        return b.toString();
    }

    private static List<TlcpSuite> parse(String list) {
        List<TlcpSuite> out = new ArrayList<>();
        for (String s : list.split(",")) {
            if (!s.isBlank()) {
                out.add(TlcpSuite.parse(s));
            }
        }
        return out;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "?";
        }
    }
}
