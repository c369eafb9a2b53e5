package org.trustload.bench.gmssl;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.trustload.bench.ProcCpu;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientCrypto;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpHttp;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.testing.NativeTlcpPeer;

/**
 * New connections per second against the native Tongsuo peer (a pre-forked worker per client thread) from one client
 * engine: the native C client (one process per thread) beside the bc engine's raw loop in both modes,
 * the same op (connect, full ECC_SM4_GCM_SM3 handshake, GET /64b, close) and concurrency; with the CPU
 * each side used, in cores, so that "the peer saturated" is a figure, not a guess.
 */
final class Saturation {
    private Saturation() {
    }

    static String run(List<X509Certificate> ca, TlcpCredentials client, int port, Properties lab, int threads,
            int seconds, int warmup, LongSupplier serverCpuMs) throws Exception {
        StringBuilder b = new StringBuilder("### CPS from one client engine against the native peer\n\n")
                .append(threads).append(" client threads (processes for the C client), ECC_SM4_GCM_SM3, connect +"
                        + " handshake + GET /64b + close; ")
                .append("cores = CPU seconds per second of wall time.\n\n")
                .append("| client | handshakes/s | client CPU ms/op | server CPU ms/op | client cores | server cores |"
                        + " ops | errors |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        // the C client runs a count, not a time: about `seconds` at the rate a warm-up count shows
        List<String> nativeArgs = List.of("--port", String.valueOf(port), "--cipher", "ECC-SM2-SM4-GCM-SM3",
                "--ca", lab.getProperty("gmssl.ca.file"), "--path", "/64b");
        List<String> probe = new ArrayList<>(nativeArgs);
        probe.addAll(List.of("--count", "100"));
        double probeRate = NativeTlcpPeer.clients(threads, probe, Duration.ofMinutes(5)).stream()
                .mapToDouble(r -> Double.parseDouble(r.line("RATE").split(" ")[0])).sum();
        int count = (int) Math.max(50, probeRate / threads * seconds);
        List<String> measured = new ArrayList<>(nativeArgs);
        measured.addAll(List.of("--count", String.valueOf(count)));
        long srv0 = serverCpuMs.getAsLong();
        long t0 = System.nanoTime();
        List<NativeTlcpPeer.Result> rs = NativeTlcpPeer.clients(threads, measured, Duration.ofMinutes(5));
        double wall = (System.nanoTime() - t0) / 1e9;
        double srv = serverCpuMs.getAsLong() - srv0;
        double ops = 0;
        double cpu = 0;
        for (NativeTlcpPeer.Result r : rs) {
            if (r.exit() != 0) {
                throw new IllegalStateException("native client failed: " + r);
            }
            ops += Double.parseDouble(r.line("RATE").split(" ")[1]);
            cpu += Double.parseDouble(r.line("CPU"));
        }
        row(b, "native C client (Tongsuo 8.3.2)", ops / wall, cpu * 1000 / ops, srv / ops, cpu / wall,
                srv / 1000 / wall, (long) ops, 0);
        for (TlcpClientCrypto mode : TlcpClientCrypto.values()) {
            TlcpClientSettings s = new TlcpClientSettings().withProtocol(TlcpProtocol.TLCP)
                    .withSuites(List.of(TlcpSuite.ECC_SM4_GCM_SM3)).withTrustAnchors(ca).withClientCrypto(mode)
                    .withReadTimeoutMillis(30_000);
            try (TlcpClient c = TlcpEngines.get("bc").newClient(s)) {
                loop(c, port, threads, warmup);
                long s0 = serverCpuMs.getAsLong();
                long c0 = ProcCpu.selfNanos();
                long w0 = System.nanoTime();
                long[] r = loop(c, port, threads, seconds);
                double w = (System.nanoTime() - w0) / 1e9;
                double cms = (ProcCpu.selfNanos() - c0) / 1e6;
                double sms = serverCpuMs.getAsLong() - s0;
                long n = Math.max(1, r[0]);
                row(b, "bc engine, raw loop, " + mode.id(), r[0] / w, cms / n, sms / n, cms / 1000 / w, sms / 1000 / w,
                        r[0], r[1]);
            }
        }
        return b.append('\n').toString();
    }

    private static long[] loop(TlcpClient c, int port, int threads, int seconds) throws InterruptedException {
        AtomicLong ops = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        CountDownLatch done = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < deadline) {
                        try (TlcpConnection conn = c.connect("127.0.0.1", port)) {
                            new TlcpHttp(conn).get("127.0.0.1", "/64b", false);
                            ops.incrementAndGet();
                        } catch (Exception e) {
                            errors.incrementAndGet();
                        }
                    }
                } finally {
                    done.countDown();
                }
            }, "gmssl-sat-" + i);
            t.start();
        }
        done.await();
        return new long[] {ops.get(), errors.get()};
    }

    private static void row(StringBuilder b, String who, double rate, double clientMs, double serverMs,
            double clientCores, double serverCores, long ops, long errors) {
        String r = String.format(Locale.ROOT, "| %s | %.1f | %.3f | %.3f | %.2f | %.2f | %d | %d |", who, rate,
                clientMs, serverMs, clientCores, serverCores, ops, errors);
        System.out.println(r);
        b.append(r).append('\n');
    }
}
