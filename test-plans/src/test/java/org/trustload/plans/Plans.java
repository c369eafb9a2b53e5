package org.trustload.plans;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The plan library as the tests see it: every {@code .jmx} under {@code test-plans/}, its
 * {@code catalog.tsv} row and its {@code .smoke.properties} sidecar.
 */
final class Plans {

    static final Path ROOT = Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
    static final Path DIR = ROOT.resolve("test-plans");
    static final Path HOME = Path.of(System.getProperty("trustload.jmeter.home",
            ROOT.resolve("dist/target/jmeter").toString()));
    static final Path LAB_JAR = ROOT.resolve("lab/target/trustload-lab.jar");

    /** A catalog row: plan id, lab services (empty: none), target property, description. */
    record Entry(String id, List<String> services, String targetProperty, String description) {
    }

    /** A plan file and its id (path under test-plans/ without .jmx, e.g. ldap/ldap-search-200x10). */
    record Plan(String id, Path jmx) {
        Path smokeProperties() {
            return jmx.resolveSibling(jmx.getFileName().toString().replaceFirst("\\.jmx$", ".smoke.properties"));
        }

        @Override
        public String toString() {
            return id;
        }
    }

    private Plans() {
    }

    static List<Plan> all() {
        try (Stream<Path> s = Files.walk(DIR)) {
            List<Plan> plans = s.filter(p -> p.toString().endsWith(".jmx"))
                    .filter(p -> !DIR.relativize(p).startsWith("target") && !DIR.relativize(p).startsWith("src"))
                    .sorted()
                    .map(p -> new Plan(DIR.relativize(p).toString().replaceFirst("\\.jmx$", ""), p))
                    .toList();
            if (plans.isEmpty()) {
                System.out.println("No .jmx plans under " + DIR + ": nothing to test.");
            }
            return plans;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Entry> catalog() throws IOException {
        Map<String, Entry> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(DIR.resolve("catalog.tsv"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length < 4) {
                throw new IllegalStateException("catalog.tsv: expected 4 tab-separated columns: " + line);
            }
            List<String> services = f[1].isBlank() || f[1].equals("-") ? List.of() : List.of(f[1].split(","));
            rows.put(f[0], new Entry(f[0], services, f[2], f[3]));
        }
        return rows;
    }

    static Optional<Entry> entry(Plan plan) throws IOException {
        return Optional.ofNullable(catalog().get(plan.id()));
    }

    /**
     * A real server a plan's smoke run asks for with {@code fixture=NAME} in its sidecar (plans whose
     * catalog row lists no lab service because the lab cannot stand in for the server).
     */
    interface Fixture extends AutoCloseable {
        /** The properties that point the plan at this server (passed to JMeter in a -q file). */
        Map<String, String> properties();
    }

    /** Starts the fixture {@code name} ({@code mariadb}); skips or fails like the fixture's own tests when it is not installed. */
    static Fixture startFixture(String name) throws Exception {
        switch (name) {
            case "mariadb" -> {
                MariaDb.assumeOrFailInCi();
                return MariaDb.start();
            }
            default -> throw new IllegalArgumentException("unknown fixture '" + name + "' (known: mariadb)");
        }
    }

    static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p;
    }
}
