package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.newsclub.net.unix.AFUNIXServerSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;

/**
 * The LDAP plans with a wrong setting, run headless through the assembled JMeter as users run them:
 * every run ends within seconds, writes at most one failed sample per thread, and names the cause.
 * A configuration error (response code {@code configError}) is logged once in jmeter.log as
 * {@code TrustLoad configuration error in <element>, property <p>, file <f>}; one found at test start
 * stops the test before any sample. No server is needed: each case fails before reaching one, or
 * targets a loopback port nothing listens on.
 *
 * <p>CI budget: ~1 min: eleven JMeter runs (no dashboard), one per wrong setting.
 */
class LdapBadConfigIT {

    private static final Path OUT = Plans.DIR.resolve("target/ldap-bad-config");
    private static final Path PLAN = Plans.DIR.resolve("ldap/ldap-search-200x10.jmx");
    private static final int THREADS = 3;
    private static final String CONFIG = "LDAP Connection Config 'ldap connection'";

    private static Path files;

    @BeforeAll
    static void files() throws Exception {
        files = Files.createDirectories(OUT.resolve("files"));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        try (OutputStream out = Files.newOutputStream(files.resolve("trust.p12"))) {
            ks.store(out, "the-right-password".toCharArray());
        }
        Files.writeString(files.resolve("corrupt.p12"), "this is not a key store\n");
        Files.write(files.resolve("empty.p12"), new byte[0]);
        // The same plan with its request naming a config that does not exist.
        Files.writeString(files.resolve("no-such-config.jmx"), Files.readString(PLAN)
                .replace("<stringProp name=\"configName\">ldap</stringProp>\n          <stringProp name=\"operation\">",
                        "<stringProp name=\"configName\">nosuch</stringProp>\n          <stringProp "
                                + "name=\"operation\">"));
        assertThat(Files.readString(files.resolve("no-such-config.jmx"))).contains(">nosuch<");
    }

    private static int refusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static Stream<Arguments> cases() throws IOException {
        String store = OUT.resolve("files/trust.p12").toString();
        String corrupt = OUT.resolve("files/corrupt.p12").toString();
        String empty = OUT.resolve("files/empty.p12").toString();
        String socket = OUT.resolve("files/no-such-socket").toString();
        int refused = refusedPort();
        return Stream.of(
                // name, plan (null: the search plan), -J arguments, response code, message part, property, file
                Arguments.of("missing trust store", null,
                        List.of("-Jscheme=ldaps", "-Jldap.truststore=/nonexistent/trust.p12"),
                        "configError", CONFIG + ": trustStore: file not found", "trustStore", "/nonexistent/trust.p12"),
                Arguments.of("empty trust store", null, List.of("-Jscheme=ldaps", "-Jldap.truststore=" + empty),
                        "configError", CONFIG + ": trustStore: file is empty", "trustStore", empty),
                Arguments.of("wrong trust store password", null, List.of("-Jscheme=ldaps", "-Jldap.truststore=" + store,
                        "-Jldap.truststore.password=not-the-password"),
                        "configError", CONFIG + ": trustStorePassword: wrong trust store password",
                        "trustStorePassword", store),
                Arguments.of("corrupt trust store", null, List.of("-Jscheme=ldaps", "-Jldap.truststore=" + corrupt),
                        "configError", CONFIG + ": trustStore: cannot read the trust store", "trustStore", corrupt),
                Arguments.of("missing ldapi socket", null, List.of("-Jscheme=ldapi", "-Jldapi.socket=" + socket),
                        "configError", CONFIG + ": socketPath: no such socket", "socketPath", socket),
                Arguments.of("unknown host", null, List.of("-Jldap.host=no-such-host.invalid"),
                        "configError", CONFIG + ": host: unknown host 'no-such-host.invalid'", "host", "-"),
                Arguments.of("unknown scheme", null, List.of("-Jscheme=gopher"),
                        "configError", CONFIG + ": scheme: unknown scheme 'gopher'", "scheme", "-"),
                Arguments.of("no such config", "no-such-config.jmx", List.of(),
                        "configError", "LDAP Request 'search (uid=fulano[1-10000])': configName: no LDAP Connection "
                                + "Config named 'nosuch'",
                        "configName", "-"),
                Arguments.of("refused port", null, List.of("-Jport=" + refused),
                        "connectError", "LDAP 91 connectError: connection refused", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aWrongSettingEndsTheRunWithAtMostOneFailedSamplePerThreadNamingTheCause(String what, String plan,
            List<String> bad, String code, String message, String property, String file) throws Exception {
        Path dir = OUT.resolve(what.replace(' ', '-'));
        List<String> args = new ArrayList<>(List.of("-Jthreads=" + THREADS, "-Jloops=200", "-Jrampup=0",
                "-Jmax_duration=120", "-Jconnect_timeout=2000", "-Jresponse_timeout=5000"));
        args.addAll(bad);
        // A bounded wait: without fail-fast this is 600 samples per run, thousands with a longer plan.
        Run.Result result = Plans.runWithoutReport(plan == null ? PLAN : files.resolve(plan), dir, args,
                Duration.ofMinutes(3));
        BadConfigRuns.check(result, dir, THREADS, code, message, property, file,
                property == null ? null : message.substring(0, message.indexOf(':')));
    }

    /**
     * README's real-directory mistake, against the lab as {@code ./trustload run ldap/ldap-search-200x10
     * -Jfilter='(uid=nobody)'} runs it (the harness starts the lab): every search succeeds with 0 entries,
     * which measures nothing. Each thread writes one {@code configError} sample naming filter, base and
     * server, the configuration-error line is logged once, and the run exits 3.
     */
    @Test
    void aFilterThatFindsNothingStopsEachThreadWithOneConfigurationErrorNamingFilterBaseAndServer() throws Exception {
        Path dir = OUT.resolve("filter-finds-nothing");
        Run.Result result = Run.execute(Plans.JMETER,
                RunSpec.of(Plans.LAYOUT, Plans.catalog().get("ldap/ldap-search-200x10"))
                .labArgs(PlanRunIT.labArgs()).labTimeout(Duration.ofMinutes(5))
                .args(List.of("-Jfilter=(uid=nobody)", "-Jthreads=" + THREADS, "-Jloops=200", "-Jrampup=0",
                        "-Jmax_duration=120"))
                .dir(dir).timeout(Duration.ofMinutes(5)).echo(false).dashboard(false), System.out);
        String line = BadConfigRuns.check(result, dir, THREADS, "configError",
                "LDAP Request 'search (uid=nobody)': filter: search finds no entries: filter (uid=nobody), base "
                        + "dc=testeperformance,"
                        + " server ldap://127.0.0.1:", "filter", "-", "LDAP Request 'search (uid=nobody)'");
        assertThat(line).contains("minEntries 0 where empty results are expected");
        assertThat(Jtl.read(dir.resolve("results.jtl"))).as("one sample per thread, see " + dir).hasSize(THREADS);
        assertThat(result.summaryText()).contains("Exit status 3");
    }

    /**
     * A server that accepts connections and never answers, on every scheme of ldap-vs-ldaps-vs-ldapi:
     * each sample ends at its response (or connect) timeout and the run ends at max_duration instead
     * of n1 + n2 + n3 timeouts per protocol.
     */
    @Test
    void ldapVsLdapsVsLdapiAgainstAServerThatNeverAnswersEndsAtMaxDuration() throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>();
        Path socket = Files.createTempDirectory("tl-hung").resolve("ldapi");
        try (ServerSocket tcp = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                AFUNIXServerSocket unix = AFUNIXServerSocket.newInstance()) {
            unix.bind(AFUNIXSocketAddress.of(socket.toFile()));
            Thread tcpAccept = acceptForever(tcp, held);
            Thread unixAccept = acceptForever(unix, held);
            Path dir = OUT.resolve("never-answers");
            Plans.runWithoutReport(Plans.DIR.resolve("ldap/ldap-vs-ldaps-vs-ldapi.jmx"), dir, List.of(
                    "-Jldap.port=" + tcp.getLocalPort(), "-Jldaps.port=" + tcp.getLocalPort(),
                    "-Jldapi.socket=" + socket, "-Jldap.trust=trust-all",
                    "-Jmax_duration=8", "-Jconnect_timeout=1000", "-Jresponse_timeout=1000"),
                    Duration.ofMinutes(3)); // bounded wait: uncapped, 3 x 1101 samples of 1 s each
            List<Jtl.Sample> samples = Files.exists(dir.resolve("results.jtl")) ? Jtl.read(dir.resolve("results.jtl"))
                    : List.of();
            List<Jtl.Sample> searches = samples.stream().filter(s -> s.label().contains("search")).toList();
            assertThat(searches).as("samples ended by their timeouts, see " + dir).isNotEmpty()
                    .allMatch(s -> !s.success());
            assertThat(searches).as("far fewer than the 3,303 searches of an uncapped run").hasSizeLessThan(100);
            assertThat(searches.get(0).responseCode()).isEqualTo("timeout");
            tcpAccept.interrupt();
            unixAccept.interrupt();
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    private static Thread acceptForever(ServerSocket server, List<Socket> held) {
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    held.add(s); // never read, never written: a server that hangs
                } catch (IOException closed) {
                    return;
                }
            }
        }, "never-answers " + server.getLocalSocketAddress());
        t.setDaemon(true);
        t.start();
        return t;
    }
}
