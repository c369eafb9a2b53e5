package org.trustload.bench;

import org.trustload.testing.Slapd;
import org.trustload.harness.Jtl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * <p>Arguments are {@code key=value}: {@code parts=matrix,scenario,heap}, {@code rounds=3},
 * {@code piOps=1000} (per-iteration ops per thread), {@code ptOps=5000} (per-thread ops per thread),
 * {@code warmup=200}, {@code threads=1,2}, {@code schemes=ldap,ldaps,ldapi}, {@code nofile=4096},
 * {@code scenarioRounds=1}, {@code perlN=1000}, {@code heapPlans=500x25,200x10}, {@code out=docs/scenarios}.
 */
public final class LdapBench {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Map<String, String> args;
    private final Path root;
    private final Path jmeterHome;
    private final Path work;
    private final Path out;
    private Slapd slapd;
    private Jmx.Target target;
    private final String startLoad = loadAvg();
    private final ZonedDateTime started = ZonedDateTime.now();

    private LdapBench(Map<String, String> args) throws IOException {
        this.args = args;
        this.root = Path.of(arg("root", System.getProperty("trustload.root", "."))).toAbsolutePath().normalize();
        this.jmeterHome = root.resolve(arg("jmeter", "dist/target/jmeter"));
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
            throw new IllegalStateException("no JMeter at " + jmeterHome + ": run mvn -B -q -o -DskipTests package first");
        }
        List<String> parts = List.of(arg("parts", "matrix,scenario,heap").split(","));
        int nofile = intArg("nofile", 4096);
        System.out.printf("work dir %s%nstarting slapd (nofile %d)...%n", work, nofile);
        slapd = Slapd.start(Slapd.Options.defaults().withOpenFilesLimit(nofile));
        try {
            target = new Jmx.Target(slapd.host(), slapd.ldapPort(), slapd.ldapsPort(), slapd.socketPath().toString(),
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
        } finally {
            slapd.close();
        }
    }

    // ------------------------------------------------------------------ matrix

    record Measurement(double opsPerSec, int ops, int errors, int peakFds, int fdsBefore, int fdsAfter, String note) {
    }

    private void matrix() throws Exception {
        int rounds = intArg("rounds", 3);
        int piOps = intArg("piOps", 1000);
        int ptOps = intArg("ptOps", 5000);
        int warmup = intArg("warmup", 200);
        List<String> schemes = List.of(arg("schemes", "ldap,ldaps,ldapi").split(","));
        List<Integer> threads = Arrays.stream(arg("threads", "1,2").split(",")).map(Integer::valueOf).toList();
        List<Jmx.Cell> cells = new ArrayList<>();
        for (String s : schemes) {
            for (int t : threads) {
                cells.add(new Jmx.Cell(s, t, false, piOps));
                cells.add(new Jmx.Cell(s, t, true, ptOps));
            }
        }
        RawLoop raw = new RawLoop(target);
        Map<String, Map<Jmx.Impl, List<Measurement>>> results = new LinkedHashMap<>();
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        for (int r = 1; r <= rounds; r++) {
            for (Jmx.Cell cell : cells) {
                List<Jmx.Impl> impls = applicable(cell);
                Collections.rotate(impls, r - 1); // interleave: each impl goes first in some round
                Map<Jmx.Impl, Measurement> thisRound = new EnumMap<>(Jmx.Impl.class);
                for (Jmx.Impl impl : impls) {
                    Measurement m = impl == Jmx.Impl.RAW ? measureRaw(raw, cell, warmup)
                            : measureJMeter(impl, cell, warmup, work.resolve("matrix/r" + r + "/" + cell.id() + "-" + impl));
                    thisRound.put(impl, m);
                    results.computeIfAbsent(cell.id(), k -> new EnumMap<>(Jmx.Impl.class))
                            .computeIfAbsent(impl, k -> new ArrayList<>()).add(m);
                    System.out.printf(Locale.ROOT, "round %d %-28s %-20s %9.0f ops/s  errors %d  fds peak %d (before %d, after %d)%s%n",
                            r, cell.id(), impl.title, m.opsPerSec(), m.errors(), m.peakFds(), m.fdsBefore(), m.fdsAfter(),
                            m.note().isEmpty() ? "" : "  " + m.note());
                }
                Measurement o = thisRound.get(Jmx.Impl.OURS);
                Measurement w = thisRound.get(Jmx.Impl.RAW);
                if (o != null && w != null && w.opsPerSec() > 0) {
                    ratios.computeIfAbsent(cell.id(), k -> new ArrayList<>()).add(o.opsPerSec() / w.opsPerSec());
                }
            }
        }
        String md = matrixMarkdown(cells, results, ratios, rounds, piOps, ptOps, warmup);
        Files.writeString(work.resolve("ldap-bench-table.md"), md);
        writePage(out.resolve("ldap-bench.md"), md);
        System.out.println(md);
    }

    private static List<Jmx.Impl> applicable(Jmx.Cell cell) {
        List<Jmx.Impl> l = new ArrayList<>(List.of(Jmx.Impl.OURS, Jmx.Impl.RAW));
        if (!cell.scheme().equals("ldapi")) {
            l.add(Jmx.Impl.EXT);
        }
        if (cell.scheme().equals("ldap") && !cell.perThread()) {
            l.add(Jmx.Impl.JNDI);
        }
        return l;
    }

    private Measurement measureRaw(RawLoop raw, Jmx.Cell cell, int warmup) throws InterruptedException {
        if (warmup > 0) {
            raw.run(cell.scheme(), cell.threads(), cell.perThread(), warmup);
        }
        settle();
        int before = FdMonitor.count(slapd.pid());
        FdMonitor mon = FdMonitor.start(slapd.pid(), 50);
        RawLoop.Result res = raw.run(cell.scheme(), cell.threads(), cell.perThread(), cell.opsPerThread());
        int peak = mon.stop();
        settle();
        return new Measurement(res.opsPerSecond(), res.ops(), res.errors(), peak, before, FdMonitor.count(slapd.pid()), "");
    }

    private Measurement measureJMeter(Jmx.Impl impl, Jmx.Cell cell, int warmup, Path dir) throws Exception {
        Files.createDirectories(dir);
        Path plan = dir.resolve("cell.jmx");
        Files.writeString(plan, Jmx.plan(impl, cell, target, warmup));
        List<String> jvm = new ArrayList<>(List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100"));
        if (impl != Jmx.Impl.OURS && cell.scheme().equals("ldaps")) {
            // JNDI uses the JVM's default trust: make it trust the fixture's certificate
            jvm.addAll(List.of("-Djavax.net.ssl.trustStore=" + target.trustStore(),
                    "-Djavax.net.ssl.trustStorePassword=" + target.trustStorePassword(),
                    "-Djavax.net.ssl.trustStoreType=PKCS12"));
        }
        settle();
        int before = FdMonitor.count(slapd.pid());
        FdMonitor mon = FdMonitor.start(slapd.pid(), 50);
        JMeterRun.Result run = JMeterRun.run(jmeterHome, plan, dir, jvm, List.of("-Jcell.max.seconds=300"), 420, false);
        int peak = mon.stop();
        settle();
        int after = FdMonitor.count(slapd.pid());
        if (!Files.exists(run.jtl())) {
            return new Measurement(0, 0, 0, peak, before, after, "no results (exit " + run.exit() + ", see " + dir + ")");
        }
        List<Jtl.Sample> samples = Jtl.read(run.jtl());
        Jtl.Stats st = Jtl.stats(samples, s -> s.label().equals("search"), s -> !s.label().startsWith(Jmx.WARMUP));
        int expected = cell.threads() * cell.opsPerThread();
        String note = run.timedOut() ? "timed out" : st.samples() != expected ? st.samples() + "/" + expected + " searches" : "";
        double rate = st.spanMs() > 0 ? st.samples() * 1000.0 / st.spanMs() : 0;
        return new Measurement(rate, st.samples(), st.errors(), peak, before, after, note);
    }

    /** Let closed connections drain from slapd before the next measurement. */
    private static void settle() throws InterruptedException {
        Thread.sleep(300);
    }

    private String matrixMarkdown(List<Jmx.Cell> cells, Map<String, Map<Jmx.Impl, List<Measurement>>> results,
                                  Map<String, List<Double>> ratios, int rounds, int piOps, int ptOps, int warmup) {
        StringBuilder b = new StringBuilder();
        b.append("# LDAP bench: our sampler in JMeter vs raw UnboundID vs stock JMeter samplers\n\n");
        b.append("Generated by `./trustload bench ldap` (`org.trustload.bench.LdapBench`); the numbers below are the ones measured in this run.\n\n");
        machine(b);
        b.append(String.format(Locale.ROOT, "Work per cell: %d per-iteration operations (connect + anonymous bind + search `(cn=fulano1)` + unbind) "
                + "or %d per-thread searches (one connection, bound once) **per thread**, after a warm-up of %d per thread in the same JVM "
                + "(JMeter: a setUp thread group whose samples are excluded). %d rounds, implementations interleaved (rotated) within each cell; "
                + "values are medians over rounds, the ratio is the median of per-round ratios. slapd: OpenLDAP from the `Slapd` fixture, "
                + "10,000 entries, nofile %s, on the same 2 cores.%n%n", piOps, ptOps, warmup, rounds, arg("nofile", "4096")));
        b.append("ops/s = searches ÷ (first measured sample start → last measured sample end) from the JTL (JVM start and warm-up excluded); "
                + "raw = same threads and operations on UnboundID in the bench JVM (synchronous mode, TCP_NODELAY, same timeouts). "
                + "LDAPExt per-iteration = its `bind` + `search` + `unbind` samples per iteration (one JNDI context each); "
                + "per-thread = one `bind`, then searches. LDAPSampler has no per-thread mode and no ldaps (its URL is hard-coded `ldap://`); "
                + "neither stock sampler can do ldapi (JNDI rejects it).\n\n");
        b.append("| scheme | threads | mode | ours ops/s | raw ops/s | LDAPExt ops/s | LDAPSampler ops/s | ours/raw | "
                + "peak slapd fds ours / raw / LDAPExt / LDAPSampler | slapd fds after (max) | errors |\n");
        b.append("|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|\n");
        for (Jmx.Cell c : cells) {
            Map<Jmx.Impl, List<Measurement>> m = results.getOrDefault(c.id(), Map.of());
            b.append("| ").append(c.scheme()).append(" | ").append(c.threads()).append(" | ").append(c.mode());
            for (Jmx.Impl i : Jmx.Impl.values()) {
                b.append(" | ").append(m.containsKey(i) ? fmt0(median(m.get(i).stream().map(Measurement::opsPerSec).toList())) : "n/a");
            }
            List<Double> rs = ratios.get(c.id());
            b.append(" | ").append(rs == null ? "n/a" : String.format(Locale.ROOT, "%.2f (%s)", median(rs), range(rs)));
            List<String> fds = new ArrayList<>();
            int after = 0;
            int errors = 0;
            List<String> notes = new ArrayList<>();
            for (Jmx.Impl i : Jmx.Impl.values()) {
                if (!m.containsKey(i)) {
                    fds.add("n/a");
                    continue;
                }
                fds.add(Integer.toString(m.get(i).stream().mapToInt(Measurement::peakFds).max().orElse(0)));
                after = Math.max(after, m.get(i).stream().mapToInt(Measurement::fdsAfter).max().orElse(0));
                errors += m.get(i).stream().mapToInt(Measurement::errors).sum();
                m.get(i).stream().map(Measurement::note).filter(s -> !s.isEmpty()).forEach(s -> notes.add(i.name() + ": " + s));
            }
            b.append(" | ").append(String.join(" / ", fds)).append(" | ").append(after).append(" | ").append(errors);
            if (!notes.isEmpty()) {
                b.append(" (").append(String.join("; ", notes)).append(")");
            }
            b.append(" |\n");
        }
        b.append(String.format(Locale.ROOT, "%nslapd at rest holds %d descriptors. Ratio column: median (min–max over rounds). Peak fds: max over rounds, polled every 50 ms.%n",
                slapd.openFiles()));
        b.append("\nPer-round values: `bench/target/ldap-bench/<stamp>/` (one directory per run with the .jmx, JTL and jmeter.log).\n");
        return b.toString();
    }

    // ------------------------------------------------------------------ scenario

    private static final Pattern TOTAL = Pattern.compile("(ldaps?|ldapi) N=(\\d+) total");

    private void scenario() throws Exception {
        int rounds = intArg("scenarioRounds", 1);
        int perlN = intArg("perlN", 1000);
        boolean perl = perlAvailable();
        Path script = root.resolve("bench/src/main/perl/ldap-loop.pl");
        Map<String, List<Double>> ours = new TreeMap<>();
        Map<String, List<Double>> perlRes = new LinkedHashMap<>();
        int errors = 0;
        for (int r = 1; r <= rounds; r++) {
            Path dir = work.resolve("scenario/r" + r);
            JMeterRun.Result run = JMeterRun.run(jmeterHome, root.resolve("test-plans/ldap/ldap-vs-ldaps-vs-ldapi.jmx"), dir,
                    List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100"),
                    List.of("-Jldap.host=" + target.host(), "-Jldap.port=" + target.ldapPort(), "-Jldaps.port=" + target.ldapsPort(),
                            "-Jldapi.socket=" + target.socket(), "-Jldap.truststore=" + target.trustStore(),
                            "-Jldap.truststore.password=" + target.trustStorePassword(), "-Jn1=1", "-Jn2=100", "-Jn3=1000"),
                    900, false);
            for (Jtl.Sample s : Jtl.read(run.jtl())) {
                Matcher m = TOTAL.matcher(s.label());
                if (m.matches()) {
                    ours.computeIfAbsent(s.label(), k -> new ArrayList<>()).add(s.elapsed() / 1000.0);
                } else if (!s.success()) {
                    errors++;
                }
            }
            System.out.printf("scenario round %d: %s%n", r, ours);
            if (perl) {
                String cert = slapd.certificatePath().toString();
                String[][] runs = {
                        {"ldap", "ldap://127.0.0.1:" + target.ldapPort(), "", ""},
                        {"ldaps", "ldaps://127.0.0.1:" + target.ldapsPort(), cert, ""},
                        {"ldaps + TCP_NODELAY", "ldaps://127.0.0.1:" + target.ldapsPort(), cert, "nodelay"},
                        {"ldapi", slapd.ldapiUrl(), "", ""}};
                for (String[] pr : runs) {
                    List<String> cmd = new ArrayList<>(List.of("perl", script.toString(), pr[1], Integer.toString(perlN)));
                    if (!pr[2].isEmpty()) {
                        cmd.add(pr[2]);
                        if (!pr[3].isEmpty()) {
                            cmd.add(pr[3]);
                        }
                    }
                    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                    String outText;
                    if (!p.waitFor(700, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                        outText = "timeout";
                    } else {
                        outText = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                    }
                    System.out.printf("perl %s N=%d: %s%n", pr[0], perlN, outText);
                    String[] f = outText.split("\\s+");
                    try {
                        perlRes.computeIfAbsent(pr[0], k -> new ArrayList<>()).add(Double.parseDouble(f[0]));
                        errors += Integer.parseInt(f[1]);
                    } catch (RuntimeException e) {
                        perlRes.computeIfAbsent(pr[0], k -> new ArrayList<>()).add(Double.NaN);
                    }
                }
            }
        }
        StringBuilder b = new StringBuilder();
        machine(b);
        Map<String, String> published = Map.of("ldap", "1.292", "ldaps", "6.833", "ldapi", "0.996");
        b.append("| protocol | N | ours in JMeter: \"<proto> N=<n> total\" (s) | ours per iteration (ms) | published, N=1000 (s) |"
                + (perl ? " Perl Net::LDAP, same run, N=" + perlN + " (s) |" : "") + "\n");
        b.append("|---|---:|---:|---:|---:|" + (perl ? "---:|" : "") + "\n");
        for (String proto : List.of("ldap", "ldaps", "ldapi")) {
            for (int n : List.of(1, 100, 1000)) {
                List<Double> v = ours.get(proto + " N=" + n + " total");
                double med = v == null ? Double.NaN : median(v);
                b.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.2f | %s |", proto, n, med, med * 1000 / n,
                        n == 1000 ? published.get(proto) : ""));
                if (perl) {
                    String cell = "";
                    if (n == 1000) {
                        List<Double> pv = perlRes.get(proto);
                        cell = pv == null ? "" : String.format(Locale.ROOT, "%.3f", median(pv));
                        if (proto.equals("ldaps") && perlRes.containsKey("ldaps + TCP_NODELAY")) {
                            cell += String.format(Locale.ROOT, " (with TCP_NODELAY: %.3f)", median(perlRes.get("ldaps + TCP_NODELAY")));
                        }
                    }
                    b.append(' ').append(cell).append(" |");
                }
                b.append('\n');
            }
        }
        b.append(String.format(Locale.ROOT, "%n%d round(s) (medians); failed samples/operations: %d. Published numbers: the original Perl script against the "
                + "original server, not re-measured here.%n", rounds, errors));
        Files.writeString(work.resolve("scenario-table.md"), b.toString());
        replaceSection(out.resolve("ldap-vs-ldaps-vs-ldapi.md"), b.toString());
        System.out.println(b);
    }

    private static boolean perlAvailable() {
        try {
            Process p = new ProcessBuilder("perl", "-MNet::LDAP", "-MIO::Socket::SSL", "-e1").redirectErrorStream(true).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
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
        b.append(String.format(Locale.ROOT, "JMeter JVM: `-Xmx%s -XX:+UseG1GC` (no -Xms), started directly (`java -jar bin/ApacheJMeter.jar -n`). "
                + "Start-up + 1-sample run costs %.2f s CPU (subtracted below; %d sample).%n%n", xmx, base.cpuSeconds(), baseSamples));
        b.append("| plan | threads × loops | mode | samples | errors | wall (s) | samples/s | JMeter CPU (s, HH:MM:SS) | CPU ms/sample (net of start-up) "
                + "| peak heap used, before GC (MB) | peak heap used, jstat 250 ms (MB) | max committed (MB) | peak slapd fds |\n");
        b.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String plan : plans) {
            String[] tl = plan.split("x");
            int threads = Integer.parseInt(tl[0]);
            int loops = Integer.parseInt(tl[1]);
            for (String mode : modes) {
                Path dir = work.resolve("heap/" + plan + "-" + mode);
                settle();
                FdMonitor mon = FdMonitor.start(slapd.pid(), 50);
                JMeterRun.Result run = JMeterRun.run(jmeterHome, root.resolve("test-plans/ldap/ldap-search-" + plan + ".jmx"), dir,
                        List.of("-Xmx" + xmx, "-XX:+UseG1GC"), props(threads, loops, intArg("heapRampup", 10), mode), 900, true);
                int peakFds = mon.stop();
                List<Jtl.Sample> samples = Jtl.read(run.jtl());
                Jtl.Stats st = Jtl.stats(samples, s -> true, s -> true);
                double cpu = run.cpuSeconds();
                double net = cpu - base.cpuSeconds();
                String line = String.format(Locale.ROOT, "| ldap-search-%s | %d × %d | %s | %d | %d | %.1f | %.0f | %.2f (%s) | %.3f | %.0f | %.0f | %.0f | %d |%n",
                        plan, threads, loops, mode, st.samples(), st.errors(), st.spanMs() / 1000.0,
                        st.samples() * 1000.0 / Math.max(1, st.spanMs()), cpu, hms(cpu), net * 1000 / Math.max(1, st.samples()),
                        run.peakHeapMbGcLog(), run.peakHeapMbJstat(), run.maxCommittedMb(), peakFds);
                System.out.print(line);
                b.append(line);
            }
        }
        b.append(String.format(Locale.ROOT, "%nslapd nofile %d. \"before GC\" = largest occupancy a collection started from (`-Xlog:gc`), the true high-water mark; "
                + "jstat samples every 250 ms and can miss it. CPU = user + system of the JMeter JVM from bash `times` after it exited.%n", nofile));
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
        b.append(String.format(Locale.ROOT, "Machine: %d CPUs (`nproc`), %s; load average at start %s, now %s; %s; JDK %s (%s); "
                        + "JMeter 5.6.3 assembled by `dist`; slapd %s. Other builds were running on the same machine: "
                        + "compare ratios within this table, not absolute numbers.%n%n",
                Runtime.getRuntime().availableProcessors(), cpuModel(), startLoad, loadAvg(),
                started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), System.getProperty("java.version"),
                System.getProperty("java.vm.name"), slapdVersion()));
    }

    private static String cpuModel() {
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
            Process p = new ProcessBuilder("dpkg-query", "-W", "-f=${Version}", "slapd").redirectErrorStream(true).start();
            if (p.waitFor(10, TimeUnit.SECONDS)) {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
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

    /** Writes a whole generated page. */
    private static void writePage(Path page, String text) throws IOException {
        Files.createDirectories(page.getParent());
        Files.writeString(page, text);
    }

    /** Replaces the text between the bench markers of a hand-written page (appends them when missing). */
    private static void replaceSection(Path page, String text) throws IOException {
        String begin = "<!-- bench:begin (generated by ./trustload bench ldap; do not edit by hand) -->";
        String end = "<!-- bench:end -->";
        Files.createDirectories(page.getParent());
        String doc = Files.exists(page) ? Files.readString(page) : "";
        int i = doc.indexOf(begin);
        int j = doc.indexOf(end);
        String section = begin + "\n" + text + "\n" + end;
        if (i >= 0 && j > i) {
            doc = doc.substring(0, i) + section + doc.substring(j + end.length());
        } else {
            doc = doc + (doc.isEmpty() ? "" : "\n") + section + "\n";
        }
        Files.writeString(page, doc);
    }

    static double median(List<Double> v) {
        List<Double> s = v.stream().filter(d -> !d.isNaN()).sorted().toList();
        if (s.isEmpty()) {
            return Double.NaN;
        }
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static String range(List<Double> v) {
        return String.format(Locale.ROOT, "%.2f–%.2f", Collections.min(v), Collections.max(v));
    }

    private static String fmt0(double d) {
        return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%.0f", d);
    }

    private static String hms(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
    }
}
