package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;
import org.trustload.harness.Layout;
import org.trustload.harness.Catalog;
import org.trustload.harness.Lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.trustload.testing.Slapd;

/**
 * Runs every command of the README's five-minute tour through {@code ./trustload}, as a new user types it, so the
 * tour cannot rot. The same commands, shorter runs: {@code -Jduration} capped at {@value #MAX_DURATION} s,
 * {@code -Jrampup=1}, {@code -Jwarmup_seconds=}{@value #WARMUP_SECONDS} and
 * {@code -Jresponse_timeout=}{@value #RESPONSE_TIMEOUT_MS} where a command sets none (on a busy
 * machine the lab PDP took 49 s to build its engine), labs of 1000 LDAP users instead of 10,000, a throwaway slapd for
 * the "your own directory" line, and the GUI checked once JMeter's log shows the plan loaded. Each lab gets a free
 * port range ({@code TRUSTLOAD_LAB_ARGS}) and the test JVM's socket directory ({@link PlanRunIT#socketDir()}), so
 * the pki service generates its users once; results go under target/ ({@code TRUSTLOAD_RESULTS}).
 *
 * The {@value #ON_JAVA25} line runs with {@code JAVA_HOME} at the Java 25 of {@code -Dtrustload.java25}: the launcher,
 * harness, lab and JMeter on Java 25 ({@link PlanRunJava25IT} runs the plans there with the harness in this JVM).
 *
 * <p>CI budget: ~3-4 min: fourteen commands as a user types them, each a launcher JVM with its own lab and JMeter.
 */
class ReadmeTourIT {

    private static final int MAX_DURATION = 6;
    private static final int WARMUP_SECONDS = 1;
    private static final int RESPONSE_TIMEOUT_MS = 120_000;
    private static final Path OUT = Plans.DIR.resolve("target/readme-tour");
    private static final Pattern DURATION = Pattern.compile("-Jduration=(\\d+)");
    /** The tour's run that {@code ./trustload} makes on Java 25 ({@code -Dtrustload.java25}, as ci/test passes). */
    private static final String ON_JAVA25 = "http/http-100x10";

    /** The shell lines of the README's tour block, comments and blank lines removed. */
    static List<String> tourCommands() throws IOException {
        List<String> lines = Files.readAllLines(Plans.ROOT.resolve("README.md"));
        int heading = lines.indexOf("## A five-minute tour");
        assertThat(heading).as("README has the '## A five-minute tour' section").isNotNegative();
        int open = heading + 1;
        while (!lines.get(open).startsWith("```")) {
            open++;
        }
        List<String> commands = new ArrayList<>();
        for (int i = open + 1; !lines.get(i).startsWith("```"); i++) {
            String line = lines.get(i).replaceAll("\\s+#.*$", "").strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                commands.add(line);
            }
        }
        return commands;
    }

    @TestFactory
    Stream<DynamicTest> everyTourCommandWorks() throws IOException {
        List<String> commands = tourCommands();
        assertThat(commands).as("tour commands").isNotEmpty();
        return commands.stream().map(c -> DynamicTest.dynamicTest(c, () -> check(c)));
    }

    private static void check(String command) throws Exception {
        assertThat(command).as("tour lines are plain ./trustload commands (no pipes or variables)")
                .startsWith("./trustload ").doesNotContain("\"", "|", "$", ";", "&");
        List<String> words = new ArrayList<>(Arrays.asList(command.split("\\s+")));
        // -Jname='value' as the shell hands it over: a filter's parentheses and brackets need the quotes
        words.replaceAll(w -> w.matches("-J[^=']+='[^']*'") ? w.replaceFirst("='", "=").substring(0, w.length() - 2)
                : w);
        assertThat(String.join(" ", words)).as("only a -J value is quoted, whole: -Jname='value'").doesNotContain("'");
        switch (words.get(1)) {
            case "list" -> list(words);
            case "run" -> run(words);
            case "gui" -> gui(words);
            case "lab" -> lab(words);
            default -> throw new AssertionError("the tour test does not know './trustload " + words.get(1) + "'");
        }
    }

    private static void list(List<String> words) throws Exception {
        Result r = launch(words, OUT.resolve("list"), 60);
        assertThat(r.status).as(r.describe()).isZero();
        for (String id : Plans.catalog().keySet()) {
            assertThat(r.output).as("./trustload list names " + id).contains(id);
        }
    }

    private static void run(List<String> words) throws Exception {
        String plan = words.get(2);
        Catalog.Entry entry = Plans.catalog().get(plan);
        assertThat(entry).as(plan + " is a catalog plan").isNotNull();
        shorten(words);
        Slapd slapd = null;
        try {
            if (words.stream().anyMatch(w -> w.startsWith("-Jldap.host=") && !w.endsWith("=127.0.0.1"))) {
                // "the same plan against your own directory": a real OpenLDAP server stands in for it
                Slapd.assumeOrFailInCi();
                slapd = Slapd.start(Slapd.Options.defaults().withEntries(100).withTls(false));
                replace(words, "-Jldap.host=", slapd.host());
                replace(words, "-Jldap.port=", Integer.toString(slapd.ldapPort()));
                replace(words, "-Jldap.base=", slapd.baseDn());
                replace(words, "-Jfilter=", "(uid=fulano[1-100])"); // what the stand-in directory holds
            }
            Path dir = OUT.resolve(safe(String.join(" ", words.subList(1, words.size()))));
            // the launcher itself (harness, lab and JMeter) on Java 25 once, with the JAVA_HOME a user would set
            boolean java25 = plan.equals(ON_JAVA25) && Plans.java25().isPresent();
            Result r = launch(words, dir, 600,
                    java25 ? Map.of("JAVA_HOME", Plans.java25().get().toString()) : Map.of());
            assertThat(r.status).as(r.describe()).isZero();
            if (slapd != null) {
                assertThat(r.output).as("no lab is started for a real server").doesNotContain("starting lab");
            }
            try (Stream<Path> found = Files.walk(dir.resolve("results"))) {
                Path stats = found.filter(p -> p.endsWith(Path.of("report", "statistics.json"))).findFirst()
                        .orElseThrow(() -> new AssertionError("no report/statistics.json under " + dir));
                JsonNode total = new ObjectMapper().readTree(stats.toFile()).path("Total");
                assertThat(total.path("sampleCount").asLong()).as("samples, see " + stats).isPositive();
                assertThat(total.path("errorCount").asLong()).as("errors, see " + stats).isZero();
                assertThat(stats.getParent().getParent().resolve("summary.txt")).isNotEmptyFile();
                if (java25) {
                    assertThat(stats.getParent().getParent().resolve("jmeter.log")).as("JMeter on Java 25")
                            .content().contains("java.version=25");
                }
            }
        } finally {
            if (slapd != null) {
                slapd.close();
            }
        }
    }

    /** The GUI opens with the plan while its lab serves; closing it stops the lab. */
    private static void gui(List<String> words) throws Exception {
        assertThat(System.getenv("DISPLAY")).as("a display (ci/test runs Maven under xvfb-run)").isNotBlank();
        Path dir = OUT.resolve("gui");
        Files.createDirectories(dir);
        // the GUI's log, in the working directory: this session's only
        Path jmeterLog = Plans.ROOT.resolve("jmeter.log");
        Files.deleteIfExists(jmeterLog);
        Process p = start(words, dir);
        try {
            Path labLog = dir.resolve("results/gui/lab.log");
            waitFor(() -> Files.exists(labLog) && Files.readString(labLog).contains("TRUSTLOAD-LAB READY"),
                    600, p, dir);
            // the GUI is up when JMeter has loaded the plan (it logs the file name): waited for, not a fixed time
            String plan = Path.of(words.get(2)).getFileName().toString();
            waitFor(() -> Files.exists(jmeterLog) && Files.readString(jmeterLog).lines()
                    .anyMatch(l -> l.contains("Loading file: ") && l.contains(plan)), 600, p, dir);
            assertThat(p.isAlive()).as("the GUI keeps running, see " + dir.resolve("console.txt")).isTrue();
            Path props = readyPath(Files.readString(labLog));
            assertThat(props).as("the lab's endpoints for the GUI session, in a folder of the lab's own").exists()
                    .satisfies(f -> assertThat(f.startsWith(Plans.ROOT)).as(f + " outside the checkout").isFalse());
            assertThat(Files.readString(jmeterLog)).doesNotContain("ERROR o.a.j.JMeter");
        } finally {
            List<ProcessHandle> started = stopTree(p);
            assertThat(started.stream().filter(ProcessHandle::isAlive)).as("nothing left running (lab, JMeter)")
                    .isEmpty();
        }
    }

    /**
     * The lab alone, in the foreground: READY with a lab.properties in a folder of its own, gone (file too) on
     * SIGTERM. A second lab started from the same checkout at the same time keeps a lab.properties of its own.
     */
    private static void lab(List<String> words) throws Exception {
        Path dir = OUT.resolve("lab");
        Path dir2 = OUT.resolve("lab-2");
        Files.createDirectories(dir);
        Files.createDirectories(dir2);
        Path socketDir2 = Files.createTempDirectory(Path.of("/tmp"), "tl");
        Process p = start(words, dir);
        Process p2 = start(words, dir2,
                // a second lab beside the first: a range of its own, not this thread's
                Map.of("TRUSTLOAD_LAB_ARGS", "--port-base " + Lab.freePortBase() + " --socket-dir "
                + socketDir2 + " --users 10"));
        try {
            waitFor(() -> Files.readString(dir.resolve("console.txt")).contains("TRUSTLOAD-LAB READY"), 600, p, dir);
            waitFor(() -> Files.readString(dir2.resolve("console.txt")).contains("TRUSTLOAD-LAB READY"), 600, p2, dir2);
            Path props = readyPath(Files.readString(dir.resolve("console.txt")));
            Path props2 = readyPath(Files.readString(dir2.resolve("console.txt")));
            assertThat(props).exists().isNotEqualTo(props2);
            assertThat(props.getParent()).isNotEqualTo(props2.getParent());
            assertThat(props2).exists();
            assertThat(Plans.load(props).getProperty("ldap.port")).as("each lab's own endpoints")
                    .isNotEqualTo(Plans.load(props2).getProperty("ldap.port"));
            for (Process lab : List.of(p, p2)) {
                lab.destroy(); // SIGTERM to the launcher: it stops its lab
                assertThat(lab.waitFor(30, TimeUnit.SECONDS)).as("the lab stops on SIGTERM").isTrue();
            }
            assertThat(props).as("the lab's lab.properties and its folder are removed").doesNotExist();
            assertThat(props.getParent()).doesNotExist();
            assertThat(props2).doesNotExist();
        } finally {
            stopTree(p);
            stopTree(p2);
            Layout.deleteRecursively(socketDir2);
        }
    }

    /** The lab.properties a READY line ({@code TRUSTLOAD-LAB READY <path>}) in {@code text} names. */
    private static Path readyPath(String text) {
        return text.lines().filter(l -> l.contains(Lab.READY)).findFirst()
                .map(l -> Path.of(l.substring(l.indexOf(Lab.READY) + Lab.READY.length()).strip()))
                .orElseThrow(() -> new AssertionError("no " + Lab.READY + " line in " + text));
    }

    // --- plumbing ---

    private record Result(int status, String output, Path dir) {
        String describe() {
            return "exit status of the tour command, output in " + dir.resolve("console.txt") + ":\n"
                    + output.lines().skip(Math.max(0, output.lines().count() - 25)).reduce("", (a, b) -> a + b + "\n");
        }
    }

    private static Result launch(List<String> words, Path dir, int timeoutSeconds) throws Exception {
        return launch(words, dir, timeoutSeconds, Map.of());
    }

    private static Result launch(List<String> words, Path dir, int timeoutSeconds, Map<String, String> env)
            throws Exception {
        Layout.deleteRecursively(dir);
        Files.createDirectories(dir);
        Process p = start(words, dir, env);
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            stopTree(p);
            throw new AssertionError(words + " did not finish in " + timeoutSeconds + " s, see " + dir);
        }
        return new Result(p.exitValue(), Files.readString(dir.resolve("console.txt"), StandardCharsets.UTF_8), dir);
    }

    private static Process start(List<String> words, Path dir) throws Exception {
        return start(words, dir, Map.of());
    }

    /** The command from {@code dir}'s console, with {@code env} over the tour's environment. */
    private static Process start(List<String> words, Path dir, Map<String, String> moreEnv) throws Exception {
        List<String> cmd = new ArrayList<>(words);
        cmd.set(0, Plans.ROOT.resolve("trustload").toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(Plans.ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("console.txt").toFile());
        Map<String, String> env = pb.environment();
        env.put("TRUSTLOAD_RESULTS", dir.resolve("results").toString());
        env.put("TRUSTLOAD_LAB_ARGS", "--port-base " + PlanRunIT.portBase() + " --socket-dir " + PlanRunIT.socketDir()
                + " --users 1000");
        env.put("HEAP", "-Xms256m -Xmx1g");
        Plans.launcherEnvironment(env); // JMeter's JIT (a tour run measures nothing), a lab's time to start
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.putAll(moreEnv);
        return pb.start();
    }

    private static void shorten(List<String> words) {
        if (words.stream().noneMatch(w -> w.startsWith("-Jrampup="))) {
            words.add("-Jrampup=1");
        }
        if (words.stream().noneMatch(w -> w.startsWith("-Jwarmup_seconds="))) {
            words.add("-Jwarmup_seconds=" + WARMUP_SECONDS); // ldap-vs-ldaps-vs-ldapi: 3 x (10 + 10 s settle)
        }
        if (words.stream().noneMatch(w -> w.startsWith("-Jresponse_timeout="))) {
            words.add("-Jresponse_timeout=" + RESPONSE_TIMEOUT_MS);
        }
        for (int i = 0; i < words.size(); i++) {
            Matcher m = DURATION.matcher(words.get(i));
            if (m.matches() && Integer.parseInt(m.group(1)) > MAX_DURATION) {
                words.set(i, "-Jduration=" + MAX_DURATION);
            }
        }
    }

    private static void replace(List<String> words, String prefix, String value) {
        words.replaceAll(w -> w.startsWith(prefix) ? prefix + value : w);
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._=-]+", "_");
    }

    private interface Check {
        boolean ok() throws IOException;
    }

    private static void waitFor(Check check, int seconds, Process p, Path dir) throws Exception {
        for (int i = 0; i < seconds * 5; i++) {
            if (check.ok()) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError("exited with " + p.exitValue() + ", see " + dir.resolve("console.txt"));
            }
            Thread.sleep(200);
        }
        throw new AssertionError("not ready within " + seconds + " s, see " + dir);
    }

    /** Stops the launcher and everything it started (JMeter, the lab); returns them all. */
    private static List<ProcessHandle> stopTree(Process p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.add(p.toHandle());
        for (ProcessHandle h : all) {
            h.destroy();
        }
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
        return all;
    }
}
