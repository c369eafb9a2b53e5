package org.trustload.lab.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.EXTERNALBindRequest;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustStoreTrustManager;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFSocketFactory;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.trustload.lab.EndpointInUseException;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;
import org.trustload.lab.UnixIdentity;

/** Starts the ldap service in-process with 10,000 users and talks to it with the UnboundID client. */
class LdapLabServiceTest {

    @TempDir
    static Path socketDir;

    static LdapLabService service;
    static Map<String, String> props;

    @BeforeAll
    static void start() throws Exception {
        service = new LdapLabService();
        long t0 = System.nanoTime();
        service.start(new LabContext(TestPorts.freeBase(), 10_000, socketDir));
        System.err.printf("ldap service started in %d ms (import %d ms)%n",
                (System.nanoTime() - t0) / 1_000_000, service.importMillis());
        props = service.properties();
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
    }

    static LDAPConnection ldap() throws LDAPException {
        return new LDAPConnection(props.get("ldap.host"), Integer.parseInt(props.get("ldap.port")));
    }

    static LDAPConnection ldapi() throws LDAPException {
        AFUNIXSocketAddress address;
        try {
            address = AFUNIXSocketAddress.of(Path.of(props.get("ldapi.socket")));
        } catch (java.net.SocketException e) {
            throw new IllegalStateException(e);
        }
        // host and port are ignored by the fixed-address factory
        return new LDAPConnection(new AFSocketFactory.FixedAddressSocketFactory(address), "127.0.0.1", 389);
    }

    static SSLUtil trustingLabCertificate() {
        return new SSLUtil(new TrustStoreTrustManager(props.get("ldap.truststore"),
                props.get("ldap.truststore.password").toCharArray(), props.get("ldap.truststore.type"), true));
    }

    static void assertFindsFulano1(LDAPConnection c) throws LDAPException {
        for (String filter : new String[] {"(cn=fulano1)", "(uid=fulano1)"}) {
            SearchResult r = c.search(props.get("ldap.base"), SearchScope.SUB, filter, "cn", "uid");
            assertThat(r.getSearchEntries()).singleElement().satisfies(e -> {
                assertThat(e.getDN()).isEqualTo("cn=fulano1,dc=testeperformance");
                assertThat(e.getAttributeValue("uid")).isEqualTo("fulano1");
            });
        }
    }

    @Test
    void propertiesNameEveryEndpointAndCredential() {
        assertThat(props).containsEntry("ldap.host", "127.0.0.1")
                .containsEntry("ldap.base", "dc=testeperformance")
                .containsEntry("ldap.users", "10000")
                .containsEntry("ldap.admin.dn", "cn=admin,dc=testeperformance")
                .containsEntry("ldap.truststore.type", "PKCS12")
                .containsEntry("ldap.external.dn", "gidNumber=" + UnixIdentity.gid() + "+uidNumber="
                        + UnixIdentity.uid() + ",cn=peercred,cn=external,cn=auth")
                .containsKeys("ldap.port", "ldaps.port", "ldapi.socket", "ldap.admin.password",
                        "ldap.truststore", "ldap.truststore.password", "ldap.truststore.pem");
        assertThat(Path.of(props.get("ldapi.socket"))).isAbsolute().exists();
        assertThat(Path.of(props.get("ldap.truststore"))).isAbsolute().isRegularFile();
    }

    @Test
    void searchByCnAndUidOverLdapFindsOneEntryAmongTenThousand() throws Exception {
        try (LDAPConnection c = ldap()) {
            assertFindsFulano1(c);
            assertThat(c.search("dc=testeperformance", SearchScope.SUB, "(uid=fulano10000)").getEntryCount())
                    .isEqualTo(1);
        }
    }

    @Test
    void indexedSearchesAreFast() throws Exception {
        try (LDAPConnection c = ldap()) {
            c.search("dc=testeperformance", SearchScope.SUB, "(cn=fulano7)");
            long t0 = System.nanoTime();
            for (int i = 1; i <= 200; i++) {
                c.search("dc=testeperformance", SearchScope.SUB, "(uid=fulano" + i + ")");
            }
            // unindexed, 200 searches over 10k entries take 3-6 s; indexed, well under one
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(2_000);
        }
    }

    @Test
    void ldapsVerifiesAgainstTheWrittenTrustStoreIncludingTheIpSan() throws Exception {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setSSLSocketVerifier(new HostNameSSLSocketVerifier(false));
        try (LDAPConnection c = new LDAPConnection(trustingLabCertificate().createSSLSocketFactory(), options,
                "127.0.0.1", Integer.parseInt(props.get("ldaps.port")))) {
            assertFindsFulano1(c);
        }
    }

    @Test
    void startTlsUpgradesThePlainListener() throws Exception {
        try (LDAPConnection c = ldap()) {
            ExtendedResult r = c.processExtendedOperation(
                    new StartTLSExtendedRequest(trustingLabCertificate().createSSLContext()));
            assertThat(r.getResultCode()).isEqualTo(ResultCode.SUCCESS);
            assertFindsFulano1(c);
        }
    }

    @Test
    void searchOverLdapi() throws Exception {
        try (LDAPConnection c = ldapi()) {
            assertFindsFulano1(c);
        }
    }

    @Test
    void saslExternalOverLdapiMapsToPeerCredentials() throws Exception {
        try (LDAPConnection c = ldapi()) {
            BindResult bind = c.bind(new EXTERNALBindRequest(""));
            assertThat(bind.getResultCode()).isEqualTo(ResultCode.SUCCESS);
            WhoAmIExtendedResult who = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertThat(who.getAuthorizationID()).isEqualTo("dn:" + props.get("ldap.external.dn"));
            assertFindsFulano1(c);
        }
    }

    @Test
    void saslExternalWithoutAuthzIdArgumentAlsoWorks() throws Exception {
        try (LDAPConnection c = ldapi()) {
            assertThat(c.bind(new EXTERNALBindRequest()).getResultCode()).isEqualTo(ResultCode.SUCCESS);
        }
    }

    @Test
    void saslExternalRefusesToProxyAnotherIdentity() throws Exception {
        try (LDAPConnection c = ldapi()) {
            assertThatThrownBy(() -> c.bind(new EXTERNALBindRequest("dn:cn=admin,dc=testeperformance")))
                    .isInstanceOfSatisfying(LDAPException.class,
                            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.AUTHORIZATION_DENIED));
        }
    }

    @Test
    void saslExternalOverTcpIsInappropriateAuthentication() throws Exception {
        try (LDAPConnection c = ldap()) {
            assertThatThrownBy(() -> c.bind(new EXTERNALBindRequest("")))
                    .isInstanceOfSatisfying(LDAPException.class,
                            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INAPPROPRIATE_AUTHENTICATION));
        }
    }

    @Test
    void adminSimpleBindSucceedsAndWhoAmINamesIt() throws Exception {
        try (LDAPConnection c = ldap()) {
            c.bind(props.get("ldap.admin.dn"), props.get("ldap.admin.password"));
            WhoAmIExtendedResult who = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertThat(who.getAuthorizationID()).isEqualToIgnoringCase("dn:cn=admin,dc=testeperformance");
        }
    }

    @Test
    void userSimpleBindWithTheUserPassword() throws Exception {
        try (LDAPConnection c = ldap()) {
            assertThat(c.bind("cn=fulano42,dc=testeperformance", props.get("ldap.user.password")).getResultCode())
                    .isEqualTo(ResultCode.SUCCESS);
        }
    }

    @Test
    void wrongPasswordIsInvalidCredentials() throws Exception {
        try (LDAPConnection c = ldap()) {
            assertThatThrownBy(() -> c.bind(props.get("ldap.admin.dn"), "wrong"))
                    .isInstanceOfSatisfying(LDAPException.class,
                            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS));
        }
    }

    @Test
    void busyPortFailsNamingThePortAndLeavesNoFiles(@TempDir Path dir) throws Exception {
        int base = TestPorts.freeBase();
        LdapLabService second = new LdapLabService();
        try (ServerSocket taken = new ServerSocket(base + 636, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> second.start(new LabContext(base, 10, dir)))
                    .isInstanceOfSatisfying(EndpointInUseException.class,
                            e -> assertThat(e.endpoint()).contains("127.0.0.1:" + (base + 636)));
        } finally {
            second.close();
        }
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void liveLdapiSocketIsNotTakenOver() {
        LdapLabService second = new LdapLabService();
        try {
            assertThatThrownBy(() -> second.start(new LabContext(TestPorts.freeBase(), 10, socketDir)))
                    .isInstanceOfSatisfying(EndpointInUseException.class,
                            e -> assertThat(e.endpoint()).isEqualTo(props.get("ldapi.socket")));
        } finally {
            second.close();
        }
    }
}
