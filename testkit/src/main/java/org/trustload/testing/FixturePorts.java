package org.trustload.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.trustload.common.Closeables;

/**
 * Free ports for the fixtures' servers, chosen below the kernel's ephemeral port range
 * ({@code /proc/sys/net/ipv4/ip_local_port_range}, 32768–60999 by default). A port the kernel hands
 * out ({@code new ServerSocket(0)}) lies inside that range, where any process's next outgoing
 * connection may take it between our check and the server's bind; below it only listeners compete,
 * and each fixture retries on "already in use".
 */
public final class FixturePorts {

    /** Lowest port chosen: above the well-known and the usual registered service ports. */
    static final int LOWEST = 20000;

    private FixturePorts() {
    }

    /** One free port on {@code host}. */
    public static int free(String host) {
        return free(host, 1)[0];
    }

    /**
     * {@code n} distinct ports free on {@code host} now, each held while the others are chosen,
     * picked at random between {@link #LOWEST} and the start of the ephemeral range.
     */
    public static int[] free(String host, int n) {
        int highest = Math.max(LOWEST + 1000, ephemeralLow() - 1);
        List<ServerSocket> held = new ArrayList<>();
        try {
            InetAddress address = InetAddress.getByName(host);
            int[] ports = new int[n];
            for (int i = 0, attempts = 0; i < n; attempts++) {
                if (attempts > 500) {
                    throw new IllegalStateException("no free port between " + LOWEST + " and "
                            + highest + " on " + host);
                }
                int port = ThreadLocalRandom.current().nextInt(LOWEST, highest + 1);
                try {
                    held.add(new ServerSocket(port, 1, address));
                    ports[i++] = port;
                } catch (IOException taken) {
                    // in use: try another
                }
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            held.forEach(Closeables::closeQuietly);
        }
    }

    /** The first port of the kernel's ephemeral range (32768 where it cannot be read). */
    static int ephemeralLow() {
        try {
            // readAllLines: a /proc/sys file reports size 0 and answers only a read from offset 0
            return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).strip()
                    .split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
