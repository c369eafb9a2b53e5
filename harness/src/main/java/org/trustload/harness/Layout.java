package org.trustload.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where things are in a TrustLoad checkout: the assembled JMeter home, the lab jar, the plan library,
 * and the one definition of the JVM options every JMeter JVM needs.
 *
 * @param root the checkout (system property {@code trustload.root}, default the working directory)
 * @param jmeterHome the assembled home ({@code trustload.jmeter.home}, default {@code dist/target/jmeter})
 * @param javaCommand the java that JMeter and the lab are started with (default {@link #java()}, this JVM's; the
 *        tests' Java 25 pass starts them on another)
 */
public record Layout(Path root, Path jmeterHome, String javaCommand) {

    /** The layout whose JMeter and lab run on this JVM's java. */
    public Layout(Path root, Path jmeterHome) {
        this(root, jmeterHome, java());
    }

    /** This layout with JMeter and the lab started by {@code java} (a {@code bin/java}). */
    public Layout withJava(Path java) {
        return new Layout(root, jmeterHome, java.toString());
    }

    /** The layout of the checkout this JVM was started for. */
    public static Layout current() {
        Path root = Path.of(System.getProperty("trustload.root", ".")).toAbsolutePath().normalize();
        String home = System.getProperty("trustload.jmeter.home");
        return new Layout(root, home == null || home.isBlank() ? root.resolve("dist/target/jmeter") : Path.of(home));
    }

    public Path labJar() {
        return root.resolve("lab/target/trustload-lab.jar");
    }

    public Path plans() {
        return root.resolve("test-plans");
    }

    public Path catalogFile() {
        return plans().resolve("catalog.tsv");
    }

    public Path jmeterJar() {
        return jmeterHome.resolve("bin/ApacheJMeter.jar");
    }

    /**
     * {@code bin/trustload.properties}: the dashboard graphs of the JVM Stats listener (its columns are added by the
     * element itself).
     */
    public Path trustloadProperties() {
        return jmeterHome.resolve("bin/trustload.properties");
    }

    /**
     * The JVM options every java we start gets: {@code TRUSTLOAD_BGM_JVM_ARGS} of the home's
     * {@code bin/setenv.sh} (the source copy when the home is not assembled yet), their one definition
     * (the bgm GM-SSL engine needs them on Java 17).
     */
    public List<String> jvmFlags() {
        Path setenv = jmeterHome.resolve("bin/setenv.sh");
        if (!Files.exists(setenv)) {
            setenv = root.resolve("dist/src/main/jmeter/bin/setenv.sh");
        }
        try {
            for (String line : Files.readAllLines(setenv)) {
                if (line.startsWith("TRUSTLOAD_BGM_JVM_ARGS=\"")) {
                    String flags = line.substring(line.indexOf('"') + 1, line.lastIndexOf('"')).strip();
                    return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the JVM flags from " + setenv, e);
        }
        throw new IllegalStateException("no TRUSTLOAD_BGM_JVM_ARGS in " + setenv);
    }

    /** The java of this JVM ({@code ./trustload} starts the harness with the java it found). */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The JVM options of the lab's JVM: {@link #jvmFlags()} and {@code TRUSTLOAD_LAB_JVM_ARGS} (e.g. {@code -Xmx2g};
     * the tests give {@code -XX:TieredStopAtLevel=1}: a lab that serves a short run compiles less).
     */
    public List<String> labJvmFlags() {
        List<String> flags = new ArrayList<>(jvmFlags());
        flags.addAll(words(System.getenv("TRUSTLOAD_LAB_JVM_ARGS")));
        return flags;
    }

    /** Splits an option list from the environment ({@code HEAP}, {@code TRUSTLOAD_JVM_ARGS}) on blanks. */
    public static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        if (s != null) {
            for (String w : s.strip().split("\\s+")) {
                if (!w.isEmpty()) {
                    out.add(w);
                }
            }
        }
        return out;
    }

    /**
     * A new directory in the temporary directory that only this user may enter ({@code rwx------}): where a lab's
     * {@code lab.properties} (its passwords) lives, one per lab, so no two labs or runs share the file.
     */
    public static Path privateTempDir(String prefix) throws IOException {
        return Files.createTempDirectory(prefix, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
    }

    public static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
