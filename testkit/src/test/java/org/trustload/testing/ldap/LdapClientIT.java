package org.trustload.testing.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.trustload.ldap.BindType;
import org.trustload.ldap.LdapClient;
import org.trustload.ldap.LdapClientException;
import org.trustload.ldap.LdapConnectionSettings;
import org.trustload.ldap.LdapConnections;
import org.trustload.ldap.LdapOperation;
import org.trustload.ldap.LdapOutcome;
import org.trustload.ldap.LdapRequest;
import org.trustload.ldap.LdapScheme;
import org.trustload.ldap.TrustMode;
import org.trustload.testing.Slapd;

/**
 * {@link LdapClient} against a real OpenLDAP ({@link Slapd}): every transport, every bind, every
 * operation, and the failure categories a load test reports. Tests that stop, freeze or restart the
 * server use their own small slapd so they cannot disturb the shared one.
 */
class LdapClientIT {

    private static final String FULANO1 = "cn=fulano1," + Slapd.BASE_DN;

    private static Slapd slapd;

    /** The four ways to reach the server. */
    enum Transport {
        LDAP, LDAPS, STARTTLS, LDAPI
    }

    @BeforeAll
    static void startShared() {
        Slapd.assumeOrFailInCi();
        slapd = Slapd.start();
    }

    @AfterAll
    static void stopShared() {
        if (slapd != null) {
            slapd.close();
        }
    }

    // ---------------------------------------------------------------- helpers

    private static LdapConnectionSettings.Builder over(Slapd s, Transport t) {
        LdapConnectionSettings.Builder b = LdapConnectionSettings.builder()
                .connectTimeoutMs(3000).responseTimeoutMs(10_000);
        switch (t) {
            case LDAP:
                return b.scheme(LdapScheme.LDAP).host(s.host()).port(s.ldapPort());
            case LDAPS:
                return trusting(b.scheme(LdapScheme.LDAPS).host(s.host()).port(s.ldapsPort()), s);
            case STARTTLS:
                return trusting(b.scheme(LdapScheme.LDAP).host(s.host()).port(s.ldapPort()).startTls(true), s);
            default:
                return b.scheme(LdapScheme.LDAPI).socketPath(s.socketPath().toString());
        }
    }

    private static LdapConnectionSettings.Builder trusting(LdapConnectionSettings.Builder b, Slapd s) {
        return b.trustMode(TrustMode.TRUST_STORE).trustStorePath(s.trustStorePath().toString())
                .trustStorePassword(s.trustStorePassword());
    }

    private static LdapConnectionSettings.Builder admin(LdapConnectionSettings.Builder b, Slapd s) {
        return b.bindType(BindType.SIMPLE).bindDn(s.adminDn()).bindPassword(s.adminPassword());
    }

    private static LdapRequest searchFulano1() {
        return LdapRequest.builder(LdapOperation.SEARCH).baseDn(Slapd.BASE_DN).filter("(cn=fulano1)").build();
    }

    private static LdapClient boundClient(LdapConnectionSettings.Builder b) throws LdapClientException {
        LdapClient c = LdapClient.connect(b.build());
        try {
            c.bind();
            return c;
        } catch (LdapClientException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private static LdapClientException failure(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(call);
        assertThat(t).as("expected an LdapClientException").isInstanceOf(LdapClientException.class);
        return (LdapClientException) t;
    }

    private static LdapClientException connectFailure(LdapConnectionSettings.Builder b) {
        return failure(() -> {
            try (LdapClient c = boundClient(b)) {
                c.execute(searchFulano1(), 1);
            }
        });
    }

    private static void assertFindsFulano1(LdapClient c) throws LdapClientException {
        LdapOutcome o = c.execute(searchFulano1(), 10);
        assertThat(o.summary()).isEqualTo("search: 1 entry");
        assertThat(o.entryCount()).isEqualTo(1);
        assertThat(o.render(10)).contains("dn: " + FULANO1);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(Slapd.HOST))) {
            return s.getLocalPort();
        }
    }

    private static void awaitOpenFiles(Slapd s, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        int now = s.openFiles();
        while (now > expected && System.nanoTime() < deadline) {
            Thread.sleep(50);
            now = s.openFiles();
        }
        assertThat(now).as("slapd open files back to the baseline").isLessThanOrEqualTo(expected);
    }

    private static Slapd smallSlapd() {
        return Slapd.start(Slapd.Options.defaults().withEntries(10));
    }

    // ---------------------------------------------------------------- transports and binds

    @ParameterizedTest
    @EnumSource(Transport.class)
    void anonymousSearchFindsFulano1OverEveryTransport(Transport t) throws Exception {
        try (LdapClient c = boundClient(over(slapd, t).bindType(BindType.ANONYMOUS))) {
            assertThat(c.connectNanos()).isPositive();
            assertFindsFulano1(c);
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void noBindAtAllStillSearchesOverEveryTransport(Transport t) throws Exception {
        try (LdapClient c = boundClient(over(slapd, t))) {
            assertFindsFulano1(c);
            assertThat(c.execute(LdapRequest.builder(LdapOperation.WHOAMI).build(), 0).summary())
                    .isEqualTo("whoami: (anonymous)");
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void simpleBindAsAdminOverEveryTransportIsWhoAmIAdmin(Transport t) throws Exception {
        try (LdapClient c = LdapClient.connect(admin(over(slapd, t), slapd).build())) {
            assertThat(c.bind().summary()).isEqualTo("bind: success as " + slapd.adminDn());
            assertThat(c.isBound()).isTrue();
            assertFindsFulano1(c);
            assertThat(c.execute(LdapRequest.builder(LdapOperation.WHOAMI).build(), 0).summary())
                    .isEqualTo("whoami: dn:" + slapd.adminDn());
        }
    }

    @Test
    void bindOperationRebindsOnAnOpenConnection() throws Exception {
        try (LdapClient c = LdapClient.connect(admin(over(slapd, Transport.LDAP), slapd).build())) {
            LdapOutcome o = c.execute(LdapRequest.builder(LdapOperation.BIND).build(), 0);
            assertThat(o.operation()).isEqualTo(LdapOperation.BIND);
            assertThat(o.resultName()).isEqualTo("success");
            assertThat(c.isBound()).isTrue();
        }
    }

    @Test
    void saslExternalOverLdapiIsWhoAmITheMappedDn() throws Exception {
        try (LdapClient c = LdapClient.connect(over(slapd, Transport.LDAPI).bindType(BindType.SASL_EXTERNAL).build())) {
            assertThat(c.bind().summary()).isEqualTo("bind: success as SASL EXTERNAL");
            assertThat(c.execute(LdapRequest.builder(LdapOperation.WHOAMI).build(), 0).summary())
                    .isEqualTo("whoami: dn:" + slapd.externalDn());
            assertFindsFulano1(c);
        }
    }

    @Test
    void saslExternalOverLdapiByUrlWorksToo() throws Exception {
        LdapConnectionSettings s = LdapConnectionSettings.builder().url(slapd.ldapiUrl())
                .bindType(BindType.SASL_EXTERNAL).build();
        try (LdapClient c = boundClient(LdapConnectionSettings.builder().url(slapd.ldapiUrl())
                .bindType(BindType.SASL_EXTERNAL))) {
            assertThat(c.settings()).isEqualTo(s);
            assertFindsFulano1(c);
        }
    }

    /**
     * Over TCP without a client certificate slapd has no external identity and does not offer
     * EXTERNAL: it refuses the bind with authMethodNotSupported (7). The connection stays usable.
     */
    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"LDAP", "STARTTLS"})
    void saslExternalOverTcpIsRefusedAsAuthMethodNotSupported(Transport t) throws Exception {
        try (LdapClient c = LdapClient.connect(over(slapd, t).bindType(BindType.SASL_EXTERNAL).build())) {
            LdapClientException e = failure(c::bind);
            assertThat(e.category()).isEqualTo("authMethodNotSupported");
            assertThat(e.getMessage()).isEqualTo("LDAP 7 authMethodNotSupported");
            assertThat(e.connectionLost()).isFalse();
            assertThat(c.isBound()).isFalse();
        }
    }

    // ---------------------------------------------------------------- operations

    @Test
    void compareTrueAndCompareFalseAreBothOutcomesNotErrors() throws Exception {
        try (LdapClient c = boundClient(over(slapd, Transport.LDAP))) {
            LdapOutcome yes = c.execute(LdapRequest.builder(LdapOperation.COMPARE).entryDn(FULANO1)
                    .compareAttribute("sn").compareValue("fulano1").build(), 0);
            LdapOutcome no = c.execute(LdapRequest.builder(LdapOperation.COMPARE).entryDn(FULANO1)
                    .compareAttribute("sn").compareValue("fulano2").build(), 0);
            assertThat(yes.resultName()).isEqualTo("compareTrue");
            assertThat(yes.summary()).isEqualTo("compare: compareTrue");
            assertThat(no.resultName()).isEqualTo("compareFalse");
            assertThat(no.summary()).isEqualTo("compare: compareFalse");
        }
    }

    @Test
    void addModifyBothLdifFormsCompareAndDeleteAnEntry() throws Exception {
        String cn = "tl-" + UUID.randomUUID();
        String dn = "cn=" + cn + "," + Slapd.BASE_DN;
        try (LdapClient c = boundClient(admin(over(slapd, Transport.LDAPI), slapd))) {
            LdapOutcome added = c.execute(LdapRequest.builder(LdapOperation.ADD).ldif("dn: " + dn
                    + "\nobjectClass: inetOrgPerson\ncn: " + cn + "\nsn: first\n").build(), 0);
            assertThat(added.summary()).isEqualTo("add: " + dn);

            LdapOutcome fullRecord = c.execute(LdapRequest.builder(LdapOperation.MODIFY).ldif("dn: " + dn
                    + "\nchangetype: modify\nreplace: sn\nsn: second\n-\nadd: description\ndescription: d1\n-\n")
                    .build(), 0);
            assertThat(fullRecord.summary()).isEqualTo("modify: " + dn + " (2 changes)");
            assertThat(compare(c, dn, "sn", "second")).isEqualTo("compareTrue");
            assertThat(compare(c, dn, "description", "d1")).isEqualTo("compareTrue");

            LdapOutcome bareLines = c.execute(LdapRequest.builder(LdapOperation.MODIFY).entryDn(dn)
                    .ldif("replace: sn\nsn: third\n").build(), 0);
            assertThat(bareLines.summary()).isEqualTo("modify: " + dn + " (1 change)");
            assertThat(compare(c, dn, "sn", "third")).isEqualTo("compareTrue");
            assertThat(compare(c, dn, "sn", "second")).isEqualTo("compareFalse");

            assertThat(c.execute(LdapRequest.builder(LdapOperation.DELETE).entryDn(dn).build(), 0).summary())
                    .isEqualTo("delete: " + dn);
            assertThat(c.execute(LdapRequest.builder(LdapOperation.SEARCH).baseDn(Slapd.BASE_DN)
                    .filter("(cn=" + cn + ")").build(), 1).entryCount()).isZero();
            assertThat(failure(() -> c.execute(LdapRequest.builder(LdapOperation.DELETE).entryDn(dn).build(), 0))
                    .category()).isEqualTo("noSuchObject");
        }
    }

    private static String compare(LdapClient c, String dn, String attr, String value) throws LdapClientException {
        return c.execute(LdapRequest.builder(LdapOperation.COMPARE).entryDn(dn).compareAttribute(attr)
                .compareValue(value).build(), 0).resultName();
    }

    @Test
    void addOfAnExistingEntryIsEntryAlreadyExists() throws Exception {
        try (LdapClient c = boundClient(admin(over(slapd, Transport.LDAP), slapd))) {
            LdapClientException e = failure(() -> c.execute(LdapRequest.builder(LdapOperation.ADD).ldif("dn: "
                    + FULANO1 + "\nobjectClass: inetOrgPerson\ncn: fulano1\nsn: fulano1\n").build(), 0));
            assertThat(e.category()).isEqualTo("entryAlreadyExists");
        }
    }

    @Test
    void anonymousWriteIsRefusedWithoutLosingTheConnection() throws Exception {
        try (LdapClient c = boundClient(over(slapd, Transport.LDAP))) {
            LdapClientException e = failure(() -> c.execute(LdapRequest.builder(LdapOperation.DELETE)
                    .entryDn(FULANO1).build(), 0));
            assertThat(e.category()).isIn("strongAuthRequired", "insufficientAccessRights");
            assertThat(e.connectionLost()).isFalse();
            assertFindsFulano1(c);
        }
    }

    @Test
    void userSizeLimitReturnsThatManyEntriesAsAResult() throws Exception {
        try (LdapClient c = boundClient(over(slapd, Transport.LDAP))) {
            LdapOutcome o = c.execute(LdapRequest.builder(LdapOperation.SEARCH).baseDn(Slapd.BASE_DN)
                    .filter("(cn=fulano*)").sizeLimit(5).build(), 2);
            assertThat(o.entryCount()).isEqualTo(5);
            assertThat(o.entries()).hasSize(2);
            assertThat(o.resultName()).isEqualTo("sizeLimitExceeded");
            assertThat(o.summary()).isEqualTo("search: 5 entries (sizeLimitExceeded)");
        }
    }

    @Test
    void serverSizeLimitWithoutAUserLimitIsAnError() throws Exception {
        // slapd's default limit for non-root users is 500; 10,000 entries exceed it.
        try (LdapClient c = boundClient(over(slapd, Transport.LDAP))) {
            LdapClientException e = failure(() -> c.execute(LdapRequest.builder(LdapOperation.SEARCH)
                    .baseDn(Slapd.BASE_DN).filter("(cn=fulano*)").attributes("1.1").build(), 0));
            assertThat(e.category()).isEqualTo("sizeLimitExceeded");
        }
    }

    @Test
    void searchReturnsOnlyTheRequestedAttributes() throws Exception {
        try (LdapClient c = boundClient(over(slapd, Transport.LDAP))) {
            LdapOutcome o = c.execute(LdapRequest.builder(LdapOperation.SEARCH).baseDn(Slapd.BASE_DN)
                    .filter("(cn=fulano1)").attributes("sn").build(), 1);
            assertThat(o.entries().get(0).getAttributes()).extracting(a -> a.getName()).containsExactly("sn");
        }
    }

    @Test
    void oneConnectionSendsEachSearchWithItsOwnBaseFilterScopeAttributesAndLimits() throws Exception {
        // the client reuses one SDK search request per connection: every field must still follow the request
        try (LdapClient c = boundClient(over(slapd, Transport.LDAP))) {
            LdapRequest.Builder search = LdapRequest.builder(LdapOperation.SEARCH).baseDn(Slapd.BASE_DN);
            LdapOutcome first = c.execute(search.filter("(uid=fulano2)").attributes("sn").build(), 1);
            assertThat(first.entries().get(0).getDN()).startsWith("cn=fulano2,");
            assertThat(first.entries().get(0).getAttributes()).extracting(a -> a.getName()).containsExactly("sn");
            LdapOutcome second = c.execute(search.filter("(uid=fulano3)").attributes("").build(), 1);
            assertThat(second.entries().get(0).getDN()).startsWith("cn=fulano3,");
            assertThat(second.entries().get(0).getAttributeValue("uid")).isEqualTo("fulano3");
            assertThat(first.entries()).hasSize(1); // an earlier outcome keeps its own entries
            LdapOutcome base = c.execute(LdapRequest.builder(LdapOperation.SEARCH).baseDn("cn=fulano4," + Slapd.BASE_DN)
                    .scope("base").filter("(objectClass=*)").build(), 1);
            assertThat(base.entryCount()).isEqualTo(1);
            assertThat(c.execute(search.baseDn("cn=fulano4," + Slapd.BASE_DN).scope("one")
                    .filter("(objectClass=*)").build(), 1)
                    .entryCount()).isZero();
            LdapOutcome limited = c.execute(search.baseDn(Slapd.BASE_DN).scope("sub").filter("(cn=fulano*)")
                    .sizeLimit(3).build(), 0);
            assertThat(limited.entryCount()).isEqualTo(3);
            assertThat(failure(() -> c.execute(search.filter("cn=fulano1)(").sizeLimit(0).build(), 1)).category())
                    .isEqualTo("filterError");
            assertFindsFulano1(c);
        }
    }

    // ---------------------------------------------------------------- error categories

    @Test
    void wrongPasswordIsInvalidCredentials() throws Exception {
        LdapClientException e = connectFailure(over(slapd, Transport.LDAP).bindType(BindType.SIMPLE)
                .bindDn(slapd.adminDn()).bindPassword("not-" + slapd.adminPassword()));
        assertThat(e.category()).isEqualTo("invalidCredentials");
        assertThat(e.getMessage()).isEqualTo("LDAP 49 invalidCredentials: wrong DN or password");
        assertThat(e.connectionLost()).isFalse();
        assertThat(e.getMessage() + e.detail()).doesNotContain(slapd.adminPassword());
    }

    @Test
    void badFilterIsFilterError() throws Exception {
        try (LdapClient c = boundClient(over(slapd, Transport.LDAP))) {
            LdapClientException e = failure(() -> c.execute(LdapRequest.builder(LdapOperation.SEARCH)
                    .baseDn(Slapd.BASE_DN).filter("cn=fulano1)(").build(), 1));
            assertThat(e.category()).isEqualTo("filterError");
            assertThat(e.connectionLost()).isFalse();
            assertFindsFulano1(c);
        }
    }

    @Test
    void badDnOnDeleteIsInvalidDnSyntax() throws Exception {
        try (LdapClient c = boundClient(admin(over(slapd, Transport.LDAP), slapd))) {
            LdapClientException e = failure(() -> c.execute(LdapRequest.builder(LdapOperation.DELETE)
                    .entryDn("this is not a DN").build(), 0));
            assertThat(e.category()).isEqualTo("invalidDNSyntax");
            assertThat(e.getMessage()).isEqualTo("LDAP 34 invalidDNSyntax");
        }
    }

    @Test
    void missingEntryIsNoSuchObjectForDeleteCompareAndSearchBase() throws Exception {
        String missing = "cn=nobody-" + UUID.randomUUID() + "," + Slapd.BASE_DN;
        try (LdapClient c = boundClient(admin(over(slapd, Transport.LDAP), slapd))) {
            assertThat(failure(() -> c.execute(LdapRequest.builder(LdapOperation.DELETE).entryDn(missing).build(), 0))
                    .category()).isEqualTo("noSuchObject");
            assertThat(failure(() -> c.execute(LdapRequest.builder(LdapOperation.COMPARE).entryDn(missing)
                    .compareAttribute("sn").compareValue("x").build(), 0)).category()).isEqualTo("noSuchObject");
            LdapClientException e = failure(() -> c.execute(LdapRequest.builder(LdapOperation.SEARCH)
                    .baseDn(missing).build(), 0));
            assertThat(e.category()).isEqualTo("noSuchObject");
            assertThat(e.detail()).contains("matched DN: " + Slapd.BASE_DN);
        }
    }

    @Test
    void refusedPortIsConnectErrorWellWithinTheConnectTimeout() throws Exception {
        int port = freePort();
        long t0 = System.nanoTime();
        LdapClientException e = connectFailure(LdapConnectionSettings.builder().host(Slapd.HOST).port(port)
                .connectTimeoutMs(60_000));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertThat(e.category()).isEqualTo("connectError");
        assertThat(e.connectionLost()).isTrue();
        assertThat(e.detail()).contains(Slapd.HOST + ":" + port);
        assertThat(ms).as("refused at once, not after the 60 s connect timeout").isLessThan(30_000);
    }

    /**
     * A listener whose accept queue is full drops further SYNs: the client's connect hangs like one
     * to a black-holed address. It must give up after the connect timeout, not the OS's minutes.
     */
    @Test
    void blackholedTargetFailsWithConnectErrorAfterTheConnectTimeout() throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getByName(Slapd.HOST))) {
            List<Socket> fillers = fillAcceptQueue(full);
            try {
                long t0 = System.nanoTime();
                LdapClientException e = connectFailure(LdapConnectionSettings.builder().host(Slapd.HOST)
                        .port(full.getLocalPort()).connectTimeoutMs(700).responseTimeoutMs(30_000));
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertThat(e.category()).isEqualTo("connectError");
                assertThat(ms).isBetween(600L, 700L + 1500L);
            } finally {
                for (Socket s : fillers) {
                    s.close();
                }
            }
        }
    }

    /** Opens connections to a never-accepting listener until one does not complete within 300 ms. */
    static List<Socket> fillAcceptQueue(ServerSocket listener) throws IOException {
        List<Socket> fillers = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            Socket s = new Socket();
            try {
                s.connect(listener.getLocalSocketAddress(), 300);
                fillers.add(s);
            } catch (IOException timedOut) {
                s.close();
                return fillers;
            }
        }
        for (Socket s : fillers) {
            s.close();
        }
        Assumptions.abort("this kernel accepts connections beyond the listen backlog; cannot black-hole");
        return fillers;
    }

    /** A TLS handshake with a peer that accepts TCP but never answers is bounded by the connect timeout. */
    @Test
    void ldapsToASilentPeerFailsAfterTheConnectTimeoutNotTheResponseTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getByName(Slapd.HOST))) {
            long t0 = System.nanoTime();
            LdapClientException e = connectFailure(LdapConnectionSettings.builder().scheme(LdapScheme.LDAPS)
                    .host(Slapd.HOST).port(silent.getLocalPort()).trustMode(TrustMode.TRUST_ALL)
                    .connectTimeoutMs(700).responseTimeoutMs(20_000));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(e.connectionLost()).isTrue();
            assertThat(e.category()).isEqualTo("connectError");
            assertThat(ms).as("ended by the 700 ms connect timeout, not the 20 s response timeout").isLessThan(10_000L);
        }
    }

    @Test
    void missingSocketFileIsConnectError() throws Exception {
        LdapClientException e = connectFailure(LdapConnectionSettings.builder().scheme(LdapScheme.LDAPI)
                .socketPath(slapd.directory().resolve("no-such-socket").toString()));
        assertThat(e.category()).isEqualTo("connectError");
        assertThat(e.getMessage()).isEqualTo("LDAP 91 connectError: no such socket");
        assertThat(e.connectionLost()).isTrue();
    }

    // ---------------------------------------------------------------- TLS sessions

    /**
     * One TLS context serves the whole test, yet by default every connection makes a full handshake, as the
     * reference script did: the session is invalidated once verified, so the context's client cache holds
     * nothing to resume. With {@code tlsSessionResumption} the session stays in the cache, offered to the next
     * connection (whether the server resumes it is the server's choice).
     */
    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"LDAPS", "STARTTLS"})
    void tlsSessionsAreNotCachedForResumptionUnlessTheSettingsAskForIt(Transport t) throws Exception {
        for (boolean resume : new boolean[] {false, true}) {
            LdapConnectionSettings s = over(slapd, t).bindType(BindType.ANONYMOUS).tlsSessionResumption(resume).build();
            javax.net.ssl.SSLContext tls = org.trustload.ldap.LdapTls.create(s);
            for (int i = 0; i < 2; i++) {
                try (LdapClient c = LdapClient.connect(s, tls)) {
                    c.bind();
                    assertFindsFulano1(c);
                }
            }
            assertThat(tls.getClientSessionContext().getIds().hasMoreElements())
                    .as(t + " with tlsSessionResumption " + resume + ": a session cached for the next connection")
                    .isEqualTo(resume);
        }
    }

    /**
     * Per iteration, a thread's connections share the SDK request objects (bind, search) and the endpoint the
     * test built once (options, address, socket factory): many connections in turn, each bound and searched
     * with the search's value pattern drawn anew, all answered, none left open.
     */
    @ParameterizedTest
    @EnumSource(Transport.class)
    void perIterationConnectionsOfOneThreadReuseTheirRequestsAndAllSucceed(Transport t) throws Exception {
        try (LdapConnections cs = LdapConnections.start(over(slapd, t).bindType(BindType.ANONYMOUS).build(),
                LdapConnections.Mode.PER_ITERATION)) {
            LdapRequest search = LdapRequest.builder(LdapOperation.SEARCH).baseDn(Slapd.BASE_DN)
                    .filter("(cn=fulano[1-20])").build(cs);
            for (int i = 0; i < 30; i++) {
                LdapClient c = cs.acquire(true);
                LdapOutcome o = c.execute(search.draw(), 1);
                cs.release(c, false);
                assertThat(o.entryCount()).as("iteration " + i).isEqualTo(1);
            }
            assertThat(cs.openCount()).isZero();
        }
    }

    // ---------------------------------------------------------------- TLS trust and host names

    /**
     * A trust store with an unrelated CA (the first one the JVM trusts) fails the handshake. The
     * category is {@code connectError} for ldaps and for StartTLS alike: the handshake is part of connecting.
     */
    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"LDAPS", "STARTTLS"})
    void trustStoreWithAnotherCaIsAConnectFailure(Transport t, @TempDir Path tmp) throws Exception {
        Path wrong = tmp.resolve("other-ca.p12");
        writeTrustStore(wrong, "changeit", someOtherCa());
        LdapClientException e = connectFailure(over(slapd, t).trustStorePath(wrong.toString())
                .trustStorePassword("changeit"));
        assertThat(e.category()).isEqualTo("connectError");
        assertThat(e.connectionLost()).isTrue();
        assertThat(e.detail()).containsIgnoringCase("certificat");
    }

    @Test
    void jvmDefaultTrustRejectsTheSelfSignedFixtureCertificate() {
        LdapClientException e = connectFailure(over(slapd, Transport.LDAPS).trustMode(TrustMode.JVM_DEFAULT));
        assertThat(e.category()).isEqualTo("connectError");
    }

    @Test
    void trustAllAcceptsTheSelfSignedFixtureCertificate() throws Exception {
        try (LdapClient c = boundClient(over(slapd, Transport.LDAPS).trustMode(TrustMode.TRUST_ALL))) {
            assertFindsFulano1(c);
        }
    }

    @Test
    void wrongTrustStorePasswordIsConfigError() {
        LdapClientException e = connectFailure(over(slapd, Transport.LDAPS)
                .trustStorePassword("wrong-" + slapd.trustStorePassword()));
        assertThat(e.category()).isEqualTo("configError");
        assertThat(e.getMessage()).contains("wrong trust store password").doesNotContain(slapd.trustStorePassword());
        assertThat(e.connectionLost()).isFalse();
    }

    /** The fixture certificate names IP 127.0.0.1 and DNS localhost: both pass host-name verification. */
    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"LDAPS", "STARTTLS"})
    void hostnameVerificationAcceptsTheNamesInTheCertificate(Transport t) throws Exception {
        for (String host : List.of("127.0.0.1", "localhost")) {
            try (LdapClient c = boundClient(over(slapd, t).host(host).verifyHostname(true))) {
                assertFindsFulano1(c);
            }
        }
    }

    /** This machine's own host name resolves to 127.0.0.1 but is not in the certificate. */
    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"LDAPS", "STARTTLS"})
    void hostnameVerificationRejectsANameNotInTheCertificate(Transport t) throws Exception {
        String name = InetAddress.getLocalHost().getHostName();
        Assumptions.assumeTrue(!name.equalsIgnoreCase("localhost")
                && InetAddress.getByName(name).getHostAddress().equals(Slapd.HOST),
                "needs a host name other than localhost that resolves to 127.0.0.1; have " + name);
        LdapClientException e = connectFailure(over(slapd, t).host(name).verifyHostname(true));
        assertThat(e.category()).isEqualTo("connectError");
        assertThat(e.connectionLost()).isTrue();
        // Same name without verification connects: the refusal above is the verification's.
        try (LdapClient c = boundClient(over(slapd, t).host(name).verifyHostname(false))) {
            assertFindsFulano1(c);
        }
    }

    private static X509Certificate someOtherCa() throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init((KeyStore) null);
        for (javax.net.ssl.TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509TrustManager && ((X509TrustManager) tm).getAcceptedIssuers().length > 0) {
                return ((X509TrustManager) tm).getAcceptedIssuers()[0];
            }
        }
        Assumptions.abort("the JVM trusts no CA to use as the wrong one");
        return null;
    }

    private static void writeTrustStore(Path file, String password, X509Certificate cert) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("other", cert);
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, password.toCharArray());
        }
    }

    // ---------------------------------------------------------------- server trouble

    /**
     * A frozen server (SIGSTOP) accepts TCP in the kernel but never answers: the response timeout ends the wait.
     * {@link Slapd#freeze()} returns only once every slapd thread is stopped: Linux wakes one thread for a
     * SIGSTOP and the others stop after it has run, so a search sent as soon as {@code kill} returned could be
     * answered by a thread not stopped yet on a busy machine (the failure seen once at load 14).
     */
    @Test
    void responseTimeoutIsHonouredWhenTheServerFreezes() throws Exception {
        try (Slapd own = smallSlapd(); LdapClient c = boundClient(over(own, Transport.LDAP).responseTimeoutMs(600))) {
            assertFindsFulano1(c);
            own.freeze();
            try {
                long t0 = System.nanoTime();
                LdapClientException e = failure(() -> c.execute(searchFulano1(), 1));
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertThat(e.category()).isEqualTo("timeout");
                assertThat(e.getMessage()).isEqualTo("LDAP 85 timeout: no response within the response timeout");
                assertThat(e.connectionLost()).isTrue();
                // at least the timeout (SO_TIMEOUT); the server stays frozen until thaw(), so without the
                // timeout the call would never return: the upper bound only catches a wrong timeout, with
                // room for a machine at load 10+
                assertThat(ms).isBetween(500L, 600L + 30_000L);
            } finally {
                own.thaw();
            }
            try (LdapClient again = boundClient(over(own, Transport.LDAP))) {
                assertFindsFulano1(again);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void serverStoppedMidConnectionIsServerDownAndRestartRecovers(Transport t) throws Exception {
        try (Slapd own = smallSlapd()) {
            LdapClient c = boundClient(admin(over(own, t), own));
            try {
                assertFindsFulano1(c);
                own.stop();
                LdapClientException e = failure(() -> c.execute(searchFulano1(), 1));
                assertThat(e.category()).isEqualTo("serverDown");
                assertThat(e.connectionLost()).isTrue();
                assertThat(c.isConnected()).isFalse();
            } finally {
                c.close();
            }
            LdapClientException down = connectFailure(admin(over(own, t), own));
            assertThat(down.category()).isEqualTo("connectError");
            own.restart();
            try (LdapClient again = boundClient(admin(over(own, t), own))) {
                assertFindsFulano1(again);
            }
        }
    }

    /**
     * A server killed mid-test (SIGKILL, as a crash) refuses the next connects: once the test's connections had
     * reached it, {@link LdapConnections#acquire} waits the refusal out (growing pauses, at most the connect
     * timeout) and returns the connection the restarted server accepts, instead of failing thousands of times a
     * second; a server that stays down fails it with "connection refused" after the connect timeout. The
     * restart happens while a connect is seen waiting (its thread asleep between two tries), never after a
     * fixed sleep.
     */
    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"LDAP", "LDAPS", "LDAPI"})
    void aServerKilledAndRestartedIsWaitedForWithinTheConnectTimeoutOnceReached(Transport t) throws Exception {
        try (Slapd own = smallSlapd();
             LdapConnections conns = LdapConnections.start(over(own, t).connectTimeoutMs(60_000).build(),
                     LdapConnections.Mode.PER_ITERATION)) {
            conns.discard(conns.acquire(true));
            assertThat(conns.reachedServer()).isTrue();
            own.kill();
            assertThat(connectFailure(over(own, t)).isRefusal()).as("the port refuses now").isTrue();
            LdapClient[] got = new LdapClient[1];
            LdapClientException[] failed = new LdapClientException[1];
            Thread waiter = new Thread(() -> {
                try {
                    got[0] = conns.acquire(true);
                } catch (LdapClientException e) {
                    failed[0] = e;
                }
            }, "acquire-during-outage");
            waiter.start();
            // waiting between two refused connects: asleep (TIMED_WAITING) in the retry
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
            while (waiter.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(waiter.getState()).as("a connect waiting out the refusal").isEqualTo(Thread.State.TIMED_WAITING);
            own.restart();
            waiter.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(failed[0]).as("no failure once the server is back").isNull();
            assertThat(got[0]).isNotNull();
            assertFindsFulano1(got[0]);
            conns.discard(got[0]);
        }
    }

    @Test
    void aRefusalBeforeTheServerWasEverReachedFailsAtOnceAndOneThatLastsFailsAfterTheConnectTimeout() throws Exception {
        try (Slapd own = smallSlapd()) {
            LdapConnectionSettings settings = over(own, Transport.LDAP).connectTimeoutMs(1500).build();
            try (LdapConnections never = LdapConnections.start(settings, LdapConnections.Mode.PER_ITERATION)) {
                own.kill();
                LdapClientException e = failure(() -> never.acquire(true));
                assertThat(e.getMessage()).isEqualTo("LDAP 91 connectError: connection refused");
                assertThat(never.reachedServer()).as("a wrong port is a setting, not an outage to wait out").isFalse();
            }
            own.restart();
            try (LdapConnections conns = LdapConnections.start(settings, LdapConnections.Mode.PER_ITERATION)) {
                conns.discard(conns.acquire(true));
                own.kill();
                long t0 = System.nanoTime();
                LdapClientException e = failure(() -> conns.acquire(true));
                assertThat(e.getMessage()).isEqualTo("LDAP 91 connectError: connection refused");
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).as("waited the connect timeout out")
                        .isGreaterThanOrEqualTo(1500);
            }
        }
    }

    // ---------------------------------------------------------------- many connections

    @Test
    void fiveHundredConcurrentClientsSearchAndCloseBackToTheBaseline() throws Exception {
        int baseline = slapd.settledOpenFiles();
        List<LdapClient> clients = new ArrayList<>(500);
        try {
            for (int i = 0; i < 500; i++) {
                Transport t = i % 2 == 0 ? Transport.LDAP : Transport.LDAPI;
                clients.add(boundClient(over(slapd, t).bindType(BindType.ANONYMOUS)));
            }
            for (LdapClient c : clients) {
                assertThat(c.execute(searchFulano1(), 1).entryCount()).isEqualTo(1);
            }
            assertThat(slapd.openFiles()).isGreaterThanOrEqualTo(baseline + 500);
        } finally {
            clients.forEach(LdapClient::close);
        }
        assertThat(clients).noneMatch(LdapClient::isConnected);
        awaitOpenFiles(slapd, baseline);
    }

    @Test
    void closeSendsUnbindAndReleasesTheServerSideDescriptor() throws Exception {
        int baseline = slapd.settledOpenFiles();
        Consumer<Transport> once = t -> {
            try (LdapClient c = boundClient(over(slapd, t))) {
                assertFindsFulano1(c);
            } catch (LdapClientException e) {
                throw new AssertionError(e);
            }
        };
        for (Transport t : Transport.values()) {
            once.accept(t);
        }
        awaitOpenFiles(slapd, baseline);
    }
}
