package org.trustload.bench;

import org.trustload.common.ChildProcess;
import org.trustload.testing.Slapd;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.jmx.PlanTree;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LDAP benchmark: our sampler inside JMeter vs a raw UnboundID loop vs JMeter's stock LDAP
 * samplers, against one throwaway slapd; prints ratios and writes Markdown. See docs/bench.md.
 *
 * <p>Arguments are {@code key=value}: {@code parts=matrix,scenario,heap,jvmstats,client} ({@code client}: our
 * sampler in the plan ldap-search-200x10 against UnboundID's searchrate, {@link SearchRateCompare} and its
 * {@code client…} arguments), {@code rounds=3},
 * {@code piOps=1000} (per-iteration ops per thread), {@code ptOps=5000} (per-thread ops per thread),
 * {@code warmup=200} (per thread, before each measurement), {@code warmupSeconds=0} (when above 0, the JMeter
 * cells warm up for that long instead of {@code warmup} operations), {@code threads=1,2},
 * {@code schemes=ldap,ldaps,ldapi}, {@code nofile=4096},
 * {@code scenario…} and {@code perlN=1000} ({@link LdapScenario}), {@code heapPlans=500x25,200x10},
 * {@code out=docs/scenarios},
 * {@code entries=20} (slapd entries), {@code modes=per-iteration,per-thread},
 * {@code peers=ours,raw,searchrate,perl,ext,jndi}, {@code srSeconds=5}, {@code jfrRounds=1} (above 0: a round 0 that
 * records every cell with JFR and counts in no figure), {@code jfrPeriodMs} (stack sampling period of those
 * recordings),
 * {@code writeDocs=true}.
 */
public final class LdapBench {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Map<String, String> args;
    private final Path root;
    private final Path jmeterHome;
    private final Path work;
    private final Path out;
    private Slapd slapd;
    private LdapCellPlan.Target target;
    private final String startLoad = loadAvg();
    private final ZonedDateTime started = ZonedDateTime.now();

    private LdapBench(Map<String, String> args) throws IOException {
        this.args = args;
        this.root = Path.of(arg("root", System.getProperty("trustload.root", "."))).toAbsolutePath().normalize();
        this.jmeterHome = root.resolve(arg("jmeter", "dist/target/jmeter"));
        PlanTree.init(jmeterHome);
        this.work = Path.of(arg("work", root.resolve("bench/target/ldap-bench/" + STAMP.format(started)).toString()));
        this.out = root.resolve(arg("out", "docs/scenarios"));
        Files.createDirectories(work);
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new LinkedHashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                System.err.println("arguments are key=value, e.g. parts=matrix rounds=3; got " + a);
                System.exit(2);
            }
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        new LdapBench(args).run();
    }

    private String arg(String k, String d) {
        return args.getOrDefault(k, d);
    }

    private int intArg(String k, int d) {
        return Integer.parseInt(arg(k, Integer.toString(d)));
    }

    private void run() throws Exception {
        if (!Files.isRegularFile(jmeterHome.resolve("bin/ApacheJMeter.jar"))) {
            throw new IllegalStateException("no JMeter at " + jmeterHome
                    + ": run mvn -B -q -o -DskipTests package first");
        }
        List<String> parts = List.of(arg("parts", "matrix,scenario,heap").split(","));
        if (parts.contains("client")) {
            // its own slapd (10,000 indexed entries), so it runs before or without the others
            String md = new SearchRateCompare(org.trustload.harness.Layout.current(), work, args, System.out).run();
            System.out.println(md);
            if (Boolean.parseBoolean(arg("writeDocs", "true"))) {
                replaceSection(root.resolve("docs/bench.md"), md, "ldap-client");
            }
            if (parts.stream().allMatch("client"::equals)) {
                return;
            }
        }
        int nofile = intArg("nofile", 4096);
        // 20 entries, indexed, like the seed's own server: a search costs slapd well under the client's
        // time, so the client is what is measured (entries=10000 gives the older, server-bound fixture).
        int entries = intArg("entries", 20);
        System.out.printf("work dir %s%nstarting slapd (%d entries, nofile %d)...%n", work, entries, nofile);
        slapd = Slapd.start(Slapd.Options.defaults().withEntries(entries).withOpenFilesLimit(nofile));
        try {
            target = new LdapCellPlan.Target(slapd.host(), slapd.ldapPort(), slapd.ldapsPort(),
                    slapd.socketPath().toString(),
                    slapd.trustStorePath().toString(), slapd.trustStorePassword(), slapd.baseDn(), "(cn=fulano1)");
            System.out.printf("%s pid %d, %d fds at rest%n", slapd, slapd.pid(), slapd.openFiles());
            if (parts.contains("matrix")) {
                matrix();
            }
            if (parts.contains("scenario")) {
                scenario();
            }
            if (parts.contains("heap")) {
                heap(nofile);
            }
            if (parts.contains("jvmstats")) {
                jvmStats();
            }
        } finally {
            slapd.close();
        }
    }

    // ------------------------------------------------------------------ matrix

    /**
     * One measurement: throughput, client CPU per operation (the measuring process's user + system
     * time over the measured window ÷ operations) and slapd's CPU per operation over the same window.
     */
    record Measurement(double opsPerSec, int ops, int errors, int peakFds, int fdsBefore, int fdsAfter, String note,
                       double cpuMsPerOp, double slapdMsPerOp) {
    }

    /** The columns of the matrix: ours and the raw loop first, then the peers. */
    enum Peer {
        OURS("ours (JMeter)", LdapCellPlan.Impl.OURS), RAW("raw UnboundID", LdapCellPlan.Impl.RAW),
        SEARCHRATE("UnboundID searchrate", null), PERL("Perl Net::LDAP", null),
        EXT("LDAPExt (stock)", LdapCellPlan.Impl.EXT), JNDI("LDAPSampler (stock)", LdapCellPlan.Impl.JNDI);

        final String title;
        final LdapCellPlan.Impl impl;

        Peer(String title, LdapCellPlan.Impl impl) {
            this.title = title;
            this.impl = impl;
        }
    }

    private void matrix() throws Exception {
        int rounds = intArg("rounds", 3);
        int piOps = intArg("piOps", 1000);
        int ptOps = intArg("ptOps", 5000);
        int warmup = intArg("warmup", 200);
        List<String> schemes = List.of(arg("schemes", "ldap,ldaps,ldapi").split(","));
        List<Integer> threads = Arrays.stream(arg("threads", "1,2").split(",")).map(Integer::valueOf).toList();
        List<String> modes = List.of(arg("modes", "per-iteration,per-thread").split(","));
        List<String> peers = List.of(arg("peers", "ours,raw,searchrate,perl,ext,jndi").split(","));
        List<LdapCellPlan.Cell> cells = new ArrayList<>();
        for (String s : schemes) {
            for (int t : threads) {
                if (modes.contains("per-iteration")) {
                    cells.add(new LdapCellPlan.Cell(s, t, false, piOps));
                }
                if (modes.contains("per-thread")) {
                    cells.add(new LdapCellPlan.Cell(s, t, true, ptOps));
                }
            }
        }
        RawLoop raw = new RawLoop(target);
        boolean perl = perlAvailable(false);
        boolean perlTls = perlAvailable(true);
        Map<String, Map<Peer, List<Measurement>>> results = new LinkedHashMap<>();
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        Map<String, List<Double>> srRatios = new LinkedHashMap<>();
        // Round 0, when jfrRounds > 0, records every cell with JFR and counts in no figure: a recording
        // (above all with jfrPeriodMs=1) costs the recorded process CPU of its own.
        for (int r = intArg("jfrRounds", 1) > 0 ? 0 : 1; r <= rounds; r++) {
            boolean jfr = r == 0;
            for (LdapCellPlan.Cell cell : cells) {
                List<Peer> impls = applicable(cell, perl, perlTls);
                impls.removeIf(p -> !peers.contains(p.name().toLowerCase(Locale.ROOT)));
                Collections.rotate(impls, r - 1); // interleave: each impl goes first in some round
                Map<Peer, Measurement> thisRound = new EnumMap<>(Peer.class);
                for (Peer impl : impls) {
                    Path dir = work.resolve("matrix/r" + r + "/" + cell.id() + "-" + impl);
                    Measurement m;
                    switch (impl) {
                        case RAW:
                            m = measureRaw(raw, cell, warmup, jfr ? dir : null);
                            break;
                        case SEARCHRATE:
                            m = measureSearchRate(cell, dir);
                            break;
                        case PERL:
                            m = measurePerl(cell, dir);
                            break;
                        default:
                            m = measureJMeter(impl.impl, cell, warmup, dir, jfr && impl == Peer.OURS);
                    }
                    thisRound.put(impl, m);
                    if (!jfr) {
                        results.computeIfAbsent(cell.id(), k -> new EnumMap<>(Peer.class))
                                .computeIfAbsent(impl, k -> new ArrayList<>()).add(m);
                    }
                    System.out.printf(Locale.ROOT, "round %d %-28s %-20s %9.0f ops/s  client %.3f ms/op  slapd %.3f"
                            + " ms/op  errors %d  fds peak %d (before %d, after %d)  load %s%s%n",
                            r, cell.id(), impl.title, m.opsPerSec(), m.cpuMsPerOp(), m.slapdMsPerOp(), m.errors(),
                            m.peakFds(),
                            m.fdsBefore(), m.fdsAfter(), loadAvg(), m.note().isEmpty() ? "" : "  " + m.note());
                }
                Measurement o = jfr ? null : thisRound.get(Peer.OURS);
                Measurement w = thisRound.get(Peer.RAW);
                Measurement sr = thisRound.get(Peer.SEARCHRATE);
                if (o != null && w != null && w.opsPerSec() > 0) {
                    ratios.computeIfAbsent(cell.id(), k -> new ArrayList<>()).add(o.opsPerSec() / w.opsPerSec());
                }
                if (o != null && sr != null && sr.opsPerSec() > 0) {
                    srRatios.computeIfAbsent(cell.id(), k -> new ArrayList<>()).add(o.opsPerSec() / sr.opsPerSec());
                }
            }
        }
        String md = matrixMarkdown(cells, results, ratios, srRatios, rounds, piOps, ptOps, warmup) + threadStartCost();
        Files.writeString(work.resolve("ldap-bench-table.md"), md);
        if (Boolean.parseBoolean(arg("writeDocs", "true"))) {
            // between the markers: the hand-written reading of the run around them stays
            replaceSection(out.resolve("ldap-bench.md"), md);
        }
        System.out.println(md);
    }

    private static List<Peer> applicable(LdapCellPlan.Cell cell, boolean perl, boolean perlTls) {
        List<Peer> l = new ArrayList<>(List.of(Peer.OURS, Peer.RAW));
        if (cell.perThread() && !cell.scheme().equals("ldapi")) {
            l.add(Peer.SEARCHRATE); // no Unix sockets; per iteration it would not bind (other work)
        }
        if (!cell.perThread() && (cell.scheme().equals("ldaps") ? perlTls : perl)) {
            l.add(Peer.PERL); // the seed script's loop: per iteration only
        }
        if (!cell.scheme().equals("ldapi")) {
            l.add(Peer.EXT);
        }
        if (cell.scheme().equals("ldap") && !cell.perThread()) {
            l.add(Peer.JNDI);
        }
        return l;
    }

    /**
     * What one platform thread costs this JVM to start and end (UnboundID starts one, its
     * "Background connect thread", per connection): the floor under any per-iteration cell on UnboundID.
     */
    private static String threadStartCost() throws InterruptedException {
        int n = 5000;
        for (int round = 0; ; round++) {
            double c0 = processCpuMs();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Thread t = new Thread(() -> { });
                t.start();
                t.join();
            }
            double cpuUs = (processCpuMs() - c0) * 1000 / n;
            double wallUs = (System.nanoTime() - t0) / 1e3 / n;
            if (round == 1) { // the first round warms up
                return String.format(Locale.ROOT, "%nOne platform thread started and joined in the bench JVM (what"
                        + " UnboundID's connect thread costs per connection, without its work): %.0f µs of process CPU,"
                        + " %.0f µs wall (mean of %d; load %s).%n", cpuUs, wallUs, n, loadAvg());
            }
        }
    }

    /**
     * The JFR settings of the profiled rounds: the JDK's {@code profile}, or with {@code jfrPeriodMs=N}
     * a copy of it that samples Java and native stacks every N ms (the default 10/20 ms gives a
     * fast sampler thread only a few hundred samples, most of its time being spent waiting for the server).
     */
    private Path jfrSettings() throws IOException {
        String period = arg("jfrPeriodMs", "");
        return period.isEmpty() ? null : jfc(work, Integer.parseInt(period));
    }

    /**
     * A copy of the JDK's {@code profile} settings in {@code dir} that samples Java and native stacks every
     * {@code periodMs}.
     */
    static Path jfc(Path dir, int periodMs) throws IOException {
        String period = Integer.toString(periodMs);
        Path jfc = dir.resolve("profile-" + period + "ms.jfc");
        if (!Files.exists(jfc)) {
            String text = Files.readString(Path.of(System.getProperty("java.home"), "lib/jfr/profile.jfc"));
            text = Pattern.compile("(<event name=\"jdk\\.(?:ExecutionSample|NativeMethodSample)\">.*?<setting"
                    + " name=\"period\"[^>]*>)[^<]*",
                    Pattern.DOTALL).matcher(text).replaceAll("$1" + Integer.parseInt(period) + " ms");
            Files.writeString(jfc, text);
        }
        return jfc;
    }

    private static double processCpuMs() {
        return ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e6;
    }

    private Measurement measureRaw(RawLoop raw, LdapCellPlan.Cell cell, int warmup, Path jfrDir) throws Exception {
        if (warmup > 0) {
            raw.run(cell.scheme(), cell.threads(), cell.perThread(), warmup);
        }
        settle();
        int before = FdMonitor.count(slapd.pid());
        jdk.jfr.Recording rec = null;
        if (jfrDir != null) {
            rec = new jdk.jfr.Recording(jfrSettings() == null ? jdk.jfr.Configuration.getConfiguration("profile")
                    : jdk.jfr.Configuration.create(jfrSettings()));
            rec.start();
        }
        FdMonitor mon = FdMonitor.start(slapd.pid(), 50);
        double s0 = CpuMonitor.cpuMs(slapd.pid());
        double c0 = processCpuMs();
        RawLoop.Result res = raw.run(cell.scheme(), cell.threads(), cell.perThread(), cell.opsPerThread());
        double c1 = processCpuMs();
        double s1 = CpuMonitor.cpuMs(slapd.pid());
        int peak = mon.stop();
        if (rec != null) {
            rec.stop();
            Files.createDirectories(jfrDir);
            rec.dump(jfrDir.resolve("raw.jfr"));
            rec.close();
        }
        settle();
        return new Measurement(res.opsPerSecond(), res.ops(), res.errors(), peak, before, FdMonitor.count(slapd.pid()),
                "", (c1 - c0) / res.ops(), (s1 - s0) / res.ops());
    }

    private Measurement measureJMeter(LdapCellPlan.Impl impl, LdapCellPlan.Cell cell, int warmup, Path dir, boolean jfr)
            throws Exception {
        return measureJMeter(impl, cell, warmup, false, dir, jfr, List.of());
    }

    private Measurement measureJMeter(LdapCellPlan.Impl impl, LdapCellPlan.Cell cell, int warmup, boolean jvmStats,
            Path dir,
                                      boolean jfr, List<String> props) throws Exception {
        // beside its results folder: the runner empties that folder first
        Path plan = LdapCellPlan.write(dir.resolveSibling(dir.getFileName() + ".jmx"), impl, cell, target, warmup,
                intArg("warmupSeconds", 0), jvmStats);
        List<String> jvm = new ArrayList<>(List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100"));
        if (jfr) {
            jvm.add("-XX:StartFlightRecording=filename=" + dir.resolve("jmeter.jfr") + ",settings="
                    + (jfrSettings() == null ? "profile" : jfrSettings().toString()));
        }
        if (impl != LdapCellPlan.Impl.OURS && cell.scheme().equals("ldaps")) {
            // JNDI uses the JVM's default trust: make it trust the fixture's certificate
            jvm.addAll(List.of("-Djavax.net.ssl.trustStore=" + target.trustStore(),
                    "-Djavax.net.ssl.trustStorePassword=" + target.trustStorePassword(),
                    "-Djavax.net.ssl.trustStoreType=PKCS12"));
        }
        settle();
        int before = FdMonitor.count(slapd.pid());
        FdMonitor mon = FdMonitor.start(slapd.pid(), 50);
        List<String> all = new ArrayList<>(List.of("-Jcell.max.seconds=300"));
        all.addAll(props);
        JMeterRun jmeter = JMeterRun.start(jmeterHome, plan, dir, jvm, all, 420 + intArg("warmupSeconds", 0));
        CpuMonitor client = CpuMonitor.start(jmeter::pidNow, 20);
        CpuMonitor server = CpuMonitor.start(slapd::pid, 20);
        JMeterRun.Result run = jmeter.await();
        client.close();
        server.close();
        int peak = mon.stop();
        settle();
        int after = FdMonitor.count(slapd.pid());
        if (!Files.exists(run.jtl())) {
            return new Measurement(0, 0, 0, peak, before, after,
                    "no results (exit " + run.exit() + ", see " + dir + ")",
                    Double.NaN, Double.NaN);
        }
        List<Jtl.Sample> samples = Jtl.read(run.jtl());
        Jtl.Stats st =
                Jtl.stats(samples, s -> s.label().equals("search"), s -> !s.label().startsWith(LdapCellPlan.WARMUP));
        int expected = cell.threads() * cell.opsPerThread();
        String note = run.timedOut() ? "timed out" : st.samples() != expected
                ? st.samples() + "/" + expected + " searches" : "";
        double rate = st.spanMs() > 0 ? st.samples() * 1000.0 / st.spanMs() : 0;
        int n = Math.max(1, st.samples());
        return new Measurement(rate, st.samples(), st.errors(), peak, before, after, note,
                client.cpuMsBetween(st.firstStart(), st.lastEnd()) / n,
                server.cpuMsBetween(st.firstStart(), st.lastEnd()) / n);
    }

    /**
     * UnboundID's own load tool, in this JVM (so its CPU is this process's): a short warm-up run,
     * then {@code srSeconds} one-second intervals; searches = its overall rate × the seconds.
     */
    private Measurement measureSearchRate(LdapCellPlan.Cell cell, Path dir) throws Exception {
        Files.createDirectories(dir);
        List<String> base = new ArrayList<>(
                List.of("--hostname", target.host(), "--port", Integer.toString(target.port(cell.scheme())),
                "--baseDN", target.baseDn(), "--scope", "sub", "--filter", target.filter(),
                "--numThreads", Integer.toString(cell.threads()), "--intervalDuration", "1", "--csv"));
        if (cell.scheme().equals("ldaps")) {
            base.addAll(List.of("--useSSL", "--trustStorePath", target.trustStore(), "--trustStorePassword",
                    target.trustStorePassword(), "--trustStoreFormat", "PKCS12"));
        }
        int seconds = intArg("srSeconds", 5);
        List<String> warm = new ArrayList<>(base);
        warm.addAll(List.of("--numIntervals", arg("srWarmup", "2")));
        runSearchRate(warm, dir.resolve("warmup.txt"));
        settle();
        List<String> measured = new ArrayList<>(base);
        measured.addAll(List.of("--numIntervals", Integer.toString(seconds)));
        int before = FdMonitor.count(slapd.pid());
        FdMonitor mon = FdMonitor.start(slapd.pid(), 50);
        double s0 = CpuMonitor.cpuMs(slapd.pid());
        double c0 = processCpuMs();
        String text = runSearchRate(measured, dir.resolve("searchrate.txt"));
        double c1 = processCpuMs();
        double s1 = CpuMonitor.cpuMs(slapd.pid());
        int peak = mon.stop();
        settle();
        double rate = Double.NaN;
        double errorsPerSec = 0;
        List<String> header = null;
        for (String line : text.split("\n")) {
            List<String> f = Arrays.stream(line.split(",")).map(x -> x.replace("\"", "").trim()).toList();
            if (f.contains("Overall Searches/Sec")) {
                header = f;
            } else if (header != null && f.size() == header.size()) {
                try {
                    rate = Double.parseDouble(f.get(header.indexOf("Overall Searches/Sec")));
                    int e = header.indexOf("Recent Errors/Sec");
                    errorsPerSec += e >= 0 ? Double.parseDouble(f.get(e)) : 0;
                } catch (RuntimeException ignored) {
                    // not a data line
                }
            }
        }
        int ops = Double.isNaN(rate) ? 0 : (int) Math.round(rate * seconds);
        int n = Math.max(1, ops);
        return new Measurement(Double.isNaN(rate) ? 0 : rate, ops, (int) Math.round(errorsPerSec), peak, before,
                FdMonitor.count(slapd.pid()), Double.isNaN(rate) ? "no rate in " + dir.resolve("searchrate.txt") : "",
                (c1 - c0) / n, (s1 - s0) / n);
    }

    private static String runSearchRate(List<String> args, Path copy) throws IOException {
        java.io.ByteArrayOutputStream outBytes = new java.io.ByteArrayOutputStream();
        com.unboundid.ldap.sdk.examples.SearchRate tool =
                new com.unboundid.ldap.sdk.examples.SearchRate(outBytes, outBytes);
        com.unboundid.ldap.sdk.ResultCode rc = tool.runTool(args.toArray(new String[0]));
        String text = outBytes.toString(StandardCharsets.UTF_8) + "\nresult: " + rc + "\n";
        Files.writeString(copy, String.join(" ", args) + "\n" + text);
        return text;
    }

    /**
     * The seed's Perl script, one process per thread, all started together; its loop's own wall and
     * CPU time (Perl's {@code times}, start-up excluded). Per iteration only: that is the script.
     */
    private Measurement measurePerl(LdapCellPlan.Cell cell, Path dir) throws Exception {
        Files.createDirectories(dir);
        Path script = root.resolve("bench/src/main/perl/ldap-loop.pl");
        String url = switch (cell.scheme()) {
            case "ldaps" -> "ldaps://127.0.0.1:" + target.ldapsPort();
            case "ldapi" -> slapd.ldapiUrl();
            default -> "ldap://127.0.0.1:" + target.ldapPort();
        };
        List<String> cmd =
                new ArrayList<>(List.of("perl", script.toString(), url, Integer.toString(cell.opsPerThread())));
        if (cell.scheme().equals("ldaps")) {
            cmd.addAll(List.of(slapd.certificatePath().toString(), "nodelay")); // as ours: TCP_NODELAY
        }
        settle();
        int before = FdMonitor.count(slapd.pid());
        FdMonitor mon = FdMonitor.start(slapd.pid(), 50);
        double s0 = CpuMonitor.cpuMs(slapd.pid());
        List<Process> procs = new ArrayList<>();
        for (int t = 0; t < cell.threads(); t++) {
            procs.add(new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("perl-" + t + ".txt").toFile()).start());
        }
        double wall = 0;
        double cpu = 0;
        int errors = 0;
        String note = "";
        for (int t = 0; t < procs.size(); t++) {
            Process p = procs.get(t);
            if (!p.waitFor(700, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                note = "timed out";
                continue;
            }
            String[] f = Files.readString(dir.resolve("perl-" + t + ".txt")).trim().split("\\s+");
            try {
                wall = Math.max(wall, Double.parseDouble(f[0]));
                errors += Integer.parseInt(f[1]);
                cpu += (Double.parseDouble(f[2]) + Double.parseDouble(f[3])) * 1000;
            } catch (RuntimeException e) {
                note = "unreadable output, see " + dir;
            }
        }
        double s1 = CpuMonitor.cpuMs(slapd.pid());
        int peak = mon.stop();
        settle();
        int ops = cell.threads() * cell.opsPerThread();
        return new Measurement(wall > 0 ? ops / wall : 0, ops, errors, peak, before, FdMonitor.count(slapd.pid()), note,
                cpu / ops, (s1 - s0) / ops);
    }

    /** Let closed connections drain from slapd before the next measurement. */
    private static void settle() throws InterruptedException {
        Thread.sleep(300);
    }

    private String matrixMarkdown(List<LdapCellPlan.Cell> cells, Map<String, Map<Peer, List<Measurement>>> results,
                                  Map<String, List<Double>> ratios, Map<String, List<Double>> srRatios,
                                  int rounds, int piOps, int ptOps, int warmup) {
        StringBuilder b = new StringBuilder();
        List<String> asked = List.of(arg("peers", "ours,raw,searchrate,perl,ext,jndi").split(","));
        List<Peer> cols =
                Arrays.stream(Peer.values()).filter(p -> asked.contains(p.name().toLowerCase(Locale.ROOT))).toList();
        b.append("Generated by `./trustload bench ldap` (`org.trustload.bench.LdapBench`); the numbers below are the"
                + " ones measured in this run.\n\n");
        machine(b);
        b.append(String.format(Locale.ROOT, "Work per cell: %d per-iteration operations (connect + anonymous bind +"
                + " search `(cn=fulano1)` + unbind) or %d per-thread searches (one connection, bound once) **per"
                + " thread**, after a warm-up of %d per thread in the same JVM (JMeter: a setUp thread group whose"
                + " samples are excluded%s). %d rounds, implementations interleaved (rotated) within each cell; values"
                + " are medians over rounds, ratios are the median (min–max) of per-round ratios. slapd: OpenLDAP from"
                + " the `Slapd` fixture, %s entries (equality indexes on objectClass, cn and uid), nofile %s, on the"
                + " same 2 cores.%n%n", piOps, ptOps, warmup,
                intArg("warmupSeconds", 0) > 0
                ? "; ours instead warms up for " + intArg("warmupSeconds", 0) + " s inside the measured thread "
                        + "group (a Runtime Controller before the measured loop): a fresh JMeter JVM is still compiling"
                        + " after a few thousand fast "
                        + "samples, and a switch of thread group makes the JIT compile JMeter's per-sample code again"
                        + " in the measured window" : "", rounds,
                String.format(Locale.ROOT, "%,d", slapd.options().entries()), arg("nofile", "4096")));
        b.append("ops/s = searches ÷ (first measured sample start → last measured sample end) from the JTL (JVM start"
                + " and warm-up excluded); raw = same threads and operations on UnboundID in the bench JVM with our"
                + " client's connection options (synchronous mode, TCP_NODELAY, no SO_LINGER/SO_KEEPALIVE/SO_REUSEADDR,"
                + " same timeouts). searchrate = `com.unboundid.ldap.sdk.examples.SearchRate` from the same SDK jar in"
                + " the bench JVM, same threads, "
                + "one connection per thread, anonymous, `--numIntervals " + arg("srSeconds", "5")
                + " --intervalDuration 1` after a 2 s warm-up run "
                + "(it has no Unix sockets; per iteration it would not bind: per-thread only). Perl = the original LDAP"
                + " study's loop (`bench/src/main/perl/ldap-loop.pl`, Net::LDAP), one process per thread; ldaps with"
                + " TCP_NODELAY like ours. LDAPExt per-iteration = its `bind` + `search` + `unbind` samples per"
                + " iteration (one JNDI context each); per-thread = one `bind`, then searches. LDAPSampler has no"
                + " per-thread mode and no ldaps; neither stock sampler can do ldapi.\n\n");
        b.append("Client CPU ms/op = user + system time of the measuring process (`/proc/<pid>/stat`, polled every 20"
                + " ms and interpolated to the JTL's measured window for JMeter;"
                + " `OperatingSystemMXBean.getProcessCpuTime` around the loop for raw and searchrate; Perl's `times`"
                + " around its loop) ÷ operations. slapd ms/op = slapd's user + system time (`/proc/<pid>/stat`) over"
                + " the same window ÷ operations (10 ms tick resolution).\n\n");
        b.append("| scheme | threads | mode |");
        for (Peer p : cols) {
            b.append(' ').append(p.title).append(" ops/s |");
        }
        b.append(" ours/raw | ours/searchrate |");
        for (Peer p : cols) {
            b.append(' ').append(p.title).append(" client CPU ms/op |");
        }
        b.append(" slapd CPU ms/op (ours / raw) | peak slapd fds (max over peers) | errors |\n");
        b.append("|---|---:|---|").append("---:|".repeat(cols.size() * 2 + 3)).append("---:|---:|\n");
        for (LdapCellPlan.Cell c : cells) {
            Map<Peer, List<Measurement>> m = results.getOrDefault(c.id(), Map.of());
            b.append("| ").append(c.scheme()).append(" | ").append(c.threads()).append(" | ").append(c.mode());
            for (Peer i : cols) {
                b.append(" | ").append(m.containsKey(i)
                        ? fmt0(median(m.get(i).stream().map(Measurement::opsPerSec).toList())) : "n/a");
            }
            List<Double> rs = ratios.get(c.id());
            b.append(" | ").append(rs == null ? "n/a" : String.format(Locale.ROOT, "%.2f (%s)", median(rs), range(rs)));
            List<Double> ss = srRatios.get(c.id());
            b.append(" | ").append(ss == null ? "n/a" : String.format(Locale.ROOT, "%.2f (%s)", median(ss), range(ss)));
            for (Peer i : cols) {
                b.append(" | ").append(m.containsKey(i)
                        ? fmt3(median(m.get(i).stream().map(Measurement::cpuMsPerOp).toList())) : "n/a");
            }
            b.append(" | ").append(m.containsKey(Peer.OURS)
                    ? fmt3(median(m.get(Peer.OURS).stream().map(Measurement::slapdMsPerOp).toList())) : "n/a")
                    .append(" / ").append(m.containsKey(Peer.RAW)
                            ? fmt3(median(m.get(Peer.RAW).stream().map(Measurement::slapdMsPerOp).toList())) : "n/a");
            int peak = 0;
            int errors = 0;
            List<String> notes = new ArrayList<>();
            for (Peer i : cols) {
                if (!m.containsKey(i)) {
                    continue;
                }
                peak = Math.max(peak, m.get(i).stream().mapToInt(Measurement::peakFds).max().orElse(0));
                errors += m.get(i).stream().mapToInt(Measurement::errors).sum();
                m.get(i).stream().map(Measurement::note).filter(s -> !s.isEmpty())
                        .forEach(s -> notes.add(i.name() + ": " + s));
            }
            b.append(" | ").append(peak).append(" | ").append(errors);
            if (!notes.isEmpty()) {
                b.append(" (").append(String.join("; ", notes)).append(")");
            }
            b.append(" |\n");
        }
        b.append(String.format(Locale.ROOT,
                "%nslapd at rest holds %d descriptors. Load average at the end of the matrix: %s.%n",
                slapd.openFiles(), loadAvg()));
        b.append("\nPer-round values (with the load average at each measurement) are in `bench.txt`; raw files in"
                + " `bench/target/ldap-bench/<stamp>/matrix/` (one directory per round and cell with the .jmx, JTL,"
                + " jmeter.log, and `jmeter.jfr` / `raw.jfr` in `r0`, the profiled round that counts in no figure).\n");
        return b.toString();
    }

    // ------------------------------------------------------------------ JVM Stats

    /** The JVM Stats listener watching the JMeter JVM itself at 1 s, as the jvm-stats-demo plan has it. */
    /**
     * JVM Stats' cost on the cheapest TrustLoad sample measured (LDAP Request, one kept connection per
     * thread, a search over ldapi: ~0.2 ms of client CPU): the same cell without the listener, with its
     * 9 {@code sample_variables} columns only (empty), and with the listener polling every second,
     * alternated per round (rotated). Listener ratio = with ÷ columns only; columns ratio = columns ÷ none;
     * and the JMeter JVM's CPU per sample of each. Arguments: {@code jsScheme=ldapi}, {@code jsThreads=1},
     * {@code jsOps=40000} (searches per thread), {@code jsRounds=5}; the warm-up is the matrix's
     * ({@code warmup}, {@code warmupSeconds}).
     */
    private void jvmStats() throws Exception {
        LdapCellPlan.Cell cell =
                new LdapCellPlan.Cell(arg("jsScheme", "ldapi"), intArg("jsThreads", 1), true, intArg("jsOps", 40000));
        int rounds = intArg("jsRounds", 5);
        Path probe = LdapCellPlan.write(work.resolve("jvmstats/with.jmx"), LdapCellPlan.Impl.OURS, cell, target,
                intArg("warmup", 200), intArg("warmupSeconds", 0), true);
        String columns =
                "-Jsample_variables=" + org.trustload.harness.jmx.PlanFile.jvmStatsColumns(probe).orElseThrow();
        String[] variants = {"none", "columns", "listener"};
        Map<String, List<Measurement>> m = new LinkedHashMap<>();
        List<Double> listener = new ArrayList<>();
        List<Double> cols = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            List<String> order = new ArrayList<>(List.of(variants));
            Collections.rotate(order, r - 1);
            Map<String, Measurement> round = new LinkedHashMap<>();
            for (String v : order) {
                Path dir = work.resolve("jvmstats/r" + r + "-" + v);
                Measurement x = measureJMeter(LdapCellPlan.Impl.OURS, cell, intArg("warmup", 200), v.equals("listener"),
                        dir, false, v.equals("none") ? List.of() : List.of(columns));
                round.put(v, x);
                m.computeIfAbsent(v, k -> new ArrayList<>()).add(x);
                System.out.printf(Locale.ROOT,
                        "jvmstats round %d %-8s %9.0f ops/s  client %.4f ms/op  errors %d  load %s%s%n", r, v,
                        x.opsPerSec(), x.cpuMsPerOp(), x.errors(), loadAvg(),
                        x.note().isEmpty() ? "" : "  " + x.note());
            }
            listener.add(round.get("listener").opsPerSec() / round.get("columns").opsPerSec());
            cols.add(round.get("columns").opsPerSec() / round.get("none").opsPerSec());
        }
        StringBuilder b = new StringBuilder();
        machine(b);
        b.append(String.format(Locale.ROOT, "Cell: LDAP Request, %s, %d thread(s), per-thread connection, %d searches"
                + " per thread after the warm-up; %d rounds, the three variants rotated per round; rates median"
                + " (min–max) over rounds.%n%n", cell.scheme(), cell.threads(),
                cell.opsPerThread(), rounds));
        b.append("| variant | searches/s | JMeter client CPU ms/search | slapd CPU ms/search | errors |\n"
                + "|---|---:|---:|---:|---:|\n");
        for (String v : variants) {
            List<Measurement> l = m.get(v);
            b.append(String.format(Locale.ROOT, "| %s | %s (%s) | %.4f (%s) | %.3f | %d |%n", v,
                    fmt0(median(l.stream().map(Measurement::opsPerSec).toList())),
                    range(l.stream().map(Measurement::opsPerSec).toList(), "%.0f"),
                    median(l.stream().map(Measurement::cpuMsPerOp).toList()),
                    range(l.stream().map(Measurement::cpuMsPerOp).toList(), "%.4f"),
                    median(l.stream().map(Measurement::slapdMsPerOp).toList()),
                    l.stream().mapToInt(Measurement::errors).sum()));
        }
        b.append(String.format(Locale.ROOT,
                "%nListener ratio (with the listener ÷ columns only): %.3f (%s); columns ratio (columns only ÷ none): "
                + "%.3f (%s). Load average at the end: %s.%n", median(listener), range(listener, "%.3f"), median(cols),
                range(cols, "%.3f"), loadAvg()));
        Files.writeString(work.resolve("jvmstats-table.md"), b.toString());
        if (Boolean.parseBoolean(arg("writeDocs", "true"))) {
            replaceSection(root.resolve("docs/bench.md"), b.toString(), "ldap-jvmstats");
        }
        System.out.println(b);
    }

    private static String range(List<Double> v, String format) {
        return String.format(Locale.ROOT, format + "–" + format, Collections.min(v), Collections.max(v));
    }

    // ------------------------------------------------------------------ scenario

    /** {@link LdapScenario}: the plan against the Perl loop, CPU per iteration by thread, JMeter's floor. */
    private void scenario() throws Exception {
        // the machine line is written after the runs: its "now" load average is the one at the end
        String md = new LdapScenario(args, root, jmeterHome, work, slapd, target, System.out::println).run(() -> {
            StringBuilder machine = new StringBuilder();
            machine(machine);
            return machine.toString();
        });
        Files.writeString(work.resolve("scenario-table.md"), md);
        if (Boolean.parseBoolean(arg("writeDocs", "true"))) {
            replaceSection(out.resolve("ldap-vs-ldaps-vs-ldapi.md"), md);
        }
        System.out.println(md);
    }

    /** The load average now (for progress lines). */
    static String loadAvgNow() {
        return loadAvg();
    }

    static boolean perlAvailable(boolean tls) {
        try {
            return ChildProcess.run(tls ? List.of("perl", "-MNet::LDAP", "-MIO::Socket::SSL", "-e1")
                    : List.of("perl", "-MNet::LDAP", "-e1"), Duration.ofSeconds(20)).ok();
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    // ------------------------------------------------------------------ heap / CPU

    private void heap(int nofile) throws Exception {
        List<String> plans = List.of(arg("heapPlans", "500x25,200x10").split(","));
        List<String> modes = List.of(arg("heapModes", "per-iteration,per-thread").split(","));
        String xmx = arg("heapXmx", "512m");
        StringBuilder b = new StringBuilder();
        machine(b);
        // JVM start + plan load + shutdown, with the same flags: subtracted to get CPU per sample
        Path empty = work.resolve("heap/empty");
        JMeterRun.Result base = JMeterRun.run(jmeterHome, root.resolve("test-plans/ldap/ldap-search-500x25.jmx"), empty,
                List.of("-Xmx" + xmx, "-XX:+UseG1GC"), props(1, 1, 0, "per-iteration"), 300, true);
        int baseSamples = Jtl.read(base.jtl()).size();
        b.append(String.format(Locale.ROOT, "JMeter JVM: `-Xmx%s -XX:+UseG1GC` (no -Xms), started by the harness's"
                + " runner as `./trustload run` starts it. Start-up + 1-sample run costs %.2f s CPU (subtracted below;"
                + " %d sample).%n%n", xmx, base.cpuSeconds(), baseSamples));
        b.append("| plan | threads × loops | mode | samples | errors | wall (s) | samples/s | JMeter CPU (s, HH:MM:SS)"
                + " | CPU ms/sample (net of start-up) | peak heap used, before GC (MB) | peak heap used, jstat 250 ms"
                + " (MB) | max committed (MB) | peak slapd fds |\n");
        b.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String plan : plans) {
            String[] tl = plan.split("x");
            int threads = Integer.parseInt(tl[0]);
            int loops = Integer.parseInt(tl[1]);
            for (String mode : modes) {
                Path dir = work.resolve("heap/" + plan + "-" + mode);
                settle();
                FdMonitor mon = FdMonitor.start(slapd.pid(), 50);
                JMeterRun.Result run = JMeterRun.run(jmeterHome,
                        root.resolve("test-plans/ldap/ldap-search-" + plan + ".jmx"), dir,
                        List.of("-Xmx" + xmx, "-XX:+UseG1GC"), props(threads, loops, intArg("heapRampup", 10), mode),
                        900, true);
                int peakFds = mon.stop();
                List<Jtl.Sample> samples = Jtl.read(run.jtl());
                Jtl.Stats st = Jtl.stats(samples, s -> true, s -> true);
                double cpu = run.cpuSeconds();
                double net = cpu - base.cpuSeconds();
                String line = String.format(Locale.ROOT, "| ldap-search-%s | %d × %d | %s | %d | %d | %.1f | %.0f |"
                        + " %.2f (%s) | %.3f | %.0f | %.0f | %.0f | %d |%n",
                        plan, threads, loops, mode, st.samples(), st.errors(), st.spanMs() / 1000.0,
                        st.samples() * 1000.0 / Math.max(1, st.spanMs()), cpu, hms(cpu),
                        net * 1000 / Math.max(1, st.samples()),
                        run.peakHeapMbGcLog(), run.peakHeapMbJstat(), run.maxCommittedMb(), peakFds);
                System.out.print(line);
                b.append(line);
            }
        }
        b.append(String.format(Locale.ROOT, "%nslapd nofile %d. \"before GC\" = largest occupancy a collection started"
                + " from (`-Xlog:gc`), the true high-water mark; jstat samples every 250 ms and can miss it. CPU = user"
                + " + system of the JMeter JVM, start-up to exit (its reaped-children time, what bash `times`"
                + " reports).%n", nofile));
        Files.writeString(work.resolve("heap-table.md"), b.toString());
        replaceSection(out.resolve("ldap-search-500x25.md"), b.toString());
        replaceSection(out.resolve("ldap-search-200x10.md"), b.toString());
        System.out.println(b);
    }

    private List<String> props(int threads, int loops, int rampup, String mode) {
        return List.of("-Jthreads=" + threads, "-Jloops=" + loops, "-Jrampup=" + rampup, "-Jduration=600",
                "-Jldap.host=" + target.host(), "-Jldap.port=" + target.ldapPort(), "-Jconnection_mode=" + mode);
    }

    // ------------------------------------------------------------------ output helpers

    private void machine(StringBuilder b) {
        b.append(String.format(Locale.ROOT, "Machine: %d CPUs (`nproc`), %s; load average at start %s, now %s; %s; JDK"
                        + " %s (%s); JMeter 5.6.3 assembled by `dist`; slapd %s. Other builds were running on the same"
                        + " machine: compare ratios within this table, not absolute numbers.%n%n",
                Runtime.getRuntime().availableProcessors(), cpuModel(), startLoad, loadAvg(),
                started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), System.getProperty("java.version"),
                System.getProperty("java.vm.name"), slapdVersion()));
    }

    static String cpuModel() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (l.startsWith("model name")) {
                    return l.substring(l.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException ignored) {
            // not Linux
        }
        return "unknown CPU";
    }

    private static String slapdVersion() {
        try {
            ChildProcess.Finished dpkg =
                    ChildProcess.run(List.of("dpkg-query", "-W", "-f=${Version}", "slapd"), Duration.ofSeconds(10));
            if (dpkg.status() >= 0) {
                return dpkg.output().trim();
            }
        } catch (IOException | InterruptedException ignored) {
            // unknown
        }
        return "?";
    }

    private static String loadAvg() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    /** Replaces the text between the bench markers of a hand-written page (appends them when missing). */
    private static void replaceSection(Path page, String text) throws IOException {
        replaceSection(page, text, "");
    }

    /** Replaces the generated section {@code id} (empty: the page's only one) of a page, or appends it. */
    private static void replaceSection(Path page, String text, String id) throws IOException {
        String tag = id.isEmpty() ? "" : " " + id;
        String begin = "<!-- bench:begin" + tag + " (generated by ./trustload bench ldap; do not edit by hand) -->";
        String end = "<!-- bench:end" + tag + " -->";
        BenchRuns.replaceSection(page, begin, end, text);
    }

    static double median(List<Double> v) {
        return org.trustload.common.Percentiles.median(v);
    }

    private static String range(List<Double> v) {
        return String.format(Locale.ROOT, "%.2f–%.2f", Collections.min(v), Collections.max(v));
    }

    private static String fmt3(double d) {
        return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String fmt0(double d) {
        return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%.0f", d);
    }

    private static String hms(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
    }
}
