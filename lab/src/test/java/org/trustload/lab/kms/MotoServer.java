package org.trustload.lab.kms;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * moto 5.2.5 (PyPI, an independent AWS emulator) on a free loopback port, from the venv
 * {@code ci/fixtures/moto/venv.sh} makes; the moto integration tests share it. Credentials are moto's
 * {@code testing}/{@code testing}, account 123456789012.
 */
final class MotoServer implements AutoCloseable {
    private final Process process;
    private final int port;
    private final SdkHttpClient http = ApacheHttpClient.builder().build();

    private MotoServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static MotoServer start() throws Exception {
        Path root = Paths.get(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
        Process venv = new ProcessBuilder(root.resolve("ci/fixtures/moto/venv.sh").toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String server = new String(venv.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(venv.waitFor(10, TimeUnit.MINUTES) && venv.exitValue() == 0)
                .as("ci/fixtures/moto/venv.sh must install moto[server] 5.2.5 (PyPI)").isTrue();
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        Path log = Files.createTempFile("moto", ".log");
        Process moto = new ProcessBuilder(server, "-H", "127.0.0.1", "-p", String.valueOf(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!listening(port)) {
            assertThat(moto.isAlive()).as("moto_server exited; see " + log).isTrue();
            assertThat(System.nanoTime()).as("moto_server did not listen within 60 s").isLessThan(deadline);
            Thread.sleep(200);
        }
        return new MotoServer(moto, port);
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** A plain SDK KMS client for moto, retries off (a 500 must show, not be retried away). */
    KmsClient kms() {
        return KmsClient.builder().httpClient(http).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing")))
                .overrideConfiguration(o -> o.retryPolicy(RetryPolicy.none())).endpointOverride(URI.create(endpoint()))
                .build();
    }

    SecretsManagerClient secrets() {
        return SecretsManagerClient.builder().httpClient(http).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing")))
                .overrideConfiguration(o -> o.retryPolicy(RetryPolicy.none())).endpointOverride(URI.create(endpoint()))
                .build();
    }

    @Override
    public void close() throws InterruptedException {
        http.close();
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
