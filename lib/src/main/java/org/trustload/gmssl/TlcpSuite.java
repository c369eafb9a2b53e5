package org.trustload.gmssl;

import java.util.Locale;

/**
 * The GM-SSL cipher suites, by the names the plans' {@code suite} property uses. Each belongs to
 * one protocol: four TLCP suites (GB/T 38636) and the two RFC 8998 TLS 1.3 suites.
 */
public enum TlcpSuite {
    ECC_SM4_CBC_SM3(TlcpProtocol.TLCP, false),
    ECDHE_SM4_CBC_SM3(TlcpProtocol.TLCP, true),
    ECC_SM4_GCM_SM3(TlcpProtocol.TLCP, false),
    ECDHE_SM4_GCM_SM3(TlcpProtocol.TLCP, true),
    TLS_SM4_GCM_SM3(TlcpProtocol.TLS13, false),
    TLS_SM4_CCM_SM3(TlcpProtocol.TLS13, false);

    private final TlcpProtocol protocol;
    private final boolean ephemeral;

    TlcpSuite(TlcpProtocol protocol, boolean ephemeral) {
        this.protocol = protocol;
        this.ephemeral = ephemeral;
    }

    /** The protocol this suite belongs to. */
    public TlcpProtocol protocol() {
        return protocol;
    }

    /**
     * True for the TLCP ECDHE suites: their key exchange uses the encryption key pair of both sides,
     * so a client must present signing <i>and</i> encryption certificates.
     */
    public boolean needsClientCertificates() {
        return ephemeral;
    }

    /** Parses a suite name, case-insensitive, with or without a {@code TLCP_}/{@code GMTLS_} prefix. */
    public static TlcpSuite parse(String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (String prefix : new String[] {"TLCP_", "GMTLS_"}) {
            if (t.startsWith(prefix)) {
                t = t.substring(prefix.length());
            }
        }
        try {
            return valueOf(t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown suite '" + text + "' (" + names() + ")");
        }
    }

    /** All names, comma-separated, for messages and docs. */
    public static String names() {
        StringBuilder b = new StringBuilder();
        for (TlcpSuite s : values()) {
            b.append(b.length() == 0 ? "" : ", ").append(s.name());
        }
        return b.toString();
    }
}
