package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.trustload.testing.TestHttpServer;

/**
 * The KMS plans with a wrong setting, run headless through the assembled JMeter as users run them,
 * against the lab's KMS emulators (whose client key file, password and CA they use): every run ends
 * within seconds, writes at most one failed sample per thread, and names the cause. A configuration
 * error (response code {@code configError}) is logged once in jmeter.log as
 * {@code TrustLoad configuration error in <element>, property <p>, file <f>} and the run exits with
 * {@link ExitStatus#CONFIG_ERROR}; one found by the KMS Client Config at test start stops the test
 * before the KMS is called. A refused port or an untrusted server certificate is no configuration
 * error: one failed sample per thread ({@code -:ConnectionRefused}, {@code -:TlsHandshake}), then the
 * threads stop.
 *
 * <p>CI budget: ~1 min: twelve JMeter runs (no dashboard), one per wrong setting, on one lab.
 */
class KmsBadConfigIT {

    private static final Path OUT = Plans.DIR.resolve("target/kms-bad-config");
    private static final Path AWS = Plans.DIR.resolve("kms/kms-benchmark-aws.jmx");
    private static final Path ALIYUN = Plans.DIR.resolve("kms/kms-benchmark-aliyun.jmx");
    private static final int THREADS = 3;
    private static final String CONFIG = "KMS Client Config 'kms client'";

    private static Lab lab;
    private static Path files;
    private static Map<String, String> labProps;

    @BeforeAll
    static void labAndFiles() throws Exception {
        files = Files.createDirectories(OUT.resolve("files"));
        lab = PlanRunIT.startLab("kms", OUT.resolve("lab.properties"), OUT.resolve("lab.log"));
        labProps = Secrets.read(lab.properties());
        Files.writeString(files.resolve("ClientKey_corrupt.json"),
                "{\"KeyId\": \"KAAP.x\", \"PrivateKeyData\": \"not a key\"}\n");
        Files.writeString(files.resolve("ClientKey_text.json"), "this is not a client key file\n");
        Files.write(files.resolve("ClientKey_empty.json"), new byte[0]);
        otherCa(files.resolve("other-ca.pem"));
        // The plans with a backend nobody offers, and with requests naming a config that does not exist.
        String aws = Files.readString(AWS);
        Files.writeString(files.resolve("unknown-backend.jmx"),
                aws.replace("<stringProp name=\"backend\">aws-kms</stringProp>",
                        "<stringProp name=\"backend\">nope</stringProp>"));
        Files.writeString(files.resolve("no-such-config.jmx"), aws.replace(
                "<stringProp name=\"configName\">kms</stringProp>\n            <stringProp name=\"operation\">",
                "<stringProp name=\"configName\">nosuch</stringProp>\n            <stringProp name=\"operation\">"));
        assertThat(Files.readString(files.resolve("unknown-backend.jmx"))).contains(">nope<");
        assertThat(Files.readString(files.resolve("no-such-config.jmx"))).contains(">nosuch<");
    }

    /** A CA certificate (PEM) that did not sign the lab's server certificate, made with the JDK's keytool. */
    private static void otherCa(Path pem) throws Exception {
        Path store = files.resolve("other-ca.p12");
        Files.deleteIfExists(store);
        Files.deleteIfExists(pem);
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        String pass = "other-ca-" + System.nanoTime();
        for (List<String> cmd : List.of(
                List.of(keytool, "-genkeypair", "-alias", "ca", "-keyalg", "EC", "-dname", "CN=Not The Lab CA",
                        "-ext", "bc:c", "-validity", "2", "-keystore", store.toString(), "-storepass", pass),
                List.of(keytool, "-exportcert", "-rfc", "-alias", "ca", "-keystore", store.toString(), "-storepass",
                        pass,
                        "-file", pem.toString()))) {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor()).as(out).isZero();
        }
    }

    @AfterAll
    static void stopLab() throws Exception {
        if (lab != null) {
            lab.close();
        }
    }


    static Stream<Arguments> cases() throws IOException {
        String corrupt = OUT.resolve("files/ClientKey_corrupt.json").toString();
        String text = OUT.resolve("files/ClientKey_text.json").toString();
        String empty = OUT.resolve("files/ClientKey_empty.json").toString();
        int refused = BadConfigRuns.refusedPort();
        return Stream.of(
                // name, plan, -J arguments, response code, message start, property (null: no config error), file
                Arguments.of("missing CA file", "aliyun", List.of("-Jkms.aliyun.ca_file=/nonexistent/ca.pem"),
                        "configError", CONFIG + ": caFile: file not found (/nonexistent/ca.pem)", "caFile",
                        "/nonexistent/ca.pem"),
                Arguments.of("wrong client key password", "aliyun",
                        List.of("-Jkms.aliyun.client_key_password=not-the-password"),
                        "configError", CONFIG + ": clientKeyPassword: wrong client key password", "clientKeyPassword",
                        "LAB:kms.aliyun.client_key_file"),
                Arguments.of("missing client key file", "aliyun",
                        List.of("-Jkms.aliyun.client_key_file=/nonexistent/ClientKey.json"),
                        "configError", CONFIG + ": clientKeyFile: file not found (/nonexistent/ClientKey.json)",
                        "clientKeyFile",
                        "/nonexistent/ClientKey.json"),
                Arguments.of("empty client key file", "aliyun", List.of("-Jkms.aliyun.client_key_file=" + empty),
                        "configError", CONFIG + ": clientKeyFile: file is empty", "clientKeyFile", empty),
                Arguments.of("client key file with a corrupt key", "aliyun",
                        List.of("-Jkms.aliyun.client_key_file=" + corrupt),
                        "configError", CONFIG + ": clientKeyFile: not a client key file", "clientKeyFile", corrupt),
                Arguments.of("client key file that is not JSON", "aliyun",
                        List.of("-Jkms.aliyun.client_key_file=" + text),
                        "configError", CONFIG + ": clientKeyFile: not a client key file", "clientKeyFile", text),
                Arguments.of("unknown host", "aws", List.of("-Jkms.aws.endpoint=http://no-such-host.invalid:18610"),
                        "configError", CONFIG + ": endpoint: unknown host 'no-such-host.invalid'", "endpoint", "-"),
                Arguments.of("unknown backend", "unknown-backend.jmx", List.of(),
                        "configError", CONFIG + ": backend: unknown backend 'nope' (available: ", "backend", "-"),
                Arguments.of("no such config", "no-such-config.jmx", List.of(),
                        "configError", "KMS Request 'encrypt': configName: no KMS Client Config named 'nosuch'",
                        "configName", "-"),
                Arguments.of("CA that did not sign the server certificate", "aliyun",
                        List.of("-Jkms.aliyun.ca_file=" + OUT.resolve("files/other-ca.pem")),
                        "KMS.TlsError", "-:TlsHandshake", null, null),
                Arguments.of("refused port", "aws", List.of("-Jkms.aws.endpoint=http://127.0.0.1:" + refused),
                        "KMS.ConnectionError", "-:ConnectionRefused", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aWrongSettingEndsTheRunWithAtMostOneFailedSamplePerThreadNamingTheCause(String what, String plan,
            List<String> bad, String code, String message, String property, String file) throws Exception {
        Path dir = OUT.resolve(what.replace(' ', '-'));
        Path jmx = plan.equals("aws") ? AWS : plan.equals("aliyun") ? ALIYUN : files.resolve(plan);
        // the lab's endpoints, client key and CA (a -q file: JMeter does not log it); then the wrong setting
        List<String> args = new ArrayList<>(List.of("-q", lab.properties().toString(), "-Jthreads=" + THREADS,
                "-Jloops=200", "-Jrampup=0", "-Jduration=120", "-Jcase=encrypt", "-Jconnect_timeout=2000",
                "-Jresponse_timeout=5000"));
        args.addAll(bad);
        // A bounded wait: without fail-fast this is 600 failed samples per run (the plans loop for 120 s).
        Run.Result result = Plans.runWithoutReport(jmx, dir, args, Duration.ofMinutes(3));
        String f = file == null ? null : file.startsWith("LAB:") ? labProps.get(file.substring(4)) : file;
        BadConfigRuns.check(result, dir, THREADS, code, message, property, f,
                property == null ? null : message.substring(0, message.indexOf(':')));
        String log = Files.readString(dir.resolve("jmeter.log"));
        assertThat(log + Files.readString(dir.resolve("console.txt"))).as("no password in the log or console")
                .doesNotContain(labProps.get("kms.aliyun.client_key_password")).doesNotContain("not-the-password");
    }

    /**
     * A Decrypt is a success only with the plaintext its thread encrypted: the AWS plan's decrypt case against
     * the lab's AWS KMS emulator behind a relay that changes every second Decrypt answer's plaintext (same
     * length, other bytes). The untouched answers pass; each changed one is a failed sample
     * {@code KMS.WrongOutput} / {@code -:PlaintextMismatch}, and no plaintext reaches the results.
     */
    @Test
    void aDecryptIsASuccessOnlyWithThePlaintextItsThreadEncrypted() throws Exception {
        AtomicInteger decrypts = new AtomicInteger();
        ObjectMapper json = new ObjectMapper();
        try (TestHttpServer relay = new TestHttpServer()) {
            relay.relay("/", URI.create(labProps.get("kms.aws.endpoint")), (path, body) -> {
                try {
                    if (json.readTree(body) instanceof ObjectNode o && o.has("Plaintext")
                            && decrypts.incrementAndGet() % 2 == 0) {
                        byte[] plain = Base64.getDecoder().decode(o.get("Plaintext").asText());
                        for (int i = 0; i < plain.length; i++) {
                            plain[i] ^= (byte) 0x5a;
                        }
                        o.put("Plaintext", Base64.getEncoder().encodeToString(plain));
                        return json.writeValueAsBytes(o);
                    }
                } catch (IOException notJson) {
                    // passed on as the emulator sent it
                }
                return body;
            });
            Path dir = OUT.resolve("decrypt-other-plaintext");
            Plans.runWithoutReport(AWS, dir, List.of("-q", lab.properties().toString(),
                    "-Jkms.aws.endpoint=" + relay.uri(""),
                    "-Jthreads=2", "-Jloops=4", "-Jrampup=0", "-Jduration=120", "-Jcase=decrypt"),
                    Duration.ofMinutes(3));
            List<Jtl.Sample> samples = Jtl.read(dir.resolve("results.jtl"));
            assertThat(samples).as("see " + dir).hasSize(8).allMatch(x -> x.label().equals("decrypt"));
            assertThat(samples.stream().filter(Jtl.Sample::success)).as("untouched answers").hasSize(4);
            assertThat(samples.stream().filter(x -> !x.success())).as("changed plaintexts").hasSize(4)
                    .allSatisfy(x -> {
                        assertThat(x.responseCode()).isEqualTo("KMS.WrongOutput");
                        assertThat(x.responseMessage()).isEqualTo("-:PlaintextMismatch");
                    });
        }
    }
}
