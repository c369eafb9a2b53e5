package org.trustload.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import java.net.InetAddress;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fast tests of the LDAP client without an external server: URL parsing, settings validation,
 * result-code names, password hygiene and the name parsers. A few operations run against UnboundID's
 * in-memory server in this JVM.
 */
class LdapClientTest {

    private static final String SECRET = "s3cr3t-Pa55word";

    private static LdapConnectionSettings.Builder builder() {
        return LdapConnectionSettings.builder();
    }

    private static void assertConfigError(ThrowingCallable call, String messagePart) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(LdapClientException.class, e -> {
                    assertThat(e.category()).isEqualTo(LdapClientException.CONFIG_ERROR);
                    assertThat(e.resultCode()).isEqualTo(-1);
                    assertThat(e.connectionLost()).isFalse();
                })
                .hasMessageContaining(messagePart);
    }

    @Nested
    class UrlParsing {

        @Test
        void ldapUrlWithHostAndPortSetsBoth() throws Exception {
            LdapConnectionSettings s = builder().url("ldap://h:1").build();
            assertThat(s.scheme()).isEqualTo(LdapScheme.LDAP);
            assertThat(s.host()).isEqualTo("h");
            assertThat(s.port()).isEqualTo(1);
            assertThat(s.target()).isEqualTo("ldap://h:1");
        }

        @Test
        void ldapsUrlWithoutPortUsesPort636() throws Exception {
            LdapConnectionSettings s = builder().url("ldaps://h").build();
            assertThat(s.scheme()).isEqualTo(LdapScheme.LDAPS);
            assertThat(s.host()).isEqualTo("h");
            assertThat(s.port()).isEqualTo(636);
            assertThat(s.usesTls()).isTrue();
        }

        @Test
        void ldapUrlWithoutPortUsesPort389() throws Exception {
            assertThat(builder().url("ldap://h/").build().port()).isEqualTo(389);
        }

        @Test
        void urlWithBaseDnAfterTheSlashIgnoresIt() throws Exception {
            LdapConnectionSettings s = builder().url("ldap://h:1389/dc=example,dc=org??sub").build();
            assertThat(s.host()).isEqualTo("h");
            assertThat(s.port()).isEqualTo(1389);
        }

        @Test
        void schemeInUrlIsCaseInsensitive() throws Exception {
            assertThat(builder().url("LDAPS://h:1").build().scheme()).isEqualTo(LdapScheme.LDAPS);
        }

        @ParameterizedTest
        @ValueSource(strings = {"ldapi://%2Ftmp%2Fx", "ldapi://%2Ftmp%2Fx/", "ldapi://%2ftmp%2fx",
                "ldapi:///tmp/x"})
        void ldapiUrlDecodesTheSocketPath(String url) throws Exception {
            LdapConnectionSettings s = builder().url(url).build();
            assertThat(s.scheme()).isEqualTo(LdapScheme.LDAPI);
            assertThat(s.socketPath()).isEqualTo("/tmp/x");
            assertThat(s.target()).isEqualTo("ldapi:///tmp/x");
            assertThat(s.usesTls()).isFalse();
        }

        @Test
        void ldapiUrlKeepsAPlusSignInTheSocketPath() throws Exception {
            // A '+' is a literal character in an RFC 3986 path, not a space as in HTML forms.
            assertThat(builder().url("ldapi://%2Ftmp%2Fa+b").build().socketPath()).isEqualTo("/tmp/a+b");
        }

        @Test
        void ipv6LiteralWithPortLosesItsBrackets() throws Exception {
            LdapConnectionSettings s = builder().url("ldap://[::1]:1389").build();
            assertThat(s.host()).isEqualTo("::1");
            assertThat(s.port()).isEqualTo(1389);
        }

        @Test
        void ipv6LiteralWithoutPortUsesTheDefaultPort() throws Exception {
            LdapConnectionSettings s = builder().url("ldaps://[::1]").build();
            assertThat(s.host()).isEqualTo("::1");
            assertThat(s.port()).isEqualTo(636);
        }

        @Test
        void urlWithoutSchemeSeparatorIsAConfigError() {
            assertConfigError(() -> builder().url("127.0.0.1:389"), "not an LDAP URL");
        }

        @Test
        void urlWithUnknownSchemeIsAConfigError() {
            assertConfigError(() -> builder().url("http://h:1"), "unknown scheme");
        }

        @ParameterizedTest
        @ValueSource(strings = {"ldap://h:abc", "ldap://h:", "ldap://h:99999999999"})
        void urlWithNonNumericPortIsAConfigError(String url) {
            assertConfigError(() -> builder().url(url), "bad port");
        }

        @Test
        void urlWithPortOutOfRangeFailsAtBuild() throws Exception {
            LdapConnectionSettings.Builder b = builder().url("ldap://h:65536");
            assertConfigError(b::build, "out of range");
        }

        @Test
        void urlWithEmptyHostFailsAtBuild() throws Exception {
            assertConfigError(builder().url("ldap://:389")::build, "host is empty");
            assertConfigError(builder().url("ldap://")::build, "host is empty");
        }
    }

    @Nested
    class SettingsValidation {

        @Test
        void defaultsAreLdapOnLoopbackAnonymousWithJvmTrustAndBothTimeouts() throws Exception {
            LdapConnectionSettings s = builder().build();
            assertThat(s.target()).isEqualTo("ldap://127.0.0.1:389");
            assertThat(s.bindType()).isEqualTo(BindType.NONE);
            assertThat(s.trustMode()).isEqualTo(TrustMode.JVM_DEFAULT);
            assertThat(s.connectTimeoutMs()).isEqualTo(LdapConnectionSettings.DEFAULT_CONNECT_TIMEOUT_MS);
            assertThat(s.responseTimeoutMs()).isEqualTo(LdapConnectionSettings.DEFAULT_RESPONSE_TIMEOUT_MS);
            assertThat(s.verifyHostname()).isFalse();
        }

        @Test
        void ldapiWithoutSocketPathIsAConfigError() {
            assertConfigError(builder().scheme(LdapScheme.LDAPI)::build, "socket path");
        }

        @Test
        void ldapiWithStartTlsIsAConfigError() {
            assertConfigError(builder().scheme(LdapScheme.LDAPI).socketPath("/tmp/x").startTls(true)::build,
                    "StartTLS");
        }

        @Test
        void blankHostIsAConfigError() {
            assertConfigError(builder().host("  ")::build, "host is empty");
            assertConfigError(builder().host(null)::build, "host is empty");
        }

        @ParameterizedTest
        @ValueSource(ints = {-1, 65536})
        void portOutOfRangeIsAConfigError(int port) {
            assertConfigError(builder().port(port)::build, "out of range");
        }

        @Test
        void portZeroMeansTheSchemeDefault() throws Exception {
            assertThat(builder().scheme(LdapScheme.LDAPS).port(0).build().port()).isEqualTo(636);
            assertThat(builder().port(65535).build().port()).isEqualTo(65535);
        }

        @Test
        void startTlsOverLdapsIsAConfigError() {
            assertConfigError(builder().scheme(LdapScheme.LDAPS).startTls(true)::build, "StartTLS");
        }

        @ParameterizedTest
        @CsvSource({"0,1000", "-5,1000", "1000,0", "1000,-1"})
        void nonPositiveTimeoutIsAConfigError(int connect, int response) {
            assertConfigError(builder().connectTimeoutMs(connect).responseTimeoutMs(response)::build,
                    "timeouts must be positive");
        }

        @Test
        void trustStoreModeWithoutFileIsAConfigErrorForLdapsAndStartTls() {
            assertConfigError(builder().scheme(LdapScheme.LDAPS).trustMode(TrustMode.TRUST_STORE)::build,
                    "trust store file");
            assertConfigError(builder().startTls(true).trustMode(TrustMode.TRUST_STORE)::build,
                    "trust store file");
        }

        @Test
        void trustStoreModeWithoutFileIsAcceptedForPlainLdapWhereNoTlsHappens() throws Exception {
            assertThat(builder().trustMode(TrustMode.TRUST_STORE).build().usesTls()).isFalse();
        }

        @Test
        void simpleBindWithoutDnIsAConfigError() {
            assertConfigError(builder().bindType(BindType.SIMPLE).bindPassword(SECRET)::build,
                    "simple bind needs a bind DN");
        }

        @Test
        void missingTrustStoreFileIsAConfigErrorWhenTheTlsContextIsBuilt() throws Exception {
            LdapConnectionSettings s = builder().scheme(LdapScheme.LDAPS).trustMode(TrustMode.TRUST_STORE)
                    .trustStorePath("/nonexistent/trust.p12").build();
            assertConfigError(() -> LdapTls.context(s), "trust store file not found");
            assertConfigError(() -> LdapClient.connect(s), "trust store file not found");
        }

        @Test
        void settingsThatDifferOnlyInPasswordAreNotEqual() throws Exception {
            LdapConnectionSettings a = builder().bindType(BindType.SIMPLE).bindDn("cn=a").bindPassword("x").build();
            LdapConnectionSettings b = builder().bindType(BindType.SIMPLE).bindDn("cn=a").bindPassword("y").build();
            LdapConnectionSettings c = builder().bindType(BindType.SIMPLE).bindDn("cn=a").bindPassword("x").build();
            assertThat(a).isNotEqualTo(b).isEqualTo(c).hasSameHashCodeAs(c);
        }
    }

    @Nested
    class CodeNames {

        @ParameterizedTest
        @CsvSource({
            "49, invalidCredentials",
            "32, noSuchObject",
            "34, invalidDNSyntax",
            "91, connectError",
            "81, serverDown",
            "85, timeout",
            "87, filterError",
            "0, success",
            "6, compareTrue",
            "5, compareFalse",
            "4, sizeLimitExceeded",
            "68, entryAlreadyExists",
            "67, notAllowedOnRDN",
            "14, saslBindInProgress",
            "48, inappropriateAuthentication",
            "7, authMethodNotSupported",
        })
        void resultCodeNameIsRfc4511CamelCase(int code, String name) {
            assertThat(LdapClientException.codeName(ResultCode.valueOf(code))).isEqualTo(name);
        }

        @Test
        void ldapExceptionMapsToCategoryStableMessageAndDetail() {
            LdapClientException e = LdapClientException.from(new com.unboundid.ldap.sdk.LDAPException(
                    ResultCode.INVALID_CREDENTIALS, "diagnostic from server 1234"));
            assertThat(e.category()).isEqualTo("invalidCredentials");
            assertThat(e.resultCode()).isEqualTo(49);
            assertThat(e.getMessage()).isEqualTo("LDAP 49 invalidCredentials: wrong DN or password");
            assertThat(e.detail()).contains("diagnostic from server 1234");
            assertThat(e.connectionLost()).isFalse();
        }

        @ParameterizedTest
        @ValueSource(ints = {81, 91, 85})
        void transportFailuresMarkTheConnectionLost(int code) {
            assertThat(LdapClientException.of(ResultCode.valueOf(code), "x").connectionLost()).isTrue();
        }

        @ParameterizedTest
        @ValueSource(ints = {49, 32, 34, 87, 68})
        void operationFailuresKeepTheConnection(int code) {
            assertThat(LdapClientException.of(ResultCode.valueOf(code), "x").connectionLost()).isFalse();
        }
    }

    @Nested
    class Passwords {

        @Test
        void toStringNeverContainsTheBindOrTrustStorePassword() throws Exception {
            LdapConnectionSettings s = builder().scheme(LdapScheme.LDAPS).host("h").bindType(BindType.SIMPLE)
                    .bindDn("cn=admin,dc=x").bindPassword(SECRET).trustMode(TrustMode.TRUST_STORE)
                    .trustStorePath("/tmp/t.p12").trustStorePassword(SECRET + "-ts").build();
            assertThat(s.toString()).doesNotContain(SECRET).contains("cn=admin,dc=x").contains("simple");
            assertThat(s.target()).doesNotContain(SECRET);
        }

        @Test
        void unreadableTrustStoreErrorDoesNotShowItsPassword() throws Exception {
            java.nio.file.Path bogus = java.nio.file.Files.createTempFile("ts", ".p12");
            try {
                java.nio.file.Files.writeString(bogus, "not a key store");
                LdapConnectionSettings s = builder().scheme(LdapScheme.LDAPS).trustMode(TrustMode.TRUST_STORE)
                        .trustStorePath(bogus.toString()).trustStorePassword(SECRET).build();
                assertThatThrownBy(() -> LdapTls.context(s))
                        .isInstanceOfSatisfying(LdapClientException.class, e -> {
                            assertThat(e.category()).isEqualTo("configError");
                            assertThat(e.getMessage()).doesNotContain(SECRET);
                            assertThat(e.detail()).doesNotContain(SECRET);
                        });
            } finally {
                java.nio.file.Files.deleteIfExists(bogus);
            }
        }
    }

    @Nested
    class NameParsing {

        @Test
        void schemesParseCaseInsensitivelyAndUnknownIsConfigError() throws Exception {
            assertThat(LdapScheme.parse(" LDAPI ")).isEqualTo(LdapScheme.LDAPI);
            assertConfigError(() -> LdapScheme.parse("ldapx"), "unknown scheme 'ldapx'");
            assertConfigError(() -> LdapScheme.parse(""), "unknown scheme");
            assertConfigError(() -> LdapScheme.parse(null), "unknown scheme");
        }

        @Test
        void bindTypesParseAndBlankMeansNone() throws Exception {
            assertThat(BindType.parse("")).isEqualTo(BindType.NONE);
            assertThat(BindType.parse(null)).isEqualTo(BindType.NONE);
            assertThat(BindType.parse("Simple")).isEqualTo(BindType.SIMPLE);
            assertThat(BindType.parse("sasl-external")).isEqualTo(BindType.SASL_EXTERNAL);
            assertThat(BindType.parse("anonymous")).isEqualTo(BindType.ANONYMOUS);
            assertConfigError(() -> BindType.parse("kerberos"), "unknown bind type 'kerberos'");
        }

        @Test
        void trustModesParseAndBlankMeansJvmDefault() throws Exception {
            assertThat(TrustMode.parse(" ")).isEqualTo(TrustMode.JVM_DEFAULT);
            assertThat(TrustMode.parse("trust-all")).isEqualTo(TrustMode.TRUST_ALL);
            assertThat(TrustMode.parse("TRUST-STORE")).isEqualTo(TrustMode.TRUST_STORE);
            assertConfigError(() -> TrustMode.parse("trustall"), "unknown trust mode");
        }

        @Test
        void operationsParseAndUnknownOrBlankIsConfigError() throws Exception {
            for (LdapOperation op : LdapOperation.values()) {
                assertThat(LdapOperation.parse(op.id().toUpperCase())).isEqualTo(op);
            }
            assertConfigError(() -> LdapOperation.parse("modrdn"), "unknown operation 'modrdn'");
            assertConfigError(() -> LdapOperation.parse(""), "unknown operation");
        }

        @Test
        void scopesParseWithAliasesAndBlankMeansSub() throws Exception {
            assertThat(SearchScopes.parse("base")).isEqualTo(SearchScope.BASE);
            assertThat(SearchScopes.parse("one")).isEqualTo(SearchScope.ONE);
            assertThat(SearchScopes.parse("onelevel")).isEqualTo(SearchScope.ONE);
            assertThat(SearchScopes.parse("SUBTREE")).isEqualTo(SearchScope.SUB);
            assertThat(SearchScopes.parse("")).isEqualTo(SearchScope.SUB);
            assertConfigError(() -> SearchScopes.parse("children"), "unknown search scope");
        }

        @Test
        void attributeListSplitsOnCommasAndBlanks() {
            assertThat(LdapRequest.builder(LdapOperation.SEARCH).attributes("cn, sn  uid,,").build().attributes())
                    .containsExactly("cn", "sn", "uid");
            assertThat(LdapRequest.builder(LdapOperation.SEARCH).attributes(" ").build().attributes()).isEmpty();
        }
    }

    /** Operations against UnboundID's in-memory server on loopback (no external process). */
    @Nested
    class InMemoryServer {
        private static InMemoryDirectoryServer server;

        @BeforeAll
        static void startServer() throws Exception {
            InMemoryDirectoryServerConfig cfg = new InMemoryDirectoryServerConfig("dc=testeperformance");
            cfg.addAdditionalBindCredentials("cn=admin,dc=testeperformance", SECRET);
            cfg.setListenerConfigs(InMemoryListenerConfig.createLDAPConfig("ldap",
                    InetAddress.getLoopbackAddress(), 0, null));
            cfg.setSchema(null);
            server = new InMemoryDirectoryServer(cfg);
            server.add("dn: dc=testeperformance", "objectClass: top", "objectClass: domain", "dc: testeperformance");
            for (int i = 1; i <= 20; i++) {
                server.add("dn: cn=fulano" + i + ",dc=testeperformance", "objectClass: person",
                        "cn: fulano" + i, "sn: fulano" + i);
            }
            server.startListening();
        }

        @AfterAll
        static void stopServer() {
            if (server != null) {
                server.shutDown(true);
            }
        }

        private LdapClient connect(Consumer<LdapConnectionSettings.Builder> custom) throws Exception {
            LdapConnectionSettings.Builder b = builder().port(server.getListenPort());
            custom.accept(b);
            return LdapClient.connect(b.build());
        }

        @Test
        void perIterationConnectionsKeepOneWriteTimeoutTimerThread() throws Exception {
            LdapConnectionSettings s = builder().port(server.getListenPort()).build();
            try (LdapConnections connections = LdapConnections.start(s, LdapConnections.Mode.PER_ITERATION)) {
                assertThat(connections.timerPinned()).isTrue();
                java.util.Set<Thread> first = null;
                for (int i = 0; i < 5; i++) {
                    LdapClient c = connections.acquire(true);
                    connections.release(c, false);
                    java.util.Set<Thread> now = new java.util.HashSet<>();
                    Thread.getAllStackTraces().keySet().stream()
                            .filter(t -> t.getName().equals("Write Timeout Handler Timer") && t.isAlive())
                            .forEach(now::add);
                    assertThat(now).isNotEmpty();
                    if (first == null) {
                        first = now;
                    }
                    // without the pin the last closed connection ends the timer and the next one starts a new thread
                    assertThat(first).containsAll(now);
                }
            }
        }

        @Test
        void noneBindSendsNothingAndSearchFindsOneEntry() throws Exception {
            try (LdapClient c = connect(b -> { })) {
                assertThat(c.isBound()).isFalse();
                assertThat(c.bind().summary()).contains("none");
                assertThat(c.isBound()).isTrue();
                LdapOutcome o = c.execute(LdapRequest.builder(LdapOperation.SEARCH).baseDn("dc=testeperformance")
                        .filter("(cn=fulano1)").build(), 10);
                assertThat(o.summary()).isEqualTo("search: 1 entry");
                assertThat(o.resultName()).isEqualTo("success");
                assertThat(o.render(10)).contains("dn: cn=fulano1,dc=testeperformance");
            }
        }

        @Test
        void searchKeepsOnlyTheRequestedEntriesButCountsAll() throws Exception {
            try (LdapClient c = connect(b -> { })) {
                LdapOutcome o = c.execute(LdapRequest.builder(LdapOperation.SEARCH).baseDn("dc=testeperformance")
                        .filter("(cn=fulano*)").build(), 3);
                assertThat(o.entryCount()).isEqualTo(20);
                assertThat(o.entries()).hasSize(3);
                assertThat(o.render(2)).contains("# 18 more entries not shown");
            }
        }

        @Test
        void wrongPasswordIsInvalidCredentialsAndLeavesTheClientUnbound() throws Exception {
            try (LdapClient c = connect(b -> b.bindType(BindType.SIMPLE).bindDn("cn=admin,dc=testeperformance")
                    .bindPassword("wrong"))) {
                assertThatThrownBy(c::bind).isInstanceOfSatisfying(LdapClientException.class, e -> {
                    assertThat(e.category()).isEqualTo("invalidCredentials");
                    assertThat(e.connectionLost()).isFalse();
                });
                assertThat(c.isBound()).isFalse();
                assertThat(c.isConnected()).isTrue();
            }
        }

        @Test
        void simpleBindSucceedsWithTheRightPassword() throws Exception {
            try (LdapClient c = connect(b -> b.bindType(BindType.SIMPLE).bindDn("cn=admin,dc=testeperformance")
                    .bindPassword(SECRET))) {
                assertThat(c.bind().summary()).isEqualTo("bind: success as cn=admin,dc=testeperformance");
                assertThat(c.isBound()).isTrue();
            }
        }

        @Test
        void badFilterIsFilterError() throws Exception {
            try (LdapClient c = connect(b -> { })) {
                assertThatThrownBy(() -> c.execute(LdapRequest.builder(LdapOperation.SEARCH)
                        .baseDn("dc=testeperformance").filter("(cn=fulano1").build(), 1))
                        .isInstanceOfSatisfying(LdapClientException.class,
                                e -> assertThat(e.category()).isEqualTo("filterError"));
            }
        }

        @Test
        void unknownScopeIsConfigError() throws Exception {
            try (LdapClient c = connect(b -> { })) {
                assertConfigError(() -> c.execute(LdapRequest.builder(LdapOperation.SEARCH)
                        .baseDn("dc=testeperformance").scope("children").build(), 1), "unknown search scope");
            }
        }

        @Test
        void compareAndDeleteWithoutEntryDnAreConfigErrors() throws Exception {
            try (LdapClient c = connect(b -> { })) {
                assertConfigError(() -> c.execute(LdapRequest.builder(LdapOperation.COMPARE)
                        .compareAttribute("sn").build(), 1), "needs an entry DN");
                assertConfigError(() -> c.execute(LdapRequest.builder(LdapOperation.DELETE).build(), 1),
                        "needs an entry DN");
                assertConfigError(() -> c.execute(LdapRequest.builder(LdapOperation.COMPARE)
                        .entryDn("cn=fulano1,dc=testeperformance").build(), 1), "needs an attribute");
            }
        }

        @Test
        void unparsableLdifForAddAndModifyIsConfigError() throws Exception {
            try (LdapClient c = connect(b -> { })) {
                assertConfigError(() -> c.execute(LdapRequest.builder(LdapOperation.ADD)
                        .ldif("this is not ldif").build(), 1), "cannot be parsed");
                assertConfigError(() -> c.execute(LdapRequest.builder(LdapOperation.MODIFY)
                        .entryDn("cn=fulano1,dc=testeperformance").ldif("nonsense without colon").build(), 1),
                        "cannot be parsed");
                assertConfigError(() -> c.execute(LdapRequest.builder(LdapOperation.MODIFY)
                        .ldif("dn: cn=fulano1,dc=testeperformance\nchangetype: delete").build(), 1),
                        "must be a modify change record");
                assertConfigError(() -> c.execute(LdapRequest.builder(LdapOperation.MODIFY)
                        .ldif("replace: sn\nsn: x").build(), 1), "needs an entry DN");
            }
        }

        @Test
        void refusedPortIsConnectErrorAndConnectionLost() throws Exception {
            int port;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            LdapConnectionSettings s = builder().port(port).connectTimeoutMs(2000).build();
            assertThatThrownBy(() -> LdapClient.connect(s)).isInstanceOfSatisfying(LdapClientException.class, e -> {
                assertThat(e.category()).isEqualTo("connectError");
                assertThat(e.getMessage()).isEqualTo("LDAP 91 connectError: connection refused");
                assertThat(e.detail()).contains("127.0.0.1:" + port);
                assertThat(e.detail()).as("one readable cause, no nested dump").doesNotContain("LDAPException(")
                        .contains("Connection refused");
                assertThat(e.connectionLost()).isTrue();
            });
        }

        @Test
        void aSocketFileNobodyListensOnIsConnectionRefused() throws Exception {
            java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("tl-stale");
            java.io.File file = dir.resolve("ldapi").toFile();
            try (org.newsclub.net.unix.AFUNIXServerSocket server =
                    org.newsclub.net.unix.AFUNIXServerSocket.newInstance()) {
                server.setDeleteOnClose(false); // a server that died and left its socket file behind
                server.bind(org.newsclub.net.unix.AFUNIXSocketAddress.of(file));
            }
            assertThat(file).exists();
            LdapConnectionSettings s = builder().scheme(LdapScheme.LDAPI).socketPath(file.getPath())
                    .connectTimeoutMs(2000).build();
            try {
                assertThatThrownBy(() -> LdapClient.connect(s)).isInstanceOfSatisfying(LdapClientException.class, e -> {
                    assertThat(e.getMessage()).as(e.detail()).isEqualTo("LDAP 91 connectError: connection refused");
                    assertThat(e.detail()).contains(file.getPath()).doesNotContain("LDAPException(");
                    assertThat(e.isDefinitiveConnectFailure()).isTrue();
                });
            } finally {
                java.nio.file.Files.deleteIfExists(file.toPath());
                java.nio.file.Files.deleteIfExists(dir);
            }
        }

        @Test
        void missingSocketFileIsConnectError() throws Exception {
            LdapConnectionSettings s = builder().url("ldapi://%2Ftmp%2Fno-such-dir-trustload%2Fldapi").build();
            assertThatThrownBy(() -> LdapClient.connect(s)).isInstanceOfSatisfying(LdapClientException.class, e -> {
                assertThat(e.category()).isEqualTo("connectError");
                assertThat(e.detail()).contains("/tmp/no-such-dir-trustload/ldapi");
            });
        }
    }
}
