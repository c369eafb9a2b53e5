package org.trustload.bench.jvmstats;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.trustload.bench.BenchRuns;
import org.trustload.bench.JMeterRun;
import org.apache.jorphan.collections.HashTree;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.jmx.PlanTree;
import org.trustload.jvmstats.JvmPidSource;
import org.trustload.jvmstats.SelfSource;
import org.trustload.jvmstats.SourceConfig;
import org.trustload.jvmstats.StatsSource;

/**
 * The JVM Stats listener's cost on throughput at 1 s polling: the same plan of cheap Debug Samplers
 * (no pacing, fixed duration) run with and without the listener, alternated in one session so the
 * machine's load hits both alike; plus the CPU of one poll per source (which at 1 s is the poller's
 * share of a core). Ratios are per round, min-max over the rounds; the JMeter JVM's CPU per sample is
 * reported beside each rate; a last, unmeasured run with the listener is recorded with JFR.
 * Usage: {@code JvmStatsBench [rounds=3] [seconds=20] [threads=2] [jfr=true]}.
 */
public final class JvmStatsBench {

    private JvmStatsBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = BenchRuns.intArg(args, "rounds", 3);
        int seconds = BenchRuns.intArg(args, "seconds", 20);
        int threads = BenchRuns.intArg(args, "threads", 2);
        Path root = Path.of(System.getProperty("trustload.root", ".")).toAbsolutePath();
        Path home = root.resolve("dist/target/jmeter");
        Path out = root.resolve("bench/target/jvmstats");
        Files.createDirectories(out);
        StringBuilder report = new StringBuilder();
        report.append("load before: ").append(BenchRuns.uptime()).append('\n');

        // 1. CPU of one poll, per source
        report.append(pollCost("self (MXBeans + own hsperfdata)", new SelfSource()));
        try (StatsSource pid = new JvmPidSource(SourceConfig.of(Long.toString(ProcessHandle.current().pid())))) {
            report.append(pollCost("jvm-pid (hsperfdata + /proc)", pid));
        }

        // 2. throughput with and without the listener
        PlanTree.init(home);
        Path demo = root.resolve("test-plans/jvmstats/jvm-stats-demo.jmx");
        Path without = PlanTree.save(
                without(without(PlanTree.load(demo), "JVM Stats (load generator)"), "JVM Stats (target)"),
                out.resolve("without.jmx"));
        Path with = PlanTree.save(without(PlanTree.load(demo), "JVM Stats (load generator)"), out.resolve("with.jmx"));
        List<String> props = List.of("-Jthreads=" + threads, "-Jloops=-1", "-Jduration=" + seconds, "-Jpace_ms=0",
                "-Jjvmstats.interval_ms=1000");
        // three variants alternated: no listener; no listener but the listener's 9 sample_variables columns
        // (empty; the listener adds them itself); the listener with its columns.
        // listener cost = with / columns-only; columns cost = columns-only / none
        List<String> columns =
                List.of("-Jsample_variables=" + org.trustload.harness.jmx.PlanFile.jvmStatsColumns(with).orElseThrow());
        List<Double> listener = new ArrayList<>();
        List<Double> cols = new ArrayList<>();
        List<Double> cpuDelta = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            double[] a = run(home, without, out.resolve("r" + r + "-without"), props, List.of(), seconds, false);
            double[] c = run(home, without, out.resolve("r" + r + "-columns"), props, columns, seconds, false);
            double[] b = run(home, with, out.resolve("r" + r + "-with"), props, columns, seconds, false);
            listener.add(b[0] / c[0]);
            cols.add(c[0] / a[0]);
            cpuDelta.add(b[1] - c[1]);
            report.append(String.format(Locale.ROOT, "round %d: none %.0f/s (%.2f us CPU/sample), columns only %.0f/s"
                    + " (%.2f us), JVM Stats (1 s) + columns %.0f/s (%.2f us): listener ratio %.3f, columns ratio %.3f;"
                    + " load %s%n",
                    r, a[0], a[1], c[0], c[1], b[0], b[1], b[0] / c[0], c[0] / a[0], BenchRuns.uptime()));
        }
        report.append(String.format(Locale.ROOT, "listener ratio (with / columns only) min-max %.3f-%.3f, median %.3f;"
                + " columns ratio (columns only / none) min-max %.3f-%.3f, median %.3f; JMeter CPU per sample with -"
                + " without listener %.2f..%.2f us; %d rounds of %d s, %d threads, Debug Sampler, no pacing%n",
                min(listener), max(listener), median(listener), min(cols), max(cols), median(cols), min(cpuDelta),
                max(cpuDelta), rounds, seconds, threads));
        if (!"false".equals(java.util.Arrays.asList(args).contains("jfr=false") ? "false" : "true")) {
            // one more run with the listener, profiled (not measured: the recording costs CPU itself)
            run(home, with, out.resolve("profile-with"), props, columns, seconds, true);
            report.append("JFR of a run with the listener: ").append(out.resolve("profile-with/jmeter.jfr"))
                    .append('\n');
        }
        report.append("load after: ").append(BenchRuns.uptime()).append('\n');
        System.out.print(report);
        Files.writeString(out.resolve("result.txt"), report.toString());
    }

    /** Samples per second of the run's span and the JMeter JVM's CPU microseconds per sample (start-up included). */
    private static double[] run(Path home, Path plan, Path dir, List<String> props, List<String> more, int seconds,
            boolean jfr) throws Exception {
        List<String> all = new ArrayList<>(props);
        all.addAll(more);
        Files.createDirectories(dir);
        List<String> jvm = new ArrayList<>(List.of("-Xms512m", "-Xmx512m"));
        if (jfr) {
            jvm.add("-XX:StartFlightRecording=filename=" + dir.resolve("jmeter.jfr") + ",settings=profile");
        }
        JMeterRun.Result r = JMeterRun.run(home, plan, dir, jvm, all, seconds + 120L, false);
        if (r.exit() != 0) {
            throw new IllegalStateException(plan + " failed, see " + dir);
        }
        // streamed: a quiet machine runs the Debug Sampler at 100,000s of samples/s, too many rows to hold
        long[] acc = {0, Long.MAX_VALUE, Long.MIN_VALUE}; // samples, first start, last end
        Jtl.forEach(r.jtl(), x -> {
            if (!x.label().equals("transaction")) {
                acc[0]++;
            }
            acc[1] = Math.min(acc[1], x.timeStamp());
            acc[2] = Math.max(acc[2], x.end());
        });
        double rate = acc[0] * 1000.0 / Math.max(1, acc[2] - acc[1]);
        return new double[] {rate, r.cpuSeconds() * 1e6 / Math.max(1, acc[0])};
    }

    private static double min(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    private static double median(List<Double> v) {
        return org.trustload.common.Percentiles.median(v);
    }

    private static String pollCost(String name, StatsSource s) throws Exception {
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 50; i++) {
            s.poll();
        }
        int n = 500;
        long cpu0 = t.getCurrentThreadCpuTime();
        long wall0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            s.poll();
        }
        double cpuUs = (t.getCurrentThreadCpuTime() - cpu0) / 1e3 / n;
        double wallUs = (System.nanoTime() - wall0) / 1e3 / n;
        return String.format(Locale.ROOT, "poll %s: %.0f us CPU (%.0f us wall) per poll = %.3f%% of one core at 1 s%n",
                name, cpuUs, wallUs, cpuUs / 1e6 * 100);
    }

    /** The plan without the element of that name (and its children). */
    static HashTree without(HashTree plan, String name) throws IOException {
        if (!PlanTree.replace(plan, e -> e.getName().equals(name), null)) {
            throw new IOException("no element " + name);
        }
        return plan;
    }
}
