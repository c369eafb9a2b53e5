package org.trustload.plans;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * JMeter's distributed mode for tests: N engines ({@code ApacheJMeter.jar -s}) of the assembled home on
 * 127.0.0.1, RMI over SSL (never {@code server.rmi.ssl.disable}), each on its own free registry and
 * object ports, started with the same JVM flags as the controller ({@link JMeterProcess#jmeterCommand()}).
 * Use it with {@link JMeterProcess#run}:
 *
 * <pre>{@code
 * try (JMeterEngines engines = JMeterEngines.start(2, dir.resolve("engines"))) {
 *     List<String> args = new ArrayList<>(engines.controllerArgs());
 *     args.addAll(JMeterEngines.sendToEngines(labProperties)); // -q file and -G file
 *     JMeterProcess.run(plan, dir.resolve("run"), args, Duration.ofMinutes(2));
 *     // results.jtl holds every engine's samples; thread names start with engines.hosts().get(i) + "-"
 * }
 * }</pre>
 *
 * Engines stay up between runs (the controller is not given {@code -X}), so one set can serve several
 * plans; {@link #close()} stops them. Properties sent with {@code -G} stay set on the engines.
 */
final class JMeterEngines implements AutoCloseable {

    private static final Path RMI_DIR = Plans.DIR.resolve("target/rmi");
    /** Printed on the engine's stdout once its remote object exists (the log line is silenced below). */
    private static final String READY = "Created remote object";
    /**
     * At INFO an engine logs every property the controller sends with -G ("Applying properties {...}")
     * and, on the next run, the previous ones ("Cleaning previously set properties"), passwords
     * included: keep those loggers at WARN.
     */
    static final List<String> QUIET_LOGGERS = List.of("-Lorg.apache.jmeter.engine.StandardJMeterEngine=WARN",
            "-Lorg.apache.jmeter.engine.RemoteJMeterEngineImpl=WARN");

    private final List<Process> processes;
    private final List<String> hosts;
    private final List<Path> dirs;

    private JMeterEngines(List<Process> processes, List<String> hosts, List<Path> dirs) {
        this.processes = processes;
        this.hosts = hosts;
        this.dirs = dirs;
    }

    /** Starts {@code n} engines with logs under {@code dir/engine-I/} and waits until each is bound. */
    static JMeterEngines start(int n, Path dir) throws Exception {
        Path rmi = rmiProperties();
        List<Process> processes = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        Set<Integer> taken = new HashSet<>();
        JMeterEngines engines = new JMeterEngines(processes, hosts, dirs);
        try {
            for (int i = 1; i <= n; i++) {
                Path edir = dir.resolve("engine-" + i);
                JMeterProcess.deleteRecursively(edir);
                Files.createDirectories(edir);
                int port = freePort(taken);
                int objectPort = freePort(taken);
                List<String> cmd = new ArrayList<>(JMeterProcess.jmeterCommand());
                cmd.addAll(List.of("-s", "-Jserver_port=" + port, "-Jserver.rmi.localport=" + objectPort,
                        "-q", rmi.toString(), "-j", edir.resolve("jmeter-server.log").toString()));
                cmd.addAll(QUIET_LOGGERS);
                processes.add(new ProcessBuilder(cmd).directory(edir.toFile()).redirectErrorStream(true)
                        .redirectOutput(edir.resolve("console.txt").toFile()).start());
                hosts.add("127.0.0.1:" + port);
                dirs.add(edir);
            }
            for (int i = 0; i < n; i++) {
                String host = hosts.get(i);
                awaitReady(processes.get(i), dirs.get(i), Integer.parseInt(host.substring(host.lastIndexOf(':') + 1)));
            }
            return engines;
        } catch (Exception | Error e) {
            engines.close();
            throw e;
        }
    }

    /** The engines as {@code 127.0.0.1:port}, the prefix of their thread names in the results. */
    List<String> hosts() {
        return List.copyOf(hosts);
    }

    /** The engines' jmeter-server.log files. */
    List<Path> logs() {
        return dirs.stream().map(d -> d.resolve("jmeter-server.log")).toList();
    }

    /** The engine processes (e.g. to check what they listen on). */
    List<ProcessHandle> processes() {
        return processes.stream().map(Process::toHandle).toList();
    }

    /**
     * Controller arguments for a run on these engines: {@code -R}, the shared RMI SSL properties, no
     * UDP shutdown listener (it would bind every interface), and retries should an engine's registry
     * binding lag behind its readiness line.
     */
    List<String> controllerArgs() {
        return List.of("-R", String.join(",", hosts), "-q", RMI_DIR.resolve("rmi.properties").toString(),
                "-Jjmeterengine.nongui.port=0", "-Jclient.tries=3", "-Jclient.retries_delay=2000");
    }

    /** {@code -q file -Gfile}: properties for the controller and, as JMeter's -J is local, the engines. */
    static List<String> sendToEngines(Path properties) {
        return List.of("-q", properties.toString(), "-G" + properties);
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

    private static void awaitReady(Process engine, Path dir, int registryPort) throws Exception {
        Path console = dir.resolve("console.txt");
        for (int i = 0; i < 240; i++) {
            // READY is printed before the registry is bound: the engine is up when its registry port
            // accepts connections and it is still alive a moment later (a failed bind ends it at once)
            if (Files.exists(console) && Files.readString(console).contains(READY) && accepts(registryPort)) {
                Thread.sleep(500);
                if (engine.isAlive()) {
                    return;
                }
            }
            if (!engine.isAlive()) {
                throw new AssertionError("engine exited with " + engine.exitValue() + " before it was ready, see " + dir);
            }
            Thread.sleep(500);
        }
        throw new AssertionError("engine not ready within 120 s, see " + dir);
    }

    private static boolean accepts(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort(Set<Integer> taken) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            if (taken.add(port)) {
                return port;
            }
        }
        throw new IOException("no free port on 127.0.0.1");
    }

    /**
     * The RMI SSL keystore (keytool, once per build tree, random password) and the JMeter properties
     * file that points controller and engines at it.
     */
    static synchronized Path rmiProperties() throws Exception {
        Path props = RMI_DIR.resolve("rmi.properties");
        Path keystore = RMI_DIR.resolve("rmi_keystore.p12");
        if (Files.exists(props) && Files.exists(keystore)) {
            return props;
        }
        Files.createDirectories(RMI_DIR);
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
            throw new IllegalStateException("keytool failed: " + out);
        }
        String text = List.of(
                "# RMI over SSL for JMeter's distributed mode (tests; controller and engines share it)",
                "server.rmi.ssl.keystore.type=PKCS12",
                "server.rmi.ssl.keystore.file=" + keystore,
                "server.rmi.ssl.keystore.password=" + password,
                "server.rmi.ssl.keystore.alias=rmi",
                "server.rmi.ssl.truststore.type=PKCS12",
                "server.rmi.ssl.truststore.file=" + keystore,
                "server.rmi.ssl.truststore.password=" + password).stream().collect(Collectors.joining("\n", "", "\n"));
        Path tmp = Files.createTempFile(RMI_DIR, "rmi", ".properties",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, text);
        Files.move(tmp, props, StandardCopyOption.ATOMIC_MOVE);
        return props;
    }
}
