package org.trustload.lab;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The lab's port range ({@code --port-base} + the reserved offsets) against the kernel's ephemeral
 * port range ({@code /proc/sys/net/ipv4/ip_local_port_range}, 32768–60999 by default): the kernel
 * hands ports of that range to every outgoing connection on the machine, so a lab port inside it is
 * taken at random ("already in use") by another process's client socket.
 */
public final class LabPorts {

    /** Every port offset reserved for lab services (docs/lab.md, "Port offsets"). */
    public static final int[] OFFSETS = {389, 636, 8080, 8443, 8444, 8600, 8601, 8610, 8611, 8700, 8701, 8702,
        8703, 8800, 8801, 8802, 8900};

    /** Where the kernel says its ephemeral range is. */
    public static final Path RANGE_FILE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    /** The kernel's default ephemeral range, used where {@link #RANGE_FILE} cannot be read. */
    static final Range DEFAULT_RANGE = new Range(32768, 60999);

    /** Lowest base {@link #freeBase()} picks: every lab port then sits above the well-known ports. */
    static final int LOWEST_FREE_BASE = 2000;

    private LabPorts() {
    }

    /** An inclusive port range. */
    public record Range(int low, int high) {
        boolean overlaps(int from, int to) {
            return from <= high && to >= low;
        }

        @Override
        public String toString() {
            return low + "–" + high;
        }
    }

    /** The kernel's ephemeral port range now ({@link #DEFAULT_RANGE} where it cannot be read). */
    public static Range ephemeralRange() {
        try {
            // readAllLines, not readString: a /proc/sys file reports size 0 and answers only a read at offset 0,
            // so readString got its first byte ("3") and this fell back to the default range on every machine
            String[] f = Files.readAllLines(RANGE_FILE).get(0).strip().split("\\s+");
            return new Range(Integer.parseInt(f[0]), Integer.parseInt(f[1]));
        } catch (IOException | RuntimeException e) {
            return DEFAULT_RANGE;
        }
    }

    /**
     * The highest base whose ports ({@code base .. base + }{@value Lab#MAX_PORT_OFFSET}) all sit below {@code range}.
     */
    static int highestBaseBelow(Range range) {
        return range.low() - 1 - Lab.MAX_PORT_OFFSET;
    }

    /**
     * Why {@code base} is a bad port base under {@code range}, if it is. {@code refuse} says whether
     * another base would do (a base below the range, or above it): then the lab refuses this one;
     * otherwise (a range covering almost every port) it can only warn.
     */
    static Optional<Problem> check(int base, Range range) {
        int last = base + Lab.MAX_PORT_OFFSET;
        if (!range.overlaps(base, last)) {
            return Optional.empty();
        }
        int below = highestBaseBelow(range);
        boolean above = range.high() + 1 <= Lab.MAX_PORT_BASE;
        String advice = below >= 1 ? "use a base of at most " + below + " (e.g. --port-base 10000)"
                : above ? "use a base of at least " + (range.high() + 1) : "nothing avoids it on this machine";
        String message = "--port-base " + base + " puts lab ports " + base + "–" + last
                + " in the kernel's ephemeral port range "
                + range + " (" + RANGE_FILE + "), where outgoing connections of any process take ports at random"
                + " and the lab's fail with 'already in use': " + advice;
        return Optional.of(new Problem(message, below >= 1 || above));
    }

    /** A {@link #check} finding: the message, and whether the lab refuses the base (or only warns). */
    record Problem(String message, boolean refuse) {
    }

    /**
     * A random base below the ephemeral range ({@link #LOWEST_FREE_BASE} up to {@link #highestBaseBelow})
     * whose reserved ports ({@link #OFFSETS}) are all free on 127.0.0.1 now: for tests and benches that
     * start labs beside other builds.
     */
    public static int freeBase() {
        int highest = Math.max(LOWEST_FREE_BASE, highestBaseBelow(ephemeralRange()));
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(LOWEST_FREE_BASE, highest + 1);
            boolean free = true;
            for (int offset : OFFSETS) {
                free &= isFree(base + offset);
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no port base with free lab ports found on 127.0.0.1");
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
