package org.trustload.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.trustload.common.ChildProcess;

/**
 * The independent TLCP / TLS 1.3 SM peer of the interop tests: {@code ci/fixtures/tongsuo/tlcp-peer.c}
 * compiled with gcc against the native Tongsuo library that ships inside
 * {@code net.tongsuo:tongsuo-openjdk} (it exports the NTLS C API). Compiled once per JVM into
 * {@code target/tlcp-peer/}. The program's options and output lines are described in its source.
 */
public final class NativeTlcpPeer {
    private static final String NATIVE_RESOURCE = "/META-INF/native/libconscrypt_openjdk_jni-linux-x86_64.so";
    /** The library's soname: the dynamic loader looks for this file name beside the program. */
    private static final String SONAME = "libconscrypt_openjdk_jni.so";
    private static Path binary;

    private NativeTlcpPeer() {
    }

    /** True when gcc is installed (the library itself comes from the Maven dependency). */
    public static boolean gccAvailable() {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(":")) {
                if (!d.isEmpty() && Files.isExecutable(Path.of(d, "gcc"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Skips the calling test when gcc is missing, except on CI ({@code CI=true}), where a missing
     * compiler is a broken machine and fails the test instead of silently dropping interop coverage.
     */
    public static void assumeOrFailInCi() {
        Requirements.assumeOrFailInCi(gccAvailable(), "the native TLCP peer needs gcc (apt-get install gcc)");
    }

    /** The compiled program (compiling it on first use). Call {@link #assumeOrFailInCi()} first. */
    public static synchronized Path binary() {
        if (binary != null) {
            return binary;
        }
        try {
            Path dir = Path.of("target", "tlcp-peer").toAbsolutePath();
            Files.createDirectories(dir);
            URL lib = NativeTlcpPeer.class.getResource(NATIVE_RESOURCE);
            if (lib == null) {
                throw new IllegalStateException(NATIVE_RESOURCE + " not on the test class path: "
                        + "the module needs net.tongsuo:tongsuo-openjdk:linux-x86_64");
            }
            try (InputStream in = lib.openStream()) {
                Files.copy(in, dir.resolve(SONAME), StandardCopyOption.REPLACE_EXISTING);
            }
            Path out = dir.resolve("tlcp-peer");
            Result r = run(List.of("gcc", "-O2", "-Wall", "-Werror", "-o", out.toString(), source().toString(),
                    dir.resolve(SONAME).toString(), "-Wl,-rpath,$ORIGIN"), Duration.ofSeconds(120));
            if (r.exit() != 0) {
                throw new IllegalStateException("gcc failed: " + r.stderr() + r.stdout());
            }
            binary = out;
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The C source, found by walking up from the working directory to the repository root. */
    public static Path source() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path c = d.resolve("ci/fixtures/tongsuo/tlcp-peer.c");
            if (Files.isRegularFile(c)) {
                return c;
            }
        }
        throw new IllegalStateException("ci/fixtures/tongsuo/tlcp-peer.c not found above "
                + Path.of("").toAbsolutePath());
    }

    /** Starts {@code tlcp-peer server} with {@code args} and waits for its {@code LISTENING} line. */
    public static Server server(List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(binary().toString());
        cmd.add("server");
        cmd.addAll(args);
        try {
            return new Server(cmd, Duration.ofSeconds(10));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code tlcp-peer client} with {@code args} to its end (killed after {@code timeout}). */
    public static Result client(List<String> args, Duration timeout) {
        return run("client", args, timeout);
    }

    /**
     * Runs {@code n} {@code tlcp-peer client}s with {@code args} at once (one process each), each as {@link #client}.
     */
    public static List<Result> clients(int n, List<String> args, Duration timeout) {
        List<CompletableFuture<Result>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fs.add(CompletableFuture.supplyAsync(() -> client(args, timeout)));
        }
        return fs.stream().map(CompletableFuture::join).toList();
    }

    /**
     * Runs {@code tlcp-peer kat} (Tongsuo's known answers; {@code args}: the server's double certificate) to its end.
     */
    public static Result kat(List<String> args, Duration timeout) {
        return run("kat", args, timeout);
    }

    private static Result run(String mode, List<String> args, Duration timeout) {
        List<String> cmd = new ArrayList<>();
        cmd.add(binary().toString());
        cmd.add(mode);
        cmd.addAll(args);
        return run(cmd, timeout);
    }

    private static Result run(List<String> cmd, Duration timeout) {
        try {
            Process p = new ProcessBuilder(cmd).start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                return new Result(-1, out.get(5, TimeUnit.SECONDS),
                        "killed after " + timeout + "; " + err.get(5, TimeUnit.SECONDS));
            }
            return new Result(p.exitValue(), out.get(5, TimeUnit.SECONDS), err.get(5, TimeUnit.SECONDS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String drain(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** What a finished client run printed. */
    public record Result(int exit, String stdout, String stderr) {
        /** The first stdout line starting with {@code key}, without the key, or null. */
        public String line(String key) {
            for (String l : stdout.split("\n")) {
                if (l.startsWith(key + " ")) {
                    return l.substring(key.length() + 1).trim();
                }
            }
            return null;
        }

        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + stdout + "stderr:\n" + stderr;
        }
    }

    /** A running native server; {@link #close()} kills it. */
    public static final class Server implements AutoCloseable {
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final ChildProcess process;
        private final int port;

        private Server(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
            process = ChildProcess.launch("tlcp-peer server", cmd, null, Map.of(), null, "LISTENING ", lines::add);
            try {
                if (!process.awaitReady(() -> true, timeout)) {
                    throw new IllegalStateException("tlcp-peer server exited " + process.exitValue() + ": " + lines);
                }
            } catch (ChildProcess.NotReady e) {
                throw new IllegalStateException("tlcp-peer server did not listen within " + timeout + ": " + lines);
            }
            port = Integer.parseInt(process.readyLine().substring(10).trim());
        }

        public int port() {
            return port;
        }

        /** Every line printed so far (ACCEPTED …, HANDSHAKE-FAILED …). */
        public List<String> lines() {
            synchronized (lines) {
                return List.copyOf(lines);
            }
        }

        /** Waits up to {@code timeout} for a printed line starting with {@code prefix}; returns it or null. */
        public String awaitLine(String prefix, Duration timeout) {
            long end = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < end) {
                for (String l : lines()) {
                    if (l.startsWith(prefix)) {
                        return l;
                    }
                }
                sleep(20);
            }
            return null;
        }

        /** Waits up to {@code timeout} until {@code n} printed lines start with {@code prefix}; returns those seen. */
        public List<String> awaitLines(String prefix, int n, Duration timeout) {
            long end = System.nanoTime() + timeout.toNanos();
            List<String> found;
            do {
                found = lines().stream().filter(l -> l.startsWith(prefix)).toList();
                if (found.size() >= n) {
                    return found;
                }
                sleep(20);
            } while (System.nanoTime() < end);
            return found;
        }

        /** Lines starting with {@code prefix} printed so far. */
        public long count(String prefix) {
            return lines().stream().filter(l -> l.startsWith(prefix)).count();
        }

        @Override
        public void close() {
            try {
                process.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
