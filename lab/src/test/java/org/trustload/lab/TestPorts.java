package org.trustload.lab;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Finds a port base whose lab ports are free right now, so parallel builds do not collide. */
public final class TestPorts {
    private TestPorts() {
    }

    /** A random base in 20000..57000 with every lab offset (389, 636, 8080, 8443) free on 127.0.0.1. */
    public static int freeBase() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(20_000, 57_000);
            if (isFree(base + 389) && isFree(base + 636) && isFree(base + 8080) && isFree(base + 8443)) {
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
