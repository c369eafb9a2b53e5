package org.trustload.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A server the harness runs as a child process (the lab, a fixture): started in its own directory with
 * its output pumped into a log file, ready once it prints a line starting with its READY word (within a
 * timeout, or it is stopped), alive until it exits, stopped with SIGTERM and SIGKILL 15 s later.
 */
public final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;
    private final Thread pump;
    private volatile String readyLine = "";

    private ChildProcess(String name, Process process, Path log, String ready, CountDownLatch seen) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
                for (String line; (line = in.readLine()) != null; ) {
                    out.println(line);
                    if (seen.getCount() > 0 && line.startsWith(ready)) {
                        readyLine = line;
                        seen.countDown();
                    }
                }
            } catch (IOException e) {
                // the output ended; readiness (or its absence) decides
            }
        }, name + "-output");
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Starts {@code command} in {@code dir} (null: the harness's own), its output in {@code log}, and waits
     * up to {@code timeout} for a line starting with {@code ready}.
     *
     * @param name what the messages call it ("the lab", "DSS"; its log: "lab log")
     * @throws HarnessException (not executed) when it exits or stays silent first; the message shows the log's tail
     */
    public static ChildProcess start(String name, List<String> command, Path dir, Path log, String ready, Duration timeout)
            throws HarnessException, IOException, InterruptedException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        if (dir != null) {
            Files.createDirectories(dir);
            b.directory(dir.toAbsolutePath().toFile());
        }
        CountDownLatch seen = new CountDownLatch(1);
        ChildProcess child = new ChildProcess(name, b.start(), log, ready, seen);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!seen.await(200, TimeUnit.MILLISECONDS)) {
            if (!child.process.isAlive()) {
                child.pump.join(2000);
                throw HarnessException.notExecuted(name + " exited (status " + child.process.exitValue()
                        + ") before it was ready; see " + log + child.tail());
            }
            if (System.nanoTime() > deadline) {
                child.close();
                throw HarnessException.notExecuted(name + " was not ready within " + timeout.toSeconds() + " s; see " + log
                        + child.tail());
            }
        }
        return child;
    }

    /** The log's last 20 lines, indented, after a line break ("" when it cannot be read). */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return "\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * {@code who} exited with its status and what it means (a signal above 128, e.g. 137 for SIGKILL or the
     * OOM killer), its log and the log's tail.
     */
    public String exitReport(String who) {
        int status = process.exitValue();
        String how = status > 128 ? " = killed by signal " + (status - 128) + (status == 137 ? " (SIGKILL: kill -9 or the OOM killer)" : "")
                : "";
        return who + " exited with status " + status + how + "; " + name.replaceFirst("^the ", "") + " log: " + log + tail();
    }

    /** The line that said it was ready. */
    public String readyLine() {
        return readyLine;
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Its exit status once it has exited. */
    public int exitValue() {
        return process.exitValue();
    }

    /** Waits until it exits by itself (a server in the foreground) and returns its status. */
    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** SIGTERM, SIGKILL after 15 s; returns once the log holds its last lines (what a server prints as it stops). */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            // the handle's SIGTERM: Process.destroy() would also close its output pipe at once, and the log
            // then misses what it says while it stops
            process.toHandle().destroy();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(15, TimeUnit.SECONDS);
            }
        }
        pump.join(5000);
    }
}
