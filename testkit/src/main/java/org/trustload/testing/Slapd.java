package org.trustload.testing;

import com.sun.security.auth.module.UnixSystem;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.trustload.common.ChildProcess;

/**
 * A throwaway OpenLDAP {@code slapd} for tests and benchmarks: configured as the admin guide's tuning chapter
 * says (docs/fixtures.md lists each setting and its source), {@code dc=testeperformance} with {@code cn=fulano1
 * … N} loaded offline, listening on ldap and, with TLS, ldaps on 127.0.0.1, and on ldapi, where SASL EXTERNAL
 * maps this process to {@link #externalDn()}. {@link #stop()} and {@link #restart()} make a server go away and
 * come back with the same data; {@link #close()} deletes everything. Call {@link #assumeOrFailInCi()} first.
 */
public final class Slapd implements AutoCloseable {

    public static final String BASE_DN = "dc=testeperformance";
    public static final String ADMIN_DN = "cn=admin," + BASE_DN;
    public static final String HOST = "127.0.0.1";

    private static final Path SLAPD = Path.of("/usr/sbin/slapd");
    private static final Path SLAPADD = Path.of("/usr/sbin/slapadd");
    private static final Path MODULE_DIR = Path.of("/usr/lib/ldap");
    private static final Path SCHEMA_DIR = Path.of("/etc/ldap/schema");
    /** sockaddr_un.sun_path is 108 bytes including the terminating NUL. */
    private static final int MAX_SOCKET_PATH_BYTES = 107;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final int PORT_ATTEMPTS = 5;

    /** Start-up settings; immutable, change with the {@code with…} methods. */
    public static final class Options {
        private final int entries;
        private final int openFilesLimit;
        private final boolean tls;
        private final boolean statsLog;

        private Options(int entries, int openFilesLimit, boolean tls, boolean statsLog) {
            if (entries < 0) {
                throw new IllegalArgumentException("entries must be >= 0: " + entries);
            }
            // slapd itself needs a handful of descriptors (db, listeners, log) before any client.
            if (openFilesLimit < 64) {
                throw new IllegalArgumentException("openFilesLimit must be >= 64: " + openFilesLimit);
            }
            this.entries = entries;
            this.openFilesLimit = openFilesLimit;
            this.tls = tls;
            this.statsLog = statsLog;
        }

        /** 10,000 {@code fulano} entries, 4096 open files, TLS on. */
        public static Options defaults() {
            return new Options(10_000, 4096, true, false);
        }

        /** How many {@code cn=fulanoI} entries (I = 1..n) to load. */
        public Options withEntries(int n) {
            return new Options(n, openFilesLimit, tls, statsLog);
        }

        /**
         * slapd's RLIMIT_NOFILE. slapd sizes its connection table from it at start, so it caps the
         * number of concurrent clients (at 1024, roughly 1000).
         */
        public Options withOpenFilesLimit(int n) {
            return new Options(entries, n, tls, statsLog);
        }

        /** Whether to serve ldaps:// and StartTLS with a fresh self-signed certificate. */
        public Options withTls(boolean enabled) {
            return new Options(entries, openFilesLimit, enabled, statsLog);
        }

        /**
         * Whether slapd logs every operation to {@link Slapd#logFile()} (loglevel {@code stats}: each search's
         * base, filter and {@code etime}, slapd's own time). It costs slapd time: for tests and one-off
         * measurements, not for benches.
         */
        public Options withStatsLog(boolean enabled) {
            return new Options(entries, openFilesLimit, tls, enabled);
        }

        public boolean statsLog() {
            return statsLog;
        }

        public int entries() {
            return entries;
        }

        public int openFilesLimit() {
            return openFilesLimit;
        }

        public boolean tls() {
            return tls;
        }

        @Override
        public String toString() {
            return "Options[entries=" + entries + ", openFilesLimit=" + openFilesLimit + ", tls=" + tls
                    + ", statsLog=" + statsLog + "]";
        }
    }

    private final Options options;
    private final Path dir;
    private final Path socket;
    private final Path log;
    private final String adminPassword;
    private final String trustStorePassword;
    private final Thread shutdownHook;
    private int ldapPort;
    private int ldapsPort;
    private ChildProcess process;
    private Duration startupTime;
    private boolean closed;

    private Slapd(Options options, Path dir) {
        this.options = options;
        this.dir = dir;
        this.socket = dir.resolve("ldapi");
        this.log = dir.resolve("slapd.log");
        this.adminPassword = randomHex(12);
        this.trustStorePassword = randomHex(12);
        // Child processes outlive the JVM; a test run that dies without close() must not leave slapd behind.
        this.shutdownHook = new Thread(this::destroyQuietly, "slapd-" + dir.getFileName() + "-cleanup");
    }

    /** Starts with {@link Options#defaults()}. */
    public static Slapd start() {
        return start(Options.defaults());
    }

    /**
     * Prepares a fresh directory, loads the data and starts slapd; returns once it answers LDAP
     * requests on TCP and on the Unix socket.
     *
     * @throws IllegalStateException if slapd does not come up; the message ends with its log
     */
    public static Slapd start(Options options) {
        long t0 = System.nanoTime();
        Path dir;
        try {
            // Under /tmp rather than java.io.tmpdir: the socket path must stay within sun_path.
            dir = Files.createTempDirectory(Path.of("/tmp"), "sl");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir under /tmp", e);
        }
        Slapd slapd = new Slapd(options, dir);
        try {
            slapd.prepare();
            slapd.launchOnFreePorts();
        } catch (RuntimeException | Error e) {
            slapd.close();
            throw e;
        }
        slapd.startupTime = Duration.ofNanos(System.nanoTime() - t0);
        return slapd;
    }

    /** True when this machine can run the fixture: slapd, slapadd, prlimit and openssl are installed. */
    public static boolean isAvailable() {
        return Files.isExecutable(SLAPD)
                && Files.isExecutable(SLAPADD)
                && Files.isDirectory(MODULE_DIR)
                && Files.isRegularFile(SCHEMA_DIR.resolve("nis.schema"))
                && Requirements.onPath("prlimit")
                && Requirements.onPath("openssl");
    }

    /**
     * Skips the calling test when slapd is not installed, except on CI ({@code CI=true}), where a
     * missing slapd is a broken machine and fails the test instead of silently skipping coverage.
     */
    public static void assumeOrFailInCi() {
        Requirements.assumeOrFailInCi(isAvailable(),
                "slapd fixture needs " + SLAPD + ", " + SLAPADD + ", prlimit and openssl"
                        + " (apt-get install slapd ldap-utils)");
    }

    public String host() {
        return HOST;
    }

    public int ldapPort() {
        return ldapPort;
    }

    /** The ldaps:// port; {@code -1} when TLS is disabled. */
    public int ldapsPort() {
        return options.tls ? ldapsPort : -1;
    }

    public Path socketPath() {
        return socket;
    }

    /** {@code ldapi://} URL with the socket path percent-encoded (slashes as {@code %2F}). */
    public String ldapiUrl() {
        return ldapiUrl(socket);
    }

    public String ldapUrl() {
        return "ldap://" + HOST + ":" + ldapPort + "/";
    }

    /** The ldaps:// URL; throws when TLS is disabled. */
    public String ldapsUrl() {
        requireTls();
        return "ldaps://" + HOST + ":" + ldapsPort + "/";
    }

    public String baseDn() {
        return BASE_DN;
    }

    public String adminDn() {
        return ADMIN_DN;
    }

    public String adminPassword() {
        return adminPassword;
    }

    /** PKCS#12 store holding the server's self-signed certificate; throws when TLS is disabled. */
    public Path trustStorePath() {
        requireTls();
        return dir.resolve("truststore.p12");
    }

    public String trustStorePassword() {
        requireTls();
        return trustStorePassword;
    }

    /** PEM of the server certificate, for vendor clients ({@code LDAPTLS_CACERT}); throws when TLS is disabled. */
    public Path certificatePath() {
        requireTls();
        return dir.resolve("cert.pem");
    }

    /** The DN a SASL EXTERNAL bind over {@link #ldapiUrl()} from this process's uid/gid maps to. */
    public String externalDn() {
        return ADMIN_DN;
    }

    public Options options() {
        return options;
    }

    /** The fixture's temp directory (configuration, database, log). */
    public Path directory() {
        return dir;
    }

    public Path logFile() {
        return log;
    }

    /** Wall time {@link #start(Options)} took, including data load and certificate generation. */
    public Duration startupTime() {
        return startupTime;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    public synchronized long pid() {
        requireRunning();
        return process.handle().pid();
    }

    /** Number of descriptors slapd currently holds ({@code /proc/<pid>/fd}). */
    public synchronized int openFiles() {
        requireRunning();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(process.handle().pid()), "fd"))) {
            return (int) fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@link #openFiles()} once the count stops changing (unchanged over 250 ms, at most 5 s): the
     * baseline of a descriptor check. A connection a client closed just before may still be open in
     * slapd until it reads the end; counted in a baseline, it makes "baseline + N" one short.
     */
    public int settledOpenFiles() {
        long deadline = System.nanoTime() + 5_000_000_000L;
        int n = openFiles();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return n;
            }
            int m = openFiles();
            if (m == n) {
                return m;
            }
            n = m;
        }
        return n;
    }

    /** SIGTERM and wait; slapd removes its Unix socket on the way out. Idempotent. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        ChildProcess p = process;
        process = null;
        try {
            p.stop(STOP_TIMEOUT);
        } catch (InterruptedException e) {
            p.handle().destroyForcibly();
            Thread.currentThread().interrupt();
        }
        // After SIGKILL slapd leaves the socket behind and a restart would fail to bind it.
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Freezes slapd with SIGSTOP and returns once every thread of it is stopped ({@link ProcessFaults#pause}: on a
     * busy machine another thread could otherwise still answer a request). A frozen slapd accepts TCP connections
     * in the kernel and never answers. {@link #thaw()} undoes it.
     */
    public synchronized void freeze() {
        requireRunning();
        ProcessFaults.pause(process.handle().pid());
    }

    /** SIGCONT after {@link #freeze()}; returns once no thread of slapd is stopped any more. */
    public synchronized void thaw() {
        requireRunning();
        ProcessFaults.resume(process.handle().pid());
    }

    /**
     * Kills slapd with SIGKILL, as a crash or the OOM killer does: its ports refuse connections, its Unix socket
     * file stays behind (removed here, so {@link #restart()} can bind it again). {@link #restart()} brings it back
     * on the same addresses with the same data.
     */
    public synchronized void kill() {
        requireRunning();
        ProcessFaults.kill(process.handle().pid());
        stop();
    }

    /** Stops and starts slapd again on the same ports and socket, with the data as it was left. */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        stop();
        launch();
    }

    /** Stops slapd and deletes the temp directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stop();
        } finally {
            deleteTree(dir);
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException | IllegalArgumentException alreadyShuttingDownOrNotAdded) {
                // Nothing to undo: either the hook is running now or it was never registered.
            }
        }
    }

    @Override
    public String toString() {
        return "Slapd[" + ldapUrl() + (options.tls ? " " + ldapsUrl() : "") + " " + ldapiUrl() + "]";
    }

    static String ldapiUrl(Path socketPath) {
        StringBuilder url = new StringBuilder("ldapi://");
        for (byte b : socketPath.toString().getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                url.append((char) c);
            } else {
                url.append('%').append(String.format("%02X", c));
            }
        }
        return url.append('/').toString();
    }

    private void prepare() {
        byte[] socketBytes = socket.toString().getBytes(StandardCharsets.UTF_8);
        if (socketBytes.length > MAX_SOCKET_PATH_BYTES) {
            throw new IllegalStateException("socket path too long for AF_UNIX: " + socket);
        }
        try {
            Files.createDirectory(dir.resolve("db"));
            if (options.tls) {
                makeCertificate();
            }
            Files.writeString(dir.resolve("slapd.conf"), config());
            writeLdif(dir.resolve("data.ldif"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        run(List.of(SLAPADD.toString(), "-q", "-f", "slapd.conf", "-l", "data.ldif"), "slapadd");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    private String config() {
        UnixSystem me = new UnixSystem();
        StringBuilder c = new StringBuilder();
        c.append("# generated by ").append(Slapd.class.getName()).append('\n');
        c.append("modulepath ").append(MODULE_DIR).append('\n');
        c.append("moduleload back_mdb\n");
        for (String schema : List.of("core", "cosine", "inetorgperson", "nis")) {
            c.append("include ").append(SCHEMA_DIR.resolve(schema + ".schema")).append('\n');
        }
        // slapd.conf strips one level of backslashes inside quotes: "\\+" reaches the regex as "\+".
        c.append("authz-regexp \"gidNumber=").append(me.getGid()).append("\\\\+uidNumber=")
                .append(me.getUid()).append(",cn=peercred,cn=external,cn=auth\" \"")
                .append(externalDn()).append("\"\n");
        if (options.tls) {
            c.append("TLSCertificateFile ").append(dir.resolve("cert.pem")).append('\n');
            c.append("TLSCertificateKeyFile ").append(dir.resolve("key.pem")).append('\n');
        }
        // The admin guide's tuning chapter: 4 threads per real core for reads, 16 (the default) at most.
        c.append("threads ").append(threads()).append('\n');
        // No syslog here (no /dev/log): at the default "stats" slapd would try to reach it with a socket,
        // a failed connect and a close for every operation. "none" keeps the messages logged whatever the
        // level; with Options.withStatsLog the stats go to the log file through "-d stats" instead.
        c.append("loglevel none\n");
        c.append("database mdb\n");
        // Sparse file: only the pages actually written take space (slapd-mdb(5): set it large up front).
        c.append("maxsize 1073741824\n");
        c.append("suffix \"").append(BASE_DN).append("\"\n");
        c.append("rootdn \"").append(ADMIN_DN).append("\"\n");
        c.append("rootpw ").append(adminPassword).append('\n');
        c.append("directory ").append(dir.resolve("db")).append('\n');
        // back-mdb adds (objectClass=referral) to every search filter: without an objectClass index every
        // search scans its whole scope ("to make any use of indexes, you must set up an equality index on
        // objectClass", the admin guide's tuning chapter).
        c.append("index objectClass,cn,uid eq\n");
        c.append("access to * by * read\n");
        return c.toString();
    }

    /** slapd's worker threads: 4 per core (the admin guide), at most its default of 16. */
    static int threads() {
        return Math.min(16, 4 * Runtime.getRuntime().availableProcessors());
    }

    private void writeLdif(Path file) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("dn: " + BASE_DN + "\nobjectClass: dcObject\nobjectClass: organization\n"
                    + "dc: testeperformance\no: testeperformance\n\n");
            for (int i = 1; i <= options.entries; i++) {
                String name = "fulano" + i;
                w.write("dn: cn=" + name + "," + BASE_DN + "\nobjectClass: inetOrgPerson\ncn: " + name
                        + "\nsn: " + name + "\nuid: " + name + "\n\n");
            }
        }
    }

    private void makeCertificate() throws IOException {
        run(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "30", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"), "openssl");
        // Another local user reading the key would not matter for a 127.0.0.1 test server, but be tidy.
        Files.setPosixFilePermissions(dir.resolve("key.pem"), PosixFilePermissions.fromString("rw-------"));
        try (InputStream in = Files.newInputStream(dir.resolve("cert.pem"))) {
            Certificate cert = CertificateFactory.getInstance("X.509").generateCertificate(in);
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setCertificateEntry("slapd", cert);
            try (var out = Files.newOutputStream(dir.resolve("truststore.p12"))) {
                ks.store(out, trustStorePassword.toCharArray());
            }
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the trust store", e);
        }
    }

    /** Picks free ports and launches; retries when another process grabbed a port in between. */
    private synchronized void launchOnFreePorts() {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            int[] ports = FixturePorts.free(HOST, 2);
            ldapPort = ports[0];
            ldapsPort = ports[1];
            try {
                launch();
                return;
            } catch (IllegalStateException e) {
                last = e;
                String logText = readLogQuietly();
                if (!logText.contains("Address already in use")) {
                    throw e;
                }
            }
        }
        throw last;
    }

    private synchronized void launch() {
        List<String> urls = new ArrayList<>();
        urls.add(ldapUrl());
        if (options.tls) {
            urls.add("ldaps://" + HOST + ":" + ldapsPort + "/");
        }
        urls.add(ldapiUrl());
        // "-d none" stays in the foreground and logs only errors; "-d 0" would hide start-up failures.
        List<String> cmd = List.of("prlimit", "--nofile=" + options.openFilesLimit + ":" + options.openFilesLimit,
                SLAPD.toString(), "-d", options.statsLog ? "stats" : "none", "-f", dir.resolve("slapd.conf").toString(),
                "-h", String.join(" ", urls));
        LDAPException[] lastFailure = {null};
        try {
            process = ChildProcess.launch("slapd", cmd, dir, Map.of(), log, null, null);
            if (!process.awaitReady(() -> answers(lastFailure), READY_TIMEOUT)) {
                int rc = process.exitValue();
                process = null;
                throw new IllegalStateException("slapd exited with " + rc + " during start" + logTail());
            }
        } catch (ChildProcess.NotReady e) {
            long pid = process.handle().pid();
            stop();
            throw new IllegalStateException("slapd (pid " + pid + ") not ready within " + READY_TIMEOUT
                    + (lastFailure[0] == null ? "" : ", last error " + lastFailure[0].getMessage()) + logTail());
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + cmd, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for slapd", e);
        }
    }

    /** Whether it answers LDAP: the socket appears when listeners open, the root DSE once the database is open. */
    private boolean answers(LDAPException[] lastFailure) {
        LDAPConnectionOptions quick = new LDAPConnectionOptions();
        quick.setConnectTimeoutMillis(500);
        quick.setResponseTimeoutMillis(1000);
        if (!Files.exists(socket)) {
            return false;
        }
        try (LDAPConnection c = new LDAPConnection(quick, HOST, ldapPort)) {
            return c.getRootDSE() != null;
        } catch (LDAPException e) {
            lastFailure[0] = e;
            return false;
        }
    }

    private void run(List<String> cmd, String what) {
        Path out = dir.resolve(what + ".out");
        try (ChildProcess p = ChildProcess.launch(what, cmd, dir, Map.of(), out, null, null)) {
            if (!p.waitFor(Duration.ofMinutes(2))) {
                throw new IllegalStateException(what + " timed out: " + cmd);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(what + " failed with " + p.exitValue() + ": " + cmd + "\n"
                        + tail(Files.readString(out, StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + cmd, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + what, e);
        }
    }

    private void requireTls() {
        if (!options.tls) {
            throw new IllegalStateException("TLS is disabled for this slapd: " + options);
        }
    }

    private void requireRunning() {
        if (process == null) {
            throw new IllegalStateException("slapd is not running");
        }
    }

    private String logTail() {
        return "\n--- tail of " + log + " ---\n" + tail(readLogQuietly());
    }

    private String readLogQuietly() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            return "(cannot read log: " + e + ")";
        }
    }

    private static String tail(String text) {
        String[] lines = text.split("\n");
        int from = Math.max(0, lines.length - 40);
        return String.join("\n", List.of(lines).subList(from, lines.length));
    }

    private void destroyQuietly() {
        ChildProcess p = process;
        if (p != null) {
            p.handle().destroyForcibly();
        }
        deleteTree(dir);
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // Best effort: a leftover file in /tmp must not fail the test that used the fixture.
                }
            });
        } catch (IOException ignored) {
            // Same: best effort.
        }
    }

    private static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }


    /**
     * Runs a slapd in the foreground until SIGTERM or Ctrl-C, for clients run by hand ({@code ldapsearch},
     * Perl Net::LDAP, {@code ./trustload run ... --no-lab}): {@code ./trustload fixture slapd [entries=N]
     * [nofile=N] [stats]} ({@code stats}: log every operation with slapd's own time, {@code etime}, to
     * {@link #logFile()}). Prints its endpoints and the properties that point the LDAP plans at it.
     */
    public static void main(String[] args) throws InterruptedException {
        Options o = Options.defaults().withTls(true);
        for (String a : args) {
            if (a.startsWith("entries=")) {
                o = o.withEntries(Integer.parseInt(a.substring("entries=".length())));
            } else if (a.startsWith("nofile=")) {
                o = o.withOpenFilesLimit(Integer.parseInt(a.substring("nofile=".length())));
            } else if (a.equals("stats")) {
                o = o.withStatsLog(true);
            } else {
                throw new IllegalArgumentException("unknown argument '" + a + "' (entries=N, nofile=N, stats)");
            }
        }
        Slapd slapd = start(o);
        System.out.println("slapd (" + slapd.options() + ")");
        System.out.println("  " + slapd.ldapUrl() + "   " + slapd.ldapsUrl() + "   " + slapd.ldapiUrl());
        System.out.println("  admin: " + slapd.adminDn() + " (password in " + slapd.dir.resolve("slapd.conf") + ")");
        System.out.println("  CA: " + slapd.certificatePath() + ", PKCS#12 trust store: " + slapd.trustStorePath());
        System.out.println("  try: ldapwhoami -Y EXTERNAL -H '" + slapd.ldapiUrl() + "'");
        System.out.println("  ./trustload run ldap/ldap-search-200x10 -Jldap.host=" + HOST
                + " -Jldap.port=" + slapd.ldapPort()
                + " -Jldapi.socket=" + slapd.socketPath() + " -Jldap.users=" + o.entries());
        if (o.statsLog()) {
            System.out.println("  operations and their etime (slapd's own time): " + slapd.logFile());
        }
        System.out.println("Ctrl-C stops it and deletes its directory.");
        Thread.currentThread().join();
    }
}
