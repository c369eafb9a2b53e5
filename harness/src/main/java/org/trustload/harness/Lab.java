package org.trustload.harness;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.trustload.common.ChildProcess;

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

    private final ChildProcess process;
    private final Path properties;
    private final String services;

    private Lab(ChildProcess process, Path properties, String services) {
        this.process = process;
        this.properties = properties;
        this.services = services;
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
            throw HarnessException.notExecuted("no lab jar at " + layout.labJar()
                    + " (mvn -B -DskipTests package builds it)");
        }
        Files.deleteIfExists(properties);
        List<String> cmd = new ArrayList<>(List.of(layout.javaCommand()));
        cmd.addAll(layout.labJvmFlags());
        cmd.addAll(List.of("-jar", layout.labJar().toString()));
        if (!services.isBlank()) {
            cmd.addAll(List.of("--services", services));
        }
        cmd.addAll(extraArgs);
        cmd.addAll(List.of("--out", properties.toString()));
        Lab lab = new Lab(HarnessException.ready(() -> ChildProcess.start("the lab", cmd, null, log, READY, timeout)),
                properties,
                services.isBlank() ? "the lab's default services" : services);
        if (!Files.exists(properties) || Files.size(properties) == 0) {
            lab.close();
            throw HarnessException.notExecuted("the lab said READY but wrote no " + properties);
        }
        return lab;
    }

    /**
     * What a user needs once the lab has exited under a run: the services it ran (one JVM: they all went
     * with it), its exit status, its log and the log's last lines.
     */
    public String exitReport() {
        return process.exitReport("the lab (services " + services + ")");
    }

    /** The properties file with every endpoint and credential the plans need. */
    public Path properties() {
        return properties;
    }

    public Path log() {
        return process.log();
    }

    /** The lab's READY line (it lists the services and where they listen). */
    public String readyLine() {
        return process.readyLine();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The lab's exit status once it has exited. */
    public int exitValue() {
        return process.exitValue();
    }

    public ProcessHandle handle() {
        return process.handle();
    }

    /** Stops the lab (it removes its sockets and key files); returns once the log holds its last lines. */
    @Override
    public void close() throws InterruptedException {
        process.close();
    }

    /**
     * The first port of the kernel's ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range},
     * 32768 where it cannot be read): the kernel hands ports from there up to every outgoing connection,
     * so a server port chosen there can be taken at random between the check and the bind.
     */
    public static int ephemeralLow() {
        try {
            // readAllLines, not readString: Java 17's readString of this /proc file (size 0) returned "3", one byte,
            // so every base was 2000 and a second lab or bench found no free range
            return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).strip()
                    .split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }

    /** Whether every lab port of the range at {@code base} is free on 127.0.0.1 now. */
    public static boolean portRangeFree(int base) {
        for (int offset : OFFSETS) {
            try (ServerSocket s = new ServerSocket(base + offset, 1, InetAddress.getLoopbackAddress())) {
                s.setReuseAddress(true);
            } catch (IOException busy) {
                return false;
            }
        }
        return true;
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
            if (portRangeFree(base)) {
                return base;
            }
        }
        throw new IOException("no free port range found on 127.0.0.1 below the ephemeral ports (" + ephemeralLow()
                + "+)");
    }
}
