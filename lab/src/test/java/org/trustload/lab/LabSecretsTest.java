package org.trustload.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.lab.ldap.LdapLabService;

/** The lab's credentials are random per start, usable, and the stores handed to plans carry them. */
class LabSecretsTest {

    @TempDir
    Path tmp;

    @Test
    void secretsAreLongRandomAndOfLettersAndDigits() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String s = LabSecrets.generate();
            assertThat(s).hasSize(LabSecrets.LENGTH).matches("[A-Za-z0-9]+");
            seen.add(s);
        }
        assertThat(seen).hasSize(1000);
    }

    @Test
    void reexportedStoreOpensWithTheNewPasswordOnlyAndKeepsKeyAndChain() throws Exception {
        SelfSignedTls.generate(tmp, "t", "internal-cache-pw");
        KeyStore cache = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tmp.resolve("t-keystore.p12"))) {
            cache.load(in, "internal-cache-pw".toCharArray());
        }
        String alias = cache.aliases().nextElement();

        String password = LabSecrets.generate();
        Path out = tmp.resolve("out/copy.p12");
        LabSecrets.reexport(cache, "internal-cache-pw".toCharArray(), out, password.toCharArray());

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-------");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(out)) {
            ks.load(in, password.toCharArray());
        }
        assertThat(ks.getKey(alias, password.toCharArray()).getEncoded())
                .isEqualTo(cache.getKey(alias, "internal-cache-pw".toCharArray()).getEncoded());
        assertThat(ks.getCertificateChain(alias)).containsExactly(cache.getCertificateChain(alias));
        try (InputStream in = Files.newInputStream(out)) {
            KeyStore wrong = KeyStore.getInstance("PKCS12");
            assertThatThrownBy(() -> wrong.load(in, "internal-cache-pw".toCharArray())).isInstanceOf(IOException.class);
        }
    }

    @Test
    void twoLdapStartsHaveDifferentPasswordsThatTheServerAccepts() throws Exception {
        Map<String, String> first = startLdap(tmp.resolve("a"));
        Map<String, String> second = startLdap(tmp.resolve("b"));
        for (String key : List.of("ldap.admin.password", "ldap.user.password", "ldap.truststore.password")) {
            assertThat(first.get(key)).as(key).matches("[A-Za-z0-9]{" + LabSecrets.LENGTH + "}")
                    .isNotEqualTo(second.get(key));
        }
        assertThat(first.get("ldap.admin.password")).isNotEqualTo(first.get("ldap.user.password"));
    }

    private static Map<String, String> startLdap(Path dir) throws Exception {
        Files.createDirectories(dir);
        LdapLabService service = new LdapLabService();
        try {
            service.start(new LabContext(TestPorts.freeBase(), 3, dir));
            Map<String, String> props = service.properties();
            try (LDAPConnection c = new LDAPConnection(props.get("ldap.host"),
                    Integer.parseInt(props.get("ldap.port")))) {
                assertThat(c.bind("cn=fulano2," + LdapLabService.BASE_DN, props.get("ldap.user.password"))
                        .getResultCode())
                        .isEqualTo(ResultCode.SUCCESS);
                assertThat(c.bind(props.get("ldap.admin.dn"), props.get("ldap.admin.password")).getResultCode())
                        .isEqualTo(ResultCode.SUCCESS);
            }
            KeyStore ts = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(Path.of(props.get("ldap.truststore")))) {
                ts.load(in, props.get("ldap.truststore.password").toCharArray());
            }
            return props;
        } finally {
            service.close();
        }
    }
}
