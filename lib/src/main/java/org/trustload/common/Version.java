package org.trustload.common;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The TrustLoad version of an installation, as Maven wrote it into the lib jar ({@value #ENTRY}): read from
 * the class path by a JVM that runs TrustLoad (an engine), or from the jar file of a JMeter home by a JVM that
 * only looks at one (the harness). Both read the same entry, so an engine and its controller compare like
 * with like.
 */
public final class Version {

    /** Maven's descriptor of the lib jar ({@code addMavenDescriptor}, on by default). */
    public static final String ENTRY = "META-INF/maven/org.trustload/trustload-lib/pom.properties";

    private Version() {
    }

    /** The version of the lib jar on this class path; empty when it has no descriptor (classes from a build folder). */
    public static Optional<String> current() {
        try (InputStream in = Version.class.getClassLoader().getResourceAsStream(ENTRY)) {
            return in == null ? Optional.empty() : version(in);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The version written in the lib jar {@code jar}; empty when it has no descriptor. */
    public static Optional<String> ofJar(Path jar) throws IOException {
        try (ZipFile z = new ZipFile(jar.toFile())) {
            ZipEntry e = z.getEntry(ENTRY);
            if (e == null) {
                return Optional.empty();
            }
            try (InputStream in = z.getInputStream(e)) {
                return version(in);
            }
        }
    }

    private static Optional<String> version(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "").strip();
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }
}
