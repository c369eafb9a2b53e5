package org.trustload.common;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Every process TrustLoad starts (the lab, a fixture, JMeter engines and runs, tools such as keytool): started in
 * its own directory with its output pumped into its log file (and to a listener), ready once it printed a line
 * starting with its READY word and a check holds (its port accepts), within a timeout or it is stopped; alive
 * until it exits; stopped with SIGTERM and SIGKILL 30 s later, also when the launcher is stopped (a server in the
 * foreground). Nothing else in the harness starts a process; the testkit fixtures start their servers with it too.
 */
public final class ChildProcess implements AutoCloseable {

    /** It exited, or stayed silent, before it was ready; the message shows its log's tail. */
    public static final class NotReady extends IOException {

        private static final long serialVersionUID = 1L;

        NotReady(String message) {
            super(message);
        }
    }

    private final String name;
    private final Process process;
    private final Path log;
    private final Thread pump;
    private volatile String readyLine;
    private volatile Thread stopHook;

    private ChildProcess(String name, Process process, Path log, String ready, Consumer<String> lines) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.readyLine = ready == null ? "" : null;
        this.pump = lines == null ? null : new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 PrintWriter out = new PrintWriter(log == null ? Writer.nullWriter()
                         : Files.newBufferedWriter(log), true)) {
                for (String line; (line = in.readLine()) != null; ) {
                    out.println(line);
                    if (readyLine == null && line.startsWith(ready)) {
                        readyLine = line;
                    }
                    lines.accept(line);
                }
            } catch (IOException e) {
                // the output ended; readiness (or its absence) decides
            }
        }, name + "-output");
        if (pump != null) {
            pump.setDaemon(true);
            pump.start();
        }
    }

    /**
     * Starts {@code command} in {@code dir} (null: the harness's own), its output in {@code log}, and waits
     * up to {@code timeout} for a line starting with {@code ready}.
     *
     * @param name what the messages call it ("the lab", "DSS"; its log: "lab log")
     * @throws NotReady when it exits or stays silent first
     */
    public static ChildProcess start(String name, List<String> command, Path dir, Path log,
            String ready, Duration timeout)
            throws IOException, InterruptedException {
        return start(name, command, dir, log, ready, line -> { }, () -> true, timeout);
    }

    /**
     * {@link #start(String, List, Path, Path, String, Duration)}, ready once {@code check} holds too (its port
     * answers).
     *
     * @param lines each line of its output; null: none (nor a READY line), and it appends to its log itself
     */
    public static ChildProcess start(String name, List<String> command, Path dir, Path log, String ready,
            Consumer<String> lines,
            BooleanSupplier check, Duration timeout) throws IOException, InterruptedException {
        ChildProcess child = launch(name, command, dir, Map.of(), log, ready, lines);
        if (!child.awaitReady(check, timeout)) {
            throw new NotReady(name + " exited (status " + child.exitValue() + ") before it was ready; see " + log
                    + child.tail());
        }
        return child;
    }

    /**
     * Starts {@code command} in {@code dir} (null: the harness's own) with {@code env} added to its environment (never
     * a secret on a command line; a null value removes the variable), each line of its output (stdout and stderr) into
     * {@code log} (null: none) and to {@code lines}; does not wait.
     *
     * @param ready the start of the line that says it is ready ({@link #awaitReady}); null when none is awaited
     */
    public static ChildProcess launch(String name, List<String> command, Path dir, Map<String, String> env,
            Path log, String ready,
                               Consumer<String> lines) throws IOException {
        if (log != null) {
            Files.createDirectories(log.toAbsolutePath().getParent());
        }
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        env.forEach((k, v) -> b.environment().compute(k, (key, old) -> v));
        if (lines == null) {
            b.redirectOutput(log == null ? ProcessBuilder.Redirect.DISCARD
                    : ProcessBuilder.Redirect.appendTo(log.toFile()));
        }
        if (dir != null) {
            Files.createDirectories(dir);
            b.directory(dir.toAbsolutePath().toFile());
        }
        return new ChildProcess(name, b.start(), log, ready, lines);
    }

    /**
     * Runs a tool ({@code keytool}, {@code jcmd}, {@code taskset}, ...) to its end, at most {@code timeout} (then it is
     * stopped), with {@code env} added to its environment.
     */
    public static Finished run(List<String> command, Map<String, String> env, Duration timeout) throws IOException,
            InterruptedException {
        StringBuffer out = new StringBuffer();
        int status;
        try (ChildProcess p = launch(command.get(0), command, null, env, null, null,
                line -> out.append(line).append('\n'))) {
            status = p.waitFor(timeout) ? p.exitValue() : -1;
        }
        return new Finished(status, out.toString());
    }

    /** {@link #run(List, Map, Duration)} with the harness's environment. */
    public static Finished run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        return run(command, Map.of(), timeout);
    }

    /**
     * How a tool ended.
     *
     * @param status its exit status; -1 when it was stopped at its timeout
     * @param output its output, stdout and stderr, line by line
     */
    public record Finished(int status, String output) {

        public boolean ok() {
            return status == 0;
        }
    }

    /**
     * Starts {@code command} on the launcher's terminal (its input and output: the lab or a fixture in the foreground).
     */
    public static ChildProcess inTerminal(String name, List<String> command) throws IOException {
        return new ChildProcess(name, new ProcessBuilder(command).inheritIO().start(), null, null, null);
    }

    /**
     * Stops it, then closes {@code alsoOnStop} (its lab, its files), should the launcher be stopped (SIGTERM, Ctrl-C)
     * before it exits; {@link #waitFor()} ends that.
     */
    public ChildProcess stopWithLauncher(AutoCloseable alsoOnStop) {
        stopHook = new Thread(() -> {
            try {
                close();
                alsoOnStop.close();
            } catch (Exception e) {
                // the launcher is going: nothing to tell
            }
        }, name + "-stop");
        Runtime.getRuntime().addShutdownHook(stopHook);
        return this;
    }

    /**
     * Waits up to {@code timeout} until it printed its READY line and then {@code check} holds (e.g. its port accepts).
     *
     * @return whether it is ready; false when it exited first (its whole output is in the log by then)
     * @throws NotReady when it is still not ready when the time is up (it is then stopped)
     */
    public boolean awaitReady(BooleanSupplier check, Duration timeout) throws NotReady, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (readyLine == null || !check.getAsBoolean()) {
            if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
                drain(2000);
                return false;
            }
            if (System.nanoTime() > deadline) {
                close();
                throw new NotReady(name + " was not ready within " + timeout.toSeconds() + " s; see " + log
                        + tail());
            }
        }
        return true;
    }

    /** The log's last 20 lines, indented, after a line break ("" when it cannot be read). */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return "\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * {@code who} exited with its status and what it means (a signal above 128, e.g. 137 for SIGKILL or the
     * OOM killer), its log and the log's tail.
     */
    public String exitReport(String who) {
        int status = process.exitValue();
        String how = status > 128
                ? " = killed by signal " + (status - 128)
                        + (status == 137 ? " (SIGKILL: kill -9 or the OOM killer)" : "")
                : "";
        return who + " exited with status " + status + how + "; " + name.replaceFirst("^the ", "")
                + " log: " + log + tail();
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
        int status = process.waitFor();
        drain(5000);
        if (stopHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(stopHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        return status;
    }

    /**
     * Waits up to {@code timeout} for it to exit; once it has, also for the rest of its output. Whether it has exited.
     */
    public boolean waitFor(Duration timeout) throws InterruptedException {
        boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (exited) {
            drain(10_000);
        }
        return exited;
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** SIGTERM, SIGKILL after 30 s; returns once the log holds its last lines (what a server prints as it stops). */
    @Override
    public void close() throws InterruptedException {
        stop(Duration.ofSeconds(30));
    }

    /** {@link #close()} with SIGKILL after {@code grace}. */
    public void stop(Duration grace) throws InterruptedException {
        if (process.isAlive()) {
            // the handle's SIGTERM: Process.destroy() would also close its output pipe at once, and the log
            // then misses what it says while it stops
            process.toHandle().destroy();
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
        drain(5000);
    }

    /** Waits up to {@code millis} for the rest of its output to be in its log. */
    private void drain(long millis) throws InterruptedException {
        if (pump != null) {
            pump.join(millis);
        }
    }
}
