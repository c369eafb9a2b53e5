package org.trustload.jmeter.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.trustload.jmeter.ldap.LdapRequestSamplerTest.assertNoSecret;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.testing.Slapd;

/**
 * The sampler against a real OpenLDAP ({@link Slapd}), driven as JMeter drives it:
 * {@code sample(null)} after setting the bean properties. Every failure must come back as a failed
 * sample with the category as response code, never as an exception, and no field of any result
 * may contain the bind password.
 */
class LdapRequestSamplerIT {

    private static final String FULANO1 = "cn=fulano1," + Slapd.BASE_DN;

    private static Slapd slapd;

    @BeforeAll
    static void startShared() {
        Slapd.assumeOrFailInCi();
        JMeterTestSupport.init();
        slapd = Slapd.start();
    }

    @AfterAll
    static void stopShared() {
        if (slapd != null) {
            slapd.close();
        }
    }

    /** A search for cn=fulano1 over plain ldap as admin, per iteration; customised per test. */
    private static LdapPair sampler(Slapd s, Consumer<LdapPair> custom) {
        LdapPair x = new LdapPair("ldap it");
        x.setScheme("ldap");
        x.setHost(s.host());
        x.setPort(String.valueOf(s.ldapPort()));
        x.setConnectTimeout("3000");
        x.setResponseTimeout("10000");
        x.setBindType("simple");
        x.setBindDn(s.adminDn());
        x.setBindPassword(s.adminPassword());
        x.setOperation("search");
        x.setBaseDn(Slapd.BASE_DN);
        x.setFilter("(cn=fulano1)");
        custom.accept(x);
        return x;
    }

    private static SampleResult sample(LdapPair x) {
        SampleResult[] r = new SampleResult[1];
        assertThatCode(() -> r[0] = x.sample(null)).doesNotThrowAnyException();
        assertThat(r[0]).isNotNull();
        assertNoSecret(r[0], slapd.adminPassword());
        return r[0];
    }

    private static void assertFoundFulano1(SampleResult r) {
        assertThat(r.isSuccessful()).as(r.getResponseCode() + " " + r.getResponseMessage() + "\n"
                + r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseCode()).isEqualTo("200");
        assertThat(r.getResponseMessage()).isEqualTo("search: 1 entry");
        assertThat(r.getResponseDataAsString()).contains("dn: " + FULANO1);
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

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(Slapd.HOST))) {
            return s.getLocalPort();
        }
    }

    // ------------------------------------------------------------ bad input

    static Stream<Arguments> badInputs() throws IOException {
        int refused = freePort();
        return Stream.of(
                Arguments.of("unknown scheme", (Consumer<LdapPair>) x -> x.setScheme("ldapx"),
                        "configError",
                        "LDAP Connection Config 'ldap it config': scheme: unknown scheme 'ldapx' (expected ldap, "
                                + "ldaps, ldapi)"),
                Arguments.of("missing socket file", (Consumer<LdapPair>) x -> {
                    x.setScheme("ldapi");
                    x.setSocketPath(slapd.directory().resolve("missing-socket").toString());
                }, "configError", "LDAP Connection Config 'ldap it config': socketPath: no such socket ("
                        + slapd.directory().resolve("missing-socket") + ")"),
                Arguments.of("wrong password", (Consumer<LdapPair>) x ->
                        x.setBindPassword("x" + slapd.adminPassword().substring(1)),
                        "invalidCredentials", "LDAP 49 invalidCredentials: wrong DN or password"),
                Arguments.of("unreachable port", (Consumer<LdapPair>) x -> x.setPort(String.valueOf(refused)),
                        "connectError", "LDAP 91 connectError: connection refused"),
                Arguments.of("bad filter", (Consumer<LdapPair>) x -> x.setFilter("(cn=fulano1"),
                        "filterError", "LDAP 87 filterError"),
                Arguments.of("bad DN on delete", (Consumer<LdapPair>) x -> {
                    x.setOperation("delete");
                    x.setEntryDn("not a DN at all");
                }, "invalidDNSyntax", "LDAP 34 invalidDNSyntax"),
                Arguments.of("missing entry on delete", (Consumer<LdapPair>) x -> {
                    x.setOperation("delete");
                    x.setEntryDn("cn=nobody," + Slapd.BASE_DN);
                }, "noSuchObject", "LDAP 32 noSuchObject"));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("badInputs")
    void badInputIsAFailedSampleWithTheCategoryAndAStableMessage(String what, Consumer<LdapPair> bad,
            String code, String message) throws Exception {
        for (String mode : List.of("per-iteration", "per-thread")) {
            LdapPair x = sampler(slapd, bad.andThen(s -> s.setConnectionMode(mode)));
            try {
                for (int i = 0; i < 2; i++) { // the same text every time, so reports group it
                    SampleResult r = sample(x);
                    assertThat(r.isSuccessful()).as(mode).isFalse();
                    assertThat(r.getResponseCode()).as(mode).isEqualTo(code);
                    assertThat(r.getResponseMessage()).as(mode).isEqualTo(message);
                    assertThat(r.getTime()).as(mode).isLessThan(3000);
                }
            } finally {
                x.end();
            }
        }
    }

    // ------------------------------------------------------------ success shape

    @Test
    void successfulSearchIs200WithSummaryAndEntryInLdif() {
        SampleResult r = sample(sampler(slapd, x -> { }));
        assertFoundFulano1(r);
        assertThat(r.getResponseHeaders()).contains("ldap-result: success (0)").contains("connection: new");
        assertThat(r.getSamplerData()).contains("target: ldap://127.0.0.1:" + slapd.ldapPort())
                .contains("bind: simple as " + slapd.adminDn()).contains("filter: (cn=fulano1)");
        assertThat(r.getSampleLabel()).isEqualTo("ldap it");
        assertThat(r.getLatency()).isLessThanOrEqualTo(r.getTime());
    }

    @Test
    void everySchemeSucceeds() {
        List<Consumer<LdapPair>> transports = List.of(
                x -> { },
                x -> {
                    x.setScheme("ldaps");
                    x.setPort(String.valueOf(slapd.ldapsPort()));
                    x.setTrustMode("trust-store");
                    x.setTrustStore(slapd.trustStorePath().toString());
                    x.setTrustStorePassword(slapd.trustStorePassword());
                    x.setVerifyHostname(true);
                },
                x -> {
                    x.setStartTls(true);
                    x.setTrustMode("trust-store");
                    x.setTrustStore(slapd.trustStorePath().toString());
                    x.setTrustStorePassword(slapd.trustStorePassword());
                },
                x -> {
                    x.setScheme("ldapi");
                    x.setSocketPath(slapd.socketPath().toString());
                });
        for (Consumer<LdapPair> t : transports) {
            SampleResult r = sample(sampler(slapd, t));
            assertFoundFulano1(r);
            assertNoSecret(r, slapd.trustStorePassword());
        }
    }

    @Test
    void ldapiSaslExternalWhoAmIReturnsTheMappedDn() {
        SampleResult r = sample(sampler(slapd, x -> {
            x.setScheme("ldapi");
            x.setSocketPath(slapd.socketPath().toString());
            x.setBindType("sasl-external");
            x.setBindDn("");
            x.setBindPassword("");
            x.setOperation("whoami");
        }));
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getResponseMessage()).isEqualTo("whoami: dn:" + slapd.externalDn());
        assertThat(r.getSamplerData()).contains("target: ldapi://" + slapd.socketPath())
                .contains("bind: sasl-external");
    }

    @Test
    void newTlsConnectionReportsAConnectTimeAndAReusedOneNone() {
        LdapPair x = sampler(slapd, s -> {
            s.setScheme("ldaps");
            s.setPort(String.valueOf(slapd.ldapsPort()));
            s.setTrustMode("trust-all");
            s.setConnectionMode("per-thread");
        });
        try {
            SampleResult first = sample(x);
            SampleResult second = sample(x);
            assertFoundFulano1(first);
            assertFoundFulano1(second);
            // TCP on loopback can round to 0 ms; a TLS handshake does not.
            assertThat(first.getConnectTime()).isPositive().isLessThanOrEqualTo(first.getTime());
            assertThat(second.getConnectTime()).isZero();
        } finally {
            x.threadFinished();
        }
    }

    // ------------------------------------------------------------ connection modes

    @Test
    void perIterationOpensAndClosesAConnectionInEverySample() throws Exception {
        int baseline = slapd.settledOpenFiles();
        LdapPair x = sampler(slapd, s -> s.setConnectionMode("per-iteration"));
        for (int i = 0; i < 5; i++) {
            SampleResult r = sample(x);
            assertFoundFulano1(r);
            assertThat(r.getResponseHeaders()).contains("connection: new");
        }
        awaitOpenFiles(slapd, baseline);
    }

    @Test
    void perThreadReusesItsConnectionUntilThreadFinished() throws Exception {
        int baseline = slapd.settledOpenFiles();
        LdapPair x = sampler(slapd, s -> {
            s.setConnectionMode("per-thread");
            s.setScheme("ldapi");
            s.setSocketPath(slapd.socketPath().toString());
        });
        try {
            SampleResult first = sample(x);
            assertFoundFulano1(first);
            assertThat(first.getResponseHeaders()).contains("connection: new");
            for (int i = 0; i < 3; i++) {
                SampleResult again = sample(x);
                assertFoundFulano1(again);
                assertThat(again.getResponseHeaders()).contains("connection: reused");
            }
            assertThat(slapd.openFiles()).isEqualTo(baseline + 1);
        } finally {
            x.threadFinished();
        }
        awaitOpenFiles(slapd, baseline);
    }

    @Test
    void perThreadKeepsTheConnectionAfterAnOperationErrorButNotAfterABindFailure() throws Exception {
        LdapPair x = sampler(slapd, s -> s.setConnectionMode("per-thread"));
        try {
            assertFoundFulano1(sample(x));
            x.setFilter("(cn=fulano1");
            assertThat(sample(x).getResponseCode()).isEqualTo("filterError");
            x.setFilter("(cn=fulano1)");
            SampleResult after = sample(x);
            assertFoundFulano1(after);
            assertThat(after.getResponseHeaders()).contains("connection: reused");

            x.setBindPassword("wrong");
            assertThat(x.sample(null).getResponseCode()).isEqualTo("invalidCredentials");
            x.setBindPassword(slapd.adminPassword());
            SampleResult fresh = sample(x);
            assertFoundFulano1(fresh);
            assertThat(fresh.getResponseHeaders()).contains("connection: new");
        } finally {
            x.threadFinished();
        }
    }

    /** Per-thread mode: the server goes away mid-test, the next samples fail, and it recovers on restart. */
    @Test
    void perThreadRecoversAfterTheServerIsStoppedAndRestarted() throws Exception {
        try (Slapd own = Slapd.start(Slapd.Options.defaults().withEntries(10))) {
            LdapPair x = sampler(own, s -> s.setConnectionMode("per-thread"));
            try {
                assertFoundFulano1(x.sample(null));
                assertThat(x.sample(null).getResponseHeaders()).contains("connection: reused");
                own.stop();
                SampleResult lost = x.sample(null);
                assertThat(lost.isSuccessful()).isFalse();
                assertThat(lost.getResponseCode()).isEqualTo("serverDown");
                assertThat(lost.getResponseMessage()).isEqualTo("LDAP 81 serverDown");
                SampleResult down = x.sample(null);
                assertThat(down.getResponseCode()).isEqualTo("connectError");
                own.restart();
                SampleResult back = x.sample(null);
                assertFoundFulano1(back);
                assertThat(back.getResponseHeaders()).contains("connection: new");
                assertThat(x.sample(null).getResponseHeaders()).contains("connection: reused");
                int withConnection = own.openFiles();
                x.threadFinished();
                awaitOpenFiles(own, withConnection - 1);
            } finally {
                x.threadFinished();
            }
        }
    }

    // ------------------------------------------------------------ timeouts

    /** A listener with a full accept queue drops SYNs like a black-holed address. */
    @Test
    void blackholedTargetFailsWithinTheConnectTimeout() throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getByName(Slapd.HOST))) {
            List<Socket> fillers = new ArrayList<>();
            try {
                boolean blocking = false;
                for (int i = 0; i < 64 && !blocking; i++) {
                    Socket s = new Socket();
                    try {
                        s.connect(full.getLocalSocketAddress(), 300);
                        fillers.add(s);
                    } catch (IOException timedOut) {
                        s.close();
                        blocking = true;
                    }
                }
                Assumptions.assumeTrue(blocking, "this kernel accepts beyond the listen backlog");
                LdapPair x = sampler(slapd, s -> {
                    s.setPort(String.valueOf(full.getLocalPort()));
                    s.setConnectTimeout("800");
                    s.setResponseTimeout("30000");
                });
                long t0 = System.nanoTime();
                SampleResult r = sample(x);
                long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertThat(r.isSuccessful()).isFalse();
                assertThat(r.getResponseCode()).isEqualTo("connectError");
                // ended by the 800 ms connect timeout, not the 30 s response timeout (no load-sensitive margin)
                assertThat(wallMs).isBetween(700L, 15_000L);
                assertThat(r.getTime()).isLessThan(15_000L);
            } finally {
                for (Socket s : fillers) {
                    s.close();
                }
            }
        }
    }

    /** An ldaps peer that accepts TCP but never speaks TLS: the handshake counts against the connect timeout. */
    @Test
    void silentLdapsPeerFailsWithinTheConnectTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getByName(Slapd.HOST))) {
            LdapPair x = sampler(slapd, s -> {
                s.setScheme("ldaps");
                s.setPort(String.valueOf(silent.getLocalPort()));
                s.setTrustMode("trust-all");
                s.setConnectTimeout("800");
                s.setResponseTimeout("30000");
            });
            long t0 = System.nanoTime();
            SampleResult r = sample(x);
            long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(r.getResponseCode()).isEqualTo("connectError");
            // the connect timeout (800 ms) ended it, not the response timeout (30 s): half of that is a
            // bound no loaded machine reaches, unlike "800 ms + margin" (2,488 ms seen at load 40)
            assertThat(wallMs).as("ended by the connect timeout, not the 30 s response timeout").isLessThan(15_000L);
        }
    }
}
