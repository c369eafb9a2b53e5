package org.trustload.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.trustload.common.ChildProcess;

/**
 * A server process paused and resumed ({@code SIGSTOP}/{@code SIGCONT}) or killed ({@code SIGKILL}) by its pid,
 * for the fault tests: a paused server keeps its listening socket, so the kernel still accepts connections that
 * nobody answers; a killed one leaves its port refusing. Each call returns once the process is in the state it
 * asked for, never after a fixed sleep.
 */
public final class ProcessFaults {

    /** How long pause and resume wait for every thread: generous, for a machine at load 10+. */
    private static final Duration WAIT = Duration.ofSeconds(60);

    private ProcessFaults() {
    }

    /**
     * SIGSTOP, then waits until <em>every</em> thread is stopped ({@code T} in {@code /proc/PID/task/TID/stat}).
     * {@code kill} returning is not enough: Linux queues SIGSTOP and wakes one thread, and the others stop only
     * after that thread has run, so on a busy machine another thread can still answer a request meanwhile
     * (measured with slapd: 22 of 40 times not every thread was stopped when {@code kill} returned).
     */
    public static void pause(long pid) {
        signal(pid, "STOP");
        awaitThreads(pid, true);
    }

    /** SIGCONT; returns once no thread of the process is stopped any more. */
    public static void resume(long pid) {
        signal(pid, "CONT");
        awaitThreads(pid, false);
    }

    /** SIGKILL; returns once the process is gone. */
    public static void kill(long pid) {
        signal(pid, "KILL");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("process " + pid + " still alive " + WAIT + " after SIGKILL");
            }
            sleep(2);
        }
    }

    private static void signal(long pid, String signal) {
        try {
            ChildProcess.Finished kill = ChildProcess.run(List.of("kill", "-" + signal, Long.toString(pid)), WAIT);
            if (!kill.ok()) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed: " + kill.output());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending SIG" + signal, e);
        }
    }

    /** Waits (at most {@link #WAIT}) until all of the process's threads are stopped, or none is. */
    private static void awaitThreads(long pid, boolean stopped) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String states = "";
        while (System.nanoTime() < deadline) {
            states = threadStates(pid);
            boolean allStopped = !states.isEmpty() && states.chars().allMatch(c -> c == 'T');
            boolean noneStopped = states.chars().noneMatch(c -> c == 'T');
            if (stopped ? allStopped : noneStopped) {
                return;
            }
            sleep(2);
        }
        throw new IllegalStateException("process " + pid + " threads not " + (stopped ? "all stopped" : "running again")
                + " within " + WAIT + ": states " + states);
    }

    /** One state letter per thread of the process ({@code /proc/PID/task/TID/stat}, field 3). */
    static String threadStates(long pid) {
        StringBuilder b = new StringBuilder();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    b.append(stat.charAt(stat.lastIndexOf(')') + 2));
                } catch (IOException | RuntimeException gone) {
                    // a thread that ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toString();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
