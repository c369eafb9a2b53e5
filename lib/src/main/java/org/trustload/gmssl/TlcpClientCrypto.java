package org.trustload.gmssl;

import java.util.Locale;

/**
 * How much cryptography a TLCP client does per handshake (the TLCP Client Config's
 * {@code clientCrypto}). The server's work is the same in both: only the client's own checks and
 * secrets are skipped or reused.
 */
public enum TlcpClientCrypto {
    /** A normal client: every handshake checks the server's chain and signature and makes new secrets. */
    FULL("full"),
    /**
     * A load generator's client, never a secure one: the server's certificates are checked once per
     * distinct chain, its per-handshake signature not at all; ECC suites send the same encrypted
     * pre-master secret to a server key every time (the server still decrypts it every time); ECDHE
     * suites reuse one ephemeral key pair (the server still makes its own and computes the exchange).
     * CertificateVerify is still signed when the server asks for a client certificate. Every
     * handshake is complete and valid on the wire.
     */
    MINIMAL("minimal");

    private final String id;

    TlcpClientCrypto(String id) {
        this.id = id;
    }

    /** The name plans use. */
    public String id() {
        return id;
    }

    /** Parses {@code full} or {@code minimal} (case-insensitive; blank means full). */
    public static TlcpClientCrypto parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (t.isEmpty()) {
            return FULL;
        }
        for (TlcpClientCrypto c : values()) {
            if (c.id.equals(t)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown client crypto '" + text + "' (full, minimal)");
    }
}
