package org.trustload.gmssl;

import java.util.Locale;

/** The two GM-SSL protocol families a {@link TlcpEngine} may speak. */
public enum TlcpProtocol {
    /** GB/T 38636-2020 TLCP (GMTLS 1.1) with SM2 signing and encryption certificates. */
    TLCP("TLCP"),
    /** TLS 1.3 with the RFC 8998 ShangMi suites. */
    TLS13("TLSv1.3");

    private final String label;

    TlcpProtocol(String label) {
        this.label = label;
    }

    /** The name users write and results show: {@code TLCP} or {@code TLSv1.3}. */
    public String label() {
        return label;
    }

    /**
     * The protocol a client's first record speaks, from its first three bytes (content type and
     * record version): record version 1.1 ({@code 0x0101}) is TLCP, 3.x is TLS; null when it is not a
     * handshake record at all. This is how Tongsuo's {@code enable_ntls} tells them apart on one port.
     */
    public static TlcpProtocol ofRecordHeader(byte[] head) {
        if (head.length < 3 || head[0] != 22) {
            return null;
        }
        if (head[1] == 1 && head[2] == 1) {
            return TLCP;
        }
        return head[1] == 3 ? TLS13 : null;
    }

    /** Parses {@code TLCP}/{@code GMTLS}/{@code NTLS} and {@code TLSv1.3}/{@code TLS1.3}/{@code TLS13}. */
    public static TlcpProtocol parse(String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace("V", "").replace(".", "")
                .replace("_", "");
        switch (t) {
            case "TLCP": case "GMTLS": case "NTLS": case "GMTLS11":
                return TLCP;
            case "TLS13":
                return TLS13;
            default:
                throw new IllegalArgumentException("unknown protocol '" + text + "' (TLCP, TLSv1.3)");
        }
    }
}
