package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Lab;
import org.trustload.harness.LiveRun;
import org.trustload.harness.results.Outages;
import org.trustload.harness.run.Run;
import org.trustload.harness.results.Summary;
import org.trustload.testing.FaultProxy;
import org.trustload.testing.FaultServer;
import org.trustload.testing.Slapd;
import org.trustload.testing.Toxiproxy;

/**
 * CI's small form of the fault table (docs/reliability.md): per protocol stack one plan family, run by the harness
 * as a user runs it, and faults injected while it runs — LDAP over a real slapd killed and restarted, then frozen;
 * a signature server (the lab's Rest PKI API) that hangs, answers garbage and resets; TLCP through sliced records,
 * garbage records and a cut after N bytes; a PDP behind latency and a server that never answers. For each: what a
 * sample records, how long a thread is held (the element's timeouts), that the run recovers when the fault ends,
 * and that the summary names the outage. One lab, one slapd and one Toxiproxy for the class; the three lab runs go
 * at once, the LDAP run while the lab starts; each run is stopped once its faults are done.
 *
 * <p>CI budget: 66-140 s (66 s in a fresh-clone CI run, 87 s at load 15-21, 140 s at 28-31): four plans run, each
 * until its faults were seen and healed (an outage lasts at least 1 s; a hang, the response timeout).
 */
class FaultsIT {

    private static final Path OUT = Plans.DIR.resolve("target/fault-runs");
    /**
     * Each run's duration cap, s: a bound only, the test stops the run once its faults are done ({@link
     * LiveRun#stop}).
     */
    private static final int CAP_S = 300;
    /** How long a run may take to reach its first samples: JMeter's start, slow on a machine at load 20+. */
    private static final Duration START = Duration.ofMinutes(3);
    private static Toxiproxy toxiproxy;
    private static Slapd slapd;
    /** The lab (pki, gmssl, pdp), started in the background while the LDAP runs go on. */
    private static CompletableFuture<Lab> lab;

    @BeforeAll
    static void start() throws Exception {
        Slapd.assumeOrFailInCi();
        Toxiproxy.assumeOrFailInCi();
        Files.createDirectories(OUT);
        toxiproxy = Toxiproxy.start(OUT.resolve("toxiproxy.log"));
        slapd = Slapd.start(Slapd.Options.defaults().withEntries(100).withTls(false));
        lab = CompletableFuture.supplyAsync(() -> {
            try {
                return PlanRunIT.startLab("pki,gmssl,pdp", OUT.resolve("lab/lab.properties"), OUT.resolve("lab.log"));
            } catch (Exception e) {
                throw new IllegalStateException("the lab did not start; see " + OUT.resolve("lab.log"), e);
            }
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (lab != null) {
            lab.handle((l, e) -> l).get().close();
        }
        if (slapd != null) {
            slapd.close();
        }
        if (toxiproxy != null) {
            toxiproxy.close();
        }
    }

    /**
     * slapd killed mid-run (SIGKILL, its port refusing) and restarted on the same port, then frozen (SIGSTOP) and
     * thawed: 4 threads on one connection each. The kill costs each thread one serverDown and then refusals waited
     * out up to the connect timeout (no flood); the first success comes within one connect timeout of the restart;
     * frozen, each sample ends at the response timeout; the summary names both outages.
     */
    @Test
    void ldapRecoversWithinOneConnectTimeoutOfASlapdRestartAndTheSummaryNamesTheOutage() throws Exception {
        int connectMs = 3000;
        int responseMs = 2000;
        int threads = 2;
        String label = "search (uid=fulano[1-100])";
        Path dir = OUT.resolve("ldap-kill-restart-freeze");
        LiveRun run = live("ldap/ldap-search-200x10.jmx", dir, List.of("-Jldap.host=" + slapd.host(),
                "-Jldap.port=" + slapd.ldapPort(), "-Jldap.users=100", "-Jthreads=" + threads, "-Jloops=-1",
                        "-Jrampup=0",
                "-Jduration=" + CAP_S, "-Jconnection_mode=per-thread", "-Jconnect_timeout=" + connectMs,
                "-Jresponse_timeout=" + responseMs));
        Duration wait = Duration.ofSeconds(60);
        run.await("30 searches", r -> LiveRun.count(r, label, 0, true) >= 30, START);
        long killed = System.currentTimeMillis();
        slapd.kill();
        run.await("a failure after the kill", r -> LiveRun.failedEndingAfter(r, label, killed) >= 1, wait);
        LiveRun.until(killed + 2500);
        slapd.restart();
        long restarted = System.currentTimeMillis(); // restart() returns once slapd answers
        run.await("20 searches after the restart", r -> LiveRun.count(r, label, restarted, true) >= 20, wait);
        long frozen = System.currentTimeMillis();
        slapd.freeze();
        run.await("a response timeout", r -> r.stream().anyMatch(x -> x.responseCode().equals("timeout")), wait);
        LiveRun.until(frozen + 2500);
        slapd.thaw();
        long thawed = System.currentTimeMillis();
        run.await("20 searches after the thaw", r -> LiveRun.count(r, label, thawed, true) >= 20, wait);
        Run.Result result = run.stop(Duration.ofMinutes(2));

        assertStopped(result);
        List<Jtl.Sample> rows = Jtl.read(result.jtl());
        Summary summary = result.summary().orElseThrow();
        List<Outages.Outage> outages = summary.outages().all();
        assertThat(outages).as("the kill and the freeze, see " + dir).hasSize(2);
        Outages.Outage kill = outages.get(0);
        assertThat(kill.label()).isEqualTo(label);
        assertThat(kill.from()).isBetween(killed - 1000, killed + 1000);
        assertThat(kill.recovered() - restarted).as("first success after the restart, ms")
                .isLessThanOrEqualTo(connectMs);
        // each thread: one serverDown on its kept connection, then at most one refusal per connect timeout
        long outageMs = restarted - killed;
        assertThat(kill.failed()).as("failed samples in the outage: no flood")
                .isLessThanOrEqualTo(threads * (outageMs / connectMs + 2));
        assertThat(codes(rows, killed, restarted)).isSubsetOf("serverDown", "connectError");
        Outages.Outage freeze = outages.get(1);
        assertThat(freeze.from()).isBetween(frozen - responseMs - 1000, frozen + 1000);
        List<Jtl.Sample> timeouts = rows.stream().filter(r -> r.responseCode().equals("timeout")).toList();
        assertThat(timeouts).isNotEmpty().allSatisfy(t -> {
            assertThat(t.responseMessage()).isEqualTo("LDAP 85 timeout: no response within the response timeout");
            // held for the response timeout, and not much more (a reconnect to a frozen slapd: connect + bind timeout)
            assertThat(t.elapsed()).isBetween((long) responseMs - 5, (long) connectMs + responseMs + 5000L);
        });
        String text = Files.readString(result.dir().resolve("summary.txt")).replaceAll("\\s+", " ");
        assertThat(text).contains("Outages (").contains(label + ": ").contains("first success");
        assertCompleteAround(summary, rows, killed, thawed, dir);
    }

    /**
     * A signature server, a TLCP gateway and a PDP, each behind its own Toxiproxy proxy to the lab, each run with
     * its faults at the same time (the three take about as long as one): every fault a failed sample with the
     * element's stable code, held no longer than the element's timeouts, and every run back to successes once
     * the fault is removed.
     */
    @Test
    void aHungSignatureServerGarbledTlcpRecordsAndASlowPdpAreFailedSamplesAndTheRunsRecover() throws Exception {
        Lab l = lab.get();
        Properties labProps = Plans.load(l.properties());
        List<Future<?>> runs = List.of(
                CompletableFuture.runAsync(() -> scenario(() -> signatureServer(l, labProps))),
                CompletableFuture.runAsync(() -> scenario(() -> tlcpGateway(l, labProps))),
                CompletableFuture.runAsync(() -> scenario(() -> pdp(l, labProps))));
        List<Throwable> failed = new ArrayList<>();
        for (Future<?> f : runs) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                failed.add(e.getCause());
            }
        }
        if (!failed.isEmpty()) {
            AssertionError all = new AssertionError(failed.size() + " of 3 fault runs failed: " + failed.get(0)
                    .getMessage(),
                    failed.get(0));
            failed.stream().skip(1).forEach(all::addSuppressed);
            throw all;
        }
    }

    @FunctionalInterface
    private interface Scenario {
        void run() throws Exception;
    }

    private static void scenario(Scenario s) {
        try {
            s.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int port(Properties labProps, String url) {
        return URI.create(labProps.getProperty(url)).getPort();
    }

    /**
     * Rest PKI (the lab) behind a proxy: held answers (a hung server) end each CAdES sample at its response timeout
     * as connectError "signature server did not answer in time"; a garbage JSON answer is badResponse; a reset is
     * connectError; each time the run signs again once the fault is gone.
     */
    private static void signatureServer(Lab l, Properties labProps) throws Exception {
        int responseMs = 2000;
        String label = "CAdES-B sign";
        FaultProxy proxy = toxiproxy.proxy("pki", "127.0.0.1", port(labProps, "pki.url"));
        Path dir = OUT.resolve("pki-hang-garbage-reset");
        LiveRun run = live("pki/cades.jmx", dir, List.of("-q", l.properties().toString(),
                "-Jpki.url=http://127.0.0.1:" + proxy.port(), "-Jthreads=2", "-Jrampup=0", "-Jduration=" + CAP_S,
                "-Jresponse_timeout=" + responseMs, "-Jconnect_timeout=2000"));
        Duration wait = Duration.ofSeconds(60);
        run.await("5 signatures", r -> LiveRun.count(r, label, 0, true) >= 5, START);
        long hung = System.currentTimeMillis();
        proxy.timeout(0);
        run.await("2 signatures timed out", r -> LiveRun.failedEndingAfter(r, label, hung) >= 2, wait);
        proxy.heal();
        long healed = System.currentTimeMillis();
        run.await("3 signatures after the hang", r -> LiveRun.count(r, label, healed, true) >= 3, wait);
        long garbled;
        try (FaultServer garbage = FaultServer.answering(FaultServer.Garbage.json("<html>no JSON</html>"))) {
            garbled = System.currentTimeMillis();
            proxy.upstream(garbage.host(), garbage.port());
            long from = garbled;
            // a garbled answer itself, not only the failures of switching upstream (the kept-alive connections the
            // proxy closes, its listener restarting): r4 of 2026-12-07 saw two of those and no answer before the heal
            run.await("a garbled answer", r -> r.stream().anyMatch(s -> s.label().equals(label) && s.end() >= from
                    && !s.success() && s.responseCode().equals("badResponse")), wait);
            proxy.heal();
        }
        long back = System.currentTimeMillis();
        run.await("3 signatures after the garbage", r -> LiveRun.count(r, label, back, true) >= 3, wait);
        Run.Result result = run.stop(Duration.ofMinutes(2));

        List<Jtl.Sample> rows = Jtl.read(result.jtl());
        List<Jtl.Sample> timedOut = failures(rows, label, hung, healed).stream()
                .filter(r -> r.responseMessage().equals("signature server did not answer in time")).toList();
        assertThat(timedOut).as("samples of the hang, see " + dir).isNotEmpty().allSatisfy(r -> {
            assertThat(r.responseCode()).isEqualTo("connectError");
            // one step waited its response timeout; the steps before it took their usual time
            assertThat(r.elapsed()).isBetween((long) responseMs - 5, responseMs + 10_000L);
        });
        // the proxy closed the connections the hang held: a request sent on one of them fails once; switching the
        // proxy's upstream (to the garbage server and back) restarts its listener, which may refuse a connect meanwhile
        String closed = "connectError signature server connection failed";
        String refused = "connectError signature server connection refused";
        assertThat(codes(failures(rows, label, hung, garbled))).as("the hang and after, see " + dir)
                .isSubsetOf("connectError signature server did not answer in time", closed);
        assertThat(codes(failures(rows, label, garbled, back))).as("garbage: a stable code, see " + dir)
                .contains("badResponse HTTP 200 answer is not JSON")
                .isSubsetOf("badResponse HTTP 200 answer is not JSON", closed, refused);
        assertRecovered(result, label, hung, back, dir);
    }

    /**
     * TLCP (the lab's gateway) behind a proxy: records cut into small slices still make whole handshakes;
     * garbage records are handshakeFailed; a connection closed after 200 bytes is a failed handshake too; the
     * run connects again once the fault is gone, no thread stopped.
     */
    private static void tlcpGateway(Lab l, Properties labProps) throws Exception {
        String label = "TLCP cps";
        FaultProxy proxy = toxiproxy.proxy("tlcp", "127.0.0.1",
                Integer.parseInt(labProps.getProperty("gmssl.tlcp.port")));
        Path dir = OUT.resolve("tlcp-slices-garbage-limit");
        LiveRun run = live("gmssl/gmssl-cps.jmx", dir, List.of("-q", l.properties().toString(),
                "-Jgmssl.host=127.0.0.1", "-Jgmssl.port=" + proxy.port(), "-Jthreads=2", "-Jrampup=0", "-Jduration="
                        + CAP_S,
                "-Jconnect_timeout=2000", "-Jresponse_timeout=2000"));
        Duration wait = Duration.ofSeconds(60);
        run.await("10 connections", r -> LiveRun.count(r, label, 0, true) >= 10, START);
        long sliced = System.currentTimeMillis();
        proxy.slicer(50, 20, 200);
        run.await("5 connections over sliced records", r -> LiveRun.count(r, label, sliced, true) >= 5, wait);
        proxy.heal();
        long garbled;
        try (FaultServer garbage = FaultServer.answering(FaultServer.Garbage.TLCP_RECORD)) {
            garbled = System.currentTimeMillis();
            proxy.upstream(garbage.host(), garbage.port());
            long from = garbled;
            run.await("2 garbled handshakes", r -> LiveRun.failedEndingAfter(r, label, from) >= 2, wait);
            LiveRun.until(garbled + 2000); // long enough to be an outage (1 s at least)
            proxy.heal();
        }
        long limited = System.currentTimeMillis();
        proxy.limitData(200);
        run.await("2 cut handshakes", r -> LiveRun.failedEndingAfter(r, label, limited) >= 2, wait);
        proxy.heal();
        long back = System.currentTimeMillis();
        run.await("10 connections after the faults", r -> LiveRun.count(r, label, back, true) >= 10, wait);
        Run.Result result = run.stop(Duration.ofMinutes(2));

        List<Jtl.Sample> rows = Jtl.read(result.jtl());
        assertThat(rows.stream().filter(r -> !r.success() && r.end() < garbled)).as("slices are no failure, see " + dir)
                .isEmpty();
        // garbage and the cut: failed handshakes (a cut after the handshake: the page's read fails); switching the
        // proxy's upstream restarts its listener, which may refuse one connect meanwhile
        assertThat(codes(rows.stream().filter(r -> !r.success()).toList())).as("every fault a failed connection, see "
                + dir)
                .contains("handshakeFailed handshake failure: TlcpAlert: handshake message of 11386607 bytes"
                        + " [we sent alert decode_error]")
                .allMatch(c -> c.startsWith("handshakeFailed ") || c.equals("ioError connection closed by peer")
                        || c.equals("connectError connection refused"));
        assertRecovered(result, label, garbled, back, dir);
    }

    /**
     * The PDP (the lab's current ONAP API, stock HTTP samplers) behind a proxy: latency makes decisions slower
     * but right; held answers end each decision at the HTTP sampler's response timeout; decisions succeed again
     * once the fault is gone.
     */
    private static void pdp(Lab l, Properties labProps) throws Exception {
        int responseMs = 5000;
        String label = "decision Guard (Permit)";
        FaultProxy proxy = toxiproxy.proxy("pdp", "127.0.0.1", Integer.parseInt(labProps.getProperty("pdp.port")));
        Path dir = OUT.resolve("pdp-latency-hang");
        LiveRun run = live("pdp/pdpx-decisions-current-api.jmx", dir, List.of("-q", l.properties().toString(),
                "-Jpdp.port=" + proxy.port(), "-Jsetup_threads=1", "-Jsetup_loops=1", "-Jthreads=2", "-Jloops=100000",
                "-Jduration=" + CAP_S, "-Jconnect_timeout=2000", "-Jresponse_timeout=" + responseMs));
        Duration wait = Duration.ofSeconds(60);
        run.await("10 decisions", r -> LiveRun.count(r, label, 0, true) >= 10, START);
        long slow = System.currentTimeMillis();
        proxy.latency(300, 50);
        Predicate<Jtl.Sample> slowDecision = r -> r.label().equals(label) && r.success() && r.timeStamp() >= slow + 100
                && r.elapsed() >= 250;
        run.await("3 slow decisions", r -> r.stream().filter(slowDecision).count() >= 3, wait);
        proxy.heal();
        long hung = System.currentTimeMillis();
        proxy.timeout(0);
        run.await("2 decisions timed out", r -> LiveRun.failedEndingAfter(r, label, hung) >= 2, wait);
        // removing the toxic closes the kept-alive connections it held: a decision sent meanwhile fails at once
        // (NoHttpResponseException, 50 ms, seen at load 40), not at the timeout; the hang's own end before it
        long healing = System.currentTimeMillis();
        proxy.heal();
        long back = System.currentTimeMillis();
        run.await("10 decisions after the hang", r -> LiveRun.count(r, label, back, true) >= 10, wait);
        Run.Result result = run.stop(Duration.ofMinutes(2));

        List<Jtl.Sample> rows = Jtl.read(result.jtl());
        // decisions sent once the latency was on (not those it met in flight) are slower, never failed
        assertThat(rows.stream().filter(r -> !r.success() && r.timeStamp() > slow + 500 && r.end() < hung))
                .as("latency is no failure, see " + dir).isEmpty();
        List<Jtl.Sample> timedOut = failures(rows, label, hung, healing);
        assertThat(timedOut).isNotEmpty().allSatisfy(r -> {
            assertThat(r.responseCode()).isEqualTo("Non HTTP response code: java.net.SocketTimeoutException");
            assertThat(r.elapsed()).isBetween((long) responseMs - 5, responseMs + 5000L);
        });
        assertRecovered(result, label, hung, back, dir);
    }

    /** The run executed, the summary names an outage of {@code label} that recovered, and the file is complete. */
    private static void assertRecovered(Run.Result result, String label, long firstFault, long healed, Path dir)
            throws Exception {
        assertStopped(result);
        Summary summary = result.summary().orElseThrow();
        assertThat(summary.outages().all()).as("outages, see " + dir).anySatisfy(o -> {
            assertThat(o.label()).isEqualTo(label);
            assertThat(o.isRecovered()).isTrue();
        });
        assertCompleteAround(summary, Jtl.read(result.jtl()), firstFault, healed, dir);
    }

    /** The test stopped the run (SIGTERM: JMeter exits 143); the summary was written all the same. */
    private static void assertStopped(Run.Result result) {
        assertThat(result.message()).as("see " + result.dir()).contains("JMeter exited with status 143");
        assertThat(result.summary()).isPresent();
    }

    /** {@code plan} (under test-plans/) run in the background by the harness, its rows read as they come. */
    private static LiveRun live(String plan, Path dir, List<String> args) throws Exception {
        return LiveRun.start(Plans.JMETER, Plans.LAYOUT, plan, Plans.DIR.resolve(plan), dir, args,
                Duration.ofMinutes(10));
    }

    /**
     * Nothing lost: rows before the first fault and after the heal, and each thread's samples back to back (a
     * thread's next sample starts when its last one ended, give or take {@code maxGapMs}, its first gap apart): a
     * sample missing from the file would leave a hole. The runs are stopped by the test, so JMeter's summariser
     * printed no final count.
     */
    private static void assertCompleteAround(Summary summary, List<Jtl.Sample> rows, long firstFault, long healed,
            Path dir)
            throws Exception {
        assertThat(rows.stream().filter(r -> r.end() < firstFault)).as("rows before the fault, see " + dir)
                .isNotEmpty();
        assertThat(rows.stream().filter(r -> r.timeStamp() > healed && r.success())).as("rows after it").isNotEmpty();
        java.util.Map<String, List<Jtl.Sample>> byThread = new java.util.TreeMap<>();
        java.util.Set<String> events = new java.util.HashSet<>();
        for (Jtl.Sample r : rows) {
            // one row per sample event: the first (the sample; its sub-results share the event)
            if (events.add(r.threadName() + "\u0000" + r.event())) {
                byThread.computeIfAbsent(r.threadName(), t -> new ArrayList<>()).add(r);
            }
        }
        long maxGapMs = 3000; // a descheduled thread at load 20+, a think time of a plan's own timers
        byThread.forEach((thread, samples) -> {
            samples.sort(java.util.Comparator.comparingLong(Jtl.Sample::timeStamp));
            // from the second gap on: the first holds the first run of the plan's assertions (the Signature
            // Assertion's validator loaded 6.6 s after the first CAdES-B signature at load 22, both threads alike)
            for (int i = 2; i < samples.size(); i++) {
                long gap = samples.get(i).timeStamp() - samples.get(i - 1).end();
                assertThat(gap).as("gap in " + thread + " before " + samples.get(i) + ", see " + dir)
                        .isLessThanOrEqualTo(maxGapMs);
            }
        });
        assertThat(summary.total().count() + summary.warmUp().count()).as("the summary counts every sample row")
                .isEqualTo(byThread.values().stream().mapToLong(List::size).sum());
    }

    /** Failed rows of {@code label} that ended within [from, to]. */
    private static List<Jtl.Sample> failures(List<Jtl.Sample> rows, String label, long from, long to) {
        return rows.stream().filter(r -> r.label().equals(label) && !r.success() && r.end() >= from && r.end() <= to)
                .toList();
    }

    /** The distinct "code message" of these rows. */
    private static List<String> codes(List<Jtl.Sample> rows) {
        return rows.stream().map(r -> r.responseCode() + " " + r.responseMessage()).distinct().toList();
    }

    private static List<String> codes(List<Jtl.Sample> rows, long from, long to) {
        return rows.stream().filter(r -> !r.success() && r.end() >= from && r.end() <= to).map(Jtl.Sample::responseCode)
                .distinct().toList();
    }
}
