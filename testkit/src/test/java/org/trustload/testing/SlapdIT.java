package org.trustload.testing;

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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.newsclub.net.unix.AFSocketFactory;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** Proves {@link Slapd} with the plain UnboundID client and with OpenLDAP's own command-line tools. */
class SlapdIT {

    private static Slapd slapd;

    @BeforeAll
    static void startShared() {
        Slapd.assumeOrFailInCi();
        slapd = Slapd.start();
        System.out.printf("slapd fixture (10,000 entries, TLS) started in %d ms: %s%n",
                slapd.startupTime().toMillis(), slapd);
    }

    @AfterAll
    static void stopShared() {
        if (slapd != null) {
            slapd.close();
        }
    }

    @Test
    void anonymousSearchOverLdap() throws Exception {
        try (LDAPConnection c = new LDAPConnection(slapd.host(), slapd.ldapPort())) {
            assertFindsFulano1(c);
        }
    }

    @Test
    void anonymousSearchOverLdapsTrustingTheTrustStore() throws Exception {
        LDAPConnectionOptions opts = new LDAPConnectionOptions();
        // Also proves the certificate's subjectAltName covers 127.0.0.1.
        opts.setSSLSocketVerifier(new HostNameSSLSocketVerifier(false));
        try (LDAPConnection c = new LDAPConnection(sslUtil(slapd).createSSLSocketFactory(), opts,
                slapd.host(), slapd.ldapsPort())) {
            assertFindsFulano1(c);
        }
    }

    @Test
    void anonymousSearchAfterStartTls() throws Exception {
        SSLContext ctx = sslUtil(slapd).createSSLContext();
        try (LDAPConnection c = new LDAPConnection(slapd.host(), slapd.ldapPort())) {
            ExtendedResult r = c.processExtendedOperation(new StartTLSExtendedRequest(ctx));
            assertThat(r.getResultCode()).isEqualTo(ResultCode.SUCCESS);
            assertFindsFulano1(c);
        }
    }

    @Test
    void anonymousSearchOverLdapi() throws Exception {
        try (LDAPConnection c = ldapi(slapd)) {
            assertFindsFulano1(c);
        }
    }

    @Test
    void saslExternalOverLdapiMapsToExternalDn() throws Exception {
        try (LDAPConnection c = ldapi(slapd)) {
            // OpenLDAP 2.5 answers the no-argument EXTERNALBindRequest with result 14.
            BindResult bind = c.bind(new EXTERNALBindRequest(""));
            assertThat(bind.getResultCode()).isEqualTo(ResultCode.SUCCESS);
            WhoAmIExtendedResult who = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertThat(who.getAuthorizationID()).isEqualTo("dn:" + slapd.externalDn());
            assertFindsFulano1(c);
        }
    }

    @Test
    void simpleBindAsAdminAndWithAWrongPassword() throws Exception {
        try (LDAPConnection c = new LDAPConnection(slapd.host(), slapd.ldapPort())) {
            assertThat(c.bind(slapd.adminDn(), slapd.adminPassword()).getResultCode()).isEqualTo(ResultCode.SUCCESS);
            WhoAmIExtendedResult who = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertThat(who.getAuthorizationID()).isEqualTo("dn:" + slapd.adminDn());
            assertThatThrownBy(() -> c.bind(slapd.adminDn(), slapd.adminPassword() + "x"))
                    .isInstanceOfSatisfying(LDAPException.class,
                            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS));
        }
    }

    @Test
    void allEntriesAreLoaded() throws Exception {
        try (LDAPConnection c = new LDAPConnection(slapd.host(), slapd.ldapPort())) {
            SearchResult last = c.search(slapd.baseDn(), SearchScope.ONE, "(cn=fulano10000)", "uid");
            assertThat(last.getSearchEntries()).singleElement()
                    .satisfies(e -> assertThat(e.getAttributeValue("uid")).isEqualTo("fulano10000"));
            assertThat(c.search(slapd.baseDn(), SearchScope.ONE, "(cn=fulano10001)").getEntryCount()).isZero();
        }
    }

    @Test
    void fiveHundredConcurrentConnectionsThenDescriptorsGoBack() throws Exception {
        int baseline = slapd.settledOpenFiles();
        List<LDAPConnection> conns = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(50);
        try {
            List<Future<LDAPConnection>> opened = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                opened.add(pool.submit(() -> new LDAPConnection(slapd.host(), slapd.ldapPort())));
            }
            for (Future<LDAPConnection> f : opened) {
                conns.add(f.get(30, TimeUnit.SECONDS));
            }
            List<Callable<Integer>> searches = new ArrayList<>();
            for (int i = 0; i < conns.size(); i++) {
                LDAPConnection c = conns.get(i);
                String cn = "fulano" + (i + 1);
                searches.add(() -> c.search(slapd.baseDn(), SearchScope.ONE, "(cn=" + cn + ")", "1.1").getEntryCount());
            }
            for (Future<Integer> f : pool.invokeAll(searches, 60, TimeUnit.SECONDS)) {
                assertThat(f.get()).isEqualTo(1);
            }
            int during = slapd.openFiles();
            System.out.printf("slapd fds: baseline %d, with 500 clients %d%n", baseline, during);
            assertThat(during).isGreaterThanOrEqualTo(baseline + 500);
        } finally {
            conns.forEach(LDAPConnection::close);
            pool.shutdownNow();
        }
        // slapd closes its side asynchronously once it reads the unbind/EOF.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int after = slapd.openFiles();
        while (after > baseline + 2 && System.nanoTime() < deadline) {
            Thread.sleep(50);
            after = slapd.openFiles();
        }
        System.out.printf("slapd fds after closing them: %d%n", after);
        assertThat(after).isLessThanOrEqualTo(baseline + 2);
    }

    @Test
    void nofile1024CapsConcurrentConnections() throws Exception {
        try (Slapd small = Slapd.start(Slapd.Options.defaults().withEntries(100)
                .withOpenFilesLimit(1024).withTls(false))) {
            assertThat(small.ldapsPort()).isEqualTo(-1);
            assertThatThrownBy(small::trustStorePath).isInstanceOf(IllegalStateException.class);
            LDAPConnectionOptions opts = new LDAPConnectionOptions();
            opts.setConnectTimeoutMillis(2000);
            opts.setResponseTimeoutMillis(2000);
            List<LDAPConnection> conns = new ArrayList<>();
            int accepted = 0;
            String refusal = "none within 1200 attempts";
            try {
                for (int i = 0; i < 1200; i++) {
                    LDAPConnection c;
                    try {
                        c = new LDAPConnection(opts, small.host(), small.ldapPort());
                    } catch (LDAPException e) {
                        refusal = "connect: " + e.getResultCode() + " " + e.getMessage();
                        break;
                    }
                    conns.add(c);
                    try {
                        c.search(small.baseDn(), SearchScope.BASE, "(objectClass=*)", "1.1");
                    } catch (LDAPException e) {
                        refusal = "first search: " + e.getResultCode() + " " + e.getMessage();
                        break;
                    }
                    accepted++;
                }
                System.out.printf("slapd at nofile=1024 served %d concurrent connections (fds %d); refusal: %s%n",
                        accepted, small.openFiles(), refusal);
            } finally {
                conns.forEach(LDAPConnection::close);
            }
            assertThat(accepted).isBetween(900, 1024);
            // Once clients go away the server serves new ones again.
            awaitUsable(small);
        }
    }

    @Test
    void restartComesBackOnTheSamePortsAndSocketWithTheData() throws Exception {
        try (Slapd s = Slapd.start(Slapd.Options.defaults().withEntries(10).withOpenFilesLimit(1024))) {
            int ldap = s.ldapPort();
            int ldaps = s.ldapsPort();
            long pid = s.pid();
            try (LDAPConnection c = new LDAPConnection(s.host(), ldap)) {
                c.bind(s.adminDn(), s.adminPassword());
                c.add("dn: cn=persistent," + s.baseDn(), "objectClass: inetOrgPerson", "cn: persistent", "sn: p");
            }
            LDAPConnection survivor = new LDAPConnection(s.host(), ldap);
            s.stop();
            assertThat(s.isRunning()).isFalse();
            assertThat(s.socketPath()).doesNotExist();
            assertThatThrownBy(() -> new LDAPConnection(s.host(), ldap).close()).isInstanceOf(LDAPException.class);
            assertThatThrownBy(() -> survivor.search(s.baseDn(), SearchScope.BASE, "(objectClass=*)"))
                    .isInstanceOf(LDAPException.class);
            survivor.close();

            s.restart();
            assertThat(s.pid()).isNotEqualTo(pid);
            assertThat(s.ldapPort()).isEqualTo(ldap);
            assertThat(s.ldapsPort()).isEqualTo(ldaps);
            try (LDAPConnection c = new LDAPConnection(s.host(), ldap)) {
                assertThat(c.search(s.baseDn(), SearchScope.ONE, "(cn=persistent)").getEntryCount()).isEqualTo(1);
            }
            try (LDAPConnection c = new LDAPConnection(sslUtil(s).createSSLSocketFactory(), s.host(), ldaps)) {
                assertFindsFulano1(c);
            }
            try (LDAPConnection c = ldapi(s)) {
                assertThat(c.bind(new EXTERNALBindRequest("")).getResultCode()).isEqualTo(ResultCode.SUCCESS);
            }
            s.restart();
            assertThat(s.isRunning()).isTrue();
        }
    }

    @Test
    void closeKillsTheServerAndDeletesItsDirectory() {
        Slapd s = Slapd.start(Slapd.Options.defaults().withEntries(1).withTls(false));
        ProcessHandle handle = ProcessHandle.of(s.pid()).orElseThrow();
        Path dir = s.directory();
        s.close();
        assertThat(handle.isAlive()).isFalse();
        assertThat(dir).doesNotExist();
        s.close();
    }

    @Test
    void openLdapCommandLineToolsAgree() throws Exception {
        assumeLdapUtilsOrFailInCi();
        String filter = "(cn=fulano1)";
        assertThat(run(Map.of(), "ldapsearch", "-x", "-LLL", "-H", slapd.ldapUrl(), "-b", slapd.baseDn(), filter, "dn"))
                .contains("dn: cn=fulano1," + slapd.baseDn());
        Map<String, String> tls = Map.of("LDAPTLS_CACERT", slapd.certificatePath().toString());
        assertThat(run(tls, "ldapsearch", "-x", "-LLL", "-H", slapd.ldapsUrl(), "-b", slapd.baseDn(), filter, "dn"))
                .contains("dn: cn=fulano1," + slapd.baseDn());
        assertThat(run(tls, "ldapsearch", "-x", "-ZZ", "-LLL", "-H", slapd.ldapUrl(), "-b",
                slapd.baseDn(), filter, "dn"))
                .contains("dn: cn=fulano1," + slapd.baseDn());
        assertThat(run(Map.of(), "ldapwhoami", "-Q", "-Y", "EXTERNAL", "-H", slapd.ldapiUrl()))
                .contains("dn:" + slapd.externalDn());
        assertThat(run(Map.of(), "ldapwhoami", "-x", "-D", slapd.adminDn(), "-w", slapd.adminPassword(),
                "-H", slapd.ldapUrl())).contains("dn:" + slapd.adminDn());
    }

    private static void assertFindsFulano1(LDAPConnection c) throws LDAPException {
        SearchResult r = c.search(slapd.baseDn(), SearchScope.SUB, "(cn=fulano1)", "uid", "sn");
        assertThat(r.getSearchEntries()).singleElement().satisfies(e -> {
            assertThat(e.getDN()).isEqualTo("cn=fulano1," + Slapd.BASE_DN);
            assertThat(e.getAttributeValue("uid")).isEqualTo("fulano1");
        });
    }

    static LDAPConnection ldapi(Slapd s) throws LDAPException, java.net.SocketException {
        // junixsocket ignores host and port with a fixed address; UnboundID still wants some.
        return new LDAPConnection(
                new AFSocketFactory.FixedAddressSocketFactory(AFUNIXSocketAddress.of(s.socketPath().toFile())),
                "localhost", 389);
    }

    private static SSLUtil sslUtil(Slapd s) {
        return new SSLUtil(new TrustStoreTrustManager(s.trustStorePath().toFile(),
                s.trustStorePassword().toCharArray(), "PKCS12", true));
    }

    private static void awaitUsable(Slapd s) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (LDAPConnection c = new LDAPConnection(s.host(), s.ldapPort())) {
                c.search(s.baseDn(), SearchScope.BASE, "(objectClass=*)", "1.1");
                return;
            } catch (LDAPException e) {
                if (System.nanoTime() > deadline) {
                    Assertions.fail("slapd did not recover after clients closed", e);
                }
                Thread.sleep(100);
            }
        }
    }

    private static void assumeLdapUtilsOrFailInCi() {
        boolean present = Files.isExecutable(Path.of("/usr/bin/ldapsearch"))
                && Files.isExecutable(Path.of("/usr/bin/ldapwhoami"));
        if (!present && "true".equals(System.getenv("CI"))) {
            Assertions.fail("ldap-utils missing on CI");
        }
        Assumptions.assumeTrue(present, "ldap-utils not installed");
    }

    private static String run(Map<String, String> env, String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s%n%s", String.join(" ", cmd), out).isZero();
        return out;
    }
}
