package org.trustload.harness.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.trustload.common.ChildProcess;
import org.trustload.harness.Lab;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.results.Summary;
import org.trustload.harness.results.SummaryText;
import org.trustload.jmeter.engine.EngineEnds;

/**
 * Watches one JMeter process to its end: its console lines (progress after each summariser line, the remote engines'
 * ends as {@link EngineEnds} prints them), the lab under it, remote engines that stop answering, and a timeout (with
 * a thread dump of the hung JVMs).
 */
final class Supervisor {

    /** A remote engine is gone once it has refused or ignored this many connections in a row. */
    static final int LOST_AFTER = 2;

    private final Lab lab;
    private final Engines remote;
    private final Duration timeout;
    private final PrintStream log;
    private final Progress progress;
    private final Set<String> ended = ConcurrentHashMap.newKeySet();
    /** Remote engines gone during the run, with when they went. */
    final Map<String, Long> lost = new ConcurrentHashMap<>();
    /** How the lab died under the run, or null. */
    volatile String labDied;

    Supervisor(Environment env, Duration timeout, long scheduledSeconds, boolean echo, PrintStream log) {
        this.lab = env.lab();
        this.remote = env.engines() != null && env.engines().isRemote() ? env.engines() : null;
        this.timeout = timeout;
        this.log = log;
        this.progress = new Progress(scheduledSeconds, log, echo);
    }

    /** One line of JMeter's console. */
    void line(String line) {
        if (line.startsWith(EngineEnds.ENDED + " ")) {
            ended.add(line.substring(EngineEnds.ENDED.length() + 1).strip());
        }
        progress.line(line);
    }

    /**
     * Waits for JMeter; stops it when the lab dies under it or the timeout passes. With remote engines, watches that
     * each still accepts connections: JMeter's controller waits for every engine's end of test, so one that died
     * would keep it waiting for ever; once the others have ended the controller is stopped (its results file is
     * flushed on the way out) and {@link #lost} says which engine went and when. Returns JMeter's exit status, -1
     * after the timeout.
     */
    int waitFor(ChildProcess p, Path threadDump) throws InterruptedException {
        long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        Map<String, Integer> misses = new LinkedHashMap<>();
        long nextProbe = System.nanoTime();
        while (!p.waitFor(Duration.ofSeconds(1))) {
            if (remote != null && System.nanoTime() >= nextProbe) {
                nextProbe = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                for (String h : remote.hosts()) {
                    if (lost.containsKey(h) || ended.contains(h)) {
                        continue;
                    }
                    if (Engines.answering(h)) {
                        misses.remove(h);
                    } else if (misses.merge(h, 1, Integer::sum) >= LOST_AFTER) {
                        lost.put(h, System.currentTimeMillis());
                        log.println("trustload: engine " + h + " stopped answering during the run");
                    }
                }
                if (!lost.isEmpty() && p.isAlive()
                        && remote.hosts().stream().allMatch(h -> lost.containsKey(h) || ended.contains(h))) {
                    log.println("trustload: the other engines have ended: stopping the controller, which would wait"
                            + " for "
                            + String.join(", ", lost.keySet()) + " for ever");
                    p.close();
                    return p.exitValue();
                }
            }
            if (lab != null && !lab.isAlive()) {
                log.println("trustload: the lab exited during the run: stopping JMeter (" + lab.exitReport() + ")");
                p.close();
                labDied = lab.exitReport(); // again: the log may have grown
                break;
            }
            if (System.nanoTime() > deadline) {
                log.println("trustload: JMeter did not finish within " + timeout.toSeconds() + " s: its threads are in "
                        + threadDump + "; stopping it");
                dumpThreads(p, threadDump);
                p.close();
                return -1;
            }
        }
        if (labDied == null && lab != null && !lab.isAlive()) {
            labDied = lab.exitReport(); // JMeter ended on its own (e.g. errors stopped the test) as the lab died
        }
        return p.exitValue();
    }

    /** A hung JMeter's thread dump (jcmd Thread.print of its JVMs), so that the hang can be diagnosed. */
    private static void dumpThreads(ChildProcess p, Path file) {
        StringBuilder out = new StringBuilder();
        List<ProcessHandle> jvms = new ArrayList<>();
        jvms.add(p.handle());
        p.handle().descendants().forEach(jvms::add);
        for (ProcessHandle h : jvms) {
            out.append("== pid ").append(h.pid()).append(' ').append(h.info().command().orElse("")).append('\n');
            try {
                out.append(ChildProcess.run(List.of("jcmd", Long.toString(h.pid()), "Thread.print"),
                        Duration.ofSeconds(30)).output());
            } catch (IOException | InterruptedException e) {
                out.append("== pid ").append(h.pid()).append(": ").append(e).append('\n');
            }
        }
        try {
            Files.writeString(file, out);
        } catch (IOException e) {
            // the run is failing anyway; the message says where the dump would be
        }
    }

    /**
     * Prints elapsed time after each summariser line and, for a plan scheduled by duration, the time left; a
     * loop-count plan's duration cap is a safety bound, said once in the summary's header.
     */
    static final class Progress {
        private final long scheduled;
        private final PrintStream log;
        private final boolean echo;
        /** Reset when JMeter says the test starts (JVM start-up and tree loading are not the plan's time). */
        private volatile long start = System.nanoTime();

        Progress(long scheduledSeconds, PrintStream log, boolean echo) {
            this.scheduled = scheduledSeconds;
            this.log = log;
            this.echo = echo;
        }

        void line(String line) {
            if (line.startsWith("Starting standalone test") || line.startsWith("Starting distributed test")) {
                start = System.nanoTime();
                return;
            }
            if (!echo || !line.startsWith("summary +")) {
                return;
            }
            long elapsed = (System.nanoTime() - start) / 1_000_000_000L;
            Optional<Summary.Summariser> s = Summary.summariser(line);
            String counts = s.map(x -> ", " + x.count() + " samples in the last interval").orElse("");
            if (scheduled > 0) {
                log.println("trustload: " + SummaryText.hms(elapsed) + " elapsed, at most "
                        + SummaryText.hms(Math.max(0, scheduled - elapsed))
                        + " left of the " + SummaryText.hms(scheduled) + " scheduled" + counts);
            } else {
                log.println("trustload: " + SummaryText.hms(elapsed)
                        + " elapsed (loop-count plan: ends when its loops are done)" + counts);
            }
        }
    }
}
