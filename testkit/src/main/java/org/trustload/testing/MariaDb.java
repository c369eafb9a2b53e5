package org.trustload.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.trustload.common.ChildProcess;

/**
 * A throwaway MariaDB server (Debian's mariadb-server) on 127.0.0.1 for the JDBC plans: a fresh data
 * directory under {@code /tmp} ({@code mariadb-install-db}), {@code mariadbd --no-defaults} in the
 * foreground as a child of the test, a database {@value #DATABASE} and a user {@value #USER} with a
 * random password (so the secrets check has a real password to look for).
 *
 * <p>{@code ./trustload fixture mariadb} runs it in the foreground for runs by hand ({@link #main}).
 */
public final class MariaDb implements AutoCloseable {

    static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");
    static final Path SERVER = Path.of("/usr/sbin/mariadbd");
    static final Path CLIENT = Path.of("/usr/bin/mariadb");
    static final String HOST = "127.0.0.1";
    static final String DATABASE = "trustload";
    static final String USER = "trustload";

    private final Path dir;
    private final int port;
    private final String password;
    private ChildProcess process;

    private MariaDb(Path dir, int port, String password) {
        this.dir = dir;
        this.port = port;
        this.password = password;
    }

    /** Skips outside CI when MariaDB is missing; on CI ({@code CI=true}) a missing server fails the test. */
    public static void assumeOrFailInCi() {
        Requirements.assumeOrFailInCi(Files.isExecutable(INSTALL_DB) && Files.isExecutable(SERVER)
                && Files.isExecutable(CLIENT),
                "the MariaDB fixture needs " + INSTALL_DB + ", " + SERVER + " and " + CLIENT
                        + " (apt-get install mariadb-server)");
    }

    /** Creates the data directory, starts the server and creates the database and its user. */
    public static MariaDb start() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "mdb"); // short: the Unix socket path is limited
        byte[] secret = new byte[12];
        new SecureRandom().nextBytes(secret);
        MariaDb db = new MariaDb(dir, FixturePorts.free(HOST), HexFormat.of().formatHex(secret));
        try {
            db.launch();
            return db;
        } catch (Exception | Error e) {
            db.close();
            throw e;
        }
    }

    private void launch() throws Exception {
        String me = System.getProperty("user.name");
        run(List.of(INSTALL_DB.toString(), "--no-defaults", "--datadir=" + dir.resolve("data"), "--user=" + me,
                "--auth-root-authentication-method=normal", "--skip-test-db"), dir.resolve("install.log"), 120);
        List<String> cmd = List.of(SERVER.toString(), "--no-defaults", "--user=" + me,
                "--datadir=" + dir.resolve("data"), "--socket=" + socket(), "--port=" + port,
                "--bind-address=" + HOST, "--pid-file=" + dir.resolve("mariadbd.pid"),
                "--log-error=" + dir.resolve("error.log"), "--skip-name-resolve", "--skip-log-bin",
                // MariaDB's own advice: a buffer pool that holds the working set (the scenario's table is
                // ~30 MB, bench reference's sysbench table ~2 MB); no binary log on a server that replicates
                // to nobody; no reverse DNS per connection (docs/fixtures.md)
                "--innodb-buffer-pool-size=128M", "--max-connections=500");
        try {
            process = ChildProcess.start("mariadbd", cmd, null, dir.resolve("console.txt"), null, null,
                    () -> Files.exists(socket()),
                    Duration.ofSeconds(60));
        } catch (ChildProcess.NotReady e) {
            throw new IOException(e.getMessage() + "\n" + log(), e);
        }
        // Root over the socket creates the user the plans log in with over TCP.
        sql("CREATE DATABASE " + DATABASE + "; CREATE USER '" + USER + "'@'" + HOST + "' IDENTIFIED BY '" + password
                + "'; GRANT ALL ON " + DATABASE + ".* TO '" + USER + "'@'" + HOST + "';");
    }

    /**
     * Runs SQL as root over the Unix socket with the {@code mariadb} client; returns its output. The statements go
     * through a file only this user can read ({@code source}), never the command line: they may hold a password.
     */
    public String sql(String statements) throws Exception {
        Path file = Files.createTempFile(dir, "sql", ".sql",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(file, statements);
            return run(List.of(CLIENT.toString(), "--no-defaults", "-S", socket().toString(), "-u", "root", "-N", "-B",
                    "-e", "source " + file), Files.createTempFile(dir, "sql", ".txt"), 60);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Runs a tool to its end (at most {@code seconds}), its output in {@code log}; returns its output. */
    private static String run(List<String> cmd, Path log, int seconds) throws Exception {
        ChildProcess.Finished f = ChildProcess.run(cmd, Duration.ofSeconds(seconds));
        Files.writeString(log, f.output());
        if (!f.ok()) {
            throw new IOException(cmd.get(0) + (f.status() == -1 ? " did not finish in " + seconds + " s, see " + log
                    : " exited with " + f.status() + ": " + f.output()));
        }
        return f.output();
    }

    private String log() throws IOException {
        Path err = dir.resolve("error.log");
        return Files.exists(err) ? Files.readString(err) : "(no error.log)";
    }


    public Path socket() {
        return dir.resolve("sock");
    }

    public int port() {
        return port;
    }

    public String password() {
        return password;
    }

    /** The JDBC URL the plans take as {@code db.url}. */
    public String url() {
        return "jdbc:mariadb://" + HOST + ":" + port + "/" + DATABASE;
    }

    /** What a plan needs to reach this server: {@code db.url}, {@code db.user}, {@code db.password}. */
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("db.url", url());
        p.put("db.user", USER);
        p.put("db.password", password);
        return p;
    }

    /**
     * Writes {@link #properties()} to {@code file} (mode 600, created anew) for a plan's {@code -q}: JMeter logs every
     * {@code -J} value, so the password never goes there. Returns {@code file}.
     */
    public Path writeProperties(Path file, String comment) throws IOException {
        java.util.Properties p = new java.util.Properties();
        p.putAll(properties());
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (var out = Files.newBufferedWriter(file)) {
            p.store(out, comment);
        }
        return file;
    }

    @Override
    public void close() throws Exception {
        if (process != null) {
            process.stop(Duration.ofSeconds(30)); // SIGTERM: a clean shutdown
        }
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /**
     * Runs the server in the foreground until SIGTERM or Ctrl-C, for {@code jdbc/mysql-select-insert}
     * by hand: writes {@code db.properties} (db.url, db.user, db.password; mode 600) into its directory
     * and prints the {@code ./trustload run} command that uses it.
     */
    public static void main(String[] args) throws Exception {
        MariaDb db = start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                db.close();
            } catch (Exception e) {
                System.err.println("cannot stop mariadbd: " + e);
            }
        }, "mariadb-stop"));
        Path props = db.writeProperties(db.dir.resolve("db.properties"),
                "throwaway MariaDB (./trustload fixture mariadb)");
        System.out.println("MariaDB on " + HOST + ":" + db.port + ", database " + DATABASE + ", user " + USER
                + " (data in " + db.dir + ")");
        System.out.println("  ./trustload run jdbc/mysql-select-insert -q " + props);
        System.out.println("Ctrl-C stops it and deletes its directory.");
        Thread.currentThread().join();
    }
}
