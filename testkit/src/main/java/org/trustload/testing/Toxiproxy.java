package org.trustload.testing;

import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.trustload.common.ChildProcess;

/**
 * A throwaway Toxiproxy server (Shopify's TCP fault proxy, the field's tool for network faults) on
 * 127.0.0.1, driven through its Java client ({@code eu.rekawek.toxiproxy:toxiproxy-java}). The server is
 * built once from the Go module proxy by {@code ci/fixtures/toxiproxy/build.sh} (pinned version, cached under
 * {@code ~/.cache/trustload/}); ci/test starts that build in the background while Maven compiles.
 *
 * <p>{@link #proxy} puts a {@link FaultProxy} between a client and a real server: the plan is pointed at the
 * proxy's port and the test adds latency, a bandwidth cap, held data, resets, slicing or a close after N bytes,
 * cuts the link, or points it at another upstream (a {@link FaultServer} that never answers or answers
 * garbage) while the run goes on. Tests call {@link #assumeOrFailInCi()} first.
 */
public final class Toxiproxy implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(20);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final int PORT_ATTEMPTS = 5;

    private final ChildProcess process;
    private final int apiPort;
    private final ToxiproxyClient client;

    private Toxiproxy(ChildProcess process, int apiPort) {
        this.process = process;
        this.apiPort = apiPort;
        this.client = new ToxiproxyClient(HOST, apiPort);
    }

    /** The build script: {@code ci/fixtures/toxiproxy/build.sh} above the working directory. */
    static Path buildScript() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("ci/fixtures/toxiproxy/build.sh");
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        throw new IllegalStateException("ci/fixtures/toxiproxy/build.sh not found above " + Path.of("")
                .toAbsolutePath());
    }

    /** Whether the server can be had here: already built, or Go present to build it. */
    public static boolean isAvailable() {
        return Files.isExecutable(Path.of(System.getProperty("user.home"), ".cache/trustload/toxiproxy-2.12.0/server"))
                || Requirements.onPath("go") || Files.isExecutable(Path.of("/usr/local/go/bin/go"));
    }

    /** Skips the calling test where Toxiproxy can neither be found nor built; fails it on CI. */
    public static void assumeOrFailInCi() {
        Requirements.assumeOrFailInCi(isAvailable(), "Toxiproxy needs Go to build it (ci/fixtures/toxiproxy/build.sh)");
    }

    /** The server binary, built first when missing (waits for a build another process started). */
    public static Path binary() {
        try {
            ChildProcess.Finished b = ChildProcess.run(List.of("bash", buildScript().toString()), BUILD_TIMEOUT);
            String[] lines = b.output().strip().split("\n");
            Path bin = Path.of(lines[lines.length - 1].strip());
            if (!b.ok() || !Files.isExecutable(bin)) {
                throw new IllegalStateException("ci/fixtures/toxiproxy/build.sh failed (" + b.status() + "): "
                        + b.output());
            }
            return bin;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted building Toxiproxy", e);
        }
    }

    /** Starts a server on a free loopback port, its log in {@code log}; returns once its API answers. */
    public static Toxiproxy start(Path log) {
        Path bin = binary();
        IllegalStateException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            int port = FixturePorts.free(HOST);
            try {
                ChildProcess p = ChildProcess.launch("toxiproxy", List.of(bin.toString(), "-host", HOST, "-port",
                        // every connection is an INFO line: a load test's thousands would fill the log
                        Integer.toString(port)), null, Map.of("LOG_LEVEL", "warn"), log, null, null);
                if (p.awaitReady(() -> accepts(port), READY_TIMEOUT)) {
                    return new Toxiproxy(p, port);
                }
                last = new IllegalStateException("toxiproxy exited (" + p.exitValue() + ") on port " + port + p.tail());
            } catch (ChildProcess.NotReady e) {
                last = new IllegalStateException("toxiproxy not ready within " + READY_TIMEOUT, e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted starting toxiproxy", e);
            }
        }
        throw last;
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(HOST, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The API's port (loopback). */
    public int apiPort() {
        return apiPort;
    }

    /**
     * A proxy named {@code name} listening on a free loopback port and forwarding to {@code upstreamHost:upstreamPort}.
     */
    public FaultProxy proxy(String name, String upstreamHost, int upstreamPort) {
        IOException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            int port = FixturePorts.free(HOST);
            try {
                return new FaultProxy(client.createProxy(name, HOST + ":" + port, upstreamHost + ":" + upstreamPort),
                        port);
            } catch (IOException e) {
                last = e; // the port was taken meanwhile: another
            }
        }
        throw new UncheckedIOException("cannot create proxy " + name + " to " + upstreamHost + ":" + upstreamPort,
                last);
    }

    /** The server's version (its API's answer). */
    public String version() {
        try {
            return client.version();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's log so far (its last lines). */
    public String logTail() {
        try {
            Path log = process.log();
            return log == null || !Files.exists(log) ? "" : Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read the log: " + e + ")";
        }
    }

    /** Stops the server (every proxy goes with it). */
    @Override
    public void close() {
        try {
            process.stop(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            process.handle().destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
