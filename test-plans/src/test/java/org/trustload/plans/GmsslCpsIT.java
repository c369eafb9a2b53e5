package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.Lab;
import org.trustload.harness.run.Run;
import org.trustload.harness.Layout;
import org.trustload.labkit.pki.TestPki;
import org.trustload.testing.NativeTlcpPeer;

/**
 * {@code gmssl/gmssl-cps} as users run it (the assembled JMeter), in the TLCP load mode
 * ({@code -Jclient_crypto=minimal}) that issue 28 added: every TLCP suite, without and with client
 * certificates (the lab's gateway port and its client-certificate port), {@value #THREADS} threads x
 * {@value #LOOPS} new connections with a full handshake each — not one error, and the lab's own count of
 * completed handshakes (its log line at stop) equal to the samples. The same plan against the native
 * Tongsuo peer (a gateway serving both protocols on one port, client certificates required): every
 * sample's handshake in the peer's log as ACCEPTED. The raw engine does all four suites with and without
 * certificates against the peer in NativeInteropIT.
 *
 * <p>Issue 16 started this test: the bgm client once reported 0.1-0.3% handshake failures that were not
 * there; a load tool must not invent errors, and a load mode must not make the server's work invalid.
 * The count, not the time, ends each run ({@code loops}); {@code duration} only bounds it.
 *
 * <p>CI budget: ~80 s: ten runs of 320 full handshakes and one against the peer; an invented error rate of 0.1% needs
 * that many handshakes to show.
 */
class GmsslCpsIT {
    static final int THREADS = 8;
    static final int LOOPS = 40;
    private static final Path OUT = Plans.DIR.resolve("target/gmssl-cps-it");
    private static final AtomicLong LAB_SAMPLES = new AtomicLong();

    static Lab lab;
    static Path labProperties;

    @BeforeAll
    static void startLab() throws Exception {
        Layout.deleteRecursively(OUT);
        Files.createDirectories(OUT);
        labProperties = OUT.resolve("lab.properties");
        lab = PlanRunIT.startLab("gmssl", labProperties, OUT.resolve("lab.log"));
    }

    @AfterAll
    static void stopLab() throws Exception {
        if (lab == null) {
            return;
        }
        lab.close();
        // the gateway's log: every handshake our samples made, completed, none failed
        Pattern line = Pattern.compile("gmssl: (\\d+) handshakes completed, (\\d+) failed");
        Matcher m = line.matcher("");
        boolean found = false;
        for (long end = System.nanoTime() + 10_000_000_000L; !found && System.nanoTime() < end; Thread.sleep(100)) {
            m = line.matcher(Files.readString(OUT.resolve("lab.log"))); // the log pump may still be writing
            found = m.find();
        }
        assertThat(found).as("the lab's handshake count in " + OUT.resolve("lab.log")).isTrue();
        assertThat(Long.parseLong(m.group(1))).isEqualTo(LAB_SAMPLES.get());
        assertThat(Long.parseLong(m.group(2))).isZero();
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String suite : List.of("ECC_SM4_CBC_SM3", "ECDHE_SM4_CBC_SM3", "ECC_SM4_GCM_SM3", "ECDHE_SM4_GCM_SM3")) {
            // the ECDHE suites send the client's certificates to either port (their key exchange needs them)
            out.add(Arguments.of(suite, "gmssl.tlcp.port"));
            out.add(Arguments.of(suite, "gmssl.mtls.port"));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void theLoadModeMakesEveryHandshakeCompleteOnTheLab(String suite, String portKey) throws Exception {
        Properties lab = new Properties();
        try (var in = Files.newBufferedReader(labProperties)) {
            lab.load(in);
        }
        Properties p = plan(suite);
        p.setProperty("gmssl.port", lab.getProperty(portKey));
        long samples = run(suite + "-" + portKey, p, List.of("-q", labProperties.toString()));
        LAB_SAMPLES.addAndGet(samples);
    }

    @Test
    void theLoadModeMakesEveryHandshakeCompleteOnTheNativePeer() throws Exception {
        NativeTlcpPeer.assumeOrFailInCi();
        Path pki = OUT.resolve("peer-pki");
        TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), pki);
        try (NativeTlcpPeer.Server peer = NativeTlcpPeer.server(
                List.of("--proto", "any", "--port", "0", "--workers", "2",
                "--sign-cert", pki.resolve("tlcp-server-sign.pem").toString(),
                "--sign-key", pki.resolve("tlcp-server-sign.key").toString(),
                "--enc-cert", pki.resolve("tlcp-server-enc.pem").toString(),
                "--enc-key", pki.resolve("tlcp-server-enc.key").toString(),
                "--ca", pki.resolve("ca-1.pem").toString(), "--require-client-cert"))) {
            long total = 0;
            for (String suite : List.of("ECC_SM4_GCM_SM3", "ECDHE_SM4_CBC_SM3")) {
                Properties p = plan(suite);
                p.setProperty("gmssl.host", "127.0.0.1");
                p.setProperty("gmssl.port", Integer.toString(peer.port()));
                p.setProperty("gmssl.ca.file", pki.resolve("ca-1.pem").toString());
                p.setProperty("gmssl.client.keystore", pki.resolve("tlcp-client.p12").toString());
                p.setProperty("gmssl.client.password", TestPki.PASSWORD);
                total += run("peer-" + suite, p, List.of());
            }
            assertThat(peer.awaitLines("ACCEPTED NTLSv1.1", (int) total, Duration.ofSeconds(10))).hasSize((int) total);
            assertThat(peer.count("HANDSHAKE-FAILED")).isZero();
        }
    }

    /** The plan's properties for a run in the load mode. */
    private static Properties plan(String suite) {
        Properties p = new Properties();
        p.setProperty("suite", suite);
        p.setProperty("client_crypto", "minimal");
        p.setProperty("threads", Integer.toString(THREADS));
        p.setProperty("loops", Integer.toString(LOOPS));
        p.setProperty("rampup", "0");
        p.setProperty("duration", "600");
        p.setProperty("page", "/64b");
        return p;
    }

    /** Runs gmssl-cps with {@code p} in a -q file after {@code first}; asserts 0 errors; returns the samples. */
    private static long run(String name, Properties p, List<String> first) throws Exception {
        Path dir = OUT.resolve(name);
        Files.createDirectories(dir);
        Path props = dir.resolve("run.properties");
        try (var out = Files.newBufferedWriter(props)) {
            p.store(out, "GmsslCpsIT " + name);
        }
        List<String> args = new ArrayList<>(first);
        args.addAll(List.of("-q", props.toString()));
        long t0 = System.nanoTime();
        Run.Result result = Plans.run(Plans.DIR.resolve("gmssl/gmssl-cps.jmx"), dir.resolve("run"), args,
                Duration.ofMinutes(10));
        double seconds = (System.nanoTime() - t0) / 1e9;
        JsonNode total = Plans.statistics(dir.resolve("run")).path("Total");
        long samples = total.path("sampleCount").asLong();
        long errors = total.path("errorCount").asLong();
        System.out.printf(java.util.Locale.ROOT, "GmsslCpsIT %s: %d threads, %d handshakes, %d errors, %.1f s"
                + " (JMeter run included), %.1f samples/s%n", name, THREADS, samples, errors, seconds,
                total.path("throughput").asDouble());
        assertThat(errorCount(dir.resolve("run/results.jtl"))).as("errors by response code and message, see " + dir)
                .isEmpty();
        assertThat(errors).isZero();
        assertThat(result.status()).as(result.message()).isEqualTo(ExitStatus.OK);
        assertThat(samples).isEqualTo((long) THREADS * LOOPS);
        return samples;
    }

    /** Failed samples of a results file, counted by response code and message. */
    static Map<String, Integer> errorCount(Path jtl) throws Exception {
        Map<String, Integer> out = new TreeMap<>();
        Jtl.forEach(jtl, s -> {
            if (!s.success()) {
                out.merge(s.responseCode() + " " + s.responseMessage(), 1, Integer::sum);
            }
        });
        return out;
    }
}
