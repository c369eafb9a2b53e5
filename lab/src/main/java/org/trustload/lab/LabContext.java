package org.trustload.lab;

import java.net.InetAddress;
import java.nio.file.Path;

/**
 * What every service needs to know to start: where to listen and where to put its files.
 *
 * @param portBase the base added to each service's fixed port offsets (ldap: +389, ldaps: +636)
 * @param users number of test users a service creates (ldap: {@code cn=fulano1..N})
 * @param socketDir a short private directory (0700) for Unix sockets and generated key material
 * @param pkiUsers number of test certificates the pki service issues ({@code user0001..N})
 */
public record LabContext(int portBase, int users, Path socketDir, int pkiUsers) {

    /** Default number of pki users: 1000 P-256 users cost 2-3 CPU-s to generate. */
    public static final int DEFAULT_PKI_USERS = 1000;

    /** A context with the default number of pki users. */
    public LabContext(int portBase, int users, Path socketDir) {
        this(portBase, users, socketDir, DEFAULT_PKI_USERS);
    }

    /** The only address the lab listens on; the lab must never be reachable from outside. */
    public static final String HOST = "127.0.0.1";

    /** Returns the port at {@code offset} from the base, e.g. {@code port(389)}. */
    public int port(int offset) {
        return portBase + offset;
    }

    /** Returns {@link #HOST} as an address to bind to. */
    public InetAddress bindAddress() {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
