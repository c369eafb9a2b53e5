package org.trustload.gmssl;

import java.util.Locale;

/**
 * What one TLCP Request sample did: on which connection, what it negotiated, what each step cost, and
 * the HTTP response for the modes that fetch a page.
 *
 * @param mode the mode run
 * @param newConnection true when this sample opened the connection (connect + handshake timed)
 * @param protocol negotiated protocol ({@code TLCP} or {@code TLSv1.3})
 * @param cipherSuite negotiated suite
 * @param resumed the handshake resumed an earlier session
 * @param connectNanos TCP connect time of a new connection, else 0
 * @param handshakeNanos handshake time of a new connection, else 0
 * @param response the HTTP response, or null (handshake and hold modes)
 * @param held connections this thread holds after the sample (hold mode), else 0
 */
public record TlcpOutcome(TlcpMode mode, boolean newConnection, String protocol, String cipherSuite, boolean resumed,
        long connectNanos, long handshakeNanos, TlcpHttp.Response response, int held) {

    /** True unless a page was fetched with a status other than 200. */
    public boolean ok() {
        return response == null || response.status() == 200;
    }

    /** The negotiated protocol and suite, e.g. {@code TLCP ECC_SM4_CBC_SM3}: a success's response message. */
    public String summary() {
        return protocol + " " + cipherSuite;
    }

    /** The timings and what was negotiated, as response headers (milliseconds with three decimals). */
    public String headers() {
        StringBuilder b = new StringBuilder();
        b.append("connection: ").append(newConnection ? "new" : "reused").append('\n')
                .append("protocol: ").append(protocol).append('\n')
                .append("cipher-suite: ").append(cipherSuite).append('\n')
                .append("session-resumed: ").append(resumed).append('\n');
        if (newConnection) {
            b.append("tcp-connect-ms: ").append(ms(connectNanos)).append('\n')
                    .append("handshake-ms: ").append(ms(handshakeNanos)).append('\n');
        }
        if (mode == TlcpMode.HOLD) {
            b.append("held-connections: ").append(held).append('\n');
        }
        if (response != null) {
            b.append("first-byte-ms: ").append(ms(response.firstByteNanos())).append('\n')
                    .append("transfer-ms: ").append(ms(response.transferNanos())).append('\n')
                    .append(response.statusLine()).append('\n').append(response.headers()).append('\n');
        }
        return b.toString();
    }

    /** A one-line body: what the sample did. */
    public String body(String path) {
        switch (mode) {
            case HANDSHAKE:
                return "handshake " + summary();
            case HOLD:
                return "holding " + held + " connection(s) in this thread";
            default:
                return "GET " + path + " -> " + response.status() + ", " + response.bodyBytes() + " bytes";
        }
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1_000_000.0);
    }
}
