package org.trustload.testing.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.labkit.pki.TestPki;
import org.trustload.pki.CertificateLoginClient;
import org.trustload.pki.Flow;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeyStores;
import org.trustload.pki.LoginRefusal;
import org.trustload.pki.PkiException;
import org.trustload.testing.TestHttpServer;

/**
 * The mutual-TLS login client against a tiny TLS server of the test PKI that wants a client certificate
 * and answers as told: chunked and fixed-length answers on kept-alive or closed connections (httpcore
 * reads them), nginx's refusal page, a connection closed after the handshake, a slow server, no server,
 * a plain HTTP server; and the refusal rules.
 */
class CertificateLoginClientTest {
    @TempDir
    static Path dir;
    private static TestPki pki;
    private static KeyMaterial user;

    @BeforeAll
    static void pki() throws Exception {
        pki = TestPki.generate(new TestPki.Spec().withUsers(3).withCas(1).withRevoked(List.of()).withExpired(List.of()),
                dir.resolve("pki"));
        user = pki.userKey(pki.validAliases().get(0));
    }

    /** A TLS server (the test PKI's server certificate) needing a client certificate; one answer per connection. */
    private static final class TlsServer implements AutoCloseable {
        final SSLServerSocket socket;
        final Thread thread;

        TlsServer(Function<String, byte[]> answer) throws Exception {
            this(answer, 0);
        }

        /** Holds each connection open {@code holdMillis} after its answer (a server that stalls mid-body). */
        TlsServer(Function<String, byte[]> answer, long holdMillis) throws Exception {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
            kmf.init(pki.serverKeyStore(), pki.password().toCharArray());
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), new TrustManager[] {new AcceptAll()}, null);
            socket = (SSLServerSocket) ctx.getServerSocketFactory()
                    .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            socket.setNeedClientAuth(true);
            thread = new Thread(() -> {
                while (!socket.isClosed()) {
                    try (SSLSocket s = (SSLSocket) socket.accept()) {
                        s.startHandshake();
                        BufferedReader in = new BufferedReader(
                                new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                        String request = in.readLine();
                        for (String h; (h = in.readLine()) != null && !h.isEmpty(); ) {
                            // headers
                        }
                        byte[] out = answer.apply(request);
                        if (out != null) {
                            OutputStream o = s.getOutputStream();
                            o.write(out);
                            o.flush();
                        }
                        if (holdMillis > 0) {
                            Thread.sleep(holdMillis);
                        }
                    } catch (Exception e) {
                        // next connection
                    }
                }
            }, "tls-test-server");
            thread.setDaemon(true);
            thread.start();
        }

        URI uri(String path) {
            return URI.create("https://127.0.0.1:" + socket.getLocalPort() + path);
        }

        @Override
        public void close() throws Exception {
            socket.close();
            thread.interrupt();
            thread.join(5000);
        }
    }

    private static final class AcceptAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public java.security.cert.X509Certificate[] getAcceptedIssuers() {
            return new java.security.cert.X509Certificate[0];
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Flow login(TlsServer server, String path) throws Exception {
        return CertificateLoginClient.builder().mtlsUrl(server.uri(path)).trustAnchors(pki.caCertificates())
                .responseTimeout(Duration.ofSeconds(2)).build().mutualTls(user);
    }

    @AfterAll
    static void done() {
        pki = null;
    }

    @Test
    void aChunkedAnswerOnAKeptAliveConnectionIsReadWithoutWaitingForTheClose() throws Exception {
        String json = "{\"status\":\"OK\",\"subject\":\"CN=user\"}";
        String chunked = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: keep-alive\r\n\r\n" + Integer.toHexString(10) + "\r\n" + json.substring(0, 10) + "\r\n"
                + Integer.toHexString(json.length() - 10) + "\r\n" + json.substring(10) + "\r\n0\r\n\r\n";
        try (TlsServer server = new TlsServer(r -> {
            byte[] b = bytes(chunked);
            return b; // the server keeps the socket until the client's close: a reader waiting for EOF would time out
        })) {
            long t0 = System.nanoTime();
            Flow f = login(server, "/auth/mtls");
            assertThat(f.failure()).isNull();
            assertThat(f.status()).isEqualTo(200);
            assertThat(f.subject()).isEqualTo("CN=user");
            assertThat(f.steps()).extracting(Flow.Step::name).containsExactly("handshake", "get");
            assertThat(f.info()).startsWith("TLS");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(1900));
        }
    }

    @Test
    void aFixedLengthHtmlAnswerIsASuccessToo() throws Exception {
        try (TlsServer server = new TlsServer(r -> bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))) {
            Flow f = login(server, "/");
            assertThat(f.ok()).as(String.valueOf(f.failure())).isTrue();
            assertThat(f.body()).isEqualTo("hello");
        }
    }

    @Test
    void nginxsRefusalPageIsARequestRefusalThatTheDeclaredRuleAccepts() throws Exception {
        String page = "<html>\r\n<head><title>400 The SSL certificate error</title></head>\r\n<body>\r\n"
                + "<center><h1>400 Bad Request</h1></center>\r\n<center>The SSL certificate"
                + " error</center>\r\n</body></html>";
        try (TlsServer server = new TlsServer(r -> bytes("HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\n"
                + "Content-Length: " + page.length() + "\r\nConnection: close\r\n\r\n" + page))) {
            Flow f = login(server, "/");
            assertThat(f.code()).isEqualTo(PkiException.REQUEST_REFUSED);
            assertThat(f.failure().getMessage()).isEqualTo("HTTP 400 requestRefused");
            assertThat(f.status()).isEqualTo(400);
            assertThat(LoginRefusal.DEFAULT.matches(f)).isTrue();
            assertThat(LoginRefusal.parse("400", false, "The SSL certificate error").matches(f)).isTrue();
            assertThat(LoginRefusal.parse("400", false, "certificate revoked").matches(f)).isFalse();
            assertThat(LoginRefusal.parse("401,403", true, "").matches(f)).isFalse();
        }
    }

    @Test
    void aConnectionClosedAfterTheHandshakeIsAHandshakeFailure() throws Exception {
        try (TlsServer server = new TlsServer(r -> null)) {
            Flow f = login(server, "/");
            assertThat(f.code()).isEqualTo(CertificateLoginClient.HANDSHAKE_FAILED);
            assertThat(f.steps()).extracting(Flow.Step::name).containsExactly("handshake", "get");
            assertThat(LoginRefusal.DEFAULT.matches(f)).isTrue();
            assertThat(LoginRefusal.parse("400", false, "").matches(f)).isFalse();
        }
    }

    @Test
    void theLabsJsonRefusalKeepsItsCode() throws Exception {
        String json = "{\"error\":\"certificateRevoked\",\"message\":\"revoked\"}";
        try (TlsServer server = new TlsServer(r -> bytes("HTTP/1.1 403 Forbidden\r\nContent-Length: " + json.length()
                + "\r\n\r\n" + json))) {
            Flow f = login(server, "/");
            assertThat(f.code()).isEqualTo(PkiException.CERTIFICATE_REVOKED);
            assertThat(f.failure().getMessage()).isEqualTo("HTTP 403 certificateRevoked");
            assertThat(LoginRefusal.parse("", false, "").matches(f)).isTrue();
        }
    }

    @Test
    void aServerThatNeverAnswersHitsTheResponseTimeout() throws Exception {
        try (TlsServer server = new TlsServer(r -> {
            try {
                Thread.sleep(4000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        })) {
            long t0 = System.nanoTime();
            Flow f = login(server, "/");
            assertThat(f.code()).isEqualTo(PkiException.CONNECT_ERROR);
            assertThat(f.failure().getMessage()).isEqualTo("login server did not answer in time");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(3500));
        }
    }

    @Test
    void aBodyThatStallsAfterTheHeadersHitsTheDeadline() throws Exception {
        // 100 bytes announced, 5 sent, then nothing until long after the 2 s response timeout
        try (TlsServer server = new TlsServer(r -> bytes("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"ok\""),
                30_000)) {
            Flow f = login(server, "/");
            assertThat(f.code()).isEqualTo(PkiException.CONNECT_ERROR);
            // not "connection failed": the client gave up at its deadline, not when the server closed
            assertThat(f.failure().getMessage()).isEqualTo("login server did not answer in time");
        }
    }

    @Test
    void noServerIsAConnectError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Flow m = CertificateLoginClient.builder()
                .mtlsUrl(URI.create("https://127.0.0.1:" + port + "/auth/mtls")).build()
                .mutualTls(user);
        assertThat(m.code()).isEqualTo(PkiException.CONNECT_ERROR);
        assertThat(m.failure().getMessage()).isEqualTo("login server unreachable");
        assertThat(m.steps()).extracting(Flow.Step::name).containsExactly("handshake");
    }

    @Test
    void mtlsAgainstAPlainHttpServerFailsTheHandshake() throws Exception {
        try (TestHttpServer server = new TestHttpServer().on("/", (b, ex) ->
                TestHttpServer.reply(ex, 200, "text/plain", bytes("plain")))) {
            URI u = server.uri("/auth/mtls");
            Flow m = CertificateLoginClient.builder()
                    .mtlsUrl(URI.create("https://127.0.0.1:" + u.getPort() + "/auth/mtls"))
                    .handshakeTimeout(Duration.ofSeconds(3)).build().mutualTls(user);
            assertThat(m.code()).isIn(CertificateLoginClient.HANDSHAKE_FAILED, PkiException.CONNECT_ERROR);
            assertThat(m.steps()).extracting(Flow.Step::name).containsExactly("handshake");
        }
    }

    @Test
    void badSettingsAreConfigErrors() throws Exception {
        assertThatThrownBy(() -> CertificateLoginClient.builder().mtlsUrl(URI.create("http://127.0.0.1/")).build())
                .isInstanceOf(PkiException.class).extracting(e -> ((PkiException) e).category())
                .isEqualTo(PkiException.CONFIG_ERROR);
        assertThatThrownBy(() -> LoginRefusal.parse("40x", true, "")).isInstanceOf(PkiException.class);
        assertThatThrownBy(() -> LoginRefusal.parse("400", true, "([")).isInstanceOf(PkiException.class);
        Path empty = Files.createTempFile(dir, "anchors", ".pem");
        assertThatThrownBy(() -> KeyStores.certificates(empty, "trust anchors file")).isInstanceOf(PkiException.class);
    }
}
