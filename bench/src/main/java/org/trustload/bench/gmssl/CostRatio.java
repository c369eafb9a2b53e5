package org.trustload.bench.gmssl;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpHttp;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpSuite;

/**
 * The client's CPU per TLCP handshake against the server's, in one run: the bc engine's raw loop in
 * this JVM (client CPU: this process) against a server in its own process (server CPU: its processes,
 * from /proc), {@code full} and {@code minimal} alternated in every round, each cell a fixed time after
 * a warm-up. One op is a new TCP connection and a full handshake, then close (op=cps adds GET /64b).
 */
final class CostRatio {

    /** A server to measure against: where it listens, its CPU so far (ms), its name in the tables. */
    record Server(String name, String host, int port, int mtlsPort, LongSupplier cpuMs) {
    }

    /** One measured cell. */
    record Cell(double rate, double clientMs, double serverMs, long ops, long errors) {
        double ratio() {
            return clientMs / serverMs;
        }
    }

    private final List<X509Certificate> ca;
    private final TlcpCredentials client;
    private final int seconds;
    private final int warmup;
    private final int threads;
    private final boolean cps;
    /** Per (server, suite, auth, mode): the cells of every round. */
    private final Map<String, List<Cell>> cells = new LinkedHashMap<>();
    private final StringBuilder rows = new StringBuilder();

    CostRatio(List<X509Certificate> ca, TlcpCredentials client, int seconds, int warmup, int threads, boolean cps) {
        this.ca = ca;
        this.client = client;
        this.seconds = seconds;
        this.warmup = warmup;
        this.threads = threads;
        this.cps = cps;
    }

    /**
     * Every round: each server, suite and client-certificate case, {@code full}, then {@code minimal}
     * paced to the rate {@code full} just reached (the server does the same number of handshakes per
     * second: its CPU per handshake is compared without the effect of the rate), then {@code minimal}
     * as fast as it goes.
     */
    void run(List<Server> servers, List<TlcpSuite> suites, List<Boolean> auths, int rounds) throws Exception {
        for (int r = 0; r < rounds; r++) {
            for (Server s : servers) {
                for (TlcpSuite suite : suites) {
                    for (boolean auth : auths) {
                        int warm = r == 0 ? warmup : 1;
                        Cell full = record(r, s, suite, auth, TlcpClientCrypto.FULL, PACED_OFF, warm);
                        record(r, s, suite, auth, TlcpClientCrypto.MINIMAL, full.rate(), warm);
                        record(r, s, suite, auth, TlcpClientCrypto.MINIMAL, PACED_OFF, 1);
                    }
                }
            }
        }
    }

    private static final double PACED_OFF = 0;

    private Cell record(int r, Server s, TlcpSuite suite, boolean auth, TlcpClientCrypto mode, double pace, int warm)
            throws Exception {
        Cell c = cell(s, suite, auth, mode, warm, pace);
        String label = mode.id() + (pace > 0 ? PACED : "");
        cells.computeIfAbsent(key(s.name(), suite, auth, label), k -> new ArrayList<>()).add(c);
        String row = String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %.1f | %.3f | %.3f | %.2f | %d | %d |",
                r + 1, s.name(), suite, auth ? "yes" : "no", label, c.rate(), c.clientMs(), c.serverMs(), c.ratio(),
                c.ops(), c.errors());
        System.out.println(row);
        rows.append(row).append('\n');
        return c;
    }

    /** The label of minimal cells paced to full's rate. */
    static final String PACED = " (paced to full's rate)";

    private static String key(String server, TlcpSuite suite, boolean auth, String mode) {
        return server + "|" + suite + "|" + (auth ? "yes" : "no") + "|" + mode;
    }

    /** The client: ECDHE suites and client-certificate cases present the pair, and go to the mTLS port. */
    private Cell cell(Server s, TlcpSuite suite, boolean auth, TlcpClientCrypto mode, int warm, double pace)
            throws Exception {
        TlcpClientSettings settings = new TlcpClientSettings().withProtocol(TlcpProtocol.TLCP)
                .withSuites(List.of(suite))
                .withTrustAnchors(ca).withClientCrypto(mode).withReadTimeoutMillis(30_000);
        if (auth || suite.needsClientCertificates()) {
            settings = settings.withCredentials(client);
        }
        int port = auth ? s.mtlsPort() : s.port();
        try (TlcpClient c = TlcpEngines.get("bc").newClient(settings)) {
            loop(c, s.host(), port, warm, () -> 0, PACED_OFF);
            return loop(c, s.host(), port, seconds, s.cpuMs(), pace);
        }
    }

    /**
     * {@link #threads} threads for {@code secs} (at most {@code pace} ops/s when > 0): rate, client and server CPU per
     * op.
     */
    private Cell loop(TlcpClient c, String host, int port, int secs, LongSupplier serverCpu, double pace)
            throws Exception {
        long interval = pace > 0 ? (long) (threads * 1e9 / pace) : 0;
        AtomicLong ops = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        long[] deadline = new long[1];
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long next = System.nanoTime();
                while (System.nanoTime() < deadline[0]) {
                    if (interval > 0) {
                        next += interval;
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(wait);
                        }
                    }
                    try (TlcpConnection conn = c.connect(host, port)) {
                        if (cps && new TlcpHttp(conn).get(host, "/64b", false).status() != 200) {
                            throw new IllegalStateException("status");
                        }
                        ops.incrementAndGet();
                    } catch (TlcpException | RuntimeException e) {
                        if (errors.incrementAndGet() == 1) {
                            System.err.println("gmssl bench: " + e);
                        }
                    }
                }
            }, "gmssl-bench-" + i);
            t.start();
            ts.add(t);
        }
        long srv0 = serverCpu.getAsLong();
        long cpu0 = ProcCpu.selfNanos();
        long t0 = System.nanoTime();
        deadline[0] = t0 + secs * 1_000_000_000L;
        start.countDown();
        for (Thread t : ts) {
            t.join();
        }
        long wall = System.nanoTime() - t0;
        double clientMs = (ProcCpu.selfNanos() - cpu0) / 1e6;
        double serverMs = serverCpu.getAsLong() - srv0;
        long n = Math.max(1, ops.get());
        return new Cell(ops.get() * 1e9 / wall, clientMs / n, serverMs / n, ops.get(), errors.get());
    }

    /** Every cell. */
    String cellTable() {
        return "| round | server | suite | client certificates | client crypto | handshakes/s | client CPU ms/hs |"
                + " server CPU ms/hs | client ÷ server | handshakes | errors |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n"
                + rows;
    }

    /**
     * Client ÷ server per case and mode, min–max over the rounds; for the minimal rows also the server's CPU
     * per handshake ÷ its CPU per handshake with the full client of the same round.
     */
    String ratioTable() {
        StringBuilder b = new StringBuilder("| server | suite | client certificates | client crypto | client ÷ server "
                + "(min–max) | client CPU ms/hs (min–max) | server CPU ms/hs (min–max) | server CPU ÷ with full client "
                + "(min–max) | rounds | errors |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, List<Cell>> e : cells.entrySet()) {
            String[] k = e.getKey().split("\\|");
            List<Cell> v = e.getValue();
            String vsFull = "—";
            List<Cell> full = cells.get(k[0] + "|" + k[1] + "|" + k[2] + "|" + TlcpClientCrypto.FULL.id());
            if (!k[3].equals(TlcpClientCrypto.FULL.id()) && full != null && full.size() == v.size()) {
                List<Cell> q = new ArrayList<>();
                for (int i = 0; i < v.size(); i++) {
                    q.add(new Cell(0, v.get(i).serverMs(), full.get(i).serverMs(), 0, 0)); // ratio() = minimal ÷ full
                }
                vsFull = minMax(q, Cell::ratio);
            }
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %d | %d |%n", k[0], k[1],
                    k[2], k[3], minMax(v, Cell::ratio), minMax(v, Cell::clientMs), minMax(v, Cell::serverMs), vsFull,
                    v.size(), v.stream().mapToLong(Cell::errors).sum()));
        }
        return b.toString();
    }

    /** One line per server and mode over every case: the figure a cost table of all protocols takes. */
    String familyLines() {
        StringBuilder b = new StringBuilder("| family | server | client ÷ server CPU per handshake (min–max over cases"
                + " and rounds) |\n|---|---|---|\n");
        Map<String, List<Cell>> byMode = new LinkedHashMap<>();
        for (Map.Entry<String, List<Cell>> e : cells.entrySet()) {
            String[] k = e.getKey().split("\\|");
            if (!k[3].endsWith(PACED)) {
                byMode.computeIfAbsent(k[3] + "|" + k[0], x -> new ArrayList<>()).addAll(e.getValue());
            }
        }
        for (Map.Entry<String, List<Cell>> e : byMode.entrySet()) {
            String[] k = e.getKey().split("\\|");
            b.append(String.format(Locale.ROOT, "| TLCP %s | %s | %s |%n", k[0], k[1],
                    minMax(e.getValue(), Cell::ratio)));
        }
        return b.toString();
    }

    interface Figure {
        double of(Cell c);
    }

    static String minMax(List<Cell> v, Figure f) {
        double min = v.stream().mapToDouble(f::of).min().orElse(Double.NaN);
        double max = v.stream().mapToDouble(f::of).max().orElse(Double.NaN);
        return String.format(Locale.ROOT, "%.2f–%.2f", min, max);
    }
}
