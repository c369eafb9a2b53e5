package org.trustload.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.trustload.harness.JMeter;
import org.trustload.harness.Layout;

/**
 * Runs the assembled JMeter headless as a child process through a tiny bash wrapper that records
 * the JVM's pid and, after it exits, its exact user+system CPU time ({@code times}). Optionally
 * streams {@code jstat -gc} to follow the heap.
 */
final class JMeterRun {
    record Result(int exit, Path jtl, Path dir, double cpuSeconds, double peakHeapMbJstat, double peakHeapMbGcLog,
                  double maxCommittedMb, boolean timedOut) {
    }

    private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

    private JMeterRun() {
    }

    static Result run(Path jmeterHome, Path plan, Path dir, List<String> jvmArgs, List<String> props,
                      long timeoutSeconds, boolean watchHeap) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path jtl = dir.resolve("results.jtl");
        Files.deleteIfExists(jtl);
        Path pidFile = dir.resolve("jmeter.pid");
        Path timesFile = dir.resolve("times.txt");
        Files.deleteIfExists(pidFile);
        List<String> options = new ArrayList<>(jvmArgs);
        if (watchHeap) {
            options.add("-Xlog:gc:file=" + dir.resolve("gc.log"));
        }
        // the harness's JMeter command line (java, these options, the JVM flags every JMeter gets, the jar)
        List<String> java = new ArrayList<>(new JMeter(new Layout(Layout.current().root(), jmeterHome), options, List.of()).command());
        java.addAll(List.of("-n",
                "-t", plan.toString(), "-l", jtl.toString(), "-j", dir.resolve("jmeter.log").toString(),
                "-Jsampleresult.timestamp.start=true", "-Jjmeter.save.saveservice.output_format=csv",
                "-Jjmeter.save.saveservice.timestamp_format=ms", "-Jsummariser.interval=10"));
        java.addAll(props);
        List<String> cmd = new ArrayList<>(List.of("bash", "-c",
                "\"$@\" & p=$!; echo $p > '" + pidFile + "'; wait $p; rc=$?; times > '" + timesFile + "'; exit $rc",
                "jmeter-run"));
        cmd.addAll(java);
        Files.writeString(dir.resolve("command.txt"), String.join(" ", java) + "\n");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.txt").toFile()).start();
        HeapWatch heap = null;
        if (watchHeap) {
            long pid = awaitPid(pidFile, p);
            if (pid > 0) {
                heap = HeapWatch.start(pid, dir.resolve("jstat.txt"));
            }
        }
        boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!done) {
            // kill the JVM (child of bash), then bash
            long pid = readPid(pidFile);
            if (pid > 0) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        double jstatPeak = Double.NaN;
        double committed = Double.NaN;
        if (heap != null) {
            heap.stop();
            jstatPeak = heap.peakUsedMb;
            committed = heap.maxCommittedMb;
        }
        return new Result(done ? p.exitValue() : -1, jtl, dir, cpuSeconds(timesFile), jstatPeak,
                gcLogPeak(dir.resolve("gc.log")), committed, !done);
    }

    private static long awaitPid(Path pidFile, Process p) throws InterruptedException {
        for (int i = 0; i < 200 && p.isAlive(); i++) {
            long pid = readPid(pidFile);
            if (pid > 0) {
                return pid;
            }
            Thread.sleep(25);
        }
        return -1;
    }

    private static long readPid(Path pidFile) {
        try {
            return Long.parseLong(Files.readString(pidFile).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** bash {@code times}: second line holds the children's user and system time, e.g. "0m12.345s 0m1.234s". */
    private static double cpuSeconds(Path timesFile) {
        try {
            List<String> lines = Files.readAllLines(timesFile);
            if (lines.size() < 2) {
                return Double.NaN;
            }
            double total = 0;
            for (String f : lines.get(1).trim().split("\\s+")) {
                Matcher m = Pattern.compile("(\\d+)m([\\d.]+)s").matcher(f);
                if (m.matches()) {
                    total += Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2));
                }
            }
            return total;
        } catch (IOException e) {
            return Double.NaN;
        }
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
            try (BufferedReader r = new BufferedReader(new InputStreamReader(jstat.getInputStream(), StandardCharsets.UTF_8))) {
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
                        maxCommittedMb = Double.isNaN(maxCommittedMb) ? cap / 1024 : Math.max(maxCommittedMb, cap / 1024);
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
