package org.trustload.jvmstats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM the tests start and watch. {@code main}: "idle" collects a few times and sleeps, "burn" keeps
 * one core busy allocating garbage. It prints READY once its counters are set up.
 */
public final class ChildJvm implements AutoCloseable {

    private final Process process;

    private ChildJvm(Process process) {
        this.process = process;
    }

    public static void main(String[] args) throws Exception {
        List<byte[]> keep = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            keep.add(new byte[64 * 1024]);
            if (keep.size() > 50) {
                keep.remove(0);
            }
        }
        System.gc();
        System.out.println("READY");
        System.out.flush();
        if ("burn".equals(args[0])) {
            long sink = 0;
            while (true) {
                byte[] b = new byte[1024];
                sink += b.length + System.nanoTime() % 3;
                if (sink == 42) {
                    System.out.println(sink);
                }
            }
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Starts a child with extra JVM options and waits (at most 60 s) for READY. */
    public static ChildJvm start(String mode, String... jvmOptions) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx64m");
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ChildJvm.class.getName(), mode));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        ChildJvm child = new ChildJvm(p);
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        if (!"READY".equals(line)) {
            child.close();
            throw new IOException("child JVM did not start: " + line);
        }
        return child;
    }

    public long pid() {
        return process.pid();
    }

    /** Kills the child and waits until it has gone. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs a command, returns its stdout lines (fails on a non-zero exit). */
    public static List<String> run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + lines);
        }
        return lines;
    }
}
