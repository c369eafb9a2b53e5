package org.trustload.gmssl;

import java.util.Locale;

/**
 * What one TLCP Request sample does, in the metrics of the published GM-SSL method (plus bare
 * handshakes). The plans' {@code mode} property holds {@link #id()}.
 */
public enum TlcpMode {
    /** New TCP connection, full handshake (no session reuse unless asked), close: handshakes/s. */
    HANDSHAKE("handshake", true, false),
    /** The same plus a GET of a small page with {@code Connection: close}: new connections/s. */
    CPS("cps", true, true),
    /** A GET on a connection kept per thread (opened by the first sample): MB/s. */
    THROUGHPUT("throughput", false, true),
    /** Open one more connection per sample and keep it until the thread or the test ends: max concurrent. */
    HOLD("hold", true, false);

    private final String id;
    private final boolean alwaysNew;
    private final boolean fetches;

    TlcpMode(String id, boolean alwaysNew, boolean fetches) {
        this.id = id;
        this.alwaysNew = alwaysNew;
        this.fetches = fetches;
    }

    /** The name plans use. */
    public String id() {
        return id;
    }

    /** True when every sample opens a new connection. */
    public boolean alwaysNew() {
        return alwaysNew;
    }

    /** True when a sample GETs a page. */
    public boolean fetches() {
        return fetches;
    }

    /** Parses a mode name (case-insensitive); an unknown one is a configuration error of {@code mode}. */
    public static TlcpMode parse(String text) throws TlcpException {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (TlcpMode m : values()) {
            if (m.id.equals(t)) {
                return m;
            }
        }
        throw TlcpException.config("mode", "",
                "unknown mode '" + text + "' (handshake, cps, throughput, hold)", null, null);
    }
}
