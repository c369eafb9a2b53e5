package org.trustload.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabTest {

    @TempDir
    Path tmp;

    @Test
    void defaultsStartEveryServiceOnBase10000() throws Exception {
        Lab.Options o = Lab.parse();
        assertThat(o.services()).contains("ldap", "pki", "kms", "gmssl", "pdp", "http");
        assertThat(o.pkiUsers()).isEqualTo(1000);
        assertThat(o.portBase()).isEqualTo(10000);
        assertThat(o.users()).isEqualTo(10000);
        assertThat(o.out()).isEqualTo(Path.of("lab.properties").toAbsolutePath());
        assertThat(o.socketDir()).as("chosen at start: the first /tmp/trustload-lab-<uid>[-N] no other lab holds")
                .isNull();
    }

    @Test
    void optionsAcceptSpaceAndEqualsForms() throws Exception {
        Lab.Options o = Lab.parse("--services", "LDAP", "--port-base=20000", "--users", "5",
                "--out", tmp.resolve("x.properties").toString(), "--socket-dir=" + tmp);
        assertThat(o.services()).containsExactly("ldap");
        assertThat(o.portBase()).isEqualTo(20000);
        assertThat(o.users()).isEqualTo(5);
        assertThat(o.out()).isEqualTo(tmp.resolve("x.properties"));
    }

    @Test
    void pkiUsersOptionAndPortBaseLeavingRoomForTheHighestOffset() throws Exception {
        assertThat(Lab.parse("--pki-users", "25").pkiUsers()).isEqualTo(25);
        int highest = LabPorts.highestBaseBelow(LabPorts.ephemeralRange());
        assertThat(Lab.parse("--port-base", String.valueOf(highest)).portBase()).isEqualTo(highest);
        assertThatThrownBy(() -> Lab.parse("--port-base", String.valueOf(highest + 1)))
                .hasMessageContaining("kernel's ephemeral port range " + LabPorts.ephemeralRange())
                .hasMessageContaining("use a base of at most " + highest);
        assertThatThrownBy(() -> Lab.parse("--port-base", "56537")).hasMessageContaining("--port-base must be between");
        assertThatThrownBy(() -> Lab.parse("--pki-users", "0")).hasMessageContaining("--pki-users must be between");
    }

    @Test
    void bindTakesOneAddressOfThisHostNeverAWildcardOrAName() throws Exception {
        assertThat(Lab.parse().bind()).isEqualTo("127.0.0.1");
        assertThat(Lab.parse("--bind", "127.0.0.2").bind()).isEqualTo("127.0.0.2");
        assertThatThrownBy(() -> Lab.parse("--bind", "0.0.0.0")).hasMessageContaining("never 0.0.0.0");
        assertThatThrownBy(() -> Lab.parse("--bind", "::")).hasMessageContaining("never ::");
        assertThatThrownBy(() -> Lab.parse("--bind", "lab.example.org"))
                .hasMessageContaining("an IP address of this host");
        assertThatThrownBy(() -> Lab.parse("--bind=192.0.2.1"))
                .hasMessageContaining("no interface of this host has that address");
    }

    @Test
    void unknownServiceIsAUsageErrorNamingTheAvailableOnes() {
        assertThatThrownBy(() -> Lab.parse("--services", "ldap,nosuch"))
                .isInstanceOf(Lab.UsageException.class)
                .hasMessageContaining("unknown service 'nosuch'")
                .hasMessageContaining("available: ldap,pki,")
                .hasMessageContaining("kms").hasMessageContaining("gmssl").hasMessageContaining("pdp")
                .hasMessageContaining("http");
    }

    @Test
    void unknownServiceExitsWithStatus2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Lab.run(new String[] {"--services", "nosuch"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertThat(rc).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown service 'nosuch'", "usage:");
    }

    @Test
    void badNumbersAreUsageErrors() {
        assertThatThrownBy(() -> Lab.parse("--port-base", "abc")).hasMessageContaining("--port-base needs a number");
        assertThatThrownBy(() -> Lab.parse("--users", "-1")).hasMessageContaining("--users must be between");
        assertThatThrownBy(() -> Lab.parse("--out")).hasMessageContaining("--out needs a value");
    }

    @Test
    void propertiesFileReadsBackWithJavaUtilProperties() throws Exception {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("ldap.base", "dc=testeperformance");
        props.put("ldap.external.dn", "gidNumber=0+uidNumber=0,cn=peercred,cn=external,cn=auth");
        props.put("odd", " lead\\back\u00e9");
        Path out = tmp.resolve("sub/lab.properties");
        Lab.writeProperties(out, props);

        Properties read = new Properties();
        try (Reader r = Files.newBufferedReader(out)) {
            read.load(r);
        }
        assertThat(read).containsExactlyInAnyOrderEntriesOf(props);
        assertThat(Files.readAllLines(out)).contains("ldap.base=dc=testeperformance");
        try (var files = Files.list(out.getParent())) {
            assertThat(files).containsExactly(out);
        }
    }

    @Test
    void socketDirIsCreatedPrivate() throws Exception {
        Path dir = tmp.resolve("s");
        LabDir.prepare(dir);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    }
}
