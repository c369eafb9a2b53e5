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
