package org.trustload.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.trustload.testing.ConflictCheck;
import org.junit.jupiter.api.io.TempDir;

/** Checks the assembled home and the drop-in archive (runs after {@code package}). */
class DistIT {

    private static final Path HOME = Path.of(System.getProperty("trustload.jmeter.home"));
    private static final Path DROPIN = Path.of(System.getProperty("trustload.dropin.dir"));
    private static final Path ZIP = Path.of(System.getProperty("trustload.dropin.zip"));
    private static final Path TREE = Path.of(System.getProperty("trustload.dependency.tree"));
    private static final Path REPO = Path.of(System.getProperty("trustload.plugins.repo"));
    private static final Path ROOT = Path.of(System.getProperty("trustload.root", ".."));

    private static Set<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void ourJarsClashWithNothingJMeterShips() throws IOException {
        ConflictCheck.Result r = ConflictCheck.check(HOME, DROPIN, TREE);
        r.ourJars().forEach(j -> System.out.println("TrustLoad adds " + DROPIN.relativize(j)));
        assertThat(r.problems()).isEmpty();
        assertThat(r.ourJars()).extracting(j -> DROPIN.relativize(j).toString())
                .anyMatch(n -> n.matches("lib/ext/trustload-samplers-.*\\.jar"))
                .anyMatch(n -> n.matches("lib/ext/trustload-listeners-.*\\.jar"))
                .anyMatch(n -> n.matches("lib/trustload-lib-.*\\.jar"))
                .noneMatch(n -> n.contains("ApacheJMeter") || n.contains("jorphan"));
    }

    @Test
    void dropinUnzippedIntoAPristineHomeGivesTheAssembledHomeWithWorkingTlcpAndJvmStatsGraphs(@TempDir Path tmp)
            throws Exception {
        Set<String> ours = files(DROPIN);
        Path pristine = tmp.resolve("apache-jmeter");
        for (String f : files(HOME)) {
            // bin/setenv.sh: TrustLoad's bgm JVM options (JMeter ships none); the drop-in's README has the user add
            // them
            if (!ours.contains(f) && !f.equals("bin/setenv.sh")) {
                Path to = pristine.resolve(f);
                Files.createDirectories(to.getParent());
                Files.createLink(to, HOME.resolve(f)); // same file system: cheap and byte-identical
            }
        }
        try (ZipFile zip = new ZipFile(ZIP.toFile())) {
            List<? extends ZipEntry> entries = zip.stream().filter(e -> !e.isDirectory()).toList();
            assertThat(entries).extracting(ZipEntry::getName)
                    .allMatch(n -> n.equals("bin/trustload-README.txt") || n.equals("bin/trustload.properties")
                            || n.equals("bin/trustload-setenv.sh") || n.matches("lib/(ext/)?[^/]+\\.jar"))
                    .contains("bin/trustload-README.txt")
                    .containsAll(ours);
            for (ZipEntry e : entries) {
                Path to = pristine.resolve(e.getName());
                assertThat(to).as("drop-in must not overwrite JMeter's " + e.getName()).doesNotExist();
                Files.createDirectories(to.getParent());
                try (InputStream in = zip.getInputStream(e)) {
                    Files.copy(in, to);
                }
            }
        }
        Files.delete(pristine.resolve("bin/trustload-README.txt"));
        // the README's step for TLCP: cat bin/trustload-setenv.sh >> bin/setenv.sh
        Files.writeString(pristine.resolve("bin/setenv.sh"),
                Files.readString(pristine.resolve("bin/trustload-setenv.sh")),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        assertThat(files(pristine)).isEqualTo(files(HOME));
        InstallProbe.assertComplete(pristine, tmp.resolve("probe"));
        for (String f : ours) {
            assertThat(Files.mismatch(pristine.resolve(f), HOME.resolve(f))).as(f).isEqualTo(-1L);
        }
    }

    /** labkit (test PKI, TSA responder, TLCP page server) and testkit (fixtures) are for the lab and tests only. */
    @Test
    void noTestkitJarOrClassInTheHomeTheDropinOrThePluginsRepository() throws IOException {
        Set<String> testkitClasses = new TreeSet<>();
        for (String module : List.of("labkit", "testkit")) {
            Path sources = ROOT.resolve(module + "/src/main/java");
            try (Stream<Path> s = Files.walk(sources)) {
                s.filter(f -> f.toString().endsWith(".java"))
                        .map(f -> sources.relativize(f).toString().replace(".java", ".class"))
                        .forEach(testkitClasses::add);
            }
        }
        assertThat(testkitClasses).contains("org/trustload/labkit/pki/TestPki.class",
                "org/trustload/testing/Slapd.class");
        List<Path> jars = new java.util.ArrayList<>();
        for (Path dir : List.of(HOME.resolve("lib"), DROPIN, REPO)) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.filter(f -> f.toString().endsWith(".jar")).forEach(jars::add);
            }
        }
        assertThat(jars).extracting(j -> HOME.relativize(j).toString())
                .anyMatch(n -> n.matches("lib/ext/trustload-samplers-.*\\.jar"))
                .noneMatch(n -> n.contains("testkit") || n.contains("labkit"));
        try (ZipFile zip = new ZipFile(ZIP.toFile())) {
            assertThat(zip.stream().map(ZipEntry::getName))
                    .noneMatch(n -> n.contains("testkit") || n.contains("labkit"));
        }
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                assertThat(zip.stream().map(ZipEntry::getName)).as(jar.toString()).noneMatch(testkitClasses::contains);
            }
        }
    }

    @Test
    void homeRunsAPlanHeadlessAndLoadsOurJarsWithoutErrorsOrLog4jWarnings(@TempDir Path tmp) throws Exception {
        Path plan = Path.of(DistIT.class.getResource("/trivial.jmx").toURI());
        ProcessBuilder pb = new ProcessBuilder(HOME.resolve("bin/jmeter").toString(), "-n", "-t", plan.toString(),
                "-l", "results.jtl", "-j", "jmeter.log", "-e", "-o", "report")
                .directory(tmp.toFile()).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile());
        pb.environment().put("HEAP", "-Xms128m -Xmx512m");
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("JMeter finished").isTrue();
        String console = Files.readString(tmp.resolve("out.txt"));
        assertThat(p.exitValue()).as(console).isZero();
        // bin/log4j2.xml finds JMeter's GUI log appender through lib/trustload-log4j2-plugins.jar, not by
        // package scanning: Log4j's status logger prints nothing (no deprecation warning, no missing plugin)
        assertThat(console.lines().filter(l -> l.contains("StatusConsoleListener") || l.contains("package scanning")))
                .as("log4j status lines on the console").isEmpty();
        assertThat(Files.readString(HOME.resolve("bin/log4j2.xml"))).contains("<GuiLogEvent ")
                .doesNotContainPattern("<Configuration[^>]*packages=");
        String log = Files.readString(tmp.resolve("jmeter.log"));
        assertThat(log).contains("lib/ext/trustload-samplers-", "lib/ext/trustload-listeners-");
        assertThat(log.lines().filter(l -> l.contains(" ERROR ")).toList()).as("errors in jmeter.log").isEmpty();
        assertThat(Files.readAllLines(tmp.resolve("results.jtl"))).hasSize(1 + 6);
    }
}
