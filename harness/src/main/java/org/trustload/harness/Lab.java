package org.trustload.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The lab ({@code java -jar lab/target/trustload-lab.jar}) as a child process: started with the
 * services a plan needs, ready once it prints its READY line and has written its properties file,
 * stopped with SIGTERM (it removes its sockets and key files). Its output goes to a log file.
 */
public final class Lab implements AutoCloseable {

    /** The line the lab prints once every service listens. */
    public static final String READY = "TRUSTLOAD-LAB READY";
    /** Every port offset reserved for lab services: see docs/lab.md, "Port offsets". */
    private static final int[] OFFSETS = {389, 636, 8080, 8443, 8444, 8600, 8601, 8610, 8611, 8700, 8701, 8702,
        8703, 8800, 8801, 8802, 8900};
    /** The highest port offset a lab service may use (the lab's {@code MAX_PORT_OFFSET}). */
    static final int MAX_PORT_OFFSET = 8999;

    private final Process process;
    private final Path properties;
    private final Path log;
    private final String services;
    private volatile String readyLine = "";
    /** Copies the lab's output into its log until the lab exits. */
    private Thread pump;

    private Lab(Process process, Path properties, Path log, String services) {
        this.process = process;
        this.properties = properties;
        this.log = log;
        this.services = services.isBlank() ? "the lab's default services" : services;
    }

    /**
     * Starts the lab with {@code services} (comma list; empty: the lab's default) writing its
     * endpoints and credentials to {@code properties}, and waits up to {@code timeout} for READY.
     *
     * @param extraArgs more lab options ({@code --port-base N}, {@code --socket-dir D}, ...)
     */
    public static Lab start(Layout layout, String services, Path properties, Path log, List<String> extraArgs,
                            Duration timeout) throws HarnessException, IOException, InterruptedException {
        if (!Files.exists(layout.labJar())) {
            throw HarnessException.notExecuted("no lab jar at " + layout.labJar() + " (mvn -B -DskipTests package builds it)");
        }
        Files.deleteIfExists(properties);
        Files.createDirectories(log.toAbsolutePath().getParent());
        List<String> cmd = new ArrayList<>(List.of(Layout.java()));
        cmd.addAll(layout.jvmFlags());
        cmd.addAll(List.of("-jar", layout.labJar().toString()));
        if (!services.isBlank()) {
            cmd.addAll(List.of("--services", services));
        }
        cmd.addAll(extraArgs);
        cmd.addAll(List.of("--out", properties.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        Lab lab = new Lab(p, properties, log, services);
        CountDownLatch ready = new CountDownLatch(1);
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                 PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
                for (String line; (line = in.readLine()) != null; ) {
                    out.println(line);
                    if (line.startsWith(READY)) {
                        lab.readyLine = line;
                        ready.countDown();
                    }
                }
            } catch (IOException e) {
                // the lab's output ended; readiness (or its absence) decides
            }
        }, "lab-output");
        pump.setDaemon(true);
        lab.pump = pump;
        pump.start();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ready.getCount() > 0) {
            if (!p.isAlive()) {
                p.waitFor();
                pump.join(2000);
                throw HarnessException.notExecuted("the lab exited (status " + p.exitValue() + ") before it was ready; see "
                        + log + tail(log));
            }
            if (System.nanoTime() > deadline) {
                lab.close();
                throw HarnessException.notExecuted("the lab was not ready within " + timeout.toSeconds() + " s; see " + log + tail(log));
            }
            ready.await(200, TimeUnit.MILLISECONDS);
        }
        if (!Files.exists(properties) || Files.size(properties) == 0) {
            lab.close();
            throw HarnessException.notExecuted("the lab said READY but wrote no " + properties);
        }
        return lab;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return "\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * What a user needs once the lab has exited under a run: the services it ran (one JVM: they all went
     * with it), its exit status (a signal when above 128, e.g. 137 for SIGKILL or the kernel's OOM
     * killer), its log and the log's last lines.
     */
    public String exitReport() {
        int status = process.exitValue();
        String how = status > 128 ? " = killed by signal " + (status - 128) + (status == 137 ? " (SIGKILL: kill -9 or the OOM killer)" : "")
                : "";
        return "the lab (services " + services + ") exited with status " + status + how + "; lab log: " + log + tail(log);
    }

    /** The properties file with every endpoint and credential the plans need. */
    public Path properties() {
        return properties;
    }

    public Path log() {
        return log;
    }

    /** The lab's READY line (it lists the services and where they listen). */
    public String readyLine() {
        return readyLine;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The lab's exit status once it has exited. */
    public int exitValue() {
        return process.exitValue();
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    /**
     * SIGTERM (the lab stops cleanly), SIGKILL after 15 s; returns once the log holds the lab's last lines
     * (what its services print when they stop, e.g. what they were asked for).
     */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            // the handle's SIGTERM: Process.destroy() also closes the lab's output pipe at once, and the log
            // then misses what the lab says while it stops (e.g. the gmssl service's handshake count)
            process.toHandle().destroy();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(15, TimeUnit.SECONDS);
            }
        }
        if (pump != null) {
            pump.join(5000);
        }
    }

    /**
     * The first port of the kernel's ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range},
     * 32768 where it cannot be read): the kernel hands ports from there up to every outgoing connection,
     * so a server port chosen there can be taken at random between the check and the bind.
     */
    static int ephemeralLow() {
        try {
            // a line read, not Files.readString: that reads a size-0 /proc file one byte first, and this
            // kernel's sysctl file then gives EOF at offset 1 ("3" for "32768 60999")
            try (var in = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
                return Integer.parseInt(in.readLine().strip().split("\\s+")[0]);
            }
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }

    /**
     * A base port (for {@code --port-base}) whose lab ports are all free on 127.0.0.1 and all below the
     * kernel's ephemeral range ({@link #ephemeralLow()}): bases 2000 up to 32768 − 1 − 8999 = 23768 by
     * default (the lab refuses a base whose ports reach that range).
     */
    public static int freePortBase() throws IOException {
        int highest = Math.max(2000, ephemeralLow() - 1 - MAX_PORT_OFFSET);
        for (int attempt = 0; attempt < 100; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(2000, highest + 1);
            boolean free = true;
            for (int offset : OFFSETS) {
                try (ServerSocket s = new ServerSocket(base + offset, 1, InetAddress.getLoopbackAddress())) {
                    s.setReuseAddress(true);
                } catch (IOException busy) {
                    free = false;
                    break;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IOException("no free port range found on 127.0.0.1 below the ephemeral ports (" + ephemeralLow() + "+)");
    }
}
