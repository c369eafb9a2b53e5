package org.trustload.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;

/**
 * The lab launcher: starts the chosen {@link LabService}s on 127.0.0.1 (or the one address {@code --bind}
 * names, for load generators on other hosts; never a wildcard), writes {@code lab.properties} and prints
 * {@value #READY_PREFIX}{@code <path>} once everything is up; stops on SIGTERM/SIGINT.
 *
 * <pre>
 * java -jar trustload-lab.jar [--services ldap,...] [--port-base N] [--out FILE] [--users N] [--pki-users N]
 *     [--socket-dir DIR] [--bind ADDRESS]
 * </pre>
 *
 * <p>Exit status: 2 for a usage error (including an unknown service, or a port base whose ports reach
 * the kernel's ephemeral range: {@link LabPorts}), 3 when a port, socket or the socket directory is
 * already in use ({@link LabDir}), 1 for any other start failure.
 */
public final class Lab implements AutoCloseable {

    /** The line launchers wait for, followed by the absolute path of {@code lab.properties}. */
    public static final String READY_PREFIX = "TRUSTLOAD-LAB READY ";

    /** Default {@code --port-base}. */
    public static final int DEFAULT_PORT_BASE = 10000;

    /** Default {@code --users}. */
    public static final int DEFAULT_USERS = 10000;

    /** The highest port offset any service may use (docs/lab.md lists the reserved offsets). */
    public static final int MAX_PORT_OFFSET = 8999;

    /** Largest {@code --port-base}: the highest offset ({@value #MAX_PORT_OFFSET}) must stay a valid port. */
    public static final int MAX_PORT_BASE = 65535 - MAX_PORT_OFFSET;

    static final int EXIT_FAILURE = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_IN_USE = 3;

    static final String USAGE = "usage: java -jar trustload-lab.jar [--services ldap,...] [--port-base N]"
            + " [--out FILE] [--users N] [--pki-users N] [--socket-dir DIR] [--bind ADDRESS]";

    private final Options options;
    private final List<LabService> started = new ArrayList<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private boolean propertiesWritten;
    private boolean closed;
    /** The socket directory, held while the lab runs; null until start. */
    private LabDir dir;

    private Lab(Options options) {
        this.options = options;
    }

    /**
     * Command-line options, already validated.
     *
     * @param services the services to start, in start order
     * @param portBase base for each service's fixed port offsets
     * @param out where {@code lab.properties} goes (absolute)
     * @param users number of test users
     * @param socketDir directory for Unix sockets and key material (absolute); {@code null}: the first
     *     {@code /tmp/trustload-lab-<uid>[-N]} no other lab holds, chosen at start ({@link LabDir})
     * @param pkiUsers number of pki test certificates
     * @param bind the address every listener binds ({@link LabContext#HOST} unless {@code --bind})
     */
    public record Options(List<String> services, int portBase, Path out, int users, Path socketDir,
            int pkiUsers, String bind) {

        /** Options with the default number of pki users. */
        public Options(List<String> services, int portBase, Path out, int users, Path socketDir) {
            this(services, portBase, out, users, socketDir, LabContext.DEFAULT_PKI_USERS);
        }

        /** Options on 127.0.0.1. */
        public Options(List<String> services, int portBase, Path out, int users, Path socketDir, int pkiUsers) {
            this(services, portBase, out, users, socketDir, pkiUsers, LabContext.HOST);
        }
    }

    /** A command line the lab cannot run; the message says why. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** Names of every service on the class path, in {@link ServiceLoader} order. */
    public static List<String> availableServices() {
        List<String> names = new ArrayList<>();
        for (LabService s : ServiceLoader.load(LabService.class)) {
            names.add(s.name());
        }
        return names;
    }

    /** Parses and validates a command line; {@code --help} is reported as a usage "error" with the usage text. */
    public static Options parse(String... args) throws UsageException {
        List<String> services = null;
        int portBase = DEFAULT_PORT_BASE;
        int users = DEFAULT_USERS;
        int pkiUsers = LabContext.DEFAULT_PKI_USERS;
        Path out = Paths.get("lab.properties");
        Path socketDir = null;
        String bind = LabContext.HOST;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            } else if (arg.equals("--help") || arg.equals("-h")) {
                throw new UsageException(USAGE);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new UsageException(arg.startsWith("--") ? arg + " needs a value" : "unexpected argument " + arg);
            }
            switch (arg) {
                case "--services" -> services = parseServices(value);
                case "--port-base" -> portBase = parseInt(arg, value, 1, MAX_PORT_BASE);
                case "--users" -> users = parseInt(arg, value, 0, 10_000_000);
                case "--pki-users" -> pkiUsers = parseInt(arg, value, 1, 100_000);
                case "--out" -> out = Paths.get(value);
                case "--socket-dir" -> socketDir = Paths.get(value);
                case "--bind" -> bind = bindAddress(value);
                default -> throw new UsageException("unknown option " + arg);
            }
        }
        List<String> available = availableServices();
        if (services == null) {
            services = available;
        }
        for (String s : services) {
            if (!available.contains(s)) {
                throw new UsageException("unknown service '" + s + "' (available: "
                        + String.join(",", available) + ")");
            }
        }
        Optional<LabPorts.Problem> ports = LabPorts.check(portBase, LabPorts.ephemeralRange());
        if (ports.isPresent() && ports.get().refuse()) {
            throw new UsageException(ports.get().message());
        }
        return new Options(List.copyOf(services), portBase, out.toAbsolutePath().normalize(), users,
                socketDir == null ? null : socketDir.toAbsolutePath().normalize(), pkiUsers, bind);
    }

    /**
     * {@code --bind}: an IP address of this host (a literal, so no name lookup decides where the lab listens); never
     * a wildcard, which would serve every network the host is on.
     */
    static String bindAddress(String value) throws UsageException {
        String v = value.strip().replace("[", "").replace("]", "");
        if (!v.matches("[0-9.]+|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*")) {
            throw new UsageException("--bind takes an IP address of this host, not '" + value + "'");
        }
        java.net.InetAddress a;
        try {
            a = java.net.InetAddress.getByName(v);
        } catch (java.net.UnknownHostException e) {
            throw new UsageException("--bind takes an IP address of this host, not '" + value + "'");
        }
        if (a.isAnyLocalAddress()) {
            throw new UsageException("--bind takes one address, never " + value
                    + ": the lab would listen on every network");
        }
        try {
            if (!a.isLoopbackAddress() && java.net.NetworkInterface.getByInetAddress(a) == null) {
                throw new UsageException("--bind " + value + ": no interface of this host has that address");
            }
        } catch (java.net.SocketException e) {
            throw new UsageException("--bind " + value + ": cannot list this host's addresses: " + e.getMessage());
        }
        return a.getHostAddress();
    }

    private static List<String> parseServices(String value) throws UsageException {
        List<String> names = new ArrayList<>();
        for (String s : value.split(",")) {
            String name = s.trim().toLowerCase(Locale.ROOT);
            if (!name.isEmpty() && !names.contains(name)) {
                names.add(name);
            }
        }
        if (names.isEmpty()) {
            throw new UsageException("--services needs at least one service name");
        }
        return names;
    }

    private static int parseInt(String option, String value, int min, int max) throws UsageException {
        try {
            int n = Integer.parseInt(value.trim());
            if (n < min || n > max) {
                throw new UsageException(option + " must be between " + min + " and " + max + ": " + value);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a number: " + value);
        }
    }

    /**
     * Where the default socket directories go: {@code /tmp} (short: a Unix socket path may not exceed
     * ~107 bytes), or the system property {@code trustload.lab.tmpdir} (tests).
     */
    static Path defaultSocketRoot() {
        return Paths.get(System.getProperty("trustload.lab.tmpdir", "/tmp"));
    }

    /**
     * Starts every service in {@code options}, then writes {@code lab.properties}. On failure, stops
     * what was started before rethrowing.
     */
    public static Lab start(Options options) throws Exception {
        Lab lab = new Lab(options);
        try {
            lab.startServices();
        } catch (Exception | Error e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    private synchronized void startServices() throws Exception {
        dir = options.socketDir() == null ? LabDir.takeDefault(defaultSocketRoot()) : LabDir.take(options.socketDir());
        LabPorts.check(options.portBase(), LabPorts.ephemeralRange())
                .ifPresent(p -> System.err.println("trustload-lab: warning: " + p.message()));
        Map<String, LabService> byName = new LinkedHashMap<>();
        for (LabService s : ServiceLoader.load(LabService.class)) {
            byName.putIfAbsent(s.name(), s);
        }
        LabContext ctx = new LabContext(options.portBase(), options.users(), dir.path(),
                options.pkiUsers(), options.bind());
        for (String name : options.services()) {
            LabService service = byName.get(name);
            if (closed) {
                throw new IllegalStateException("lab stopped while starting");
            }
            started.add(service);
            long t0 = System.nanoTime();
            service.start(ctx);
            System.err.printf(Locale.ROOT, "trustload-lab: %s up in %d ms%n", name,
                    (System.nanoTime() - t0) / 1_000_000);
            properties.putAll(service.properties());
        }
        writeProperties(options.out(), properties);
        propertiesWritten = true;
    }

    /** Writes {@code key=value} lines to a temporary file and renames it, so readers never see half a file. */
    static void writeProperties(Path out, Map<String, String> props) throws IOException {
        Path dir = out.getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + out.getFileName(), ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                w.write("# TrustLoad lab endpoints; written by trustload-lab and removed when it stops\n");
                for (Map.Entry<String, String> e : props.entrySet()) {
                    w.write(e.getKey() + "=" + escape(e.getValue()) + "\n");
                }
            }
            try {
                Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /*
     * Values are plain (hosts, ports, paths, DNs); only what java.util.Properties.load would misread is
     * escaped, so the file stays readable by grep and shell scripts as well.
     */
    private static String escape(String value) {
        StringBuilder sb = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (i == 0 && c == ' ') {
                        sb.append("\\ ");
                    } else if (c > 0x7e) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    /** The lab's socket directory (absolute), once started. */
    public synchronized Path socketDir() {
        return dir == null ? null : dir.path();
    }

    /** Every entry written to {@code lab.properties}, in file order. */
    public synchronized Map<String, String> properties() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** Stops every started service (last first) and removes {@code lab.properties}; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (propertiesWritten) {
            try {
                Files.deleteIfExists(options.out());
            } catch (IOException e) {
                System.err.println("trustload-lab: cannot remove " + options.out() + ": " + e);
            }
        }
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (RuntimeException e) {
                System.err.println("trustload-lab: error stopping " + started.get(i).name() + ": " + e);
            }
        }
        if (dir != null) {
            dir.close();
        }
    }

    /** Runs the lab until SIGTERM/SIGINT; see the class comment for the exit status. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, true));
    }

    /**
     * Runs the lab. With {@code block} false it returns 0 right after the READY line and leaves the
     * lab running until the JVM exits (for tests of the command line).
     */
    static int run(String[] args, PrintStream out, PrintStream err, boolean block) {
        Options options;
        try {
            options = parse(args);
        } catch (UsageException e) {
            err.println("trustload-lab: " + e.getMessage());
            if (!USAGE.equals(e.getMessage())) {
                err.println(USAGE);
            }
            return EXIT_USAGE;
        }
        Lab lab = new Lab(options);
        // Registered before starting so a signal during start-up still cleans up what is already running.
        Thread hook = new Thread(lab::close, "trustload-lab-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            lab.startServices();
        } catch (EndpointInUseException e) {
            lab.close();
            err.println("trustload-lab: cannot start: " + e.getMessage());
            return EXIT_IN_USE;
        } catch (Exception e) {
            lab.close();
            err.println("trustload-lab: cannot start: " + e);
            e.printStackTrace(err);
            return EXIT_FAILURE;
        }
        out.println(READY_PREFIX + options.out());
        out.flush();
        if (block) {
            awaitSignal();
        }
        return 0;
    }

    private static void awaitSignal() {
        CountDownLatch never = new CountDownLatch(1);
        while (true) {
            try {
                never.await();
            } catch (InterruptedException e) {
                // Only a signal (through the shutdown hook and JVM exit) ends the lab.
                Thread.interrupted();
            }
        }
    }
}
