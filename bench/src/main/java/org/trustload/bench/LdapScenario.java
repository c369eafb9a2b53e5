package org.trustload.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jorphan.collections.HashTree;
import org.trustload.common.ChildProcess;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.jmx.PlanTree;
import org.trustload.testing.Slapd;

/**
 * {@code bench ldap parts=scenario}: the plan {@code ldap/ldap-vs-ldaps-vs-ldapi} as shipped against the Perl
 * Net::LDAP loop of the original study, same slapd, same run, and where each side's time and CPU go. Per round
 * the JMeter JVM's threads ({@code /proc/<pid>/task/*}) and slapd are read every {@code scenarioPollMs} and
 * interpolated to each "&lt;proto&gt; N=&lt;n3&gt; total" transaction's window: client CPU per iteration by thread
 * (the request thread, UnboundID's connect threads, JIT, GC, the rest) beside Perl's ({@code times} around its
 * loop). The "floor" is the same plan with JMeter's Debug Sampler in place of each LDAP Request (the same
 * Transaction Controller, Loop Controller and labels), run the same way: JMeter's own cost per sample. With
 * {@code scenarioAltHome=DIR} (a JMeter home from before a change) the plan also runs on it, alternated: an A/B in
 * one run. With {@code scenarioJfr=true} a round 0 (no figure) records the JMeter JVM with JFR and says where the
 * request thread's Java samples go in each N = n3 window.
 */
final class LdapScenario {
    private static final Pattern TOTAL = Pattern.compile("(ldaps?|ldapi) N=(\\d+) total");
    /** The timed loops' samples ("ldap search N=1000"; the warm-up's are "warm-up ldap search"). */
    private static final Pattern CHILD = Pattern.compile("(ldaps?|ldapi) search N=(\\d+)");
    private static final List<String> PROTOCOLS = List.of("ldap", "ldaps", "ldapi");
    /**
     * The plan's thread group, "ldap then ldaps then ldapi": Linux keeps the first 15 characters of a thread's name.
     */
    private static final String REQUEST_THREAD = "ldap then ldaps";
    /** Thread parts in the order they are printed. */
    private static final List<String> PARTS = List.of("request thread", "connect threads", "JIT", "GC + VM", "other");

    private static final List<JfrShares.Category> CATEGORIES = List.of(
            JfrShares.Category.of("JTL writer (`CSVSaveService`)", "org.apache.jmeter.save.CSVSaveService."),
            JfrShares.Category.of("listeners, summariser (`ListenerNotifier`, `ResultCollector`, `Summariser`)",
                    "org.apache.jmeter.threads.ListenerNotifier.", "org.apache.jmeter.reporters.",
                    "org.apache.jmeter.samplers.SampleEvent."),
            JfrShares.Category.of("connect: socket (`LdapClient.connectHere`)",
                    "org.trustload.ldap.LdapClient.connectHere"),
            JfrShares.Category.of("connect: UnboundID `LDAPConnection` set-up (connect thread start and join, streams)",
                    "com.unboundid.ldap.sdk.LDAPConnection.<init>", "com.unboundid.ldap.sdk.LDAPConnection.connect"),
            JfrShares.Category.of("connect: the rest (`LdapClient.connect`, `LdapConnections.acquire`)",
                    "org.trustload.ldap.LdapClient.connect",
                    "org.trustload.ldap.LdapConnections.connect"),
            JfrShares.Category.of("bind (`LdapClient.bind`)", "org.trustload.ldap.LdapClient.bind"),
            JfrShares.Category.of("search (`LdapClient.execute`)", "org.trustload.ldap.LdapClient.execute"),
            JfrShares.Category.of("unbind + close (`LdapConnections.release`)",
                    "org.trustload.ldap.LdapConnections.release",
                    "org.trustload.ldap.LdapConnections.discard"),
            JfrShares.Category.of("our sampler, the rest (`ClientSampler.sample`: prepare, result, body)",
                    "org.trustload."),
            JfrShares.Category.of("JMeter functions (`${__P}` in labels)",
                    "org.apache.jmeter.engine.util.CompoundVariable.execute"),
            JfrShares.Category.of("TestBean set-up (`TestBeanHelper.prepare`)",
                    "org.apache.jmeter.testbeans.TestBeanHelper.prepare"),
            JfrShares.Category.of("element recovery (`TestCompiler.done`)",
                    "org.apache.jmeter.threads.TestCompiler.done"),
            JfrShares.Category.of("controllers (`GenericController`, `TransactionController`, `LoopController`)",
                    "org.apache.jmeter.control."),
            JfrShares.Category.of("JMeter's thread loop, the rest (`JMeterThread`)", "org.apache.jmeter.threads."));

    /** One N = n3 window of one run: wall seconds, the JMeter JVM's CPU ms by thread part, slapd's CPU ms. */
    record Window(double wallS, int n, Map<String, Double> cpuMs, double slapdMs) {
        double perIteration(String part) {
            return cpuMs.getOrDefault(part, 0.0) / n;
        }

        double processPerIteration() {
            return cpuMs.values().stream().mapToDouble(Double::doubleValue).sum() / n;
        }
    }

    /** A JMeter run's windows by protocol, its other totals by label (wall s), and its failed samples. */
    record RunResult(Map<String, Window> windows, Map<String, Double> totals, int errors, double cpuSeconds,
            double wallSeconds) {
    }

    private final Map<String, String> args;
    private final Path root;
    private final Path jmeterHome;
    private final Path work;
    private final Slapd slapd;
    private final LdapCellPlan.Target target;
    private final PrintStreamLike log;

    /** Where progress lines go (System.out in the bench). */
    interface PrintStreamLike {
        void line(String s);
    }

    LdapScenario(Map<String, String> args, Path root, Path jmeterHome, Path work, Slapd slapd,
            LdapCellPlan.Target target,
                 PrintStreamLike log) {
        this.args = args;
        this.root = root;
        this.jmeterHome = jmeterHome;
        this.work = work;
        this.slapd = slapd;
        this.target = target;
        this.log = log;
    }

    private String arg(String k, String d) {
        return args.getOrDefault(k, d);
    }

    private int intArg(String k, int d) {
        return Integer.parseInt(arg(k, Integer.toString(d)));
    }

    /** Runs the rounds and returns the Markdown section (machine line first: {@code machine}, asked at the end). */
    String run(java.util.function.Supplier<String> machine) throws Exception {
        int rounds = intArg("scenarioRounds", 3);
        int perlN = intArg("perlN", 1000);
        int n3 = intArg("scenarioN", 1000);
        boolean perl = LdapBench.perlAvailable(false);
        boolean perlTls = LdapBench.perlAvailable(true);
        boolean floor = Boolean.parseBoolean(arg("scenarioFloor", "true"));
        String altHome = arg("scenarioAltHome", "");
        Path plan = root.resolve("test-plans/ldap/ldap-vs-ldaps-vs-ldapi.jmx");
        Path floorPlan = floor ? floorPlan(plan) : null;
        String warmup = arg("scenarioWarmup", "10");

        Map<String, Map<String, List<Window>>> windows = new LinkedHashMap<>(); // peer -> proto -> rounds
        Map<String, List<Double>> oursTotals = new TreeMap<>();
        Map<String, List<Double>> perlWall = new LinkedHashMap<>();
        Map<String, List<Double>> perlCpu = new LinkedHashMap<>();
        List<String> runLines = new ArrayList<>();
        Map<String, Map<String, JfrShares.Shares>> jfr = new LinkedHashMap<>();
        compiled.clear();
        int errors = 0;

        if (Boolean.parseBoolean(arg("scenarioJfr", "true"))) {
            Path dir = work.resolve("scenario/r0-jfr");
            Path recording = dir.resolve("jmeter.jfr");
            Files.createDirectories(dir);
            List<String> jvm = new ArrayList<>(jvmArgs());
            jvm.add("-XX:StartFlightRecording=filename=" + recording + ",settings=" + jfc());
            RunResult r = runPlan(jmeterHome, plan, dir, jvm, props(n3, warmup));
            for (String proto : PROTOCOLS) {
                Window w = r.windows().get(proto);
                long[] span = spans.get(dir).get(proto);
                if (w != null && span != null && Files.exists(recording)) {
                    jfr.computeIfAbsent("ours", k -> new LinkedHashMap<>())
                            .put(proto, JfrShares.of(recording, REQUEST_THREAD, span[0], span[1], CATEGORIES));
                    compiled.put(proto, compilations(recording, span[0], span[1]));
                }
            }
            log.line("scenario round 0 (JFR, no figure): " + r.windows());
        }

        for (int r = 1; r <= rounds; r++) {
            List<String> peers = new ArrayList<>(List.of("ours"));
            if (!altHome.isEmpty()) {
                peers.add("before");
            }
            if (floor) {
                peers.add("floor");
            }
            Collections.rotate(peers, r - 1);
            for (String peer : peers) {
                Path dir = work.resolve("scenario/r" + r + "-" + peer);
                RunResult res = switch (peer) {
                    case "floor" -> runPlan(jmeterHome, floorPlan, dir, jvmArgs(), props(intArg("floorN", 100_000),
                            arg("floorWarmup", "1")));
                    case "before" -> runPlan(Path.of(altHome), plan, dir, jvmArgs(), props(n3, warmup));
                    default -> runPlan(jmeterHome, plan, dir, jvmArgs(), props(n3, warmup));
                };
                res.windows().forEach((proto, w) -> windows.computeIfAbsent(peer, k -> new LinkedHashMap<>())
                        .computeIfAbsent(proto, k -> new ArrayList<>()).add(w));
                if (!peer.equals("floor")) {
                    errors += res.errors();
                }
                if (peer.equals("ours")) {
                    res.totals()
                            .forEach((label, s) -> oursTotals.computeIfAbsent(label, k -> new ArrayList<>()).add(s));
                }
                runLines.add(String.format(Locale.ROOT, "round %d %s: JMeter process %.1f s wall, %.1f s CPU", r, peer,
                        res.wallSeconds(), res.cpuSeconds()));
                log.line(String.format(Locale.ROOT, "scenario round %d %s: %s (load %s)", r, peer,
                        describe(res.windows()), LdapBench.loadAvgNow()));
            }
            if (perl) {
                Path script = root.resolve("bench/src/main/perl/ldap-loop.pl");
                String cert = slapd.certificatePath().toString();
                String[][] runs = {
                        {"ldap", "ldap://127.0.0.1:" + target.ldapPort(), "", ""},
                        {"ldaps", "ldaps://127.0.0.1:" + target.ldapsPort(), cert, ""},
                        {"ldaps + TCP_NODELAY", "ldaps://127.0.0.1:" + target.ldapsPort(), cert, "nodelay"},
                        {"ldapi", slapd.ldapiUrl(), "", ""}};
                for (String[] pr : runs) {
                    if (!pr[2].isEmpty() && !perlTls) {
                        continue;
                    }
                    List<String> cmd =
                            new ArrayList<>(List.of("perl", script.toString(), pr[1], Integer.toString(perlN)));
                    if (!pr[2].isEmpty()) {
                        cmd.add(pr[2]);
                        if (!pr[3].isEmpty()) {
                            cmd.add(pr[3]);
                        }
                    }
                    ChildProcess.Finished ran = ChildProcess.run(cmd, Duration.ofSeconds(700));
                    String outText = ran.status() < 0 ? "timeout" : ran.output().trim();
                    log.line(String.format(Locale.ROOT, "perl %s N=%d: %s (load %s)", pr[0], perlN, outText,
                            LdapBench.loadAvgNow()));
                    String[] f = outText.split("\\s+");
                    try {
                        double wall = Double.parseDouble(f[0]);
                        errors += Integer.parseInt(f[1]);
                        double cpu = (Double.parseDouble(f[2]) + Double.parseDouble(f[3])) * 1000 / perlN;
                        perlWall.computeIfAbsent(pr[0], k -> new ArrayList<>()).add(wall);
                        perlCpu.computeIfAbsent(pr[0], k -> new ArrayList<>()).add(cpu);
                    } catch (RuntimeException e) {
                        perlWall.computeIfAbsent(pr[0], k -> new ArrayList<>()).add(Double.NaN);
                        perlCpu.computeIfAbsent(pr[0], k -> new ArrayList<>()).add(Double.NaN);
                    }
                }
            }
        }
        return table(machine.get(), rounds, perlN, n3, warmup, perl, windows, oursTotals, perlWall, perlCpu, jfr,
                runLines, errors);
    }

    /** JIT compilations in each N = n3 window of the JFR round: "ms method (tier)", longest first. */
    private final Map<String, List<String>> compiled = new LinkedHashMap<>();

    /**
     * The JDK's {@code profile} settings sampling stacks every {@code scenarioJfrPeriodMs} (1) and keeping every
     * compilation (the profile keeps those above 100 ms): what the JIT compiles inside a timed loop.
     */
    private Path jfc() throws IOException {
        Path base = LdapBench.jfc(work, intArg("scenarioJfrPeriodMs", 1));
        Path jfc = work.resolve("scenario-" + base.getFileName());
        String text = Pattern.compile("(<event name=\"jdk\\.Compilation\">.*?<setting name=\"threshold\"[^>]*>)[^<]*",
                Pattern.DOTALL)
                .matcher(Files.readString(base)).replaceAll("$1 0 ms");
        Files.writeString(jfc, text);
        return jfc;
    }

    /** The compilations (jdk.Compilation) that overlap [from, to), longest first. */
    private static List<String> compilations(Path recording, long from, long to) throws IOException {
        List<jdk.jfr.consumer.RecordedEvent> in = new ArrayList<>();
        try (jdk.jfr.consumer.RecordingFile f = new jdk.jfr.consumer.RecordingFile(recording)) {
            while (f.hasMoreEvents()) {
                jdk.jfr.consumer.RecordedEvent e = f.readEvent();
                if (e.getEventType().getName().equals("jdk.Compilation") && e.getEndTime().toEpochMilli() >= from
                        && e.getStartTime().toEpochMilli() < to) {
                    in.add(e);
                }
            }
        }
        in.sort((a, b) -> b.getDuration().compareTo(a.getDuration()));
        List<String> out = new ArrayList<>();
        double total = in.stream().mapToDouble(e -> e.getDuration().toNanos() / 1e6).sum();
        out.add(String.format(Locale.ROOT, "%d compilations, %.0f ms", in.size(), total));
        for (jdk.jfr.consumer.RecordedEvent e : in.subList(0, Math.min(5, in.size()))) {
            jdk.jfr.consumer.RecordedMethod m = e.getValue("method");
            out.add(String.format(Locale.ROOT, "`%s` %.0f ms (tier %d)",
                    JfrShares.shortName(m.getType().getName() + "." + m.getName()),
                    e.getDuration().toNanos() / 1e6, ((Number) e.getValue("compileLevel")).intValue()));
        }
        return out;
    }

    private List<String> jvmArgs() {
        return List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100");
    }

    private List<String> props(int n3, String warmupSeconds) {
        return List.of("-Jldap.host=" + target.host(), "-Jldap.port=" + target.ldapPort(),
                "-Jldaps.port=" + target.ldapsPort(),
                "-Jldapi.socket=" + target.socket(), "-Jldap.truststore=" + target.trustStore(),
                "-Jldap.truststore.password=" + target.trustStorePassword(), "-Jn1=1", "-Jn2=100", "-Jn3=" + n3,
                "-Jldap.users=" + slapd.options().entries(), // the plan draws cn=fulano[1-ldap.users]
                "-Jwarmup_seconds=" + warmupSeconds);
    }

    /** Each run's N = n3 windows (epoch ms) by protocol, for the JFR round. */
    private final Map<Path, Map<String, long[]>> spans = new LinkedHashMap<>();

    /**
     * Runs a plan while reading the JMeter JVM's threads and slapd every {@code scenarioPollMs}; windows of the largest
     * N.
     */
    private RunResult runPlan(Path home, Path plan, Path dir, List<String> jvm, List<String> props) throws Exception {
        long pollMs = intArg("scenarioPollMs", 50);
        long wall0 = System.nanoTime();
        JMeterRun run = JMeterRun.start(home, plan, dir, jvm, props, 900);
        long pid = run.pid();
        ThreadCpuTrace client = new ThreadCpuTrace(pid);
        ThreadCpuTrace server = new ThreadCpuTrace(slapd.pid());
        List<long[]> processCpu = new ArrayList<>(); // {wall ms, the JMeter JVM's utime + stime ms}
        while (run.running()) {
            client.snapshot();
            long cpu = ProcCpu.processMs(pid);
            if (cpu >= 0) {
                processCpu.add(new long[] {System.currentTimeMillis(), cpu});
            }
            server.snapshot();
            Thread.sleep(pollMs);
        }
        JMeterRun.Result res = run.await();
        double wall = (System.nanoTime() - wall0) / 1e9;
        Map<String, Integer> largestN = new TreeMap<>();
        Map<String, long[]> span = new TreeMap<>();
        Map<String, Double> totals = new TreeMap<>();
        int[] errors = {0};
        Jtl.forEach(res.jtl(), s -> {
            Matcher m = TOTAL.matcher(s.label());
            Matcher c = CHILD.matcher(s.label());
            if (m.matches()) {
                totals.put(s.label(), s.elapsed() / 1000.0);
            } else if (c.matches()) {
                // the window is the loop's wall time, first sample's start to last sample's end: the transaction's
                // own elapsed is the sum of its samples' times, without JMeter's work between them
                String proto = c.group(1);
                int n = Integer.parseInt(c.group(2));
                int known = largestN.getOrDefault(proto, 0);
                if (n > known) {
                    largestN.put(proto, n);
                    span.put(proto, new long[] {s.timeStamp(), s.end()});
                } else if (n == known) {
                    long[] w = span.get(proto);
                    w[0] = Math.min(w[0], s.timeStamp());
                    w[1] = Math.max(w[1], s.end());
                }
            }
            if (!s.success()) {
                errors[0]++;
            }
        });
        Map<String, Window> windows = new LinkedHashMap<>();
        for (String proto : PROTOCOLS) {
            long[] w = span.get(proto);
            if (w == null) {
                continue;
            }
            Map<String, Double> parts = new LinkedHashMap<>();
            PARTS.forEach(p -> parts.put(p, 0.0));
            Map<String, Double> groups = client.msByGroup(w[0], w[1]);
            groups.forEach((group, ms) -> parts.merge(part(group), ms, Double::sum));
            // UnboundID's connect threads live well under a poll: /proc never lists most of them, but the process's
            // CPU (utime + stime, which keeps the time of ended threads) has them
            double live = groups.values().stream().mapToDouble(Double::doubleValue).sum();
            double process = interpolate(processCpu, w[1]) - interpolate(processCpu, w[0]);
            parts.merge("connect threads", Math.max(0, process - live), Double::sum);
            if (Boolean.parseBoolean(arg("scenarioDebug", "false"))) {
                log.line(proto + " process " + process + " live " + groups);
            }
            double slapdMs = server.msByGroup(w[0], w[1]).values().stream().mapToDouble(Double::doubleValue).sum();
            windows.put(proto, new Window((w[1] - w[0]) / 1000.0, largestN.get(proto), parts, slapdMs));
        }
        spans.put(dir, span);
        return new RunResult(windows, totals, errors[0], res.cpuSeconds(), wall);
    }

    /** A process's CPU ms at wall time t, linear between the two readings around it. */
    private static double interpolate(List<long[]> readings, long t) {
        for (int i = 1; i < readings.size(); i++) {
            long[] a = readings.get(i - 1);
            long[] b = readings.get(i);
            if (b[0] >= t) {
                return a[1] + (b[1] - a[1]) * (double) (t - a[0]) / Math.max(1, b[0] - a[0]);
            }
        }
        return readings.isEmpty() ? 0 : readings.get(readings.size() - 1)[1];
    }

    /** The part of the client a thread group (digits as N) belongs to. */
    static String part(String group) {
        if (group.startsWith(REQUEST_THREAD)) {
            return "request thread";
        }
        if (group.startsWith("Background conn")) {
            return "connect threads";
        }
        if (group.startsWith("CN CompilerThre")) {
            return "JIT";
        }
        if (group.startsWith("GC Thread") || group.startsWith("G1 ") || group.startsWith("VM ")) {
            return "GC + VM";
        }
        return "other";
    }

    /**
     * The plan with each LDAP Request replaced by a Debug Sampler (nothing to display) of the same name: the same
     * controllers, labels and listeners, JMeter's per-sample work without ours.
     */
    private Path floorPlan(Path plan) throws IOException {
        Path floor = work.resolve("floor-ldap-vs-ldaps-vs-ldapi.jmx");
        HashTree tree = PlanTree.load(plan);
        int replaced = 0;
        while (true) {
            String[] name = new String[1];
            TestElement debug = PlanTree.element("org.apache.jmeter.sampler.DebugSampler", PlanTree.TEST_BEAN_GUI,
                    "debug",
                    "displayJMeterProperties", false, "displayJMeterVariables", false, "displaySystemProperties",
                    false);
            if (!PlanTree.replace(tree, e -> {
                boolean match = e.getClass().getName().equals("org.trustload.jmeter.ldap.LdapRequestSampler");
                if (match) {
                    name[0] = e.getName();
                }
                return match;
            }, debug)) {
                break;
            }
            debug.setName(name[0]);
            replaced++;
        }
        if (replaced == 0) {
            throw new IllegalStateException("no LDAP Request in " + plan);
        }
        PlanTree.save(tree, floor);
        return floor;
    }

    private static String describe(Map<String, Window> windows) {
        List<String> l = new ArrayList<>();
        windows.forEach((proto, w) ->
                l.add(String.format(Locale.ROOT, "%s N=%d %.3f s, client %.3f ms/it (request %.3f, connect %.3f), "
                + "slapd %.3f ms/it", proto, w.n(), w.wallS(), w.processPerIteration(),
                w.perIteration("request thread"),
                w.perIteration("connect threads"), w.slapdMs() / w.n())));
        return String.join("; ", l);
    }

    private String table(String machine, int rounds, int perlN, int n3, String warmup, boolean perl,
                         Map<String, Map<String, List<Window>>> windows, Map<String, List<Double>> totals,
                         Map<String, List<Double>> perlWall, Map<String, List<Double>> perlCpu,
                         Map<String, Map<String, JfrShares.Shares>> jfr, List<String> runLines, int errors) {
        StringBuilder b = new StringBuilder(machine);
        Map<String, String> published = Map.of("ldap", "1.292", "ldaps", "6.833", "ldapi", "0.996");
        b.append("| protocol | N | ours in JMeter: \"<proto> N=<n> total\" (s) | ours per iteration (ms) | published,"
                + " N=1000 (s) |" + (perl ? " Perl Net::LDAP, same run, N=" + perlN + " (s) |" : "") + "\n");
        b.append("|---|---:|---:|---:|---:|" + (perl ? "---:|" : "") + "\n");
        for (String proto : PROTOCOLS) {
            for (int n : List.of(1, 100, n3)) {
                List<Double> v = totals.get(proto + " N=" + n + " total");
                double med = v == null ? Double.NaN : LdapBench.median(v);
                b.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.2f | %s |", proto, n, med, med * 1000 / n,
                        n == 1000 ? published.get(proto) : ""));
                if (perl) {
                    List<Double> pv = perlWall.get(proto);
                    b.append(' ').append(n == n3 && pv != null
                            ? String.format(Locale.ROOT, "%.3f", LdapBench.median(pv)) : "").append(" |");
                }
                b.append('\n');
            }
        }
        b.append(String.format(Locale.ROOT, "%n**N = %d, same run: wall time and client CPU per iteration** (medians of"
                + " %d rounds; ratios per round, median (min–max)). Wall: the loop's first sample's start to its last"
                + " sample's end (the transaction's row above is the sum of its samples' times, without JMeter's work"
                + " between them). Client CPU: the JMeter JVM's threads from `/proc/<pid>/task/*/schedstat` and its"
                + " process CPU from `/proc/<pid>/stat`, read every %s ms and interpolated to the loop's window;"
                + " \"connect threads\" is the process's CPU less its live threads' (UnboundID's connect threads end"
                + " within a millisecond, before /proc lists them); Perl: `times` around its loop (one thread). slapd:"
                + " its CPU over the same window.%n%n", n3, rounds,
                arg("scenarioPollMs", "50")));
        b.append("| protocol | client | wall (s) | ÷ Perl wall | client CPU ms/iteration | request thread | connect"
                + " threads | JIT | GC + VM | other | ÷ Perl CPU | slapd CPU ms/iteration |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String proto : PROTOCOLS) {
            for (String peer : List.of("ours", "before")) {
                List<Window> ws = windows.getOrDefault(peer, Map.of()).get(proto);
                if (ws == null || ws.isEmpty()) {
                    continue;
                }
                List<Double> pw = perlWall.get(proto);
                List<Double> pc = perlCpu.get(proto);
                b.append(String.format(Locale.ROOT,
                        "| %s | %s | %.3f | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %s | %.3f |%n", proto,
                        peer.equals("ours") ? "ours (JMeter)" : "ours before the change (JMeter)",
                        LdapBench.median(ws.stream().map(Window::wallS).toList()),
                        ratio(ws.stream().map(Window::wallS).toList(), pw),
                        LdapBench.median(ws.stream().map(Window::processPerIteration).toList()),
                        med(ws, "request thread"), med(ws, "connect threads"), med(ws, "JIT"), med(ws, "GC + VM"),
                        med(ws, "other"), ratio(ws.stream().map(Window::processPerIteration).toList(), pc),
                        LdapBench.median(ws.stream().map(w -> w.slapdMs() / w.n()).toList())));
            }
            if (perlWall.containsKey(proto)) {
                b.append(String.format(Locale.ROOT, "| %s | Perl Net::LDAP | %.3f | 1 | %.3f | | | | | | 1 | |%n",
                        proto, LdapBench.median(perlWall.get(proto)), LdapBench.median(perlCpu.get(proto))));
            }
            if (proto.equals("ldaps") && perlWall.containsKey("ldaps + TCP_NODELAY")) {
                b.append(String.format(Locale.ROOT, "| ldaps | Perl, TCP_NODELAY | %.3f | | %.3f | | | | | | | |%n",
                        LdapBench.median(perlWall.get("ldaps + TCP_NODELAY")),
                        LdapBench.median(perlCpu.get("ldaps + TCP_NODELAY"))));
            }
        }
        Map<String, List<Window>> floor = windows.get("floor");
        if (floor != null) {
            List<String> f = new ArrayList<>();
            for (String proto : PROTOCOLS) {
                List<Window> ws = floor.get(proto);
                if (ws != null && !ws.isEmpty()) {
                    f.add(String.format(Locale.ROOT,
                            "%s loop %.1f µs of request thread (%.1f µs of process) per sample, %,.0f samples/s",
                            proto, 1000 * med(ws, "request thread"),
                            1000 * LdapBench.median(ws.stream().map(Window::processPerIteration).toList()),
                            LdapBench.median(ws.stream().map(w -> w.n() / w.wallS()).toList())));
                }
            }
            b.append(String.format(Locale.ROOT, "%nJMeter's floor (the same plan, each LDAP Request replaced by a Debug"
                    + " Sampler of the same name that displays nothing: the same Transaction Controller, Loop"
                    + " Controller, labels, results file and listeners; N = %s, "
                    + "%s s of warm-up per protocol; medians of %d rounds): %s.%n", arg("floorN", "100000"),
                    arg("floorWarmup", "1"), rounds,
                    String.join("; ", f)));
        }
        if (!jfr.isEmpty()) {
            b.append(String.format(Locale.ROOT, "%nWhere the request thread's Java samples go (round 0, JFR"
                    + " `jdk.ExecutionSample` every %s ms, in each N = %d window; a sample counts for the first"
                    + " category, top to bottom, with a frame on its stack; time the thread "
                    + "waits for slapd in a system call is not a Java sample):%n%n", arg("scenarioJfrPeriodMs", "1"),
                    n3));
            Map<String, JfrShares.Shares> s = jfr.get("ours");
            List<String> protos = new ArrayList<>(s.keySet());
            b.append("| category |");
            protos.forEach(p -> b.append(' ').append(p).append(" |"));
            b.append("\n|---|");
            protos.forEach(p -> b.append("---:|"));
            b.append('\n');
            for (String cat : s.get(protos.get(0)).byCategory().keySet()) {
                b.append("| ").append(cat).append(" |");
                for (String p : protos) {
                    b.append(String.format(Locale.ROOT, " %.1f%% |", s.get(p).pct(cat)));
                }
                b.append('\n');
            }
            b.append("| samples |");
            protos.forEach(p -> b.append(' ').append(s.get(p).samples()).append(" |"));
            b.append('\n');
            compiled.forEach((p, c) ->
                    b.append(String.format(Locale.ROOT, "%nJIT compilations inside the %s window (same recording, "
                    + "`jdk.Compilation`): %s.%n", p, String.join(", ", c))));
            for (String p : protos) {
                List<String> top = new ArrayList<>();
                s.get(p).restTop().entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                        .limit(5)
                        .forEach(e -> top.add(String.format(Locale.ROOT, "`%s` %.1f%%", e.getKey(),
                                100.0 * e.getValue() / s.get(p).samples())));
                if (!top.isEmpty()) {
                    b.append(String.format(Locale.ROOT, "%nThe rest (%s), top frames: %s.%n", p,
                            String.join(", ", top)));
                }
            }
        }
        b.append(String.format(Locale.ROOT, "%n%d round(s) (medians); failed samples/operations: %d. Published numbers:"
                + " the original Perl script against the original server, not re-measured here. slapd: %,d entries."
                + " Perl times are its loop only (Perl's own start-up, ~0.1 s, excluded); ours are the plan's \"N=%d"
                + " total\" rows in one JMeter JVM started for each run, which warmed up each protocol right before it"
                + " for the plan's `warmup_seconds` = %s s (its iterations in the same controllers as the timed ones,"
                + " in no total), ran N = 1 and N = 100 of the same protocol, and the same warm-up iterations again for"
                + " the plan's `settle_seconds` (= `warmup_seconds`) just before N = %d."
                + " %s.%n", rounds, errors,
                slapd.options().entries(), n3, warmup, n3, String.join("; ", runLines)));
        return b.toString();
    }

    private static double med(List<Window> ws, String part) {
        return LdapBench.median(ws.stream().map(w -> w.perIteration(part)).toList());
    }

    /** Per-round ratios of ours to Perl's, median (min–max); empty without Perl. */
    private static String ratio(List<Double> ours, List<Double> perl) {
        if (perl == null || perl.isEmpty()) {
            return "";
        }
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < Math.min(ours.size(), perl.size()); i++) {
            r.add(ours.get(i) / perl.get(i));
        }
        return String.format(Locale.ROOT, "**%.2f** (%.2f–%.2f)", LdapBench.median(r), Collections.min(r),
                Collections.max(r));
    }
}
