package org.trustload.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java package of the reactor, main or test, is declared in one module only: a package split across
 * jars (or a module's tests in another module's package) hides who owns a class and what a jar may load.
 * Reads the sources of the modules the root pom lists, so a new module is covered without a change here.
 */
class ModulePackagesTest {

    private static final Path ROOT = Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

    static List<String> modules() throws IOException {
        List<String> out = new ArrayList<>();
        Matcher m = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (m.find()) {
            out.add(m.group(1).trim());
        }
        return out;
    }

    /** Package → the modules whose {@code src/<set>/java} trees declare it. */
    static Map<String, Set<String>> packages() throws IOException {
        Map<String, Set<String>> owners = new TreeMap<>();
        for (String module : modules()) {
            Path src = ROOT.resolve(module).resolve("src");
            if (!Files.isDirectory(src)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(src)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = PACKAGE.matcher(Files.readString(f));
                    String pkg = m.find() ? m.group(1) : "(default package)";
                    owners.computeIfAbsent(pkg, k -> new TreeSet<>()).add(module);
                }
            }
        }
        return owners;
    }

    @Test
    void everyPackageIsDeclaredInOneModule() throws IOException {
        Map<String, Set<String>> owners = packages();
        assertThat(owners).containsKeys("org.trustload.pki", "org.trustload.labkit.pki", "org.trustload.testing");
        Map<String, Set<String>> split = new TreeMap<>(owners);
        split.values().removeIf(m -> m.size() == 1);
        assertThat(split).as("packages declared in more than one module").isEmpty();
    }
}
