package org.trustload.bench.login;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.trustload.bench.ProcCpu;
import org.trustload.pki.Flow;
import org.trustload.pki.LoginRefusal;
import org.trustload.pki.SignatureServer;
import org.trustload.pki.api.SignatureApis;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;

/**
 * Certificate-login throughput against the lab (its own JVM, pki service): challenge–response vs
 * mutual TLS (full handshake per login; and with session reuse), one certificate for everyone vs the
 * 1000 users of 3 CAs handed out round robin (what Key Store Config's first / per-iteration do), with
 * the published scenario's 40 client threads. Drives {@link CertificateLoginClient} — the engine of
 * the Certificate Login sampler — directly, so the numbers are the login path's, not JMeter's.
 * Revoked/expired users' refusals count as expected outcomes, like in the plan.
 *
 * <pre>./trustload bench login [threads=40] [seconds=20] [warmup=5]
 *     [out=docs/scenarios/certificate-login-bench.md]</pre>
 */
public final class LoginBench {
    private LoginBench() {
    }

    record Case(String name, String method, boolean allUsers, boolean reuse) {
    }

    record Outcome(Case c, long logins, long refused, long errors, double seconds, double avgMs, double p95Ms,
                   double clientCpuMsPerLogin, double serverCpuMsPerLogin, String firstError) {
        double perSecond() {
            return (logins + refused) / seconds;
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = new LinkedHashMap<>(Map.of("threads", "40", "seconds", "20", "warmup", "5"));
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq > 0) {
                opt.put(a.substring(0, eq), a.substring(eq + 1));
            }
        }
        Path root = Path.of(System.getProperty("trustload.root", ".")).toAbsolutePath();
        int threads = Integer.parseInt(opt.get("threads"));
        int seconds = Integer.parseInt(opt.get("seconds"));
        int warmup = Integer.parseInt(opt.get("warmup"));
        Path out = root.resolve(opt.getOrDefault("out", "docs/scenarios/certificate-login-bench.md"));
        Path work = root.resolve("bench/target/login-bench");
        Files.createDirectories(work);

        Path labProps = work.resolve("lab.properties");
        int base = Lab.freePortBase();
        try (Lab lab = Lab.start(Layout.current(), "pki", labProps, work.resolve("lab.log"),
                List.of("--port-base", Integer.toString(base)), Duration.ofMinutes(2))) {
            Properties p = new Properties();
            try (var in = Files.newBufferedReader(labProps)) {
                p.load(in);
            }
            List<KeyMaterial> keys = KeySource.pkcs12(Path.of(p.getProperty("pki.keystore")),
                    p.getProperty("pki.keystore.password").toCharArray(), List.of()).load();
            Set<String> expectedRefusals =
                    new HashSet<>(Arrays.asList(p.getProperty("pki.aliases.revoked").split(",")));
            expectedRefusals.addAll(Arrays.asList(p.getProperty("pki.aliases.expired").split(",")));
            KeyMaterial first =
                    keys.stream().filter(k -> !expectedRefusals.contains(k.alias())).findFirst().orElseThrow();
            List<Case> cases = List.of(
                    new Case("challenge-response, 1 user", "cr", false, false),
                    new Case("challenge-response, 1000 users", "cr", true, false),
                    new Case("mTLS full handshake, 1 user", "mtls", false, false),
                    new Case("mTLS full handshake, 1000 users", "mtls", true, false),
                    new Case("mTLS session reuse, 1000 users", "mtls", true, true));
            long labPid = lab.handle().pid();
            List<Outcome> outcomes = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
            for (Case c : cases) {
                // the Certificate Login sampler's two engines: the API's challenge-response, the mTLS client
                SignatureServer server = new SignatureServer(new SignatureServer.Settings(
                        p.getProperty("pki.api", SignatureApis.REST_PKI), URI.create(p.getProperty("pki.url")),
                        p.getProperty("pki.credential", ""), "", null, URI.create(p.getProperty("pki.login.url")),
                        URI.create(p.getProperty("pki.mtls.url")),
                        KeyStores.certificates(Path.of(p.getProperty("pki.trust.anchors")), "trust anchors file"),
                        false, java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(10),
                        java.time.Duration.ofSeconds(30)));
                Login client = c.method().equals("mtls") ? server.mtls(c.reuse(), "/auth/mtls")::mutualTls
                        : server.logins()::login;
                List<KeyMaterial> pool = c.allUsers() ? keys : List.of(first);
                if (round == 0) { // JIT warm-up of both JVMs over every case first, then the measured round
                    run(c, client, pool, expectedRefusals, threads, warmup, labPid);
                    continue;
                }
                Outcome o = run(c, client, pool, expectedRefusals, threads, seconds, labPid);
                outcomes.add(o);
                System.out.printf("%-34s %8.1f logins/s %9.0f /min  avg %7.1f ms  p95 %7.1f ms  client %.2f ms"
                        + " CPU/login  server %.2f ms CPU/login  refused %d  errors %d%s%n",
                        c.name(), o.perSecond(), o.perSecond() * 60, o.avgMs(), o.p95Ms(), o.clientCpuMsPerLogin(),
                        o.serverCpuMsPerLogin(), o.refused(), o.errors(),
                        o.firstError() == null ? "" : "  first error: " + o.firstError());
            }
            }
            write(out, outcomes, threads, seconds);
            System.out.println("wrote " + out);
        }
    }

    /** One login with a user's key. */
    interface Login {
        Flow login(KeyMaterial key);
    }

    private static Outcome run(Case c, Login client, List<KeyMaterial> pool, Set<String> expected,
                               int threads, int seconds, long labPid) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicLong ok = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        String[] firstError = new String[1];
        List<long[]> lat = new ArrayList<>();
        long serverCpu0 = ProcCpu.processMs(labPid) * 1_000_000L;
        long clientCpu0 = ProcCpu.selfNanos();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch done = new CountDownLatch(threads);
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            long[] mine = new long[1 << 20];
            int[] n = new int[1];
            synchronized (lat) {
                lat.add(mine);
            }
            Thread th = new Thread(() -> {
                try {
                    int count = 0;
                    while (System.nanoTime() < end) {
                        KeyMaterial k = pool.get(Math.floorMod(next.getAndIncrement(), pool.size()));
                        long s = System.nanoTime();
                        Flow l = client.login(k);
                        long e = System.nanoTime() - s;
                        if (count < mine.length - 1) {
                            mine[++count] = e;
                        }
                        boolean isExpected = expected.contains(k.alias());
                        if (l.ok() && !isExpected) {
                            ok.incrementAndGet();
                        } else if (!l.ok() && isExpected && LoginRefusal.DEFAULT.matches(l)) {
                            refused.incrementAndGet();
                        } else {
                            errors.incrementAndGet();
                            synchronized (firstError) {
                                if (firstError[0] == null) {
                                    firstError[0] = k.alias() + " "
                                            + (l.ok() ? "admitted" : l.code() + " " + l.failure().detail());
                                }
                            }
                        }
                    }
                    mine[0] = count;
                } finally {
                    done.countDown();
                }
            }, "login-" + t);
            th.start();
        }
        done.await();
        double secs = (System.nanoTime() - t0) / 1e9;
        long clientCpu = ProcCpu.selfNanos() - clientCpu0;
        long serverCpu = ProcCpu.processMs(labPid) * 1_000_000L - serverCpu0;
        List<Long> all = new ArrayList<>();
        for (long[] a : lat) {
            for (int i = 1; i <= a[0] && i < a.length; i++) {
                all.add(a[i]);
            }
        }
        double avg = all.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6;
        // the dashboard's percentile method, as everywhere (Percentiles)
        double p95 = all.isEmpty() ? 0
                : org.trustload.common.Percentiles.of(all.stream().mapToDouble(ns -> ns / 1e6).toArray()).get(95);
        long total = Math.max(1, ok.get() + refused.get() + errors.get());
        return new Outcome(c, ok.get(), refused.get(), errors.get(), secs, avg, p95, clientCpu / 1e6 / total,
                serverCpu < 0 ? -1 : serverCpu / 1e6 / total, firstError[0]);
    }

    private static void write(Path out, List<Outcome> outcomes, int threads, int seconds) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("# Certificate login bench (generated by ./trustload bench login)\n\n");
        sb.append("Run ").append(LocalDateTime.now().withNano(0)).append(", ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" CPUs, Java ").append(System.getProperty("java.version"))
                .append("; client and lab on the same host (127.0.0.1); ")
                .append(threads).append(" client threads, ").append(seconds).append(" s per case after a warm-up; ")
                .append("P-256 users of 3 CAs; CRLs cached by the lab after their first fetch.\n\n");
        sb.append("| case | logins/s | logins/min | avg ms | p95 ms | client CPU ms/login | lab CPU ms/login | expected"
                + " refusals | errors |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Outcome o : outcomes) {
            sb.append(String.format("| %s | %.0f | %.0f | %.1f | %.1f | %.2f | %.2f | %d | %d |%n", o.c().name(),
                    o.perSecond(),
                    o.perSecond() * 60, o.avgMs(), o.p95Ms(), o.clientCpuMsPerLogin(), o.serverCpuMsPerLogin(),
                    o.refused(), o.errors()));
        }
        sb.append("\nPublished reference ([the original study](certificate-login.md)): 750 logins/min (12.5/s) with"
                + " 4x10 client threads, avg 3.2 s, one certificate.\n");
        Files.createDirectories(out.getParent());
        Files.writeString(out, sb.toString());
    }}
