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
 * @param host the one address every listener binds and {@code lab.properties} names: {@link #HOST}, or the
 *     address of {@code --bind} (engines on other hosts); never a wildcard
 */
public record LabContext(int portBase, int users, Path socketDir, int pkiUsers, String host) {

    /** Default number of pki users: 1000 P-256 users cost 2-3 CPU-s to generate. */
    public static final int DEFAULT_PKI_USERS = 1000;

    /** A context with the default number of pki users. */
    public LabContext(int portBase, int users, Path socketDir) {
        this(portBase, users, socketDir, DEFAULT_PKI_USERS);
    }

    /** A context on {@link #HOST}. */
    public LabContext(int portBase, int users, Path socketDir, int pkiUsers) {
        this(portBase, users, socketDir, pkiUsers, HOST);
    }

    /** The address the lab listens on unless {@code --bind} says otherwise: loopback, unreachable from outside. */
    public static final String HOST = "127.0.0.1";

    /** Returns the port at {@code offset} from the base, e.g. {@code port(389)}. */
    public int port(int offset) {
        return portBase + offset;
    }

    /** Returns {@link #host()} as an address to bind to (a literal: no name lookup). */
    public InetAddress bindAddress() {
        try {
            return InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code host:port} as a URL authority ({@code [v6]:port} for IPv6). */
    public String authority(int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
