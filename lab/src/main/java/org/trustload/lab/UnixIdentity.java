package org.trustload.lab;

import com.sun.security.auth.module.UnixSystem;

/**
 * The numeric uid/gid of this process, for the default socket directory and for the DN that SASL
 * EXTERNAL maps a peer running as the same user to.
 */
public final class UnixIdentity {
    private static final UnixSystem SYSTEM = new UnixSystem();

    private UnixIdentity() {
    }

    /** The real user id of this process. */
    public static long uid() {
        return SYSTEM.getUid();
    }

    /** The real primary group id of this process. */
    public static long gid() {
        return SYSTEM.getGid();
    }
}
