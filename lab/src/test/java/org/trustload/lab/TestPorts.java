package org.trustload.lab;

/** Finds a port base whose lab ports are free right now, so parallel builds do not collide. */
public final class TestPorts {
    private TestPorts() {
    }

    /** Every port offset reserved for lab services (see docs/lab.md, "Port offsets"). */
    public static final int[] OFFSETS = LabPorts.OFFSETS;

    /**
     * A random base below the kernel's ephemeral range with every lab offset free on 127.0.0.1
     * ({@link LabPorts#freeBase()}).
     */
    public static int freeBase() {
        return LabPorts.freeBase();
    }
}
