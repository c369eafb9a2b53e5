package org.trustload.testing.ldap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.trustload.ldap.LdapClient;
import org.trustload.ldap.LdapClientException;
import org.trustload.ldap.LdapConnectionSettings;
import org.trustload.ldap.LdapConnections;
import org.trustload.ldap.LdapOperation;
import org.trustload.ldap.LdapRequest;
import org.trustload.ldap.LdapScheme;
import org.trustload.ldap.TrustMode;
import org.trustload.testing.FaultProxy;
import org.trustload.testing.Slapd;
import org.trustload.testing.Toxiproxy;

/**
 * slapd killed and restarted behind Toxiproxy, as a directory behind a load balancer: the proxy accepts each
 * connect and closes it while slapd is down, so no connect is refused and every new connection fails at once
 * with serverDown. {@link LdapConnections} then makes each thread wait before its next connect (50 ms, doubling,
 * at most 1 s; the first answer ends it): a few failed operations per thread per outage instead of hundreds a
 * second, and service back within about a second of the restart. Two threads loop as the LDAP Request does:
 * ldap with a connection per thread, reopened after a failure (the proxy closes each new one before it answers);
 * ldaps with a connection per iteration (the proxy closes each TLS handshake).
 */
class LdapBehindProxyRestartIT {

    /** The pause is at most 1 s: after the first 5 doublings (1.55 s) at most one failure a second per thread. */
    private static final int FAILURES_AT_ONCE = 6;

    @BeforeAll
    static void available() {
        Slapd.assumeOrFailInCi();
        Toxiproxy.assumeOrFailInCi();
    }

    /** One operation's outcome, as a sample would record it. */
    record Outcome(String thread, long endNanos, boolean ok, String message) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"ldap", "ldaps"})
    void aRestartBehindAProxyCostsEachThreadAFewFailuresNotHundredsAndServiceReturnsWithinASecond(String scheme)
            throws Exception {
        boolean tls = scheme.equals("ldaps");
        try (Slapd slapd = Slapd.start(Slapd.Options.defaults().withEntries(10));
                Toxiproxy toxiproxy = Toxiproxy.start(Path.of("target/toxiproxy-" + scheme + "-restart-it.log"))) {
            FaultProxy proxy = toxiproxy.proxy(scheme, slapd.host(), tls ? slapd.ldapsPort() : slapd.ldapPort());
            LdapConnectionSettings.Builder b = LdapConnectionSettings.builder()
                    .scheme(tls ? LdapScheme.LDAPS : LdapScheme.LDAP).host("127.0.0.1").port(proxy.port())
                    .connectTimeoutMs(2000).responseTimeoutMs(5000);
            if (tls) {
                b.trustMode(TrustMode.TRUST_STORE).trustStorePath(slapd.trustStorePath().toString())
                        .trustStorePassword(slapd.trustStorePassword());
            }
            LdapConnectionSettings settings = b.build();
            LdapRequest search = LdapRequest.builder(LdapOperation.SEARCH).baseDn(Slapd.BASE_DN)
                    .filter("(cn=fulano1)").build();
            ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            try (LdapConnections connections = LdapConnections.start(settings,
                    tls ? LdapConnections.Mode.PER_ITERATION : LdapConnections.Mode.PER_THREAD)) {
                for (int i = 0; i < 2; i++) {
                    Thread t = new Thread(() -> loop(connections, search, outcomes), "ldap-user-" + i);
                    threads.add(t);
                    t.start();
                }
                await(outcomes, o -> o.ok(), 10, "10 searches before the fault");
                long killed = System.nanoTime();
                slapd.kill();
                await(outcomes, o -> !o.ok() && o.endNanos() > killed, 1, "a failure once slapd is killed");
                // the outage: slapd stays down 3 s (the fault's length, not a wait for a condition)
                Thread.sleep(3000);
                slapd.restart();
                long restarted = System.nanoTime();
                for (Thread t : threads) {
                    await(outcomes, o -> o.ok() && o.thread().equals(t.getName()) && o.endNanos() > restarted, 1,
                            t.getName() + " searching again after the restart");
                }
                threads.forEach(Thread::interrupt);
                for (Thread t : threads) {
                    t.join(30_000);
                }
                for (Thread t : threads) {
                    List<Outcome> failed = outcomes.stream().filter(o -> o.thread().equals(t.getName()) && !o.ok()
                            && o.endNanos() > killed && o.endNanos() < restarted).toList();
                    long outageMs = TimeUnit.NANOSECONDS.toMillis(restarted - killed);
                    long back = outcomes.stream().filter(o -> o.thread().equals(t.getName()) && o.ok()
                            && o.endNanos() > restarted).mapToLong(Outcome::endNanos).min().orElseThrow();
                    long backMs = TimeUnit.NANOSECONDS.toMillis(back - restarted);
                    System.out.printf("%s: %d failed searches in the %d-ms outage (%s), first success %d ms after "
                            + "the restart%n", t.getName(), failed.size(), outageMs,
                            failed.isEmpty() ? "-" : failed.get(0).message(), backMs);
                    assertThat(failed).as(t.getName() + ": failures while slapd was down behind the proxy")
                            .isNotEmpty().allMatch(o -> o.message().startsWith("LDAP 81 serverDown")
                                    || o.message().startsWith("LDAP 91 connectError"), "serverDown or connectError")
                            .hasSizeLessThanOrEqualTo(FAILURES_AT_ONCE + (int) (outageMs / 1000) + 1);
                    assertThat(backMs).as(t.getName() + ": back within the longest pause (1 s) plus a search, "
                            + "on a loaded machine").isLessThan(1000 + 3000);
                }
            } finally {
                threads.forEach(Thread::interrupt);
            }
        }
    }

    /** Searches until interrupted, with a connection per thread reopened after a failure, as the LDAP Request does. */
    private static void loop(LdapConnections connections, LdapRequest search, ConcurrentLinkedQueue<Outcome> out) {
        String name = Thread.currentThread().getName();
        while (!Thread.currentThread().isInterrupted()) {
            LdapClient c = null;
            try {
                c = connections.acquire(true);
                c.execute(search, 1);
                connections.release(c, false);
                out.add(new Outcome(name, System.nanoTime(), true, "ok"));
            } catch (LdapClientException e) {
                if (c != null) {
                    connections.release(c, e.connectionLost() || !c.isBound());
                }
                out.add(new Outcome(name, System.nanoTime(), false, e.getMessage()));
            }
        }
        connections.closeThread();
    }

    private static void await(ConcurrentLinkedQueue<Outcome> outcomes, Predicate<Outcome> what, int n, String why)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (outcomes.stream().filter(what).count() < n) {
            assertThat(System.nanoTime()).as("waited 60 s for " + why).isLessThan(deadline);
            Thread.sleep(10);
        }
    }
}
