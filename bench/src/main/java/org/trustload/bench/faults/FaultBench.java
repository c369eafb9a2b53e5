package org.trustload.bench.faults;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.trustload.bench.BenchRuns;
import org.trustload.harness.DssFixture;
import org.trustload.harness.JMeter;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.harness.LiveRun;
import org.trustload.harness.results.Outages;
import org.trustload.harness.run.Run;
import org.trustload.harness.results.Summary;
import org.trustload.testing.FaultProxy;
import org.trustload.testing.FaultServer;
import org.trustload.testing.MariaDb;
import org.trustload.testing.Slapd;
import org.trustload.testing.Toxiproxy;

/**
 * {@code ./trustload bench faults [families=ldap,pki,...] [faults=latency,hang,...] [threads=2] [hold=3]
 * [timeout=2000] [doc=false]}: the fault table. Per family one plan of the library runs against its real server
 * (slapd, or the lab) through a Toxiproxy proxy, and the faults come one after the other while it runs: each held
 * {@code hold} seconds, then removed, then the run must succeed again before the next. Per fault the table says
 * what the samples in the fault recorded (code and message), how long one held its thread (against the plan's
 * connect and response timeouts, both {@code timeout} ms), when the run recovered after the fault was removed,
 * the outage the summary names, and whether results.jtl lost a sample (each thread's samples back to back).
 * The fault harness is testkit's ({@link Toxiproxy}, {@link FaultServer}, the fixtures' process faults), the runs
 * the harness's ({@link LiveRun}): the same as FaultsIT's. docs/reliability.md holds the table it wrote.
 */
public final class FaultBench {

    /** A fault: its name, what it does, and how to start it on a family's proxy (and servers). */
    private record Fault(String name, String what, Function<Cell, AutoCloseable> start) {
    }

    /** What a fault works on: the family's proxy, its garbage answer, its fixture (slapd) when it has one. */
    private record Cell(FaultProxy proxy, byte[] garbage, Slapd slapd) {
    }

    /** A plan family: its plan, the arguments that point it at {@code host:port} (the proxy), and its upstream. */
    private record Family(String id, String plan, String upstreamHost, int upstreamPort, byte[] garbage,
                          Function<Integer, List<String>> args, Slapd slapd) {
    }

    private static final List<Fault> FAULTS = List.of(
            new Fault("latency", "300 ms (± 50) added to every answer", c -> proxied(c.proxy().latency(300, 50))),
            new Fault("bandwidth", "answers at 16 KB/s", c -> proxied(c.proxy().bandwidth(16))),
            new Fault("slicer", "answers cut into 16-byte packets 200 µs apart", c -> proxied(c.proxy().slicer(16, 8,
                    200))),
            new Fault("hang", "answers held, connections open (a hung server)", c -> proxied(c.proxy().timeout(0))),
            new Fault("reset", "connections reset (TCP RST) as data arrives", c -> proxied(c.proxy().resetPeer(0))),
            new Fault("limit", "connections closed after 256 bytes of answer", c -> proxied(c.proxy().limitData(256))),
            new Fault("refused", "the port closed: connects refused, open connections closed", c -> proxied(c.proxy()
                    .cut())),
            new Fault("silent", "a server that accepts and never answers", c -> upstream(c.proxy(),
                    FaultServer.silent())),
            new Fault("garbage", "a server that answers garbage of the protocol",
                    c -> upstream(c.proxy(), FaultServer.answering(c.garbage()))),
            new Fault("blackhole", "connects never completed (SYNs dropped)", c -> upstream(c.proxy(),
                    FaultServer.blackhole())),
            new Fault("paused", "the server's process stopped (SIGSTOP) then resumed", FaultBench::pause),
            new Fault("restart", "the server killed (SIGKILL) and restarted on its port", FaultBench::restart));

    private FaultBench() {
    }

    private static AutoCloseable proxied(FaultProxy p) {
        return p::heal;
    }

    private static AutoCloseable upstream(FaultProxy p, FaultServer server) {
        p.upstream(server.host(), server.port());
        return () -> {
            server.close(); // first: the proxy's links to it end, so switching back does not wait for them
            p.heal();
        };
    }

    private static AutoCloseable pause(Cell c) {
        if (c.slapd() == null) {
            return null;
        }
        c.slapd().freeze();
        return c.slapd()::thaw;
    }

    private static AutoCloseable restart(Cell c) {
        if (c.slapd() == null) {
            return null;
        }
        c.slapd().kill();
        return c.slapd()::restart;
    }

    /** One row of the table. */
    private record Row(String fault, String what, long ok, long failed, String records, long heldMs, String recovered,
                       String outage, boolean complete) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = BenchRuns.options(args);
        Layout layout = Layout.current();
        JMeter jmeter = new JMeter(layout, List.of("-Xms256m", "-Xmx1g"), List.of());
        Path out = Path.of(o.getOrDefault("out", "bench/target/faults-bench/" + System.currentTimeMillis()));
        Files.createDirectories(out);
        List<String> families = List.of(o.getOrDefault("families",
                "ldap,ldaps,pki,dss,timestamp,login,kms-aws,kms-aliyun,"
                + "tlcp,tls13,pdp,http,jdbc").split(","));
        Set<String> faults = new HashSet<>(List.of(o.getOrDefault("faults",
                FAULTS.stream().map(Fault::name).collect(Collectors.joining(","))).split(",")));
        int threads = Integer.parseInt(o.getOrDefault("threads", "2"));
        long holdMs = (long) (Double.parseDouble(o.getOrDefault("hold", "3")) * 1000);
        int timeoutMs = Integer.parseInt(o.getOrDefault("timeout", "2000"));
        boolean doc = Boolean.parseBoolean(o.getOrDefault("doc", "false"));
        String load0 = BenchRuns.uptime();
        Instant started = Instant.now();
        Map<String, List<Row>> table = new LinkedHashMap<>();
        try (Toxiproxy toxiproxy = Toxiproxy.start(out.resolve("toxiproxy.log"));
             Slapd slapd = families.stream().anyMatch(f -> f.startsWith("ldap"))
                     ? Slapd.start(Slapd.Options.defaults().withEntries(1000)) : null;
             MariaDb db = families.contains("jdbc") ? MariaDb.start() : null;
             Lab lab = families.stream().anyMatch(f -> !f.startsWith("ldap") && !f.equals("jdbc"))
                     ? Lab.start(layout, labServices(families), out.resolve("lab/lab.properties"),
                             out.resolve("lab.log"), List.of("--port-base", Integer.toString(Lab.freePortBase())),
                             Duration.ofMinutes(5)) : null;
             // EU DSS, the real signature server, against the lab's keys and TSA (family dss)
             DssFixture dss = families.contains("dss") ? DssFixture.start(layout, lab.properties(),
                     Files.createDirectories(out.resolve("dss-server")), 0, Duration.ofMinutes(5)) : null) {
            Properties lp = new Properties();
            if (lab != null) {
                try (var in = Files.newInputStream(lab.properties())) {
                    lp.load(in);
                }
            }
            if (dss != null) {
                lp.setProperty("dss.q", dss.writeProperties(out.resolve("dss-server/dss.properties")).toString());
                lp.setProperty("dss.url", dss.url());
            }
            for (String id : families) {
                Family f = family(id, slapd, db, out, lab, lp, threads, timeoutMs);
                FaultProxy proxy = toxiproxy.proxy(id, f.upstreamHost(), f.upstreamPort());
                System.out.printf("faults: %s (%s) through 127.0.0.1:%d, load %s%n", id, f.plan(), proxy.port(),
                        BenchRuns.uptime());
                table.put(id, runFamily(jmeter, layout, f, proxy, faults, holdMs, timeoutMs, out));
                // what is done so far, should a long bench be stopped
                Files.writeString(out.resolve("bench.md"), markdown(table, threads, holdMs, timeoutMs, started, load0,
                        BenchRuns.uptime()));
            }
        }
        String md = markdown(table, threads, holdMs, timeoutMs, started, load0, BenchRuns.uptime());
        Files.writeString(out.resolve("bench.md"), md);
        System.out.println(md);
        if (doc) {
            BenchRuns.replaceSection(layout.root().resolve("docs/reliability.md"), "<!-- faults-bench:begin -->",
                    "<!-- faults-bench:end -->", md);
        }
    }

    private static String labServices(List<String> families) {
        Set<String> s = new java.util.LinkedHashSet<>();
        for (String f : families) {
            s.add(switch (f) {
                case "pki", "dss", "timestamp", "login" -> "pki";
                case "kms-aws", "kms-aliyun" -> "kms";
                case "tlcp", "tls13" -> "gmssl";
                case "pdp" -> "pdp";
                case "http" -> "http";
                default -> "ldap"; // ldap*, jdbc: their own servers
            });
        }
        s.remove("ldap");
        return String.join(",", s);
    }

    private static int portOf(String url) {
        return URI.create(url.contains("://") ? url : "tcp://" + url).getPort();
    }

    /** The families: plan, how to point it at the proxy, its garbage, its upstream. */
    private static Family family(String id, Slapd slapd, MariaDb db, Path out, Lab lab, Properties lp, int threads,
                                 int timeoutMs) throws java.io.IOException {
        List<String> common = List.of("-Jthreads=" + threads, "-Jrampup=0", "-Jloops=-1", "-Jduration=3600",
                "-Jconnect_timeout=" + timeoutMs, "-Jresponse_timeout=" + timeoutMs);
        Function<List<String>, List<String>> with = extra -> {
            List<String> a = new ArrayList<>(common);
            if (lab != null) {
                a.addAll(0, List.of("-q", lab.properties().toString()));
            }
            a.addAll(extra);
            return a;
        };
        byte[] json = FaultServer.Garbage.json("<html>no JSON</html>");
        return switch (id) {
            case "ldap" -> new Family(id, "ldap/ldap-search-200x10.jmx", slapd.host(), slapd.ldapPort(),
                    FaultServer.Garbage.LDAP,
                    p -> with.apply(List.of("-Jldap.host=127.0.0.1", "-Jldap.port=" + p, "-Jldap.users=1000",
                            "-Jconnection_mode=per-thread")), slapd);
            case "ldaps" -> new Family(id, "ldap/ldap-search-200x10.jmx", slapd.host(), slapd.ldapsPort(),
                    FaultServer.Garbage.TLS_RECORD, p -> with.apply(List.of("-Jscheme=ldaps", "-Jldap.host=127.0.0.1",
                    "-Jport=" + p, "-Jldap.users=1000", "-Jldap.truststore=" + slapd.trustStorePath(),
                    "-Jldap.truststore.password=" + slapd.trustStorePassword(),
                    "-Jconnection_mode=per-iteration")), slapd);
            case "pki" -> new Family(id, "pki/cades.jmx", "127.0.0.1", portOf(lp.getProperty("pki.url")), json,
                    p -> with.apply(List.of("-Jpki.url=http://127.0.0.1:" + p)), null);
            // DSS's REST services through the proxy: its -q file after the lab's, the proxy's URL last
            case "dss" -> new Family(id, "pki/cades.jmx", "127.0.0.1", portOf(lp.getProperty("dss.url")), json,
                    p -> with.apply(List.of("-q", lp.getProperty("dss.q"), "-Jpki.url=http://127.0.0.1:" + p
                            + URI.create(lp.getProperty("dss.url")).getPath())), null);
            case "timestamp" -> new Family(id, "pki/timestamp.jmx", "127.0.0.1", portOf(lp.getProperty("pki.tsa.url")),
                    FaultServer.Garbage.RFC3161, p -> with.apply(List.of("-Jpki.tsa.url=http://127.0.0.1:" + p
                            + "/tsa")), null);
            case "login" -> new Family(id, "pki/login.jmx", "127.0.0.1", portOf(lp.getProperty("pki.url")), json,
                    p -> with.apply(List.of("-Jpki.url=http://127.0.0.1:" + p, "-Jpki.login.url=http://127.0.0.1:"
                            + p)), null);
            case "kms-aws" -> new Family(id, "kms/kms-benchmark-aws.jmx", "127.0.0.1",
                    portOf(lp.getProperty("kms.aws.endpoint")),
                    json, p -> with.apply(List.of("-Jkms.aws.endpoint=http://127.0.0.1:" + p)), null);
            case "kms-aliyun" -> new Family(id, "kms/kms-benchmark-aliyun.jmx", "127.0.0.1",
                    portOf(lp.getProperty("kms.aliyun.endpoint")), FaultServer.Garbage.TLS_RECORD,
                    p -> with.apply(List.of("-Jkms.aliyun.endpoint=127.0.0.1:" + p)), null);
            case "tlcp", "tls13" -> new Family(id, "gmssl/gmssl-cps.jmx", "127.0.0.1",
                    Integer.parseInt(lp.getProperty("gmssl.tlcp.port")),
                    id.equals("tlcp") ? FaultServer.Garbage.TLCP_RECORD : FaultServer.Garbage.TLS_RECORD,
                    p -> with.apply(id.equals("tlcp") ? List.of("-Jgmssl.port=" + p)
                            : List.of("-Jgmssl.port=" + p, "-Jsuite=TLS_SM4_GCM_SM3")), null);
            case "pdp" -> new Family(id, "pdp/pdpx-decisions-current-api.jmx", "127.0.0.1",
                    Integer.parseInt(lp.getProperty("pdp.port")), json, p -> with.apply(List.of("-Jpdp.port=" + p,
                    "-Jsetup_threads=1", "-Jsetup_loops=1", "-Jloops=1000000")), null);
            case "http" -> new Family(id, "http/http-100x10.jmx", "127.0.0.1",
                    Integer.parseInt(lp.getProperty("http.port")),
                    FaultServer.Garbage.http(200, "text/html", "<html>".getBytes()),
                    p -> with.apply(List.of("-Jhttp.host=127.0.0.1", "-Jhttp.port=" + p)), null);
            case "jdbc" -> {
                Path q = db.writeProperties(out.resolve("db.properties"), "the MariaDB fixture");
                yield new Family(id, "jdbc/mysql-select-insert.jmx", "127.0.0.1", db.port(), FaultServer.Garbage.LDAP,
                        p -> with.apply(List.of("-q", q.toString(),
                                "-Jdb.url=" + db.url().replace(":" + db.port() + "/", ":" + p + "/"))), null);
            }
            default -> throw new IllegalArgumentException("unknown family " + id
                    + " (ldap, ldaps, pki, timestamp, login, kms-aws, kms-aliyun, tlcp, tls13, pdp, http, jdbc)");
        };
    }

    /** One run of the family's plan with every fault in turn; the table's rows. */
    private static List<Row> runFamily(JMeter jmeter, Layout layout, Family f, FaultProxy proxy, Set<String> faults,
                                       long holdMs, int timeoutMs, Path out) throws Exception {
        Path dir = out.resolve(f.id());
        Path jmx = layout.root().resolve("test-plans").resolve(f.plan());
        LiveRun run = LiveRun.start(jmeter, layout, f.id() + " faults", jmx, dir, f.args().apply(proxy.port()),
                Duration.ofHours(2));
        run.await("10 samples", r -> successes(r, 0) >= 10, Duration.ofMinutes(5));
        List<long[]> windows = new ArrayList<>();
        List<Fault> done = new ArrayList<>();
        Cell cell = new Cell(proxy, f.garbage(), f.slapd());
        for (Fault fault : FAULTS) {
            if (!faults.contains(fault.name())) {
                continue;
            }
            long from = System.currentTimeMillis();
            AutoCloseable undo = fault.start().apply(cell);
            if (undo == null) {
                continue; // a process fault of a family whose server is the lab
            }
            LiveRun.until(from + holdMs);
            undo.close();
            long healed = System.currentTimeMillis();
            String recovered;
            try {
                run.await("5 successes after " + fault.name(), r -> successes(r, healed) >= 5, Duration.ofSeconds(60));
                recovered = "yes";
            } catch (LiveRun.NotReached e) {
                recovered = "NO (60 s)";
            }
            windows.add(new long[] {from, healed, recovered.equals("yes") ? 1 : 0});
            done.add(fault);
        }
        Run.Result result = run.stop(Duration.ofMinutes(5));
        List<Jtl.Sample> rows = Jtl.read(result.jtl());
        List<Jtl.Sample> top = topLevel(rows);
        boolean complete = backToBack(top, 2L * timeoutMs + 3000);
        Outages outages = result.summary().map(Summary::outages).orElse(new Outages());
        List<Row> table = new ArrayList<>();
        for (int i = 0; i < done.size(); i++) {
            long from = windows.get(i)[0];
            long healed = windows.get(i)[1];
            List<Jtl.Sample> in = top.stream().filter(r -> r.end() >= from && r.timeStamp() <= healed).toList();
            long ok = in.stream().filter(Jtl.Sample::success).count();
            List<Jtl.Sample> bad = in.stream().filter(r -> !r.success()).toList();
            String records = bad.stream().collect(Collectors.groupingBy(r -> Summary.errorKey(r.responseCode() + " "
                    + r.responseMessage()), TreeMap::new, Collectors.counting())).entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(2)
                    .map(e -> e.getValue() + "× " + e.getKey()).collect(Collectors.joining("; "));
            long held = in.stream().mapToLong(Jtl.Sample::elapsed).max().orElse(0);
            long firstBack = top.stream().filter(r -> r.success() && r.timeStamp() >= healed)
                    .mapToLong(Jtl.Sample::end).min().orElse(-1);
            String back = windows.get(i)[2] == 1 && firstBack > 0
                    ? String.format(Locale.ROOT, "%.2f s", (firstBack - healed) / 1000.0) : "NO";
            String outage = outages.all().stream()
                    .filter(x -> x.from() >= from - 500 && x.from() <= healed) // began during this fault
                    .map(x -> String.format(Locale.ROOT, "%.1f s, %d failed", x.durationMs() / 1000.0, x.failed()))
                    .findFirst().orElse("-");
            table.add(new Row(done.get(i).name(), done.get(i).what(), ok, bad.size(),
                    records.isEmpty() ? "-" : records, held, back, outage, complete));
        }
        return table;
    }

    private static long successes(List<Jtl.Sample> rows, long from) {
        return rows.stream().filter(r -> r.success() && r.timeStamp() >= from).count();
    }

    /** One row per sample event (a sample's sub-results share its event). */
    private static List<Jtl.Sample> topLevel(List<Jtl.Sample> rows) {
        Set<String> seen = new HashSet<>();
        return rows.stream().filter(r -> seen.add(r.threadName() + "\u0000" + r.event())).toList();
    }

    /** Each thread's samples back to back: no hole longer than {@code maxGapMs} where a sample went missing. */
    static boolean backToBack(List<Jtl.Sample> top, long maxGapMs) {
        Map<String, List<Jtl.Sample>> byThread = top.stream().collect(Collectors.groupingBy(Jtl.Sample::threadName));
        for (List<Jtl.Sample> s : byThread.values()) {
            List<Jtl.Sample> sorted = s.stream().sorted(Comparator.comparingLong(Jtl.Sample::timeStamp)).toList();
            for (int i = 1; i < sorted.size(); i++) {
                if (sorted.get(i).timeStamp() - sorted.get(i - 1).end() > maxGapMs) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String markdown(Map<String, List<Row>> table, int threads, long holdMs, int timeoutMs,
                                   Instant started, String load0, String load1) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "`./trustload bench faults` on %s UTC (load average %s at the start, %s at the"
                + " end), %d threads per plan, each fault held %.1f s, connect and response timeouts %d ms.%n%n",
                started.toString().substring(0, 16).replace('T', ' '), load0, load1, threads, holdMs / 1000.0,
                timeoutMs));
        sb.append("Faults: ");
        sb.append(FAULTS.stream().map(f -> "`" + f.name() + "` " + f.what()).collect(Collectors.joining("; ")));
        sb.append(" (`paused` and `restart` where the bench runs the server itself: slapd).\n\n");
        for (Map.Entry<String, List<Row>> e : table.entrySet()) {
            sb.append("**").append(e.getKey()).append("**\n\n");
            sb.append("| fault | samples in it: ok / failed | what a failed sample records | longest sample ms |"
                    + " back after the fault | outage in the summary | results complete |\n");
            sb.append("|---|---|---|---|---|---|---|\n");
            for (Row r : e.getValue()) {
                sb.append(String.format(Locale.ROOT, "| %s | %d / %d | %s | %d | %s | %s | %s |%n", r.fault(), r.ok(),
                        r.failed(),
                        r.records().replace("|", "\\|"), r.heldMs(), r.recovered(), r.outage(), r.complete() ? "yes"
                                : "NO"));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
