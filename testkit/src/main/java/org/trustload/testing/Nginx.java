package org.trustload.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.trustload.common.ChildProcess;

/**
 * A throwaway nginx (Debian's package) on 127.0.0.1 serving the given pages, for running the HTTP
 * plans against a real web server. Everything it writes (config, pid, logs, temp files) stays in a
 * private directory under {@code /tmp}; it runs in the foreground ({@code daemon off}) as a child of
 * the test and works as root or as an ordinary user. The plans' tests and {@code bench cost} share it.
 */
public final class Nginx implements AutoCloseable {

    public static final Path BINARY = Path.of("/usr/sbin/nginx");
    public static final String HOST = "127.0.0.1";

    private final Path dir;
    private final int port;
    private final ChildProcess process;

    private Nginx(Path dir, int port, ChildProcess process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    /** Skips outside CI when nginx is missing; on CI ({@code CI=true}) a missing nginx fails the test. */
    public static void assumeOrFailInCi() {
        Requirements.assumeOrFailInCi(Files.isExecutable(BINARY),
                "the nginx fixture needs " + BINARY + " (apt-get install nginx)");
    }

    /** Writes {@code pages} (path to body) under a fresh root and starts nginx on a free port. */
    public static Nginx start(Map<String, byte[]> pages) throws Exception {
        return start(pages, "");
    }

    /**
     * nginx as a relying party of certificate login: https on a free port with {@code cert}/{@code key},
     * {@code ssl_verify_client on} against the CAs in {@code clientCas}, their CRLs ({@code crls}, PEM)
     * checked, and {@code /} answering {@code logged in}. A revoked or expired client certificate gets
     * nginx's {@code 400 The SSL certificate error} page.
     */
    public static Nginx startMtls(Path cert, Path key, Path clientCas, Path crls) throws Exception {
        return start(Map.of("/", "logged in\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)), """
                        ssl_certificate %s;
                        ssl_certificate_key %s;
                        ssl_client_certificate %s;
                        ssl_crl %s;
                        ssl_verify_client on;
                        ssl_verify_depth 2;
                        ssl_protocols TLSv1.2 TLSv1.3;
                """.formatted(cert, key, clientCas, crls));
    }

    private static Nginx start(Map<String, byte[]> pages, String tls) throws Exception {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "ngx");
        Path root = Files.createDirectories(dir.resolve("html"));
        for (Map.Entry<String, byte[]> page : pages.entrySet()) {
            String name = page.getKey().equals("/") ? "index.html" : page.getKey().substring(1);
            Path file = root.resolve(name);
            Files.createDirectories(file.getParent());
            Files.write(file, page.getValue());
        }
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = FixturePorts.free(HOST);
            Files.writeString(dir.resolve("nginx.conf"), config(dir, root, port, tls));
            List<String> cmd = List.of(BINARY.toString(), "-p", dir + "/", "-c", dir.resolve("nginx.conf").toString(),
                    "-e", dir.resolve("error.log").toString());
            try {
                return new Nginx(dir, port, ChildProcess.start("nginx", cmd, null,
                        dir.resolve("console.txt"), null, null,
                        () -> accepts(port), Duration.ofSeconds(15)));
            } catch (ChildProcess.NotReady e) {
                last = new IOException("nginx did not start on port " + port + ": "
                        + Files.readString(dir.resolve("error.log")), e);
            }
        }
        Slapd.deleteTree(dir);
        throw last;
    }

    private static String config(Path dir, Path root, int port, String tls) {
        // "user" matters only when started as root (workers would run as nobody and could not read a
        // 0700 temp dir); as an ordinary user nginx ignores it with a warning. The rest is what nginx's own
        // tuning advice says for a static-file benchmark (docs/fixtures.md): a worker per core ("auto"),
        // sendfile with tcp_nopush, kept-alive connections reused for many requests, no access log.
        return """
                user %1$s;
                daemon off;
                worker_processes auto;
                worker_rlimit_nofile 8192;
                pid %2$s/nginx.pid;
                error_log %2$s/error.log warn;
                events { worker_connections 4096; }
                http {
                    access_log off;
                    client_body_temp_path %2$s/client_body;
                    proxy_temp_path %2$s/proxy;
                    fastcgi_temp_path %2$s/fastcgi;
                    uwsgi_temp_path %2$s/uwsgi;
                    scgi_temp_path %2$s/scgi;
                    default_type application/octet-stream;
                    types { text/html html; }
                    sendfile on;
                    tcp_nopush on;
                    keepalive_timeout 65;
                    keepalive_requests 10000;
                    server {
                        listen %3$s:%4$d%6$s backlog=1024;
                        root %5$s;
                        index index.html;
                %7$s    }
                }
                """.formatted(System.getProperty("user.name"), dir, HOST, port, root, tls.isEmpty() ? "" : " ssl", tls);
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(HOST, port), 500);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }


    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    public Path dir() {
        return dir;
    }

    /** The master's pid (its workers are its children). */
    public long pid() {
        return process.handle().pid();
    }

    @Override
    public void close() throws Exception {
        // SIGTERM is nginx's fast shutdown; the master stops its workers before it exits (SIGKILL'd ones stay)
        List<ProcessHandle> workers = process.handle().descendants().toList();
        process.stop(Duration.ofSeconds(15));
        workers.forEach(ProcessHandle::destroyForcibly);
        Slapd.deleteTree(dir);
    }
}
