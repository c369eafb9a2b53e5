package org.trustload.harness.engine;

import org.trustload.harness.JMeter;
import org.trustload.harness.Layout;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.results.Jtl;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.jar.JarFile;
import org.trustload.common.ChildProcess;
import org.trustload.common.Sha256;
import org.trustload.common.Version;

/**
 * What {@code run --remote} and {@code size --remote} check on the engines before the test, and the data files they
 * ship there: a one-sample plan ({@code engine-check.jmx}) run in JMeter's own distributed mode, what to check and the
 * files' content sent as {@code -G} properties over RMI/TLS, so that nothing but JMeter's port is needed and the check
 * proves the test's own path. {@link #tidy} removes what was shipped. The causes it stops on:
 * docs/distributed.md#when-a-remote-run-stops-before-the-test.
 */
public final class Preflight {

    /** Files above this are not sent (they travel as a JMeter property): the engines must hold an identical copy. */
    static final long MAX_SHIPPED_BYTES = 64L << 20;
    private static final String LABEL = "TrustLoad engine check";
    private static final String PLAN = "engine-check.jmx";

    /**
     * A data file as the controller has it.
     *
     * @param sha256 hex of its content; empty when the controller has no such file
     * @param ship whether its content goes to the engines (it exists here and is not too large)
     */
    record DataFile(Path path, String namedBy, String sha256, long size, boolean ship) {
    }

    /**
     * What a preflight found.
     *
     * @param problems each a line naming the engine (or the controller) and the cause; empty: all is well
     * @param shipped what each engine received, by engine
     * @param run the id to tidy up with
     */
    public record Result(List<String> problems, Map<String, List<String>> shipped, String run) {

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    private Preflight() {
    }

    /** JMeter's version in the home ({@code ApacheJMeter_core.jar}'s manifest), "unknown" when it cannot be read. */
    static String jmeterVersion(Layout layout) {
        try (JarFile jar = new JarFile(layout.jmeterHome().resolve("lib/ext/ApacheJMeter_core.jar").toFile())) {
            String v = jar.getManifest().getMainAttributes().getValue("Implementation-Version");
            return v == null ? "unknown" : v;
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** TrustLoad's version in the home (the lib jar's Maven descriptor, as an engine reads its own), or "unknown". */
    static String trustloadVersion(Layout layout) {
        for (String folder : List.of("lib", "lib/ext")) {
            try (var jars = Files.newDirectoryStream(layout.jmeterHome().resolve(folder), "trustload-lib-*.jar")) {
                for (Path jar : jars) {
                    Optional<String> v = Version.ofJar(jar);
                    if (v.isPresent()) {
                        return v.get();
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not there
            }
        }
        return "unknown";
    }

    /**
     * The data files of {@code jmx} with the run's properties, as this controller has them, and the problems found
     * here already (relative paths).
     */
    static List<DataFile> dataFiles(PlanFile plan, Map<String, String> props, Path jmeterHome, List<String> problems)
            throws IOException {
        List<DataFile> out = new ArrayList<>();
        for (PlanFile.InputFile f : plan.inputFiles(props)) {
            Path p = Path.of(f.path());
            if (!p.isAbsolute()) {
                problems.add("the controller: " + f.namedBy() + " names '" + f.path() + "', a relative path: remote"
                        + " engines resolve it in folders of their own; give an absolute path");
                continue;
            }
            if (p.normalize().startsWith(jmeterHome)) {
                continue; // the installation: the same on every engine (its version is checked)
            }
            if (Files.isRegularFile(p) && Files.isReadable(p)) {
                long size = Files.size(p);
                out.add(new DataFile(p, f.namedBy(), Sha256.ofFile(p), size, size <= MAX_SHIPPED_BYTES));
            } else {
                out.add(new DataFile(p, f.namedBy(), "", -1, false));
            }
        }
        return out;
    }

    /**
     * Checks every engine of {@code engines} for {@code plan} run with {@code props}, shipping its data
     * files; the check's results.jtl, jmeter.log and console go to {@code dir}.
     */
    public static Result check(JMeter jmeter, Engines engines, PlanFile plan, Map<String, String> props, Path dir,
            Duration timeout,
                        PrintStream log) throws IOException, InterruptedException {
        List<String> problems = new ArrayList<>();
        List<DataFile> files = dataFiles(plan, props, jmeter.layout().jmeterHome(), problems);
        String run = HexFormat.of().formatHex(new SecureRandom().generateSeed(8));
        Map<String, Row> rows = runCheck(jmeter, engines, dir, "check", run, files, timeout);
        String jmeterVersion = jmeterVersion(jmeter.layout());
        String trustload = trustloadVersion(jmeter.layout());
        Map<String, List<String>> shipped = new LinkedHashMap<>();
        String log0 = read(dir.resolve("jmeter.log"));
        for (String host : engines.hosts()) {
            Row r = rows.get(host);
            if (r == null) {
                problems.add("engine " + host + ": did not answer the check: it refused the plan (another or no"
                        + " TrustLoad installed there?) or its samples could not reach this controller at"
                        + " " + engines.rmiHost()
                        + " (on the ports its JVM opens, from this host's ephemeral range: open to the engines?)"
                                + errors(log0) + "; see " + dir.resolve("jmeter.log"));
                continue;
            }
            Map<String, String> id = r.identity();
            String theirs = "JMeter " + id.getOrDefault("jmeter", "?") + ", TrustLoad " + id.getOrDefault("trustload",
                    "?");
            if (!jmeterVersion.equals(id.get("jmeter")) || !trustload.equals(id.get("trustload"))) {
                problems.add("engine " + host + ": runs " + theirs + ", the controller JMeter " + jmeterVersion
                        + ", TrustLoad "
                        + trustload + ": every engine needs the controller's versions (the plan travels serialized)");
            }
            try {
                engines.cpus(host, Integer.parseInt(id.getOrDefault("cpus", "")));
            } catch (NumberFormatException e) {
                // unknown: its CPU share is then counted against one CPU... leave it out instead
            }
            for (Item item : r.items()) {
                if (item.message().startsWith("shipped ")) {
                    shipped.computeIfAbsent(host, k -> new ArrayList<>()).add(item.message()
                            .substring("shipped ".length()));
                }
                if (!item.ok()) {
                    problems.add("engine " + host + ": " + describe(item.message(), files));
                }
            }
        }
        shipped.forEach((host, paths) -> log.println("trustload: engine " + host + ": shipped " + String.join(", ",
                paths)));
        return new Result(problems, shipped, run);
    }

    /** Removes what {@link #check} shipped (what is left when an engine cannot, it says in the log). */
    public static void tidy(JMeter jmeter, Engines engines, Result checked, Path dir, Duration timeout, PrintStream log)
            throws IOException, InterruptedException {
        if (checked == null || checked.shipped().isEmpty()) {
            return;
        }
        // only engines that still answer: JMeter's controller gives up on all when one cannot be configured
        List<String> alive = checked.shipped().keySet().stream().filter(Engines::answering).toList();
        Map<String, Row> rows = alive.isEmpty() ? Map.of()
                : runCheck(jmeter, engines.only(alive), dir, "tidy", checked.run(), List.of(), timeout);
        for (String host : checked.shipped().keySet()) {
            Row r = rows.get(host);
            if (r == null) {
                log.println("trustload: engine " + host + " did not answer the tidy-up: the files shipped to it stay"
                        + " there until its JMeter exits (" + String.join(", ", checked.shipped().get(host)) + ")");
            } else {
                r.items().stream().filter(i -> !i.ok()).forEach(i -> log.println("trustload: engine " + host + ": "
                        + i.message()));
            }
        }
    }

    /** A failed file item as the user reads it, with what names the file. */
    private static String describe(String message, List<DataFile> files) {
        String word = message.substring(0, message.indexOf(' '));
        String rest = message.substring(word.length() + 1);
        Optional<DataFile> f = files.stream().filter(x -> rest.startsWith(x.path().toString())).findFirst();
        String named = f.map(x -> " (" + x.namedBy() + ")").orElse("");
        return switch (word) {
            case "missing" -> rest + named + " is missing there, and "
                    + (f.isPresent() && f.get().size() > MAX_SHIPPED_BYTES
                            ? "the controller's copy is too large to ship (" + f.get().size() / (1 << 20)
                                    + " MiB): copy it there"
                            : "the controller has none to ship");
            case "differs" -> rest.replaceFirst(":", named + " differs from the controller's copy:");
            default -> rest + named + ": " + word;
        };
    }

    private static String errors(String log) {
        List<String> lines = log.lines().filter(l -> l.contains(" ERROR ") || l.contains("Exception:"))
                .map(String::strip)
                .distinct().limit(3).toList();
        return lines.isEmpty() ? "" : "; the controller's log says: " + String.join(" | ", lines);
    }

    /** One engine's answer: its parent row (identity) and file items. */
    private record Row(Map<String, String> identity, List<Item> items) {
    }

    private record Item(boolean ok, String message) {
    }

    /** Runs the check plan on the engines and reads their answers, by engine. */
    private static Map<String, Row> runCheck(JMeter jmeter, Engines engines, Path dir, String mode, String run,
                                             List<DataFile> files, Duration timeout) throws IOException,
                                                     InterruptedException {
        Layout.deleteRecursively(dir);
        Files.createDirectories(dir);
        Path plan = dir.resolve(PLAN);
        try (InputStream in = Preflight.class.getResourceAsStream(PLAN)) {
            Files.copy(in, plan);
        }
        Path secret = Layout.privateTempDir("trustload-check");
        try {
            Path props = secret.resolve("check.properties");
            Properties p = new Properties();
            p.setProperty("trustload.check.mode", mode);
            p.setProperty("trustload.check.run", run);
            p.setProperty("trustload.check.files", Integer.toString(files.size()));
            for (int i = 0; i < files.size(); i++) {
                DataFile f = files.get(i);
                p.setProperty("trustload.check.file." + i + ".path", f.path().toString());
                p.setProperty("trustload.check.file." + i + ".sha256", f.sha256());
                if (f.ship()) {
                    p.setProperty("trustload.check.file." + i + ".data", Base64.getEncoder()
                            .encodeToString(Files.readAllBytes(f.path())));
                }
            }
            try (OutputStream out = Files.newOutputStream(props)) {
                Files.setPosixFilePermissions(props, PosixFilePermissions.fromString("rw-------"));
                p.store(out, "TrustLoad engine check (" + mode + ")");
            }
            List<String> args = new ArrayList<>(List.of("-n", "-t", plan.toString()));
            args.addAll(engines.controllerArgs());
            args.addAll(List.of("-G" + props, "-l", dir.resolve("results.jtl").toString(), "-j",
                    dir.resolve("jmeter.log").toString(),
                    "-Jjmeterengine.nongui.port=0", "-Jsummariser.name=", "-Jjmeter.save.saveservice.subresults=true"));
            args.addAll(Engines.QUIET_LOGGERS);
            try (ChildProcess check = jmeter.start("the engine check", engines.rmiHost(), args, dir,
                    dir.resolve("console.txt"),
                    null, line -> { })) {
                check.waitFor(timeout); // then stopped, if it still runs
            }
        } finally {
            Layout.deleteRecursively(secret);
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        Path jtl = dir.resolve("results.jtl");
        if (!Files.exists(jtl)) {
            return rows;
        }
        for (Jtl.Sample s : Jtl.read(jtl)) {
            String host = engines.hosts().stream().filter(h -> s.threadName().startsWith(h + "-")).findFirst()
                    .orElse(null);
            if (host == null) {
                continue;
            }
            if (s.label().equals(LABEL)) {
                Map<String, String> id = new LinkedHashMap<>();
                for (String w : s.responseMessage().split("\\s+")) {
                    int eq = w.indexOf('=');
                    if (eq > 0) {
                        id.put(w.substring(0, eq), w.substring(eq + 1));
                    }
                }
                rows.computeIfAbsent(host, k -> new Row(id, new ArrayList<>()));
                rows.put(host, new Row(id, rows.get(host).items()));
            } else if (s.label().startsWith(LABEL)) { // a sub-result: JMeter names them "<label>-N" in its CSV
                rows.computeIfAbsent(host, k -> new Row(Map.of(), new ArrayList<>())).items().add(new Item(s.success(),
                        s.responseMessage()));
            }
        }
        return rows;
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
