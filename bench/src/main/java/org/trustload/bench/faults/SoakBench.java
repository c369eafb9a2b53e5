package org.trustload.bench.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.trustload.bench.BenchRuns;
import org.trustload.harness.DssFixture;
import org.trustload.harness.JMeter;
import org.trustload.harness.Lab;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Layout;
import org.trustload.harness.LiveRun;
import org.trustload.harness.run.Run;
import org.trustload.harness.results.Summary;
import org.trustload.testing.MariaDb;
import org.trustload.testing.Slapd;

/**
 * {@code ./trustload bench soak [family=ldap] [minutes=30] [threads=2] [doc=false]}: a long run at moderate load of a
 * family's plan — {@code ldap} against the slapd fixture (a connection per iteration: connect, bind, search,
 * unbind), {@code jdbc} against MariaDB, {@code dss} against EU DSS, {@code pki} (remote CAdES), {@code
 * timestamp}, {@code login}, {@code kms-aws}, {@code kms-aliyun}, {@code tlcp}, {@code tls13} (handshakes),
 * {@code http} or {@code pdp} against the lab — with the JMeter JVM watched from outside: every 10 s its threads
 * ({@code /proc/PID/status}) and open files ({@code /proc/PID/fd}),
 * every 2 minutes its live heap ({@code jcmd PID GC.run}, {@code GC.run_finalization}, then {@code
 * GC.class_histogram}: the total of what is still reachable after a full collection, once the objects that were
 * only waiting for their finalizers are gone — the heap after young collections only grows with G1 until a
 * concurrent cycle, a leak or not, and a connection of a library with finalizers, Conscrypt's, stays reachable
 * until the JVM's one finalizer thread has run); each figure's slope per hour over the run after its first 2
 * minutes (least squares). A leak shows as a slope that does not vanish; the results are complete when the
 * summary's Total is JMeter's summariser's count.
 */
public final class SoakBench {

    private static final long WARM_MS = 120_000;

    private SoakBench() {
    }

    public static void main(String[] args) throws Exception {
        var o = BenchRuns.options(args);
        Layout layout = Layout.current();
        Path out = Path.of(o.getOrDefault("out", "bench/target/soak-bench/" + System.currentTimeMillis()));
        Files.createDirectories(out);
        int minutes = Integer.parseInt(o.getOrDefault("minutes", "30"));
        // seconds=N: a run of N seconds instead (the bench's tiny scale)
        int seconds = Integer.parseInt(o.getOrDefault("seconds", Integer.toString(minutes * 60)));
        int threads = Integer.parseInt(o.getOrDefault("threads", "2"));
        boolean doc = Boolean.parseBoolean(o.getOrDefault("doc", "false"));
        String family = o.getOrDefault("family", "ldap");
        Soaked soaked = SOAKED.get(family);
        if (soaked == null) {
            throw new IllegalArgumentException("unknown family " + family + " (" + String.join(", ", SOAKED.keySet())
                    + ")");
        }
        String load0 = BenchRuns.uptime();
        Instant started = Instant.now();
        Path dir = out.resolve(family);
        Files.createDirectories(dir);
        JMeter jmeter = new JMeter(layout, List.of("-Xms256m", "-Xmx1g"), List.of());
        List<long[]> polls = new ArrayList<>(); // ms since the start, threads, open files
        List<double[]> heap = new ArrayList<>(); // s since the start, live MB
        String text;
        boolean ldap = family.equals("ldap");
        boolean jdbc = family.equals("jdbc");
        try (Slapd slapd = ldap ? Slapd.start(Slapd.Options.defaults().withEntries(1000).withTls(false)) : null;
             MariaDb db = jdbc ? MariaDb.start() : null;
             Lab lab = soaked.services().isEmpty() ? null : Lab.start(layout, soaked.services(),
                     out.resolve("lab/lab.properties"), out.resolve("lab.log"),
                     List.of("--port-base", Integer.toString(Lab.freePortBase())), Duration.ofMinutes(5));
             // EU DSS, the real signature server, against the lab's keys and TSA
             DssFixture dss = family.equals("dss") ? DssFixture.start(layout, lab.properties(),
                     Files.createDirectories(out.resolve("dss-server")), 0, Duration.ofMinutes(5)) : null) {
            List<String> runArgs = new ArrayList<>();
            if (ldap) {
                runArgs.addAll(List.of("-Jldap.host=" + slapd.host(), "-Jldap.port=" + slapd.ldapPort(),
                        "-Jldap.users=1000", "-Jconnection_mode=per-iteration"));
            } else if (jdbc) {
                Path q = db.writeProperties(out.resolve("db.properties"), "the MariaDB fixture");
                runArgs.addAll(List.of("-q", q.toString(), "-Jcsv.file=" + out.resolve("rows.csv")));
            } else {
                runArgs.addAll(List.of("-q", lab.properties().toString()));
            }
            if (dss != null) {
                // DSS's -q file after the lab's: its pki.url points the plan at DSS's REST services
                runArgs.addAll(List.of("-q", dss.writeProperties(out.resolve("dss-server/dss.properties"))
                        .toString()));
            }
            runArgs.addAll(soaked.args());
            runArgs.addAll(List.of("-Jthreads=" + threads, "-Jrampup=0", "-Jloops=-1", "-Jduration=" + seconds,
                    "-Jsummariser.interval=60"));
            LiveRun run = LiveRun.start(jmeter, layout, family + " soak", layout.root().resolve("test-plans")
                    .resolve(soaked.plan() + ".jmx"), dir, runArgs, Duration.ofSeconds(seconds + 600L));
            run.await("the first samples", r -> !r.isEmpty(), Duration.ofMinutes(5));
            long t0 = System.currentTimeMillis();
            long pid = jmeterPid(dir);
            for (long n = 0; !run.isDone(); n++) {
                long[] p = {System.currentTimeMillis() - t0, threads(pid), openFiles(pid)};
                // a JVM holds its jars open: no open file means /proc was read while it exited (not a reading)
                if (p[1] >= 0 && p[2] > 0) {
                    polls.add(p);
                }
                if (n % 12 == 0) {
                    double mb = liveHeapMb(pid);
                    if (mb >= 0) {
                        heap.add(new double[] {p[0] / 1000.0, mb});
                    }
                }
                Thread.sleep(10_000);
            }
            Run.Result result = run.finish(Duration.ofMinutes(5));
            Summary summary = result.summary().orElseThrow(() -> new IllegalStateException("no results in " + dir));
            long summariser = Summary.summariser(Files.readString(result.console())).map(Summary.Summariser::count)
                    .orElse(-1L);
            // streamed: a 30-minute run holds millions of rows
            java.util.Map<String, Long> lastEnd = new java.util.HashMap<>();
            long[] holes = {0};
            Jtl.forEach(result.jtl(), r -> {
                Long before = lastEnd.put(r.threadName(), Math.max(r.end(), lastEnd.getOrDefault(r.threadName(), 0L)));
                if (before != null && r.timeStamp() - before > 5000) {
                    holes[0]++;
                }
            });
            boolean backToBack = holes[0] == 0;
            text = String.format(Locale.ROOT,
                    "`./trustload bench soak family=%s minutes=%d threads=%d` on %s UTC (load average %s at"
                    + " the start, %s at the end): %s against %s, %d samples (%.0f/s), %d errors.%n%n"
                    + "| JMeter JVM | first | last | slope per hour (after the first 2 min) |%n|---|---|---|---|%n"
                    + "| live heap, MB (%d full collections by jcmd) | %s | %s | %s |%n"
                    + "| threads | %s | %s | %s |%n| open files | %s | %s | %s |%n%n"
                    + "Results complete: %s (summary Total %d, JMeter's summariser %d; each thread's samples back to"
                    + " back: %s).%n",
                    family, seconds / 60, threads, started.toString().substring(0, 16).replace('T', ' '), load0,
                            BenchRuns.uptime(), soaked.plan(), soaked.target(),
                    summary.total().count(), summary.total().throughput(), summary.total().errors(), heap.size(),
                    first(heap, 1), last(heap, 1), slope(heap, WARM_MS / 1000.0, true),
                    firstPoll(polls, 1), lastPoll(polls, 1), slope(polls(polls, 1), WARM_MS / 1000.0, false),
                    firstPoll(polls, 2), lastPoll(polls, 2), slope(polls(polls, 2), WARM_MS / 1000.0, false),
                    summary.total().count() == summariser && backToBack ? "yes" : "NO", summary.total().count(),
                            summariser,
                    backToBack ? "yes" : "NO");
        }
        Files.writeString(out.resolve("bench.md"), text);
        System.out.println(text);
        if (doc) {
            BenchRuns.replaceSection(layout.root().resolve("docs/reliability.md"), "<!-- soak-bench:begin -->",
                    "<!-- soak-bench:end -->", text);
        }
    }

    /** A family's soak: its plan, the lab services it runs against (none: the slapd fixture), what it runs. */
    private record Soaked(String plan, String services, String target, List<String> args) {
    }

    private static final java.util.Map<String, Soaked> SOAKED = java.util.Map.ofEntries(
            java.util.Map.entry("ldap", new Soaked("ldap/ldap-search-200x10", "", "the slapd fixture (1,000 entries),"
                    + " a connection per iteration", List.of())),
            java.util.Map.entry("pki", new Soaked("pki/cades", "pki",
                    "the lab's Rest PKI API (remote CAdES, the 140,576-byte sample PDF)", List.of())),
            java.util.Map.entry("dss", new Soaked("pki/cades", "pki", "EU DSS, the fixture (remote CAdES-B through"
                    + " its REST services, the lab's keys)", List.of())),
            java.util.Map.entry("timestamp", new Soaked("pki/timestamp", "pki", "the lab's RFC 3161 TSA",
                    List.of())),
            java.util.Map.entry("login", new Soaked("pki/login", "pki", "the lab's certificate login API"
                    + " (challenge, signature, login)", List.of())),
            java.util.Map.entry("kms-aws", new Soaked("kms/kms-benchmark-aws", "kms",
                    "the lab's AWS KMS emulator (encrypt)", List.of("-Jcase=encrypt"))),
            java.util.Map.entry("kms-aliyun", new Soaked("kms/kms-benchmark-aliyun", "kms",
                    "the lab's Alibaba Cloud KMS emulator", List.of())),
            java.util.Map.entry("tlcp", new Soaked("gmssl/gmssl-cps", "gmssl", "the lab's TLCP gateway (a new"
                    + " handshake and GET per sample)", List.of())),
            java.util.Map.entry("tls13", new Soaked("gmssl/gmssl-cps", "gmssl", "the lab's gateway over TLS 1.3 SM"
                    + " (TLS_SM4_GCM_SM3, a new handshake and GET per sample)", List.of("-Jsuite=TLS_SM4_GCM_SM3"))),
            java.util.Map.entry("http", new Soaked("http/http-100x10", "http", "the lab's web server (keep-alive)",
                    List.of())),
            java.util.Map.entry("pdp", new Soaked("pdp/pdpx-decisions-current-api", "pdp",
                    "the lab's XACML PDP (JSON decisions)", List.of("-Jsetup_threads=1", "-Jsetup_loops=1"))),
            // a SELECT and an INSERT per CSV row; the CSV ends the thread: 500,000 rows (600 MB)
            java.util.Map.entry("jdbc", new Soaked("jdbc/mysql-select-insert", "", "the MariaDB fixture (a SELECT"
                    + " and an INSERT per row)", List.of("-Jrows=500000"))));

    /** The JMeter JVM whose command line names this run's results file. */
    private static long jmeterPid(Path dir) {
        String jtl = dir.resolve("results.jtl").toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(jtl) && c.contains("ApacheJMeter"))
                        .orElse(false))
                .mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
    }

    private static long threads(long pid) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (l.startsWith("Threads:")) {
                    return Long.parseLong(l.substring(8).strip());
                }
            }
        } catch (IOException | RuntimeException gone) {
            // the JVM ended between two polls
        }
        return -1;
    }

    private static long openFiles(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }

    /**
     * What is reachable in the JVM after a full collection ({@code jcmd PID GC.class_histogram}'s total), MB, once a
     * first collection has found the unreachable objects with finalizers and their finalizers have run (else they
     * and all they reference count as live until the finalizer thread gets to them); -1 when it failed.
     */
    static double liveHeapMb(long pid) {
        try {
            for (String first : List.of("GC.run", "GC.run_finalization")) {
                org.trustload.common.ChildProcess.run(List.of("jcmd", Long.toString(pid), first),
                        Duration.ofSeconds(60));
            }
            var r = org.trustload.common.ChildProcess.run(List.of("jcmd", Long.toString(pid), "GC.class_histogram"),
                    Duration.ofSeconds(60));
            for (String line : r.output().split("\n")) {
                if (line.startsWith("Total")) {
                    String[] f = line.trim().split("\\s+");
                    return Long.parseLong(f[2]) / 1048576.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // a starved JVM may not answer the attach: that poll is skipped
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return -1;
    }

    private static List<double[]> polls(List<long[]> polls, int column) {
        return polls.stream().map(p -> new double[] {p[0] / 1000.0, p[column]}).toList();
    }

    private static String first(List<double[]> xy, int column) {
        return xy.isEmpty() ? "-" : fmt(xy.get(0)[column]);
    }

    private static String last(List<double[]> xy, int column) {
        return xy.isEmpty() ? "-" : fmt(xy.get(xy.size() - 1)[column]);
    }

    private static String firstPoll(List<long[]> polls, int column) {
        return polls.isEmpty() ? "-" : Long.toString(polls.get(0)[column]);
    }

    private static String lastPoll(List<long[]> polls, int column) {
        return polls.isEmpty() ? "-" : Long.toString(polls.get(polls.size() - 1)[column]);
    }

    /** The least-squares slope per hour of the points after {@code fromS} seconds. */
    static String slope(List<double[]> xy, double fromS, boolean mb) {
        List<double[]> p = xy.stream().filter(v -> v[0] >= fromS).toList();
        if (p.size() < 3) {
            return "- (too few points)";
        }
        double n = p.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (double[] v : p) {
            sx += v[0];
            sy += v[1];
            sxx += v[0] * v[0];
            sxy += v[0] * v[1];
        }
        double perSecond = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        return String.format(Locale.ROOT, "%+.2f%s (%d points)", perSecond * 3600, mb ? " MB" : "", p.size());
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
