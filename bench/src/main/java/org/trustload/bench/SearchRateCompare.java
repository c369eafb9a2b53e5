package org.trustload.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.jorphan.collections.HashTree;
import org.trustload.common.ChildProcess;
import org.trustload.common.Percentiles;
import org.trustload.harness.Catalog;
import org.trustload.harness.JMeter;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Layout;
import org.trustload.harness.jmx.PlanTree;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.testing.Slapd;

/**
 * {@code ./trustload bench ldap parts=client}: TrustLoad's LDAP client in JMeter (the plan {@value #PLAN} run as
 * {@code ./trustload run} runs it, {@link Run#execute}) against UnboundID's {@code SearchRate} from the same SDK jar,
 * same heap, threads, filter {@value #FILTER}, base and scope, alternating against one indexed slapd. Each measures a
 * window after its own warm-up; over it the client's CPU by thread group (from {@code /proc/<pid>/task}), slapd's CPU
 * and the machine's busy time are read. {@code clientPin=split} pins the clients to CPU 0 and slapd to CPU 1;
 * {@code clientJfr=true} adds an unscored round 0 recorded with JFR. Method and figures: docs/bench.md, "client".
 */
final class SearchRateCompare {
    static final String PLAN = "ldap/ldap-search-200x10";
    static final String FILTER_TEMPLATE = "(uid=fulano[1-%d])";
    static final String FILTER = "(uid=fulano[1-10000])";
    /** The plan's thread group: its threads are "200 users x 10 searches 1-N". */
    static final String THREAD_GROUP = "200 users x 10 searches";

    /** What one cell measured. */
    record Cell(String peer, int threads, double rate, long ops, long errors, double clientMs, double serverMs,
                Map<String, Double> clientGroups, double machineBusyPct, double othersPct, String load, String note) {
        double clientPerOp() {
            return clientMs / ops;
        }

        double serverPerOp() {
            return serverMs / ops;
        }
    }

    /** The categories of the request threads' Java samples, most specific first (see {@link JfrShares}). */
    static final List<JfrShares.Category> CATEGORIES = List.of(
            JfrShares.Category.of("JTL writer (`CSVSaveService`: row formatting, quoting, writing)",
                    "org.apache.jmeter.save.CSVSaveService."),
            JfrShares.Category.of("summariser (`Summariser.sampleOccurred`)",
                    "org.apache.jmeter.reporters.Summariser."),
            JfrShares.Category.of(
                    "listeners' dispatch, the rest (`ListenerNotifier`, `ResultCollector`, `SampleEvent`)",
                    "org.apache.jmeter.threads.ListenerNotifier.", "org.apache.jmeter.samplers.SampleEvent.",
                    "org.apache.jmeter.threads.JMeterThread.notifyListeners"),
            JfrShares.Category.of("LDAP search in UnboundID (`LdapClient.execute`: encode, socket, decode)",
                    "org.trustload.ldap.LdapClient.execute"),
            JfrShares.Category.of("value pattern (`LdapRequest.draw`)", "org.trustload.ldap.LdapRequest.draw"),
            JfrShares.Category.of("JMeter functions (`${__P(…)}` in the label, filter and base)",
                    "org.apache.jmeter.engine.util.CompoundVariable.execute"),
            JfrShares.Category.of("TestBean set-up before each sample (`TestBeanHelper.prepare`)",
                    "org.apache.jmeter.testbeans.TestBeanHelper.prepare"),
            JfrShares.Category.of("element recovery after each sample (`TestCompiler.done`)",
                    "org.apache.jmeter.threads.TestCompiler.done"),
            JfrShares.Category.of("`SampleResult` (creation, timing, fields)",
                    "org.apache.jmeter.samplers.SampleResult."),
            JfrShares.Category.of("our sampler, the rest (`ClientSampler.sample`, response body)", "org.trustload."),
            JfrShares.Category.of("controllers (`ThreadGroup`/`LoopController.next`)", "org.apache.jmeter.control.",
                    "org.apache.jmeter.threads.AbstractThreadGroup.next"));

    private final Layout layout;
    private final Path work;
    private final PrintStream out;
    private final Map<String, String> args;
    private final List<Integer> threads;
    private final int rounds;
    private final int seconds;
    private final int warmup;
    private final String pin;
    private final boolean jfr;
    private final int entries;
    private final List<String> heap;
    private Slapd slapd;
    private String filter;

    SearchRateCompare(Layout layout, Path work, Map<String, String> args, PrintStream out) {
        this.layout = layout;
        this.work = work.resolve("client");
        this.args = args;
        this.out = out;
        this.threads = Arrays.stream(args.getOrDefault("clientThreads", "1,4").split(",")).map(String::strip)
                .map(Integer::valueOf).toList();
        this.rounds = Integer.parseInt(args.getOrDefault("clientRounds", "3"));
        this.seconds = Integer.parseInt(args.getOrDefault("clientSeconds", "20"));
        this.warmup = Integer.parseInt(args.getOrDefault("clientWarmup", "20"));
        this.pin = args.getOrDefault("clientPin", "none");
        this.jfr = Boolean.parseBoolean(args.getOrDefault("clientJfr", "true"));
        this.entries = Integer.parseInt(args.getOrDefault("clientEntries", "10000"));
        this.heap = Layout.words(args.getOrDefault("clientHeap", "-Xms1g -Xmx1g"));
        if (!pin.equals("none") && !pin.equals("split")) {
            throw new IllegalArgumentException("clientPin is none or split, not " + pin);
        }
    }

    /** Runs every round and returns the Markdown table (and the JFR breakdown when recorded). */
    String run() throws Exception {
        Files.createDirectories(work);
        ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
        String loadBefore = BenchRuns.uptime();
        Map<Integer, List<Cell[]>> pairs = new TreeMap<>();
        Map<Integer, JfrShares.Shares> shares = new TreeMap<>();
        List<String> dashboardNotes = new ArrayList<>();
        try (Slapd s = Slapd.start(Slapd.Options.defaults().withEntries(entries).withTls(false)
                .withOpenFilesLimit(4096))) {
            slapd = s;
            filter = String.format(Locale.ROOT, FILTER_TEMPLATE, entries);
            if (pin.equals("split")) {
                taskset("1", slapd.pid());
            }
            out.printf("client: %s pid %d, %d entries, filter %s, pin %s, load %s%n", slapd, slapd.pid(), entries,
                    filter, pin, loadBefore);
            for (int r = jfr ? 0 : 1; r <= rounds; r++) {
                for (int t : threads) {
                    List<String> order = new ArrayList<>(PEERS.stream().filter(this::runs).toList());
                    Collections.rotate(order, r);
                    Cell[] pair = new Cell[PEERS.size()];
                    for (String peer : order) {
                        Path dir = work.resolve("r" + r + "/t" + t + "-" + peer);
                        boolean dashboard = r == rounds && peer.equals("ours");
                        Cell c = switch (peer) {
                            case "ours" ->
                                    ours("ours", layout, PLAN, t, dir, r == 0, dashboard, shares, dashboardNotes);
                            case "alt" -> ours("alt", altLayout(), args.getOrDefault("clientAltPlan", PLAN), t, dir,
                                    false, false, shares, dashboardNotes);
                            case "floor" -> ours("floor", layout, floorPlan().toString(), t, dir, false, false, shares,
                                    dashboardNotes);
                            default -> searchRate(t, dir);
                        };
                        pair[PEERS.indexOf(peer)] = c;
                        out.printf(Locale.ROOT, "client round %d %d thread(s) %-10s %9.0f searches/s  client %.4f"
                                + " ms/search %s  slapd %.4f ms/search  "
                                        + "machine busy %.0f%%  errors %d  load %s%s%n", r, t, peer, c.rate(),
                                        c.clientPerOp(), groups(c),
                                c.serverPerOp(), c.machineBusyPct(), c.errors(), c.load(),
                                c.note().isEmpty() ? "" : "  " + c.note());
                    }
                    if (r > 0) {
                        pairs.computeIfAbsent(t, k -> new ArrayList<>()).add(pair);
                    }
                }
            }
        }
        String md = markdown(pairs, shares, dashboardNotes, started, loadBefore, BenchRuns.uptime());
        Files.writeString(work.resolve("client-table.md"), md);
        List<String> failed = pairs.values().stream().flatMap(List::stream).flatMap(Arrays::stream)
                .filter(c -> c != null && c.rate() <= 0)
                .map(c -> c.peer() + " " + c.threads() + " thread(s): " + c.note()).toList();
        if (!failed.isEmpty()) {
            throw new IllegalStateException("cells without a measurement (table in " + work.resolve("client-table.md")
                    + "): " + String.join("; ", failed));
        }
        return md;
    }

    // ------------------------------------------------------------------ ours: the plan, as ./trustload run runs it

    /**
     * The peers: ours, searchrate; with {@code clientAltPlan} or {@code clientAltHome}, "alt" (ours with another
     * plan or JMeter home); with {@code clientFloor=true} (default), "floor" (JMeter's own per-sample cost:
     * {@link #floorPlan}).
     */
    private static final List<String> PEERS = List.of("ours", "searchrate", "alt", "floor");

    private boolean runs(String peer) {
        return switch (peer) {
            case "alt" -> alt();
            case "floor" -> Boolean.parseBoolean(args.getOrDefault("clientFloor", "true"));
            default -> true;
        };
    }

    private boolean alt() {
        return args.containsKey("clientAltPlan") || args.containsKey("clientAltHome");
    }

    /**
     * The plan with JMeter's Debug Sampler (nothing to display) in place of the LDAP Request, run the same
     * way: what JMeter 5.6.3 itself spends per sample through {@code ./trustload run} (thread group, loop,
     * TestBean set-up and recovery, the results row, the summariser, the event marker), the floor under any
     * sampler's cost.
     */
    private Path floorPlan() throws IOException {
        Path floor = work.resolve("floor-" + PLAN.replace('/', '-') + ".jmx");
        if (!Files.exists(floor)) {
            PlanTree.init(layout.jmeterHome());
            HashTree tree = PlanTree.load(layout.plans().resolve(PLAN + ".jmx"));
            if (!PlanTree.replace(tree, e -> e.getClass().getName()
                    .equals("org.trustload.jmeter.ldap.LdapRequestSampler"), PlanTree.element(
                    "org.apache.jmeter.sampler.DebugSampler", PlanTree.TEST_BEAN_GUI, "debug",
                    "displayJMeterProperties", false,
                    "displayJMeterVariables", false, "displaySystemProperties", false))) {
                throw new IllegalStateException("no LDAP Request in " + PLAN);
            }
            PlanTree.save(tree, floor);
        }
        return floor;
    }

    private Layout altLayout() {
        String home = args.get("clientAltHome");
        return home == null ? layout : new Layout(layout.root(), Path.of(home));
    }

    private Cell ours(String peer, Layout layout, String plan, int t, Path dir, boolean record, boolean dashboard,
                      Map<Integer, JfrShares.Shares> shares, List<String> dashboardNotes) throws Exception {
        Files.createDirectories(dir);
        RunSpec.Builder o0 = plan.endsWith(".jmx") ? RunSpec.of(layout, peer, Path.of(plan))
                : RunSpec.of(layout, Catalog.read(layout.catalogFile()).get(plan).orElseThrow());
        List<String> jvm = new ArrayList<>();
        Path recording = dir.resolve("jmeter.jfr");
        if (record) {
            jvm.add("-XX:StartFlightRecording=filename=" + recording + ",settings=" + jfcFile());
        }
        JMeter jmeter = new JMeter(layout, heap, jvm);
        // the floor runs 20-40x as many samples per second: at most 10 + 10 s, so its results stay a few million rows
        // (the launcher's summary reads them all); the JIT warms up by calls, and it makes those faster too
        int warmup = peer.equals("floor") ? Math.min(this.warmup, 10) : this.warmup;
        int seconds = peer.equals("floor") ? Math.min(this.seconds, 10) : this.seconds;
        List<String> props = List.of("-Jthreads=" + t, "-Jloops=2000000000", "-Jrampup=0",
                "-Jduration=" + (warmup + seconds),
                "-Jconnection_mode=per-thread", "-Jldap.host=" + slapd.host(), "-Jldap.port=" + slapd.ldapPort(),
                "-Jldap.base=" + slapd.baseDn(), "-Jldap.users=" + entries);
        RunSpec.Builder o = o0.dir(dir).args(props).echo(false).dashboard(dashboard).maxErrorPct(100)
                .timeout(Duration.ofSeconds(warmup + seconds + 300L));
        String word = dir.toString();
        Watch watch = Watch.start(() -> ProcessHandle.current().descendants()
                .filter(h -> h.info().commandLine().map(c -> c.contains(word) && c.contains("ApacheJMeter"))
                        .orElse(false))
                .map(ProcessHandle::pid).findFirst().orElse(-1L), slapd.pid(), pin.equals("split") ? "0" : null);
        String load = BenchRuns.uptime();
        Run.Result r;
        try {
            r = Run.execute(jmeter, o,
                    new PrintStream(Files.newOutputStream(dir.resolve("run.txt")), true, StandardCharsets.UTF_8));
        } finally {
            watch.stop();
        }
        if (!Files.exists(r.jtl())) {
            return failed(peer, t, load, "no results: exit " + r.status().code() + " " + r.message());
        }
        // the window: from clientWarmup s after the first sample to the last sample's end
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        Jtl.forEach(r.jtl(), s -> {
            span[0] = Math.min(span[0], s.timeStamp());
            span[1] = Math.max(span[1], s.end());
        });
        long from = span[0] + warmup * 1000L;
        long to = span[1];
        long[] n = {0, 0, 0};
        Jtl.forEach(r.jtl(), s -> {
            n[2]++;
            if (s.timeStamp() >= from && s.timeStamp() < to) {
                n[0]++;
                if (!s.success()) {
                    n[1]++;
                }
            }
        });
        String note = r.status().code() == 0 ? "" : "exit " + r.status().code() + " " + r.message();
        if (peer.equals("floor")) {
            Files.delete(r.jtl()); // a few hundred thousand rows per second: counted, not kept
        }
        if (dashboard) {
            dashboardNotes.add(dashboardCheck(r, t, n[2]));
        }
        if (record) {
            shares.put(t, JfrShares.of(recording, THREAD_GROUP, from, to, CATEGORIES));
        }
        return cell(peer, t, watch, from, to, n[0], n[1], load, note, THREAD_GROUP);
    }

    /** That the dashboard and the summary were written from the results, with every sample. */
    private static String dashboardCheck(Run.Result r, int t, long rows) throws IOException {
        Path stats = r.dir().resolve("report/statistics.json");
        String total = "no statistics.json";
        if (Files.exists(stats)) {
            var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(stats.toFile()).path("Total")
                    .path("sampleCount");
            total = "dashboard Total " + node.asLong();
        }
        long summary = r.summary().map(s -> s.total().count()).orElse(-1L);
        return String.format(Locale.ROOT, "%d thread(s): results file %,d rows, %s, summary Total %,d", t, rows, total,
                summary);
    }

    // ------------------------------------------------------------------ searchrate: UnboundID's own tool

    private Cell searchRate(int t, Path dir) throws Exception {
        Files.createDirectories(dir);
        Path sdk;
        try (var jars = Files.newDirectoryStream(layout.jmeterHome().resolve("lib"), "unboundid-ldapsdk-*.jar")) {
            sdk = jars.iterator().next();
        }
        List<String> cmd = new ArrayList<>();
        if (pin.equals("split")) {
            cmd.addAll(List.of("taskset", "-c", "0"));
        }
        cmd.add(Layout.java());
        cmd.addAll(heap);
        cmd.addAll(
                List.of("-cp", sdk.toString(), "com.unboundid.ldap.sdk.examples.SearchRate", "--hostname", slapd.host(),
                "--port", Integer.toString(slapd.ldapPort()), "--baseDN", slapd.baseDn(), "--scope", "sub", "--filter",
                filter, "--numThreads", Integer.toString(t), "--intervalDuration", "1", "--warmUpIntervals",
                Integer.toString(warmup), "--numIntervals", Integer.toString(seconds), "--csv"));
        Files.writeString(dir.resolve("command.txt"), String.join(" ", cmd) + "\n");
        String load = BenchRuns.uptime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        // a slapd that stops answering must not hold the bench: the tool gets its intervals and two minutes
        Thread guard = new Thread(() -> {
            try {
                if (!p.waitFor(warmup + seconds + 120L, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "searchrate-guard");
        guard.setDaemon(true);
        guard.start();
        Watch watch = Watch.start(p::pid, slapd.pid(), null);
        long from = -1;
        long to = -1;
        int measured = 0;
        double overall = Double.NaN;
        double errorsPerSec = 0;
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                long now = System.currentTimeMillis();
                lines.add(line);
                if (line.startsWith("Warm-up completed")) {
                    from = now;
                    continue;
                }
                String[] f = line.split(",");
                if (from > 0 && f.length == 6) {
                    try {
                        overall = Double.parseDouble(f[4]);
                        errorsPerSec += Double.parseDouble(f[3]);
                        measured++;
                        to = now;
                    } catch (NumberFormatException header) {
                        // not a data line
                    }
                }
            }
        } finally {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            watch.stop();
            Files.write(dir.resolve("searchrate.txt"), lines);
        }
        if (from < 0 || to <= from || Double.isNaN(overall)) {
            return failed("searchrate", t, load, "no measured interval, see " + dir.resolve("searchrate.txt"));
        }
        // its overall rate is over the measured intervals; the window is the same intervals as they were printed
        long ops = Math.round(overall * measured);
        String note = measured == seconds ? "" : measured + "/" + seconds + " intervals";
        return cell("searchrate", t, watch, from, to, ops, Math.round(errorsPerSec), load, note, "SearchRate Thre");
    }

    // ------------------------------------------------------------------ CPU over the window

    private static Cell cell(String peer, int t, Watch w, long from, long to, long ops, long errors, String load,
            String note,
                             String requestThreads) {
        Map<String, Double> byGroup = w.client.msByGroup(from, to);
        Map<String, Double> groups = new LinkedHashMap<>();
        double total = 0;
        // Linux keeps a thread's first 15 characters; ThreadCpuTrace writes its digits as N
        String request = ThreadCpuTrace.group(requestThreads.substring(0, Math.min(15, requestThreads.length())));
        for (var e : byGroup.entrySet()) {
            String g = e.getKey();
            String k = g.startsWith(request) ? "request threads" : g.startsWith("GC Thread") || g.startsWith("GN ")
                    ? "GC" : g.startsWith("CN CompilerThre") ? "JIT" : "other";
            groups.merge(k, e.getValue(), Double::sum);
            total += e.getValue();
        }
        double server = w.server.msByGroup(from, to).values().stream().mapToDouble(Double::doubleValue).sum();
        if (byGroup.isEmpty()) {
            note = (note + " no CPU readings of the client's JVM").strip();
        }
        double busy = w.machineBusyMs(from, to);
        double capacity = (to - from) * (double) Runtime.getRuntime().availableProcessors();
        double rate = ops * 1000.0 / Math.max(1, to - from);
        return new Cell(peer, t, rate, Math.max(1, ops), errors, total, server, groups, 100.0 * busy / capacity,
                100.0 * (busy - total - server) / capacity, load, note);
    }

    private static Cell failed(String peer, int t, String load, String note) {
        return new Cell(peer, t, 0, 1, 0, Double.NaN, Double.NaN, Map.of(), Double.NaN, Double.NaN, load, note);
    }

    private static String groups(Cell c) {
        List<String> l = new ArrayList<>();
        for (String k : List.of("request threads", "GC", "JIT", "other")) {
            l.add(String.format(Locale.ROOT, "%s %.4f", k, c.clientGroups().getOrDefault(k, 0.0) / c.ops()));
        }
        return "(" + String.join(", ", l) + ")";
    }

    /**
     * Per-thread CPU snapshots of the client JVM (found late: a pid supplier) and of slapd every 100 ms, with
     * the machine's busy time, until stopped; optionally pins the client to some CPUs once it is found.
     */
    static final class Watch {
        private final java.util.function.LongSupplier clientPid;
        private final String clientCpus;
        final List<long[]> machine = new ArrayList<>();
        ThreadCpuTrace client = new ThreadCpuTrace(-1);
        final ThreadCpuTrace server;
        private final Thread thread;
        private volatile boolean running = true;

        private Watch(java.util.function.LongSupplier clientPid, long serverPid, String clientCpus) {
            this.clientPid = clientPid;
            this.clientCpus = clientCpus;
            this.server = new ThreadCpuTrace(serverPid);
            this.thread = new Thread(this::loop, "client-watch");
            this.thread.setDaemon(true);
        }

        static Watch start(java.util.function.LongSupplier clientPid, long serverPid, String clientCpus) {
            Watch w = new Watch(clientPid, serverPid, clientCpus);
            w.thread.start();
            return w;
        }

        private void loop() {
            long pid = -1;
            while (running) {
                if (pid <= 0) {
                    pid = clientPid.getAsLong();
                    if (pid > 0) {
                        client = new ThreadCpuTrace(pid);
                        if (clientCpus != null) {
                            taskset(clientCpus, pid);
                        }
                    }
                }
                snapshot();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private synchronized void snapshot() {
            client.snapshot();
            server.snapshot();
            machine.add(new long[] {System.currentTimeMillis(), machineBusyNowMs()});
        }

        void stop() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join(5000);
        }

        /** The machine's busy CPU ms from {@code a} to {@code b}, interpolated. */
        double machineBusyMs(long a, long b) {
            return at(b) - at(a);
        }

        private double at(long t) {
            long[] prev = null;
            for (long[] m : machine) {
                if (m[0] >= t) {
                    return prev == null ? m[1]
                            : prev[1] + (m[1] - prev[1]) * (double) (t - prev[0]) / Math.max(1, m[0] - prev[0]);
                }
                prev = m;
            }
            return prev == null ? Double.NaN : prev[1];
        }
    }

    /** Busy CPU of the whole machine since boot, ms (user, nice, system, irq, softirq, steal; 10 ms ticks). */
    static long machineBusyNowMs() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[i]);
            }
            return busy * 10;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static void taskset(String cpus, long pid) {
        try {
            ChildProcess.run(List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(pid)), Duration.ofSeconds(10));
        } catch (IOException e) {
            throw new IllegalStateException("taskset failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The JDK's {@code profile} settings with Java and native stacks sampled every {@code jfrPeriodMs} (default 1). */
    private Path jfcFile() throws IOException {
        return LdapBench.jfc(work, Integer.parseInt(args.getOrDefault("jfrPeriodMs", "1")));
    }

    // ------------------------------------------------------------------ the table

    private String markdown(Map<Integer, List<Cell[]>> pairs, Map<Integer, JfrShares.Shares> shares,
            List<String> dashboardNotes,
                            ZonedDateTime started, String loadBefore, String loadAfter) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Measured %s by `./trustload bench ldap parts=client` (`clientThreads=%s"
                        + " clientRounds=%d clientSeconds=%d clientWarmup=%d clientPin=%s`; JDK %s, heap `%s` for both"
                        + " clients); load average before %s, after %s; %d CPUs (`%s`).%n%n",
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").format(started),
                String.join(",", threads.stream().map(String::valueOf).toList()),
                rounds, seconds, warmup, pin, System.getProperty("java.runtime.version"), String.join(" ", heap),
                loadBefore, loadAfter, Runtime.getRuntime().availableProcessors(), LdapBench.cpuModel()));
        b.append(String.format(Locale.ROOT, "slapd: the `Slapd` fixture, %,d entries, `index objectClass,cn,uid eq`,"
                + " ldap on 127.0.0.1%s. ours = `%s` as `./trustload run` runs it, `-Jconnection_mode=per-thread"
                + " -Jthreads=T -Jrampup=0`, its default filter %s; searchrate = UnboundID `searchrate` (the SDK jar in"
                + " the JMeter home), `--numThreads T --filter \"%s\" --scope sub`, in a JVM of its own. Rates and CPU"
                + " over the measured window (ours: from %d s after its first sample to its last; searchrate: its %d"
                + " intervals after %d warm-up intervals); CPU per search from `/proc` (every thread of the client's"
                + " JVM; slapd); ratios per round, median "
                + "(min–max) over %d rounds, the two alternated.%n%n", entries,
                pin.equals("split") ? ", pinned to CPU 1 (clients to CPU 0)" : "",
                PLAN, filter, filter, warmup, seconds, warmup, rounds));
        b.append("| threads | ours searches/s | searchrate searches/s | ours ÷ searchrate (target ≥ 0.9) | ours client"
                + " CPU ms/search (request threads / GC / JIT / other) | searchrate client CPU ms/search (same) | ours"
                + " ÷ searchrate CPU (target ≤ 1.5) | slapd CPU ms/search (ours / searchrate) | machine busy (ours /"
                + " searchrate) | errors |\n");
        b.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (var e : pairs.entrySet()) {
            List<Cell[]> l = e.getValue();
            List<Double> rateRatio = l.stream().map(p -> p[0].rate() / p[1].rate()).toList();
            List<Double> cpuRatio = l.stream().map(p -> p[0].clientPerOp() / p[1].clientPerOp()).toList();
            b.append(String.format(Locale.ROOT,
                    "| %d | %s | %s | **%.2f** (%s) | %s | %s | **%.2f** (%s) | %s / %s | %s / %s | %d |%n", e.getKey(),
                    med(l, 0, Cell::rate, "%.0f"), med(l, 1, Cell::rate, "%.0f"), median(rateRatio), range(rateRatio),
                    cpu(l, 0), cpu(l, 1), median(cpuRatio), range(cpuRatio),
                    med(l, 0, Cell::serverPerOp, "%.4f"), med(l, 1, Cell::serverPerOp, "%.4f"),
                    med(l, 0, Cell::machineBusyPct, "%.0f%%"), med(l, 1, Cell::machineBusyPct, "%.0f%%"),
                    l.stream().mapToLong(p -> p[0].errors() + p[1].errors()).sum()));
        }
        if (alt()) {
            b.append(String.format(Locale.ROOT, "%nalt = ours with %s: ",
                    args.containsKey("clientAltHome") ? "the JMeter home "
                    + args.get("clientAltHome")
                    + (args.containsKey("clientAltPlan") ? " and the plan " + args.get("clientAltPlan") : "")
                    : "the plan " + args.get("clientAltPlan")));
            List<String> alts = new ArrayList<>();
            pairs.forEach((t, l) -> {
                List<Double> rr = l.stream().map(p -> p[2].rate() / p[0].rate()).toList();
                List<Double> cr = l.stream().map(p -> p[2].clientPerOp() / p[0].clientPerOp()).toList();
                alts.add(String.format(Locale.ROOT,
                        "%d thread(s) alt ÷ ours rate %.3f (%s), client CPU per search %.3f (%s)", t,
                        median(rr), range(rr), median(cr), range(cr)));
            });
            b.append(String.join("; ", alts)).append(".\n");
        }
        if (runs("floor")) {
            List<String> floors = new ArrayList<>();
            pairs.forEach((t, l) -> {
                List<Double> f = l.stream().map(p -> p[3].clientPerOp()).toList();
                List<Double> gap = l.stream().map(p -> p[0].clientPerOp() - p[1].clientPerOp()).toList();
                floors.add(String.format(Locale.ROOT,
                        "%d thread(s): %.4f ms (%s) per sample, %,.0f samples/s; ours − searchrate %.4f ms "
                        + "(%s) per search", t, median(f), range(f, "%.4f"),
                        median(l.stream().map(p -> p[3].rate()).toList()),
                        median(gap), range(gap, "%.4f")));
            });
            b.append("\nJMeter's own cost per sample (\"floor\": the same plan with JMeter's Debug Sampler, nothing to"
                    + " display, in place of LDAP Request, run the same way, alternated with the others): ")
                    .append(String.join("; ", floors)).append(".\n");
        }
        List<String> notes = new ArrayList<>();
        pairs.values().forEach(l -> l.forEach(p -> {
            for (Cell c : p) {
                if (c != null && !c.note().isEmpty()) {
                    notes.add(c.peer() + " " + c.threads() + " thread(s): " + c.note());
                }
            }
        }));
        if (!notes.isEmpty()) {
            b.append("\nNotes: ").append(String.join("; ", notes)).append(".\n");
        }
        b.append("\nPer round (searches/s; client CPU ms/search; the machine's CPU used by other processes than the"
                + " client and slapd in the window; load average when the cell started):\n\n");
        pairs.forEach((t, l) -> {
            for (int i = 0; i < l.size(); i++) {
                Cell o = l.get(i)[0];
                Cell s = l.get(i)[1];
                b.append(String.format(Locale.ROOT,
                        "- %d thread(s), round %d: ours %.0f/s, %.4f ms, others %.0f%% (load %s); "
                                + "searchrate %.0f/s, %.4f ms, others %.0f%% (load %s)", t, i + 1, o.rate(),
                                o.clientPerOp(), o.othersPct(),
                        o.load(), s.rate(), s.clientPerOp(), s.othersPct(), s.load()));
                if (l.get(i)[2] != null) {
                    Cell a = l.get(i)[2];
                    b.append(String.format(Locale.ROOT,
                            "; alt %.0f/s, %.4f ms %s (load %s): alt ÷ ours rate %.3f, CPU %.3f",
                            a.rate(), a.clientPerOp(), groups(a), a.load(), a.rate() / o.rate(),
                            a.clientPerOp() / o.clientPerOp()));
                }
                b.append('\n');
            }
        });
        if (!dashboardNotes.isEmpty()) {
            b.append("\nResults of the last round's ours cells (what the dashboard and the summary read): ")
                    .append(String.join("; ", dashboardNotes)).append(".\n");
        }
        if (!shares.isEmpty()) {
            b.append("\nWhere the request threads' Java samples go (ours, round 0 recorded with JFR,"
                    + " `jdk.ExecutionSample` every ")
                    .append(args.getOrDefault("jfrPeriodMs", "1")).append(" ms, in the measured window; a sample counts"
                            + " for the first category, top to bottom, with a frame on its stack; a figure of no round"
                            + " above):\n\n");
            List<Integer> ts = new ArrayList<>(shares.keySet());
            b.append("| category |");
            ts.forEach(t -> b.append(' ').append(t).append(" thread(s) |"));
            b.append("\n|---|").append("---:|".repeat(ts.size())).append('\n');
            List<String> cats = new ArrayList<>(CATEGORIES.stream().map(JfrShares.Category::name).toList());
            cats.add(JfrShares.REST);
            for (String c : cats) {
                b.append("| ").append(c).append(" |");
                ts.forEach(t -> b.append(String.format(Locale.ROOT, " %.1f%% |", shares.get(t).pct(c))));
                b.append('\n');
            }
            b.append("| samples |");
            ts.forEach(t -> b.append(' ').append(shares.get(t).samples()).append(" |"));
            b.append('\n');
            ts.forEach(t -> {
                List<String> top = new ArrayList<>();
                JfrShares.Shares s = shares.get(t);
                s.restTop().entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                        .limit(5)
                        .forEach(x -> top.add(String.format(Locale.ROOT, "`%s` %.1f%%", x.getKey(),
                                100.0 * x.getValue() / s.samples())));
                b.append(String.format(Locale.ROOT, "%nThe rest at %d thread(s), top frames: %s.", t,
                        String.join(", ", top)));
            });
            b.append('\n');
        }
        return b.toString();
    }

    private static String cpu(List<Cell[]> l, int i) {
        List<String> parts = new ArrayList<>();
        for (String k : List.of("request threads", "GC", "JIT", "other")) {
            parts.add(String.format(Locale.ROOT, "%.4f",
                    median(l.stream().map(p -> p[i].clientGroups().getOrDefault(k, 0.0) / p[i].ops()).toList())));
        }
        return String.format(Locale.ROOT, "%.4f (%s)", median(l.stream().map(p -> p[i].clientPerOp()).toList()),
                String.join(" / ", parts));
    }

    private static String med(List<Cell[]> l, int i, java.util.function.ToDoubleFunction<Cell> f, String format) {
        return String.format(Locale.ROOT, format, median(l.stream().map(p -> f.applyAsDouble(p[i])).toList()));
    }

    private static double median(List<Double> v) {
        return Percentiles.median(v);
    }

    private static String range(List<Double> v) {
        return range(v, "%.2f");
    }

    private static String range(List<Double> v, String format) {
        return String.format(Locale.ROOT, format + "–" + format, Collections.min(v), Collections.max(v));
    }
}
