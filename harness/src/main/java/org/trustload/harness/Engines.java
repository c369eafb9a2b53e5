package org.trustload.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * JMeter's distributed mode on this machine: N engines ({@code ApacheJMeter.jar -s}) on 127.0.0.1 with
 * RMI over SSL (never {@code server.rmi.ssl.disable}, which listens on every interface), each on its
 * own registry and object ports below the ephemeral range. An engine is ready when its RMI registry
 * port accepts connections ("Created remote object" is printed before the registry is bound); one that
 * dies while starting (a port taken meanwhile) is started again on other ports, up to 3 times.
 * Engines stay up until {@link #close()}, so one set can serve several runs.
 */
public final class Engines implements AutoCloseable {

    /** Printed on the engine's stdout once its remote object exists. */
    private static final String CREATED = "Created remote object";
    /**
     * At INFO an engine logs every property the controller sends with -G ("Applying properties {...}")
     * and, on the next run, the previous ones, passwords included: keep those loggers at WARN.
     */
    public static final List<String> QUIET_LOGGERS = List.of("-Lorg.apache.jmeter.engine.StandardJMeterEngine=WARN",
            "-Lorg.apache.jmeter.engine.RemoteJMeterEngineImpl=WARN");
    private static final int ATTEMPTS = 3;

    private final List<Process> processes = new ArrayList<>();
    private final List<String> hosts = new ArrayList<>();
    private final List<Path> dirs = new ArrayList<>();
    private final Path rmiProperties;

    private Engines(Path rmiProperties) {
        this.rmiProperties = rmiProperties;
    }

    /**
     * Starts {@code n} engines, one after another, with logs under {@code dir/engine-I/}, in the
     * working directory {@code workDir} (relative data-file paths resolve as on the controller: JMeter
     * does not ship data files to engines).
     */
    public static Engines start(JMeter jmeter, int n, Path dir, Path rmiDir, Path workDir, Duration timeout,
                                PrintStream log) throws HarnessException, IOException, InterruptedException {
        Engines engines = new Engines(rmiProperties(rmiDir));
        Set<Integer> taken = new HashSet<>();
        try {
            for (int i = 1; i <= n; i++) {
                Path edir = dir.resolve("engine-" + i);
                boolean ready = false;
                for (int attempt = 1; attempt <= ATTEMPTS && !ready; attempt++) {
                    Layout.deleteRecursively(edir);
                    Files.createDirectories(edir);
                    int port = freePort(taken);
                    int objectPort = freePort(taken);
                    List<String> cmd = new ArrayList<>(jmeter.command());
                    cmd.addAll(List.of("-s", "-Jserver_port=" + port, "-Jserver.rmi.localport=" + objectPort,
                            "-q", engines.rmiProperties.toString(), "-j", edir.resolve("jmeter-server.log").toString()));
                    cmd.addAll(QUIET_LOGGERS);
                    Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
                            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                            .redirectOutput(edir.resolve("console.txt").toFile()).start();
                    ready = awaitReady(p, edir, port, timeout);
                    if (ready) {
                        engines.processes.add(p);
                        engines.hosts.add("127.0.0.1:" + port);
                        engines.dirs.add(edir);
                    } else {
                        log.println("trustload: engine " + i + " (port " + port + ") exited while starting (attempt "
                                + attempt + "); see " + edir.resolve("console.txt"));
                    }
                }
                if (!ready) {
                    throw HarnessException.notExecuted("engine " + i + " could not start in " + ATTEMPTS + " attempts; see " + edir);
                }
            }
            return engines;
        } catch (HarnessException | IOException | InterruptedException | RuntimeException e) {
            engines.close();
            throw e;
        }
    }

    /** The engines as {@code 127.0.0.1:port}, the prefix of their thread names in the results. */
    public List<String> hosts() {
        return List.copyOf(hosts);
    }

    /** The engines' jmeter-server.log files. */
    public List<Path> logs() {
        return dirs.stream().map(d -> d.resolve("jmeter-server.log")).toList();
    }

    /** The engine processes (e.g. to check what they listen on). */
    public List<ProcessHandle> processes() {
        return processes.stream().map(Process::toHandle).toList();
    }

    /**
     * Controller arguments for a run on these engines: {@code -R}, the shared RMI SSL properties, and
     * retries should an engine's registry lag behind its readiness.
     */
    public List<String> controllerArgs() {
        return List.of("-R", String.join(",", hosts), "-q", rmiProperties.toString(),
                "-Jclient.tries=3", "-Jclient.retries_delay=2000");
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(15, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    /** False when the engine exited while starting; throws when it is alive but not ready in time. */
    private static boolean awaitReady(Process engine, Path dir, int registryPort, Duration timeout)
            throws HarnessException, IOException, InterruptedException {
        Path console = dir.resolve("console.txt");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!engine.isAlive()) {
                return false;
            }
            if (Files.exists(console) && Files.readString(console).contains(CREATED) && accepts(registryPort)) {
                Thread.sleep(500); // "Cannot start" comes right after a failed registry bind: make sure it stays up
                if (engine.isAlive()) {
                    return true;
                }
                return false;
            }
            Thread.sleep(200);
        }
        engine.destroyForcibly();
        throw HarnessException.notExecuted("engine was not ready within " + timeout.toSeconds() + " s; see " + dir);
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A port nobody listens on at 127.0.0.1, not handed out before, and below the kernel's ephemeral
     * range (32768+ by default), so an outgoing connection cannot take it between this check and the
     * engine's bind.
     */
    static int freePort(Set<Integer> taken) throws IOException {
        int low = Lab.ephemeralLow();
        if (low <= 21000) {
            low = 32768;
        }
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20000, low);
            if (taken.contains(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                s.setReuseAddress(true);
            } catch (IOException busy) {
                continue;
            }
            taken.add(port);
            return port;
        }
        throw new IOException("no free TCP port found on 127.0.0.1");
    }

    /**
     * The RMI SSL keystore (keytool, once per {@code rmiDir}, random password, mode 600) and the JMeter
     * properties file that points controller and engines at it.
     */
    public static synchronized Path rmiProperties(Path rmiDir) throws IOException, InterruptedException {
        Path props = rmiDir.resolve("rmi.properties");
        Path keystore = rmiDir.resolve("rmi_keystore.p12");
        if (Files.exists(props) && Files.size(props) > 0 && Files.exists(keystore) && Files.size(keystore) > 0) {
            return props;
        }
        Files.createDirectories(rmiDir);
        try {
            Files.setPosixFilePermissions(rmiDir, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system
        }
        Files.deleteIfExists(keystore);
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        ProcessBuilder keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "rmi", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650",
                "-dname", "CN=TrustLoad RMI", "-ext", "san=ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass:env", "RMI_PASS", "-keypass:env", "RMI_PASS")
                .redirectErrorStream(true);
        keytool.environment().put("RMI_PASS", password);
        Process p = keytool.start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException("keytool could not create " + keystore + ": " + out);
        }
        Files.setPosixFilePermissions(keystore, PosixFilePermissions.fromString("rw-------"));
        String text = String.join("\n",
                "# RMI over SSL for JMeter's distributed mode (written by the harness; controller and engines share it)",
                "server.rmi.ssl.keystore.type=PKCS12",
                "server.rmi.ssl.keystore.file=" + keystore,
                "server.rmi.ssl.keystore.password=" + password,
                "server.rmi.ssl.keystore.alias=rmi",
                "server.rmi.ssl.truststore.type=PKCS12",
                "server.rmi.ssl.truststore.file=" + keystore,
                "server.rmi.ssl.truststore.password=" + password) + "\n";
        Path tmp = Files.createTempFile(rmiDir, "rmi", ".properties",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, text);
        Files.move(tmp, props, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return props;
    }

}
