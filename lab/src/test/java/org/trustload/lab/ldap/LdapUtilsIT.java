package org.trustload.lab.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;

/** A vendor client (OpenLDAP's ldap-utils) against the lab: ldapi + SASL EXTERNAL, ldaps, StartTLS. */
class LdapUtilsIT {

    @TempDir
    static Path socketDir;

    static LdapLabService service;
    static Map<String, String> props;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/ldapwhoami"))
                && Files.isExecutable(Path.of("/usr/bin/ldapsearch")),
                "ldap-utils (ldapwhoami, ldapsearch) not installed");
        service = new LdapLabService();
        service.start(new LabContext(TestPorts.freeBase(), 100, socketDir));
        props = service.properties();
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
    }

    /** OpenLDAP wants the socket path in the URL with '/' written as %2F. */
    static String ldapiUrl() {
        return "ldapi://" + props.get("ldapi.socket").replace("/", "%2F");
    }

    static String run(Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        // keep /etc/ldap/ldap.conf from changing what is tested (LDAPNOINIT would also drop LDAPTLS_*)
        pb.environment().put("LDAPCONF", "/dev/null");
        pb.environment().put("LDAPRC", "/dev/null");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exit status of %s, output:%n%s", List.of(cmd), out).isZero();
        return out;
    }

    @Test
    void ldapwhoamiWithSaslExternalOverLdapiGetsThePeercredDn() throws Exception {
        String out = run(Map.of(), "ldapwhoami", "-H", ldapiUrl(), "-Y", "EXTERNAL", "-Q");
        assertThat(out.trim()).isEqualTo("dn:" + props.get("ldap.external.dn"));
    }

    @Test
    void ldapsearchOverLdapiWithSaslExternal() throws Exception {
        String out = run(Map.of(), "ldapsearch", "-H", ldapiUrl(), "-Y", "EXTERNAL", "-Q", "-LLL",
                "-b", props.get("ldap.base"), "(uid=fulano1)", "cn");
        assertThat(out).contains("dn: cn=fulano1,dc=testeperformance", "cn: fulano1");
    }

    @Test
    void ldapsearchOverLdapsTrustingThePemWithHostnameCheck() throws Exception {
        String out = run(Map.of("LDAPTLS_CACERT", props.get("ldap.truststore.pem"), "LDAPTLS_REQCERT", "demand"),
                "ldapsearch", "-H", "ldaps://127.0.0.1:" + props.get("ldaps.port"), "-x", "-LLL",
                "-D", props.get("ldap.admin.dn"), "-w", props.get("ldap.admin.password"),
                "-b", props.get("ldap.base"), "(cn=fulano1)", "uid");
        assertThat(out).contains("uid: fulano1");
    }

    // 127.0.0.1, not localhost: libldap checks a StartTLS certificate against the machine's own
    // host name when the URL says localhost
    @Test
    void ldapsearchWithStartTls() throws Exception {
        String out = run(Map.of("LDAPTLS_CACERT", props.get("ldap.truststore.pem"), "LDAPTLS_REQCERT", "demand"),
                "ldapsearch", "-H", "ldap://127.0.0.1:" + props.get("ldap.port"), "-ZZ", "-x", "-LLL",
                "-b", props.get("ldap.base"), "(uid=fulano2)", "cn");
        assertThat(out).contains("cn: fulano2");
    }
}
