package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.harness.run.Run;
import org.trustload.labkit.pki.SamplePdf;
import org.trustload.labkit.pki.TestPki;

/**
 * The pki/cades plan with a wrong setting, run headless through the assembled JMeter as users run
 * it: every run ends within seconds, writes at most one failed sample per thread, and names the
 * cause. A configuration error is logged once in jmeter.log as {@code TrustLoad configuration error
 * in <element>, property <p>, file <f>} and the run exits with status 3; one found at test start
 * (Key Store Config, Signature Server Config) stops the test before any sample. No server is needed:
 * each case fails before reaching one, or targets a loopback port nothing listens on.
 *
 * <p>CI budget: ~1 min: ten JMeter runs (no dashboard), one per wrong setting.
 */
class PkiBadConfigIT {

    private static final Path OUT = Plans.DIR.resolve("target/pki-bad-config");
    private static final Path PLAN = Plans.DIR.resolve("pki/cades.jmx");
    private static final int THREADS = 3;
    private static final String KEYS = "Key Store Config 'Key Store Config: test users'";
    private static final String SERVER = "Signature Server Config 'Signature Server Config'";
    private static final String SAMPLER = "CAdES Sign 'CAdES-B sign'";

    private static Path files;
    private static TestPki pki;

    @BeforeAll
    static void files() throws Exception {
        files = Files.createDirectories(OUT.resolve("files"));
        pki = TestPki.generate(new TestPki.Spec().withSeed(5).withUsers(2), files.resolve("pki"));
        Files.write(files.resolve("doc.pdf"), SamplePdf.generate(5_000));
        Files.writeString(files.resolve("corrupt.p12"), "this is not a key store\n");
        Files.write(files.resolve("empty.p12"), new byte[0]);
        // The right store password, but each key under another password: the store opens, the keys do not.
        KeyStore users = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(pki.usersFile())) {
            users.load(in, pki.password().toCharArray());
        }
        KeyStore other = KeyStore.getInstance("PKCS12");
        other.load(null, null);
        for (String alias : java.util.Collections.list(users.aliases())) {
            if (users.isKeyEntry(alias)) {
                Key k = users.getKey(alias, pki.password().toCharArray());
                Certificate[] chain = users.getCertificateChain(alias);
                other.setKeyEntry(alias, k, "another-key-password".toCharArray(), chain);
            }
        }
        try (OutputStream out = Files.newOutputStream(files.resolve("other-key-password.p12"))) {
            other.store(out, pki.password().toCharArray());
        }
        // The same plan with its sampler naming a config that does not exist.
        Files.writeString(files.resolve("no-such-config.jmx"), Files.readString(PLAN).replace(
                "          <stringProp name=\"configName\">signature-server</stringProp>",
                "          <stringProp name=\"configName\">nosuch</stringProp>"));
        assertThat(Files.readString(files.resolve("no-such-config.jmx"))).contains(">nosuch<");
    }

    static Stream<Arguments> cases() throws IOException {
        String store = pki.usersFile().toString();
        String corrupt = files.resolve("corrupt.p12").toString();
        String empty = files.resolve("empty.p12").toString();
        String otherKey = files.resolve("other-key-password.p12").toString();
        String doc = files.resolve("doc.pdf").toString();
        String password = "-Jpki.keystore.password=" + pki.password();
        int refused = BadConfigRuns.refusedPort();
        return Stream.of(
                // name, plan (null: pki/cades), -J arguments, response code, message part, property, file
                Arguments.of("missing key store", null,
                        List.of("-Jpki.keystore=/nonexistent/users.p12", "-Jpki.document=" + doc),
                        "configError", KEYS + ": keyStoreFile: file not found (/nonexistent/users.p12)", "keyStoreFile",
                        "/nonexistent/users.p12"),
                Arguments.of("empty key store", null, List.of("-Jpki.keystore=" + empty, "-Jpki.document=" + doc),
                        "configError", KEYS + ": keyStoreFile: file is empty (" + empty + ")", "keyStoreFile", empty),
                Arguments.of("corrupt key store", null, List.of("-Jpki.keystore=" + corrupt, "-Jpki.document=" + doc),
                        "configError", KEYS + ": keyStoreFile: cannot open key store (corrupt or unsupported file)",
                        "keyStoreFile", corrupt),
                Arguments.of("wrong key store password", null, List.of("-Jpki.keystore=" + store,
                        "-Jpki.keystore.password=not-the-password", "-Jpki.document=" + doc),
                        "configError", KEYS + ": keyStorePassword: cannot open key store (wrong password?)",
                        "keyStorePassword", store),
                Arguments.of("wrong key password", null,
                        List.of("-Jpki.keystore=" + otherKey, password, "-Jpki.document=" + doc),
                        "configError", KEYS + ": keyStorePassword: cannot read key user", "keyStorePassword", otherKey),
                Arguments.of("missing CA", null, List.of("-Jpki.keystore=" + store, password, "-Jpki.document=" + doc,
                        "-Jpki.trust.anchors=/nonexistent/ca.pem"),
                        "configError", SERVER + ": trustAnchorsFile: file not found", "trustAnchorsFile",
                        "/nonexistent/ca.pem"),
                Arguments.of("missing document", null, List.of("-Jpki.keystore=" + store, password,
                        "-Jpki.document=/nonexistent/doc.pdf"),
                        "configError", SAMPLER + ": inputFile: file not found (/nonexistent/doc.pdf)", "inputFile",
                        "/nonexistent/doc.pdf"),
                Arguments.of("unknown host", null, List.of("-Jpki.keystore=" + store, password, "-Jpki.document=" + doc,
                        "-Jpki.url=http://no-such-host.invalid:18080"),
                        "configError", SERVER + ": serverUrl: unknown host 'no-such-host.invalid'", "serverUrl", "-"),
                Arguments.of("no such config", "no-such-config.jmx", List.of("-Jpki.keystore=" + store, password,
                        "-Jpki.document=" + doc),
                        "configError", SAMPLER + ": configName: no Signature Server Config named 'nosuch'",
                        "configName", "-"),
                Arguments.of("refused port", null, List.of("-Jpki.keystore=" + store, password, "-Jpki.document=" + doc,
                        "-Jpki.url=http://127.0.0.1:" + refused),
                        "connectError", "signature server connection refused", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aWrongSettingEndsTheRunWithAtMostOneFailedSamplePerThreadNamingTheCause(String what, String plan,
            List<String> bad, String code, String message, String property, String file) throws Exception {
        Path dir = OUT.resolve(what.replace(' ', '-'));
        List<String> args = new ArrayList<>(List.of("-Jthreads=" + THREADS, "-Jloops=200", "-Jrampup=0",
                "-Jduration=120", "-Jconnect_timeout=2000", "-Jresponse_timeout=5000", "-Jmode=remote"));
        args.addAll(bad);
        // A bounded wait: without fail-fast this is 600 samples per run, hundreds of thousands with a longer plan.
        Run.Result result = Plans.runWithoutReport(plan == null ? PLAN : files.resolve(plan), dir, args,
                Duration.ofMinutes(3));
        // the remote flow's step rows (here only "start") are the parent's sub-results, not samples of their own
        BadConfigRuns.check(result, dir, THREADS, code, message, property, file,
                property == null ? null : message.substring(0, message.indexOf(':')),
                s -> !s.label().endsWith(" start"));
    }
}
