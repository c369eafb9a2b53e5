package org.trustload.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchScope;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFSocketFactory;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * Two labs of one user side by side with the default socket directory (the issue: the one that stopped
 * deleted the other's generated key material): each takes a directory of its own, and stopping either
 * one, the first started or the second, leaves the other's files and services working.
 */
class TwoLabsIT {

    @TempDir
    Path tmp;

    /** A lab jar process with its READY line read and its lab.properties loaded. */
    private record RunningLab(Process process, Properties properties) {
        Path socketDir() {
            return Path.of(properties.getProperty("ldapi.socket")).getParent();
        }

        void stop() throws InterruptedException {
            process.destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    private RunningLab start(String name) throws Exception {
        Path out = tmp.resolve(name + ".properties");
        // services with generated files in the socket directory: the ldapi socket, TLS stores, the GM-SSL PKI
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dtrustload.lab.tmpdir=" + tmp, "-jar", LabJarIT.JAR.toString(), "--services", "ldap,gmssl",
                "--users", "10", "--port-base", String.valueOf(TestPorts.freeBase()), "--out", out.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line = LabJarIT.firstLine(p, 180);
        assertThat(line).isEqualTo(Lab.READY_PREFIX + out);
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(out)) {
            props.load(r);
        }
        return new RunningLab(p, props);
    }

    /** Every file lab.properties names still exists, and the LDAP service answers over TCP and ldapi. */
    private static void assertWorking(RunningLab lab) throws Exception {
        assertThat(lab.process().isAlive()).isTrue();
        List<Path> files = lab.properties().stringPropertyNames().stream().map(lab.properties()::getProperty)
                .filter(v -> v.startsWith(lab.socketDir().toString())).map(Path::of).toList();
        assertThat(files).as("generated files in " + lab.socketDir()).hasSizeGreaterThan(3).allMatch(Files::exists);
        try (LDAPConnection c = new LDAPConnection(lab.properties().getProperty("ldap.host"),
                Integer.parseInt(lab.properties().getProperty("ldap.port")))) {
            assertThat(c.search(lab.properties().getProperty("ldap.base"), SearchScope.SUB, "(cn=fulano1)")
                    .getEntryCount()).isEqualTo(1);
        }
        try (LDAPConnection c = new LDAPConnection(new AFSocketFactory.FixedAddressSocketFactory(
                AFUNIXSocketAddress.of(Path.of(lab.properties().getProperty("ldapi.socket")))), "127.0.0.1", 389)) {
            assertThat(c.search(lab.properties().getProperty("ldap.base"), SearchScope.SUB, "(cn=fulano1)")
                    .getEntryCount()).isEqualTo(1);
        }
    }

    @Test
    void twoLabsSideBySideStoppedInEitherOrderLeaveTheOtherWorking() throws Exception {
        RunningLab a = start("a");
        RunningLab b = null;
        RunningLab c = null;
        try {
            b = start("b");
            assertThat(b.socketDir()).isNotEqualTo(a.socketDir());
            assertThat(a.socketDir()).isEqualTo(LabDir.defaultDir(tmp));
            assertWorking(a);
            assertWorking(b);

            a.stop(); // the first started stops first
            assertWorking(b);

            c = start("c"); // takes the directory a left
            assertThat(c.socketDir()).isEqualTo(LabDir.defaultDir(tmp));
            c.stop(); // the second started stops first
            assertWorking(b);
        } finally {
            for (RunningLab lab : new RunningLab[] {a, b, c}) {
                if (lab != null) {
                    lab.process().destroyForcibly();
                }
            }
        }
    }
}
