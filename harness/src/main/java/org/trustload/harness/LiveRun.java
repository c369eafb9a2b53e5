package org.trustload.harness;

import org.trustload.harness.results.Jtl;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A plan run by {@link Run#execute} in the background, whose results a fault test or bench reads while it runs
 * (JMeter's CSV writer flushes every row: {@code jmeter.save.saveservice.autoflush=true}) to inject a fault when
 * the run has reached a point, and to wait for what the fault does: conditions on the rows, never a fixed sleep.
 * The run ends by its plan's own duration cap or loops.
 */
public final class LiveRun {

    private final Path dir;
    private final CompletableFuture<Run.Result> result;
    private final List<Jtl.Sample> rows = new ArrayList<>();
    private String header;
    private long offset;

    private LiveRun(Path dir, CompletableFuture<Run.Result> result) {
        this.dir = dir;
        this.result = result;
    }

    /**
     * Starts the plan {@code jmx} ({@code id} in messages) without a lab, the arguments naming the target, no
     * dashboard, into a fresh {@code dir}; JMeter's command line from {@code jmeter}.
     */
    public static LiveRun start(JMeter jmeter, Layout layout, String id, Path jmx, Path dir, List<String> args,
                                Duration timeout) throws IOException {
        // JMeter appends to an existing results file: a run of an earlier test would look like this one's start
        if (Files.isDirectory(dir)) {
            try (var walk = Files.walk(dir)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        List<String> all = new ArrayList<>(args);
        all.add("-Jjmeter.save.saveservice.autoflush=true");
        CompletableFuture<Run.Result> f = CompletableFuture.supplyAsync(() -> {
            try {
                return Run.execute(jmeter, RunSpec.of(layout, id, jmx).noLab(true).args(all).dir(dir)
                        .timeout(timeout).echo(false).maxErrorPct(100).dashboard(false), System.out);
            } catch (Exception e) {
                throw new IllegalStateException("run of " + id + " failed: " + e, e);
            }
        });
        return new LiveRun(dir, f);
    }

    public Path dir() {
        return dir;
    }

    /**
     * The rows written so far (a partly written last line left out). Only what was appended since the last call
     * is read: a run writes thousands of rows a second, and a test polls.
     */
    public synchronized List<Jtl.Sample> rows() {
        Path jtl = dir.resolve("results.jtl");
        try {
            if (!Files.exists(jtl)) {
                return List.copyOf(rows);
            }
            try (RandomAccessFile f = new RandomAccessFile(jtl.toFile(), "r")) {
                long length = f.length();
                if (length > offset) {
                    byte[] fresh = new byte[(int) Math.min(length - offset, 64L << 20)];
                    f.seek(offset);
                    f.readFully(fresh);
                    int complete = lastNewline(fresh) + 1;
                    if (complete > 0) {
                        String text = new String(fresh, 0, complete, StandardCharsets.UTF_8);
                        if (header == null) {
                            header = text.substring(0, text.indexOf('\n') + 1);
                            text = text.substring(header.length());
                        }
                        // the harness's reader on the new lines, behind the file's header
                        Path part = dir.resolve(".live-rows.csv");
                        Files.writeString(part, header + text);
                        Jtl.forEach(part, r -> {
                            if (r.timeStamp() > 0 && !r.threadName().isEmpty()) {
                                rows.add(r);
                            }
                        });
                        Files.delete(part);
                        offset += complete;
                    }
                }
            }
        } catch (IOException e) {
            // not written yet, or mid-write: the next poll reads it
        }
        return List.copyOf(rows);
    }

    private static int lastNewline(byte[] b) {
        for (int i = b.length - 1; i >= 0; i--) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * Waits until the rows satisfy {@code condition}; throws {@link NotReached}, naming {@code what}, when the run
     * ends first or after {@code max}.
     */
    public List<Jtl.Sample> await(String what, Predicate<List<Jtl.Sample>> condition,
            Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (true) {
            List<Jtl.Sample> rows = rows();
            if (condition.test(rows)) {
                return rows;
            }
            if (result.isDone() || System.nanoTime() > deadline) {
                List<Jtl.Sample> last = rows.subList(Math.max(0, rows.size() - 5), rows.size());
                throw new NotReached("waited for " + what + (result.isDone() ? " but the run ended" : " for " + max)
                        + "; " + rows.size() + " rows, the last " + last + "; see " + dir);
            }
            Thread.sleep(100);
        }
    }

    /** Waits until {@code millis} since the epoch: how long a fault lasts is the test's to choose. */
    public static void until(long millis) throws InterruptedException {
        long left = millis - System.currentTimeMillis();
        if (left > 0) {
            Thread.sleep(left);
        }
    }

    /** The run's result once it ended by itself (its duration cap), at most {@code max}. */
    public Run.Result finish(Duration max) throws Exception {
        try {
            return result.get(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the run failed; see " + dir, e.getCause());
        }
    }

    /**
     * Ends the run now, as a test or bench does once its faults are done: SIGTERM to the JMeter JVM (the one whose
     * command line names this run's {@code results.jtl}); JMeter's result writers flush the file on the way out, so
     * every sample that ended is in it. The run's status is then "could not execute" (JMeter exited 143) and
     * JMeter's summariser prints no final line; the summary and the results are there. Returns the result.
     */
    public Run.Result stop(Duration max) throws Exception {
        String jtl = dir.resolve("results.jtl").toString();
        ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(jtl) && c.contains("ApacheJMeter"))
                        .orElse(false))
                .forEach(ProcessHandle::destroy);
        return finish(max);
    }

    /** Whether the run has ended. */
    public boolean isDone() {
        return result.isDone();
    }

    /** A condition the run did not reach (it ended first, or the wait ran out). */
    public static final class NotReached extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NotReached(String message) {
            super(message);
        }
    }

    /** Rows of {@code label} that started at or after {@code from} and succeeded (or failed). */
    public static long count(List<Jtl.Sample> rows, String label, long from, boolean success) {
        return rows.stream().filter(r -> r.label().equals(label) && r.timeStamp() >= from && r.success() == success)
                .count();
    }

    /** Rows of {@code label} that ended at or after {@code from} and failed. */
    public static long failedEndingAfter(List<Jtl.Sample> rows, String label, long from) {
        return rows.stream().filter(r -> r.label().equals(label) && r.end() >= from && !r.success()).count();
    }
}
