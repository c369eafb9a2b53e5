package org.trustload.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchScope;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFSocketFactory;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/** Runs the shaded jar the way launchers do: wait for READY, use lab.properties, stop with SIGTERM. */
class LabJarIT {

    static final Path JAR = Path.of("target", "trustload-lab.jar").toAbsolutePath();

    @TempDir
    Path tmp;

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The first line a lab process prints (its READY line), waiting at most {@code seconds}. */
    static String firstLine(Process lab, int seconds) throws Exception {
        BufferedReader stdout = new BufferedReader(new InputStreamReader(lab.getInputStream(), StandardCharsets.UTF_8));
        return CompletableFuture.supplyAsync(() -> {
            try {
                return stdout.readLine();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(seconds, TimeUnit.SECONDS);
    }

    private Process launch(String... extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(javaBinary(), "-jar", JAR.toString()));
        cmd.addAll(List.of(extra));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** The lab's JVM carries what it serves from (labkit) and nothing of the tests: no JUnit, no testkit fixture. */
    @Test
    void jarCarriesLabkitButNoTestLibraryAndNoTestkitClass() throws Exception {
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            assertThat(zip.stream().map(ZipEntry::getName).toList())
                    .contains("org/trustload/labkit/pki/TestPki.class",
                            "org/trustload/labkit/gmssl/TlcpPageServer.class")
                    .noneMatch(n -> n.startsWith("org/junit/") || n.startsWith("org/opentest4j/")
                            || n.startsWith("org/assertj/") || n.startsWith("org/trustload/testing/"));
        }
    }

    @Test
    void jarStartsPrintsReadyServesAndCleansUpOnSigterm() throws Exception {
        assertThat(JAR).exists();
        Path out = tmp.resolve("lab.properties");
        Path sockets = tmp.resolve("s");
        long t0 = System.nanoTime();
        Process lab = launch("--port-base", String.valueOf(TestPorts.freeBase()), "--out", out.toString(),
                "--socket-dir", sockets.toString());
        try {
            String line = firstLine(lab, 120);
            System.err.printf("lab jar READY after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            assertThat(line).isEqualTo(Lab.READY_PREFIX + out.toAbsolutePath());

            Properties props = new Properties();
            try (Reader r = Files.newBufferedReader(out)) {
                props.load(r);
            }
            assertThat(props.getProperty("ldap.users")).isEqualTo("10000");
            Path socket = Path.of(props.getProperty("ldapi.socket"));
            assertThat(socket).isEqualTo(sockets.resolve("ldapi"));
            try (LDAPConnection c = new LDAPConnection(props.getProperty("ldap.host"),
                    Integer.parseInt(props.getProperty("ldap.port")))) {
                assertThat(c.search(props.getProperty("ldap.base"), SearchScope.SUB, "(uid=fulano9999)")
                        .getEntryCount()).isEqualTo(1);
            }
            try (LDAPConnection c = new LDAPConnection(
                    new AFSocketFactory.FixedAddressSocketFactory(AFUNIXSocketAddress.of(socket)), "127.0.0.1", 389)) {
                assertThat(c.search(props.getProperty("ldap.base"), SearchScope.SUB, "(cn=fulano1)")
                        .getEntryCount()).isEqualTo(1);
            }

            lab.destroy();
            assertThat(lab.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(socket).doesNotExist();
            assertThat(out).doesNotExist();
            assertThat(Path.of(props.getProperty("ldap.truststore"))).doesNotExist();
        } finally {
            lab.destroyForcibly();
        }
    }

    @Test
    void busyPortExitsWith3NamingThePort() throws Exception {
        int base = TestPorts.freeBase();
        try (var taken = new java.net.ServerSocket(base + 389, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            Process lab = new ProcessBuilder(javaBinary(),
                    "-jar", JAR.toString(), "--port-base", String.valueOf(base), "--users", "10",
                    "--out", tmp.resolve("lab.properties").toString(), "--socket-dir", tmp.resolve("s").toString())
                    .redirectErrorStream(true).start();
            String output = new String(lab.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(lab.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(lab.exitValue()).isEqualTo(3);
            assertThat(output).contains("127.0.0.1:" + (base + 389)).doesNotContain(Lab.READY_PREFIX);
            assertThat(tmp.resolve("lab.properties")).doesNotExist();
        }
    }

    @Test
    void unknownServiceExitsWith2() throws Exception {
        Process lab = launch("--services", "ldap,nosuch");
        assertThat(lab.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(lab.exitValue()).isEqualTo(2);
    }
}
