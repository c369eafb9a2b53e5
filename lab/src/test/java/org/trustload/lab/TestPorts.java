package org.trustload.lab;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Finds a port base whose lab ports are free right now, so parallel builds do not collide. */
public final class TestPorts {
    private TestPorts() {
    }

    /** Every port offset reserved for lab services (see docs/lab.md, "Port offsets"). */
    public static final int[] OFFSETS = {389, 636, 8080, 8443, 8444, 8600, 8601, 8610, 8611, 8700, 8701, 8702, 8703, 8800, 8801, 8802, 8900};

    /** A random base in 20000..56000 (the highest offset stays below 65535) with every lab offset ({@link #OFFSETS}) free on 127.0.0.1. */
    public static int freeBase() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(20_000, 56_000);
            boolean free = true;
            for (int offset : OFFSETS) {
                free &= isFree(base + offset);
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no free port base found");
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
