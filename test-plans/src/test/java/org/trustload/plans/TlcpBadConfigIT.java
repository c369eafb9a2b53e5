package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.harness.JMeter;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Layout;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.labkit.pki.TestPki;

/**
 * {@code gmssl/gmssl-cps} with a wrong setting, run headless through the assembled JMeter as users
 * run it: every run ends within seconds, writes at most one failed sample per thread, and names the
 * cause. A configuration error is logged once in jmeter.log as {@code TrustLoad configuration error
 * in <element>, property <p>, file <f>}; one found at test start (by the TLCP Client Config) stops
 * the test before any sample, with exit status 3. No server is needed but one: each case fails before
 * reaching one, or targets a loopback port nothing listens on, or (a forced protocol mismatch) a
 * TLCP-only gateway in this JVM that a TLS 1.3 plan reaches. Those two are ordinary failures that stop a
 * thread which never completed a handshake: exit 0 with one failed sample per thread.
 *
 * <p>CI budget: ~1 min: ten JMeter runs (no dashboard), one per wrong setting.
 */
class TlcpBadConfigIT {

    private static final Path OUT = Plans.DIR.resolve("target/tlcp-bad-config");
    private static final Path PLAN = Plans.DIR.resolve("gmssl/gmssl-cps.jmx");
    private static final int THREADS = 3;
    private static final String CONFIG = "TLCP Client Config 'tlcp client'";

    private static Path files;
    private static TestPki pki;
    /** A gateway that speaks TLCP only (bc), for the forced protocol mismatch. */
    private static org.trustload.labkit.gmssl.TlcpPageServer tlcpOnly;

    @BeforeAll
    static void files() throws Exception {
        Layout.deleteRecursively(OUT);
        files = Files.createDirectories(OUT.resolve("files"));
        // an SM2 test PKI: a valid CA file and client sign + enc pair, so each case has one thing wrong
        pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), files.resolve("pki"));
        // The same plan with its request naming a config that does not exist.
        String plan = Files.readString(PLAN);
        String renamed = plan.replace(
                "<stringProp name=\"configName\">tlcp</stringProp>\n            <stringProp name=\"mode\">",
                "<stringProp name=\"configName\">nosuch</stringProp>\n            <stringProp name=\"mode\">")
                .replace("<stringProp name=\"configName\">tlcp</stringProp>\n          <stringProp name=\"mode\">",
                        "<stringProp name=\"configName\">nosuch</stringProp>\n          <stringProp name=\"mode\">");
        assertThat(renamed).as("the request's configName replaced").contains(">nosuch<");
        Files.writeString(files.resolve("no-such-config.jmx"), renamed);
        withoutBgmOptions = homeWithoutBgmOptions(files.resolve("home-without-bgm-options"));
        if (tlcpOnly != null) {
            return;
        }
        tlcpOnly = org.trustload.labkit.gmssl.TlcpPageServer.start(org.trustload.gmssl.TlcpEngines.get("bc").newServer(
                new org.trustload.gmssl.TlcpServerSettings().withCredentials(new org.trustload.gmssl.TlcpCredentials(
                        pki.tlcpKey(TestPki.TLCP_SERVER, "sign"), pki.tlcpKey(TestPki.TLCP_SERVER, "enc")))),
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 10_000);
    }

    @org.junit.jupiter.api.AfterAll
    static void stopGateway() {
        if (tlcpOnly != null) {
            tlcpOnly.close();
        }
    }

    private static Path withoutBgmOptions;

    /**
     * A JMeter home like the assembled one (every entry a link to it) whose {@code bin/setenv.sh}
     * defines no bgm JVM options: what a user's own JMeter looks like before TrustLoad's setenv.sh is
     * copied in. The harness takes the JVM options from that file only.
     */
    private static Path homeWithoutBgmOptions(Path home) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        try (Stream<Path> top = Files.list(Plans.HOME)) {
            for (Path p : (Iterable<Path>) top::iterator) {
                if (!p.getFileName().toString().equals("bin")) {
                    Files.createSymbolicLink(home.resolve(p.getFileName().toString()), p);
                }
            }
        }
        try (Stream<Path> bin = Files.list(Plans.HOME.resolve("bin"))) {
            for (Path p : (Iterable<Path>) bin::iterator) {
                if (!p.getFileName().toString().equals("setenv.sh")) {
                    Files.createSymbolicLink(home.resolve("bin").resolve(p.getFileName().toString()), p);
                }
            }
        }
        Files.writeString(home.resolve("bin/setenv.sh"), "# no bgm JVM options\nTRUSTLOAD_BGM_JVM_ARGS=\"\"\n");
        return home;
    }


    static Stream<Arguments> cases() throws Exception {
        if (pki == null) {
            files();
        }
        String ca = pki.dir().resolve("ca-1.pem").toString();
        String client = pki.tlcpKeyStoreFile(TestPki.TLCP_CLIENT).toString();
        String good = "-Jgmssl.ca.file=" + ca;
        int refused = BadConfigRuns.refusedPort();
        List<Arguments> out = new ArrayList<>(List.of(
                // name, plan (null: gmssl-cps), JVM without bgm options, -J arguments, response code, message part,
                // property, file
                Arguments.of("unknown engine", null, false, List.of(good, "-Jengine=openssl"),
                        "configError", CONFIG + ": engine: unknown TLCP engine 'openssl'", "engine", "-"),
                Arguments.of("missing CA file", null, false, List.of("-Jgmssl.ca.file=/nonexistent/ca.pem"),
                        "configError", CONFIG + ": caFile: file not found", "caFile", "/nonexistent/ca.pem"),
                Arguments.of("no CA file", null, false, List.of(),
                        "configError", CONFIG + ": caFile: no file given", "caFile", "-"),
                Arguments.of("wrong client key password", null, false,
                        List.of(good, "-Jgmssl.client.keystore=" + client,
                        "-Jgmssl.client.password=not-the-password"),
                        "configError", CONFIG + ": clientKeyStorePassword: wrong client key store password",
                        "clientKeyStorePassword", client),
                Arguments.of("missing client key file", null, false, List.of(good,
                        "-Jgmssl.client.keystore=/nonexistent/client.p12", "-Jgmssl.client.password=x"),
                        "configError", CONFIG + ": clientKeyStore: file not found", "clientKeyStore",
                        "/nonexistent/client.p12"),
                Arguments.of("unknown host", null, false, List.of(good, "-Jgmssl.host=no-such-host.invalid"),
                        "configError", CONFIG + ": host: unknown host 'no-such-host.invalid'", "host", "-"),
                Arguments.of("no such config", "no-such-config.jmx", false, List.of(good),
                        "configError", "TLCP Request 'TLCP cps': configName: no TLCP Client Config named 'nosuch'",
                        "configName", "-"),
                Arguments.of("refused port", null, false, List.of(good, "-Jgmssl.port=" + refused),
                        "connectError", "connection refused", null, null),
                // a TLS 1.3 plan at a TLCP-only gateway: the same handshake can only fail the same way
                Arguments.of("protocol mismatch", null, false, List.of(good, "-Jsuite=TLS_SM4_GCM_SM3",
                        "-Jgmssl.port=" + tlcpOnly.port()), "handshakeFailed", "protocol mismatch: ", null, null)));
        if (Runtime.version().feature() <= 21) {
            // the optional bgm engine (Java 17 to 21 only) in a JMeter started without its options
            out.add(Arguments.of("bgm without its JVM options", null, true, List.of(good, "-Jengine=bgm"),
                    "configError", CONFIG + ": engine: bgm engine needs JVM flags", "engine", "-"));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aWrongSettingEndsTheRunWithAtMostOneFailedSamplePerThreadNamingTheCause(String what, String plan,
            boolean noBgmOptions, List<String> bad, String code, String message, String property, String file)
            throws Exception {
        Path dir = OUT.resolve(what.replace(' ', '-'));
        List<String> args = new ArrayList<>(List.of("-Jthreads=" + THREADS, "-Jloops=200", "-Jrampup=0",
                "-Jduration=120", "-Jconnect_timeout=2000", "-Jresponse_timeout=5000"));
        args.addAll(bad);
        Path jmx = plan == null ? PLAN : files.resolve(plan);
        // A bounded wait: without fail-fast this is 600 samples per run, a flood with the plan's defaults.
        Run.Result result;
        if (noBgmOptions) {
            Layout layout = new Layout(Plans.ROOT, withoutBgmOptions);
            assertThat(layout.jvmFlags()).isEmpty();
            result = Run.execute(new JMeter(layout, List.of("-Xms256m", "-Xmx1g"), List.of()),
                    RunSpec.of(layout, "gmssl/gmssl-cps", jmx).noLab(true).args(args).dir(dir)
                            .timeout(Duration.ofMinutes(3)).echo(false).maxErrorPct(100).dashboard(false), System.out);
        } else {
            result = Plans.runWithoutReport(jmx, dir, args, Duration.ofMinutes(3));
        }
        String line = BadConfigRuns.check(result, dir, THREADS, code, message, property, file, message);
        if (property == null) {
            assertThat(Jtl.read(dir.resolve("results.jtl"))).as("one connectError per thread").hasSize(THREADS);
            return;
        }
        if (noBgmOptions) {
            // says exactly what to add, and where
            assertThat(line).contains("--add-opens=java.base/sun.security.x509=ALL-UNNAMED", "bin/setenv.sh",
                    "TRUSTLOAD_BGM_JVM_ARGS");
        }
    }
}
