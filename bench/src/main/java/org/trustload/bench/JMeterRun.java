package org.trustload.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.JMeter;
import org.trustload.harness.Layout;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;

/**
 * A bench's JMeter run, through the harness's runner ({@link Run#execute}: the launcher's command line,
 * properties and results folder) in a thread of its own, so that the bench can watch the JMeter JVM while it
 * runs ({@link #pid()}). The JMeter JVM's CPU time (user + system, start-up to exit) is what this JVM's reaped
 * children used meanwhile ({@code /proc/self/stat}), as bash's {@code times} tells it: a bench starts no other
 * process during a run it measures this way. Optionally streams {@code jstat -gc} to follow the heap.
 */
public final class JMeterRun {
    /** What a run left; {@code exit} is 0 when JMeter ran the plan and wrote results (errors or not). */
    public record Result(int exit, Path jtl, Path dir, double cpuSeconds, double peakHeapMbJstat,
            double peakHeapMbGcLog,
                         double maxCommittedMb, boolean timedOut) {
    }

    private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

    private final Path dir;
    private final Thread thread;
    private final long children0 = ProcCpu.childrenMs();
    private volatile Run.Result result;
    private volatile Exception failure;

    private JMeterRun(JMeter jmeter, RunSpec.Builder options, Path dir) {
        this.dir = dir;
        this.thread = new Thread(() -> {
            try {
                result = Run.execute(jmeter, options, new PrintStream(OutputStream.nullOutputStream()));
            } catch (IOException | InterruptedException | RuntimeException e) {
                failure = e;
            }
        }, "jmeter-run");
    }

    /**
     * Starts {@code plan} headless with results in {@code dir} (emptied first), JVM options {@code jvmArgs} and
     * JMeter arguments {@code props} ({@code -Jname=value}, {@code -q FILE}); JMeter is stopped after
     * {@code timeoutSeconds}.
     */
    public static JMeterRun start(Path jmeterHome, Path plan, Path dir, List<String> jvmArgs, List<String> props,
                                  long timeoutSeconds) {
        return start(jmeterHome, plan, dir, jvmArgs, props, timeoutSeconds, true);
    }

    /** {@link #start}; without {@code resultsFile}, JMeter writes no results file (and {@link Result#exit} is 2). */
    public static JMeterRun start(Path jmeterHome, Path plan, Path dir, List<String> jvmArgs, List<String> props,
                                  long timeoutSeconds, boolean resultsFile) {
        Layout layout = new Layout(Layout.current().root(), jmeterHome);
        List<String> args = new ArrayList<>(List.of("-Jsampleresult.timestamp.start=true",
                "-Jjmeter.save.saveservice.output_format=csv", "-Jjmeter.save.saveservice.timestamp_format=ms",
                "-Jsummariser.interval=10"));
        args.addAll(props);
        RunSpec.Builder o = RunSpec.of(layout, plan.getFileName().toString().replaceFirst("\\.jmx$", ""), plan).dir(dir)
                .args(args).echo(false).dashboard(false).maxErrorPct(100).timeout(Duration.ofSeconds(timeoutSeconds))
                .resultsFile(resultsFile);
        JMeterRun run = new JMeterRun(new JMeter(layout, jvmArgs, List.of()), o, dir);
        run.thread.start();
        return run;
    }

    /** {@link #start} and {@link #await}; with {@code watchHeap}, {@code -Xlog:gc} and jstat follow the heap. */
    public static Result run(Path jmeterHome, Path plan, Path dir, List<String> jvmArgs, List<String> props,
                             long timeoutSeconds, boolean watchHeap) throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(jvmArgs);
        if (watchHeap) {
            // the JVM creates the file after the runner has emptied the folder
            options.add("-Xlog:gc:file=" + dir.resolve("gc.log"));
        }
        JMeterRun run = start(jmeterHome, plan, dir, options, props, timeoutSeconds);
        HeapWatch heap = null;
        if (watchHeap) {
            long pid = run.pid();
            if (pid > 0) {
                heap = HeapWatch.start(pid, dir.resolve("jstat.txt"));
            }
        }
        Result r = run.await();
        if (heap == null) {
            return r;
        }
        heap.stop();
        return new Result(r.exit(), r.jtl(), r.dir(), r.cpuSeconds(), heap.peakUsedMb, gcLogPeak(dir.resolve("gc.log")),
                heap.maxCommittedMb, r.timedOut());
    }

    /** The JMeter JVM's pid once it runs (the child whose command line names its log); -1 if the run ended first. */
    public long pid() throws InterruptedException {
        for (long pid = pidNow(); thread.isAlive(); pid = pidNow()) {
            if (pid > 0) {
                return pid;
            }
            Thread.sleep(25);
        }
        return -1;
    }

    /** The JMeter JVM's pid, or -1 when it is not running (yet or any more). */
    public long pidNow() {
        return ProcessHandle.current().children().filter(h -> h.info().commandLine().orElse("")
                .contains(dir.resolve("jmeter.log").toString())).findFirst().map(ProcessHandle::pid).orElse(-1L);
    }

    /** True until the run has ended. */
    public boolean running() {
        return thread.isAlive();
    }

    /** Waits for the run's end. */
    public Result await() throws IOException, InterruptedException {
        thread.join();
        if (failure instanceof IOException e) {
            throw e;
        }
        if (failure != null) {
            throw new IOException("JMeter run in " + dir + " failed", failure);
        }
        boolean timedOut = result.message().contains("did not finish in time");
        boolean ran = result.status() != ExitStatus.NOT_EXECUTED && result.status() != ExitStatus.CONFIG_ERROR;
        return new Result(timedOut ? -1 : ran ? 0 : result.status().code(), result.jtl(), dir,
                (ProcCpu.childrenMs() - children0) / 1000.0, Double.NaN, Double.NaN, Double.NaN, timedOut);
    }

    /** Largest heap occupancy before a collection in a -Xlog:gc file. */
    private static double gcLogPeak(Path gcLog) {
        if (!Files.exists(gcLog)) {
            return Double.NaN;
        }
        double peak = Double.NaN;
        try {
            for (String line : Files.readAllLines(gcLog, StandardCharsets.UTF_8)) {
                Matcher m = GC_LINE.matcher(line);
                if (m.find()) {
                    double before = Double.parseDouble(m.group(1));
                    peak = Double.isNaN(peak) ? before : Math.max(peak, before);
                }
            }
        } catch (IOException e) {
            return Double.NaN;
        }
        return peak;
    }

    /** {@code jstat -gc PID 250} as one streaming process; keeps the largest used and committed heap. */
    static final class HeapWatch {
        private final Process jstat;
        private final Thread reader;
        volatile double peakUsedMb = Double.NaN;
        volatile double maxCommittedMb = Double.NaN;

        private HeapWatch(Process jstat, Path copy) {
            this.jstat = jstat;
            this.reader = new Thread(() -> read(copy), "jstat-reader");
            this.reader.setDaemon(true);
        }

        static HeapWatch start(long pid, Path copy) throws IOException, InterruptedException {
            // jstat finds the JVM through its hsperfdata file, which appears a little after start
            Path perf = Path.of(System.getProperty("java.io.tmpdir"), "hsperfdata_" + System.getProperty("user.name"),
                    Long.toString(pid));
            for (int i = 0; i < 200 && !Files.exists(perf); i++) {
                Thread.sleep(25);
            }
            Process j = new ProcessBuilder("jstat", "-gc", Long.toString(pid), "250").redirectErrorStream(true).start();
            HeapWatch w = new HeapWatch(j, copy);
            w.reader.start();
            return w;
        }

        private void read(Path copy) {
            List<String> kept = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(jstat.getInputStream(), StandardCharsets.UTF_8))) {
                String header = null;
                String line;
                while ((line = r.readLine()) != null) {
                    kept.add(line);
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 0 && f[0].equals("S0C")) {
                        header = line;
                        continue;
                    }
                    if (header == null) {
                        continue;
                    }
                    List<String> h = List.of(header.trim().split("\\s+"));
                    try {
                        double used = kb(f, h, "S0U") + kb(f, h, "S1U") + kb(f, h, "EU") + kb(f, h, "OU");
                        double cap = kb(f, h, "S0C") + kb(f, h, "S1C") + kb(f, h, "EC") + kb(f, h, "OC");
                        peakUsedMb = Double.isNaN(peakUsedMb) ? used / 1024 : Math.max(peakUsedMb, used / 1024);
                        maxCommittedMb = Double.isNaN(maxCommittedMb) ? cap / 1024
                                : Math.max(maxCommittedMb, cap / 1024);
                    } catch (RuntimeException ignored) {
                        // a partial line when the target exits
                    }
                }
            } catch (IOException ignored) {
                // target gone
            } finally {
                try {
                    Files.write(copy, kept);
                } catch (IOException ignored) {
                    // diagnostics only
                }
            }
        }

        private static double kb(String[] f, List<String> h, String col) {
            return Double.parseDouble(f[h.indexOf(col)]);
        }

        void stop() throws InterruptedException {
            // jstat ends by itself when the target exits; do not wait long for it
            if (!jstat.waitFor(3, TimeUnit.SECONDS)) {
                jstat.destroy();
            }
            reader.join(3000);
        }
    }
}
