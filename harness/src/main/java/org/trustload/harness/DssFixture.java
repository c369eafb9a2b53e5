package org.trustload.harness;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.trustload.common.ChildProcess;

/**
 * EU DSS 6.4's REST signature server (module {@code fixtures/dss}) as a child process, the one way the
 * launcher ({@code ./trustload fixture dss}), the tests and the pki bench start it: its own JVM and class
 * path ({@code fixtures/dss/target/dss.classpath}; JMeter never loads it), on 127.0.0.1, trusting the
 * CAs of a running lab's test PKI, fetching their CRLs from the lab and taking -T timestamps from the
 * lab's TSA, with the lab's users as its server-signing keys. Ready once it prints its READY line;
 * stopped with SIGTERM.
 */
public final class DssFixture implements AutoCloseable {
    /** The line the server prints once its endpoints listen. */
    public static final String READY = "READY ";
    /** What {@code ./trustload fixture dss} prints, with its properties file, once DSS is ready. */
    public static final String FOREGROUND_READY = "TRUSTLOAD-DSS READY ";
    /** The fixture's main class. */
    static final String MAIN = "org.trustload.fixtures.dss.DssServer";
    /** The lab properties a plan needs besides the DSS endpoint (the users, the document, the trust anchors). */
    private static final List<String> FROM_LAB = List.of("pki.keystore", "pki.keystore.password", "pki.keystore.type",
            "pki.users", "pki.aliases.revoked", "pki.aliases.expired", "pki.trust.anchors", "pki.document",
                    "pki.tsa.url",
            "pki.crl.url", "pki.dir");

    private final ChildProcess process;
    private final Map<String, String> properties = new LinkedHashMap<>();

    private DssFixture(ChildProcess process) {
        this.process = process;
    }

    /**
     * Starts DSS against the lab whose {@code lab.properties} is {@code labProperties}, logging to
     * {@code dir/dss.log}, and waits up to {@code timeout} for READY.
     *
     * @param port a fixed port, or 0 for a free one
     */
    public static DssFixture start(Layout layout, Path labProperties, Path dir, int port, Duration timeout)
            throws HarnessException, IOException, InterruptedException {
        Path jar = layout.root().resolve("fixtures/dss/target/trustload-fixture-dss-0.1.0.jar");
        Path cp = layout.root().resolve("fixtures/dss/target/dss.classpath");
        if (!Files.exists(jar) || !Files.exists(cp)) {
            throw HarnessException.notExecuted("no DSS fixture build at " + jar
                    + " (mvn -B -DskipTests package builds it)");
        }
        Path out = dir.resolve("dss-endpoint.properties");
        Files.deleteIfExists(out);
        List<String> cmd = new ArrayList<>(List.of(Layout.java(), "-Xmx384m",
                // DSS logs every call at INFO through slf4j-simple: warnings only
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", jar + ":" + Files.readString(cp).strip(), MAIN,
                "lab=" + labProperties.toAbsolutePath(), "port=" + port, "out=" + out.toAbsolutePath()));
        // its working directory is its own: DSS and CXF leave files (temp/) where they run
        DssFixture dss = new DssFixture(HarnessException.ready(() -> ChildProcess.start("DSS", cmd, dir,
                dir.resolve("dss.log"), READY, timeout)));
        Properties lab = load(labProperties);
        for (String k : FROM_LAB) {
            if (lab.getProperty(k) != null) {
                dss.properties.put(k, lab.getProperty(k));
            }
        }
        Properties endpoint = load(out);
        endpoint.stringPropertyNames().stream().sorted().forEach(k -> dss.properties.put(k, endpoint.getProperty(k)));
        return dss;
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p;
    }

    /**
     * What a pki plan needs to run against this server: {@code pki.api=dss}, {@code pki.url}, and the lab's
     * users, trust anchors, document and TSA (a secret among them: pass it to JMeter in a -q file).
     */
    public Map<String, String> properties() {
        return Map.copyOf(properties);
    }

    /** Writes {@link #properties()} to {@code file} for {@code -q}. */
    public Path writeProperties(Path file) throws IOException {
        Properties p = new Properties();
        p.putAll(properties);
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (var w = Files.newBufferedWriter(file)) {
            p.store(w, "EU DSS 6.4 fixture and the lab's test users: ./trustload run pki/<plan> -q "
                    + file.getFileName());
        }
        return file;
    }

    /** The REST base URL, e.g. {@code http://127.0.0.1:40123/services/rest}. */
    public String url() {
        return properties.get("pki.url");
    }

    public Path log() {
        return process.log();
    }

    public ProcessHandle handle() {
        return process.handle();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * {@code ./trustload fixture dss [lab=FILE] [port=N] [out=FILE]}: DSS in the foreground until Ctrl-C,
     * against the running lab whose properties are {@code lab=FILE}, or against a lab of its own (the pki
     * service, {@code TRUSTLOAD_LAB_ARGS} applies) stopped with it. Writes the properties a plan needs (the
     * lab's key store password among them) to {@code out}, by default {@code dss.properties} in a private folder
     * of its own, as the lab does (so two fixtures never share a file and none lands in the checkout), names it
     * in its {@value #FOREGROUND_READY} line and removes the folder (and {@code out}) when it stops.
     */
    static int foreground(Layout layout, List<String> args, java.io.PrintStream out)
            throws HarnessException, IOException, InterruptedException {
        Map<String, String> a = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0 || !List.of("lab", "port", "out").contains(arg.substring(0, eq))) {
                throw HarnessException.usage("fixture dss takes lab=FILE (a running lab's lab.properties), port=N,"
                        + " out=FILE; not '"
                        + arg + "'");
            }
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        // private: it holds the properties file with the lab's key store password, the lab's and DSS's logs
        Path work = Layout.privateTempDir("trustload-dss");
        Lab lab = null;
        DssFixture dss = null;
        try {
            Path labProperties;
            if (a.containsKey("lab")) {
                labProperties = Path.of(a.get("lab"));
            } else {
                labProperties = work.resolve("lab.properties");
                out.println("trustload: starting a lab (pki) for DSS's CAs, CRLs, TSA and users; log "
                        + work.resolve("lab.log"));
                lab = Lab.start(layout, "pki", labProperties, work.resolve("lab.log"),
                        Layout.words(System.getenv("TRUSTLOAD_LAB_ARGS")), Duration.ofMinutes(5));
            }
            dss = start(layout, labProperties, work, Integer.parseInt(a.getOrDefault("port", "0")),
                    Duration.ofMinutes(2));
            Path file = dss.writeProperties(a.containsKey("out") ? Path.of(a.get("out")).toAbsolutePath()
                    : work.resolve("dss.properties"));
            out.println(FOREGROUND_READY + file);
            out.println("EU DSS 6.4 REST services at " + dss.url() + " (log " + dss.log() + ")");
            out.println("  signature/one-document, server-signing (keys: the lab's users), timestamp-service");
            out.println("Point a pki plan at it (" + file
                    + " holds the lab's keystore password: keep it to yourself):");
            out.println("  ./trustload run pki/cades -q " + file);
            out.println("  ./trustload run pki/pades-t -q " + file);
            out.println("  ./trustload run pki/cades -q " + file + " -Jmode=server-key -Jpki.server.key=user0001");
            out.println("  ./trustload run pki/timestamp -q " + file + " -Jtsa_protocol=api");
            out.println("Ctrl-C stops DSS" + (lab == null ? "" : " and its lab") + " and removes " + work
                    + (a.containsKey("out") ? " and " + file : "") + ".");
            Lab runningLab = lab;
            java.util.concurrent.atomic.AtomicBoolean tidied = new java.util.concurrent.atomic.AtomicBoolean();
            AutoCloseable tidy = () -> {
                // once: Ctrl-C runs it in the launcher's hook while this thread, DSS gone, runs it too
                synchronized (tidied) {
                    if (!tidied.getAndSet(true)) {
                        if (runningLab != null) {
                            runningLab.close();
                        }
                        Files.deleteIfExists(file);
                        Layout.deleteRecursively(work);
                    }
                }
            };
            int status = dss.process.stopWithLauncher(tidy).waitFor();
            // DSS ended by itself, or the hook stopped it: the same tidying, once
            try {
                tidy.close();
            } catch (Exception e) {
                // a file left in the private temporary folder
            }
            return status == 0 || status == 143 ? 0 : ExitStatus.NOT_EXECUTED.code();
        } catch (HarnessException | IOException | RuntimeException e) {
            if (dss != null) {
                dss.close();
            }
            if (lab != null) {
                lab.close();
            }
            try {
                Layout.deleteRecursively(work);
            } catch (IOException left) {
                // the folder is private and in the temporary directory
            }
            throw e;
        }
    }

    /** SIGTERM (the server stops its endpoints), SIGKILL after 30 s. */
    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
