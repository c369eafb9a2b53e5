package org.trustload.harness.engine;

import org.trustload.harness.HarnessException;
import org.trustload.harness.JMeter;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.trustload.common.ChildProcess;

/**
 * JMeter engines ({@code ApacheJMeter.jar -s}) with RMI over SSL and one keystore for the controller and every
 * engine: {@link #start} N local ones on 127.0.0.1 ({@code run --engines}; they serve several runs until
 * {@link #close()}), {@link #serve} one for other hosts' controllers ({@code ./trustload engine}), {@link #remote}
 * ones already running elsewhere ({@code --remote}; {@link #probe}, {@link #answering}). Details:
 * docs/distributed.md.
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
    /** {@code ./trustload engine}'s registry port ({@code --port}) and a remote engine's when none is given. */
    public static final int DEFAULT_PORT = 1099;
    /** {@code ./trustload engine}'s object port ({@code --object-port}). */
    public static final int DEFAULT_OBJECT_PORT = 4000;
    /** How long a connection to a remote engine may take to open. */
    private static final int CONNECT_TIMEOUT_MS = 5000;

    private final List<ChildProcess> processes = new ArrayList<>();
    private final List<String> hosts = new ArrayList<>();
    private final List<Path> dirs = new ArrayList<>();
    private final Path rmiDir;
    /** The controller's address as remote engines see it; null for engines on this machine. */
    private final String controller;
    /** CPUs of each remote engine's JVM, as its preflight said. */
    private final Map<String, Integer> cpus = new LinkedHashMap<>();

    private Engines(Path rmiDir, String controller) {
        this.rmiDir = rmiDir;
        this.controller = controller;
    }

    /**
     * Starts {@code n} engines, one after another, with logs under {@code dir/engine-I/}, in the
     * working directory {@code workDir} (relative data-file paths resolve as on the controller: JMeter
     * does not ship data files to engines).
     */
    public static Engines start(JMeter jmeter, int n, Path dir, Path rmiDir, Path workDir, Duration timeout,
                                PrintStream log) throws HarnessException, IOException, InterruptedException {
        rmiProperties(rmiDir);
        Engines engines = new Engines(rmiDir, null);
        Set<Integer> taken = new HashSet<>();
        try {
            for (int i = 1; i <= n; i++) {
                Path edir = dir.resolve("engine-" + i);
                boolean ready = false;
                for (int attempt = 1; attempt <= ATTEMPTS && !ready; attempt++) {
                    int port = freePort(taken);
                    int objectPort = freePort(taken);
                    ChildProcess p = launch(jmeter, "127.0.0.1", port, objectPort, rmiDir, edir, workDir);
                    ready = ready(p, "127.0.0.1", port, timeout);
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
                    throw HarnessException.notExecuted("engine " + i + " could not start in " + ATTEMPTS
                            + " attempts; see " + edir);
                }
            }
            return engines;
        } catch (HarnessException | IOException | InterruptedException | RuntimeException e) {
            engines.close();
            throw e;
        }
    }

    /** An engine JVM: {@code -s} on these ports, RMI bound to {@code address}, its log and console in {@code edir}. */
    private static ChildProcess launch(JMeter jmeter, String address, int port, int objectPort, Path rmiDir, Path edir,
                                       Path workDir) throws IOException {
        Layout.deleteRecursively(edir);
        List<String> args = new ArrayList<>(List.of("-s", "-Jserver_port=" + port, "-Jserver.rmi.localport="
                + objectPort,
                "-j", edir.resolve("jmeter-server.log").toString()));
        args.addAll(rmiArgs(rmiDir));
        args.addAll(QUIET_LOGGERS);
        return jmeter.start("engine " + address + ":" + port, address, args, workDir, edir.resolve("console.txt"),
                CREATED,
                line -> { });
    }

    /**
     * {@code ./trustload engine}: one engine for controllers on other hosts, bound to {@code address} (the one
     * they reach this host at) on the registry port {@code port} and the object port {@code objectPort}, its log
     * and console in {@code dir}, working in {@code workDir}. Prints what a controller needs once the engine is
     * ready and waits until it exits (SIGTERM or Ctrl-C stop it).
     *
     * @return the engine's exit status
     */
    public static int serve(JMeter jmeter, String address, int port, int objectPort, Path rmiDir, Path dir,
            Path workDir,
                            Duration timeout, PrintStream out) throws HarnessException, IOException,
                                    InterruptedException {
        boolean created = !Files.exists(rmiDir.resolve("rmi_keystore.p12"));
        rmiProperties(rmiDir);
        if (created) {
            out.println("trustload: created a new RMI keystore in " + rmiDir + ": copy that folder to the controller"
                    + " and to every other engine (the same keystore everywhere; TRUSTLOAD_RMI_DIR names it)");
        }
        ChildProcess p = launch(jmeter, address, port, objectPort, rmiDir, dir, workDir).stopWithLauncher(() -> { });
        if (!ready(p, address, port, timeout)) {
            throw HarnessException.notExecuted("the engine exited while starting (ports " + port + " and " + objectPort
                    + " on " + address + " free?); see " + p.log() + p.tail());
        }
        out.println(READY + " " + address + ":" + port + " (JMeter " + Preflight.jmeterVersion(jmeter.layout())
                + ", TrustLoad "
                + Preflight.trustloadVersion(jmeter.layout()) + "; RMI over SSL on " + address + ": registry " + port
                + ", objects " + objectPort + "; keystore " + rmiDir.resolve("rmi_keystore.p12") + "; log "
                + dir.resolve("jmeter-server.log") + ")");
        out.println("trustload: from the controller (the same RMI keystore; TCP " + port + " and " + objectPort
                + " open to it, and this host able to reach the controller back): ./trustload run PLAN --remote "
                        + address + ":"
                + port + ",...");
        out.flush();
        return p.waitFor();
    }

    /** The line {@link #serve} prints once the engine is ready, followed by its {@code ADDRESS:PORT}. */
    public static final String READY = "TRUSTLOAD-ENGINE READY";

    /**
     * Engines already running on other hosts ({@code ./trustload engine} there), as {@code HOST:PORT}; the controller
     * binds and announces {@code controller} (its address as they see it).
     */
    public static Engines remote(List<String> hosts, Path rmiDir, String controller) throws IOException,
            InterruptedException {
        rmiProperties(rmiDir);
        Engines engines = new Engines(rmiDir, controller);
        engines.hosts.addAll(hosts);
        return engines;
    }

    /** These remote engines less the others (e.g. those that still answer). */
    Engines only(List<String> subset) {
        Engines e = new Engines(rmiDir, controller);
        e.hosts.addAll(hosts.stream().filter(subset::contains).toList());
        e.cpus.putAll(cpus);
        return e;
    }

    /** {@code HOST[:PORT],...} as {@code HOST:PORT} each (port {@value #DEFAULT_PORT} when none); IPv6 in brackets. */
    public static List<String> parseHosts(String list) throws HarnessException {
        List<String> out = new ArrayList<>();
        for (String h : list.split(",")) {
            String s = h.strip();
            if (s.isEmpty()) {
                continue;
            }
            int bracket = s.indexOf(']');
            int colon = s.indexOf(':', Math.max(0, bracket));
            boolean v6WithoutBrackets = bracket < 0 && s.indexOf(':') != s.lastIndexOf(':');
            if (v6WithoutBrackets) {
                throw HarnessException.usage("--remote: write an IPv6 engine as [ADDRESS]:PORT, not '" + s + "'");
            }
            String host = colon < 0 ? s : s.substring(0, colon);
            String port = colon < 0 ? Integer.toString(DEFAULT_PORT) : s.substring(colon + 1);
            try {
                int p = Integer.parseInt(port);
                if (p < 1 || p > 65535 || host.isBlank()) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw HarnessException.usage("--remote takes HOST[:PORT],... (port 1-65535), not '" + s + "'");
            }
            String hp = host + ":" + port;
            if (out.contains(hp)) {
                throw HarnessException.usage("--remote names " + hp + " twice");
            }
            out.add(hp);
        }
        if (out.isEmpty()) {
            throw HarnessException.usage("--remote needs HOST[:PORT],... of running engines (./trustload engine"
                    + " --bind ADDR there)");
        }
        return out;
    }

    /** Whether these are engines on other hosts ({@link #remote}). */
    public boolean isRemote() {
        return controller != null;
    }

    /** The address the controller's RMI binds and announces: 127.0.0.1, or its address as remote engines see it. */
    public String rmiHost() {
        return controller == null ? "127.0.0.1" : controller;
    }

    /** The engines as {@code HOST:PORT}, the prefix of their thread names in the results. */
    public List<String> hosts() {
        return List.copyOf(hosts);
    }

    /** The engines' jmeter-server.log files (none for remote engines: their logs stay on their hosts). */
    public List<Path> logs() {
        return dirs.stream().map(d -> d.resolve("jmeter-server.log")).toList();
    }

    /** The engine processes (e.g. to check what they listen on); none for remote engines. */
    public List<ProcessHandle> processes() {
        return processes.stream().map(ChildProcess::handle).toList();
    }

    /** CPUs each remote engine's JVM may use, as its preflight said (empty before). */
    public Map<String, Integer> cpus() {
        return Map.copyOf(cpus);
    }

    void cpus(String host, int n) {
        cpus.put(host, n);
    }

    /**
     * Controller arguments for a run on these engines: {@code -R}, the shared RMI SSL properties, and for local
     * engines retries should a registry lag behind its readiness (remote ones were checked before).
     *
     * <p>The controller's own RMI objects (one per listener and engine: the samples come back as calls to them)
     * listen on ports its JVM picks, bound to {@link #rmiHost()}: JMeter 5.6.3 cannot put them on one fixed port
     * ({@code client.rmi.localport}) with RMI over SSL, as each gets a socket factory of its own that RMI will not
     * share, so the second fails with "Listen failed on port" (apache/jmeter pull request 389 gave each kind of
     * object its own port, not each object).
     */
    public List<String> controllerArgs() {
        List<String> args = new ArrayList<>(List.of("-R", String.join(",", hosts)));
        args.addAll(rmiArgs(rmiDir));
        if (isRemote()) {
            args.add("-Jclient.tries=1");
        } else {
            args.addAll(List.of("-Jclient.tries=3", "-Jclient.retries_delay=2000"));
        }
        return args;
    }

    /**
     * The RMI SSL properties file, and the keystore's path as it is on this host (the file names the path where the
     * keystore was made; a copy on another host may live elsewhere): {@code -J} after {@code -q} wins.
     */
    static List<String> rmiArgs(Path rmiDir) {
        String keystore = rmiDir.resolve("rmi_keystore.p12").toString();
        return List.of("-q", rmiDir.resolve("rmi.properties").toString(), "-Jserver.rmi.ssl.keystore.file=" + keystore,
                "-Jserver.rmi.ssl.truststore.file=" + keystore);
    }

    /**
     * What keeps each remote engine from a run, before any JMeter starts: it does not accept a connection (no
     * engine on that port, a firewall, no route), or the TLS handshake with this controller's RMI keystore fails
     * (another keystore). Also tells the controller's address as the engines see it (the local address of these
     * connections), for {@link #remote}.
     *
     * @return problems by engine (empty: all answered), and the local address of the first connection
     */
    public static Probe probe(List<String> hosts, Path rmiDir) throws IOException, InterruptedException {
        rmiProperties(rmiDir);
        SSLContext tls = rmiTls(rmiDir);
        Map<String, String> problems = new LinkedHashMap<>();
        Map<String, String> local = new LinkedHashMap<>();
        for (String h : hosts) {
            InetSocketAddress a = address(h);
            try (Socket raw = new Socket()) {
                raw.connect(a, CONNECT_TIMEOUT_MS);
                local.put(h, raw.getLocalAddress().getHostAddress());
                raw.setSoTimeout(CONNECT_TIMEOUT_MS * 2);
                try (SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket(raw, a.getHostString(), a.getPort(),
                        false)) {
                    // TLS 1.2: the engine's verdict on our certificate is part of the handshake (in 1.3 it comes after)
                    s.setEnabledProtocols(new String[] {"TLSv1.2"});
                    s.startHandshake();
                } catch (SSLException e) {
                    problems.put(h, "refused the RMI keystore: the TLS handshake failed (" + e.getMessage() + "); the"
                            + " controller and every engine need the same rmi_keystore.p12 (copy"
                            + " " + rmiDir + " from one to the others)");
                } catch (IOException e) {
                    problems.put(h, "accepted a connection but closed it during the TLS handshake (" + e + "): is it a"
                            + " JMeter engine with RMI over SSL, and with the controller's RMI keystore?");
                }
            } catch (ConnectException e) {
                problems.put(h, "unreachable: connection refused (no engine listens on " + h + ": is ./trustload engine"
                        + " running there with this --port?)");
            } catch (SocketTimeoutException e) {
                problems.put(h, "unreachable: no answer within " + CONNECT_TIMEOUT_MS / 1000 + " s (the address, a"
                        + " route or a firewall)");
            } catch (NoRouteToHostException | UnknownHostException e) {
                problems.put(h, "unreachable: " + e.getMessage());
            } catch (IOException e) {
                problems.put(h, "unreachable: " + e);
            }
        }
        List<String> addresses = local.values().stream().distinct().toList();
        return new Probe(problems, addresses.isEmpty() ? Optional.empty() : Optional.of(addresses.get(0)),
                addresses.size() > 1 ? local : Map.of());
    }

    /**
     * What {@link #probe} found.
     *
     * @param problems by engine, what keeps it from a run
     * @param controller this host's address on the first connection (the route to the engines)
     * @param differing the local address towards each engine, when they differ (one RMI address cannot serve them all)
     */
    public record Probe(Map<String, String> problems, Optional<String> controller, Map<String, String> differing) {
    }

    /** Whether a remote engine still accepts connections on its registry port (during a run). */
    public static boolean answering(String host) {
        try (Socket s = new Socket()) {
            s.connect(address(host), 2000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
        return new InetSocketAddress(host, Integer.parseInt(hostPort.substring(colon + 1)));
    }

    /** The TLS context JMeter's RMI over SSL uses: the keystore as both key and trust store. */
    private static SSLContext rmiTls(Path rmiDir) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(rmiDir.resolve("rmi.properties"))) {
            p.load(in);
        }
        char[] password = p.getProperty("server.rmi.ssl.keystore.password", "").toCharArray();
        try (InputStream in = Files.newInputStream(rmiDir.resolve("rmi_keystore.p12"))) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, password);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the RMI keystore in " + rmiDir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (ChildProcess p : processes) {
            p.close();
        }
    }

    /** False when the engine exited while starting; throws when it is alive but not ready in time. */
    private static boolean ready(ChildProcess engine, String address, int registryPort, Duration timeout)
            throws HarnessException, IOException, InterruptedException {
        if (!HarnessException.ready(() -> engine.awaitReady(() -> accepts(address, registryPort), timeout))) {
            return false;
        }
        Thread.sleep(500); // "Cannot start" comes right after a failed registry bind: make sure it stays up
        return engine.isAlive();
    }

    private static boolean accepts(String address, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getByName(address), port), 1000);
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
        // two launchers of one checkout (an engine and a controller started together) make one keystore, not two
        try (java.nio.channels.FileChannel lock = java.nio.channels.FileChannel.open(rmiDir.resolve(".lock"),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
             java.nio.channels.FileLock held = lock.lock()) {
            if (Files.exists(props) && Files.size(props) > 0 && Files.exists(keystore) && Files.size(keystore) > 0) {
                return props;
            }
            return createRmiKeystore(rmiDir, props, keystore);
        }
    }

    private static Path createRmiKeystore(Path rmiDir, Path props, Path keystore) throws IOException,
            InterruptedException {
        Files.deleteIfExists(keystore);
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        ChildProcess.Finished keytool = ChildProcess.run(List.of(Path.of(System.getProperty("java.home"), "bin",
                "keytool").toString(),
                "-genkeypair", "-alias", "rmi", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650",
                "-dname", "CN=TrustLoad RMI", "-ext", "san=ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass:env", "RMI_PASS", "-keypass:env", "RMI_PASS"),
                Map.of("RMI_PASS", password), Duration.ofMinutes(2));
        if (!keytool.ok()) {
            throw new IOException("keytool could not create " + keystore + ": " + keytool.output());
        }
        Files.setPosixFilePermissions(keystore, PosixFilePermissions.fromString("rw-------"));
        String text = String.join("\n",
                "# RMI over SSL for JMeter's distributed mode (written by the harness; controller and engines share"
                        + " it)",
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
