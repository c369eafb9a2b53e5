package org.trustload.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.trustload.harness.Jtl;

/** Lets benches in sub-packages run JMeter and read its results through the package's helpers. */
public final class BenchAccess {
    private BenchAccess() {
    }

    /** Where a JMeter run left its results. */
    public record Result(int exit, Path jtl, double cpuSeconds) {
    }

    /** {@link JMeterRun#run} without heap watching. */
    public static Result runJMeter(Path home, Path plan, Path dir, List<String> jvmArgs, long timeoutSeconds)
            throws IOException, InterruptedException {
        JMeterRun.Result r = JMeterRun.run(home, plan, dir, jvmArgs, List.of(), timeoutSeconds, false);
        return new Result(r.exit(), r.jtl(), r.cpuSeconds());
    }

    /** {@link JMeterRun#run} with JMeter properties ({@code -Jname=value}), without heap watching. */
    public static Result runJMeter(Path home, Path plan, Path dir, List<String> jvmArgs, List<String> props,
            long timeoutSeconds) throws IOException, InterruptedException {
        JMeterRun.Result r = JMeterRun.run(home, plan, dir, jvmArgs, props, timeoutSeconds, false);
        return new Result(r.timedOut() ? -1 : r.exit(), r.jtl(), r.cpuSeconds());
    }

    /**
     * Per label: {count, bytes (0: the CSV has none), first start, last end, errors}. Bytes come from the
     * {@code bytes} column when present.
     */
    public static Map<String, long[]> perLabel(Path jtl) throws IOException {
        Map<String, long[]> out = new LinkedHashMap<>();
        for (Jtl.Sample s : Jtl.read(jtl)) {
            long[] v = out.computeIfAbsent(s.label(), k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE, 0});
            v[0]++;
            v[1] += s.bytes();
            v[2] = Math.min(v[2], s.timeStamp());
            v[3] = Math.max(v[3], s.end());
            if (!s.success()) {
                v[4]++;
            }
        }
        return out;
    }

    /** The bgm JVM options of the home's {@code bin/setenv.sh} (their one definition). */
    public static List<String> bgmFlags(Path home) throws IOException {
        for (String line : Files.readAllLines(home.resolve("bin/setenv.sh"))) {
            if (line.startsWith("TRUSTLOAD_BGM_JVM_ARGS=\"")) {
                return List.of(line.substring(line.indexOf('"') + 1, line.lastIndexOf('"')).split(" "));
            }
        }
        throw new IOException("no TRUSTLOAD_BGM_JVM_ARGS in " + home.resolve("bin/setenv.sh"));
    }
}
