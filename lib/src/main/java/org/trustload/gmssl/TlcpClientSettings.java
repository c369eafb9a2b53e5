package org.trustload.gmssl;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a client needs to open GM-SSL connections. Immutable; the {@code with…} methods return
 * modified copies. The suites must all belong to {@link #protocol()}.
 */
public final class TlcpClientSettings {
    private TlcpProtocol protocol = TlcpProtocol.TLCP;
    private List<TlcpSuite> suites = List.of(TlcpSuite.ECC_SM4_CBC_SM3);
    private List<X509Certificate> trustAnchors = List.of();
    private TlcpCredentials credentials;
    private boolean sessionReuse;
    private int connectTimeoutMillis = 5000;
    private int readTimeoutMillis = 10000;
    private String serverName;
    private TlcpClientCrypto clientCrypto = TlcpClientCrypto.FULL;

    /** Defaults: TLCP, ECC_SM4_CBC_SM3, no trust anchors, no client certificates, no reuse, 5 s / 10 s. */
    public TlcpClientSettings() {
    }

    private TlcpClientSettings copy() {
        TlcpClientSettings s = new TlcpClientSettings();
        s.protocol = protocol; s.suites = suites; s.trustAnchors = trustAnchors; s.credentials = credentials;
        s.sessionReuse = sessionReuse; s.connectTimeoutMillis = connectTimeoutMillis;
        s.readTimeoutMillis = readTimeoutMillis; s.serverName = serverName; s.clientCrypto = clientCrypto;
        return s;
    }

    /** A copy with {@code change} applied to it. */
    private TlcpClientSettings with(Consumer<TlcpClientSettings> change) {
        TlcpClientSettings s = copy();
        change.accept(s);
        return s;
    }

    public TlcpClientSettings withProtocol(TlcpProtocol v) { return with(s -> s.protocol = v); }

    /** The suites to offer, in order of preference. */
    public TlcpClientSettings withSuites(List<TlcpSuite> v) { return with(s -> s.suites = List.copyOf(v)); }

    /** CA certificates the server's chain must lead to; empty means none is trusted. */
    public TlcpClientSettings withTrustAnchors(List<X509Certificate> v) {
        return with(s -> s.trustAnchors = List.copyOf(v));
    }

    /** The client's signing + encryption key pairs for client authentication; null for none. */
    public TlcpClientSettings withCredentials(TlcpCredentials v) { return with(s -> s.credentials = v); }

    /**
     * True: the engine's session cache lets later connections to the same host and port resume a
     * session (abbreviated handshake). False (the default, as GM-SSL CPS measurements require): every
     * connection does a full handshake.
     */
    public TlcpClientSettings withSessionReuse(boolean v) { return with(s -> s.sessionReuse = v); }

    /** TCP connect timeout in ms (> 0). */
    public TlcpClientSettings withConnectTimeoutMillis(int v) { return with(s -> s.connectTimeoutMillis = v); }

    /** Timeout in ms of every read: the handshake and each response read (> 0). */
    public TlcpClientSettings withReadTimeoutMillis(int v) { return with(s -> s.readTimeoutMillis = v); }

    /** SNI host name to send, or null to send none. */
    public TlcpClientSettings withServerName(String v) { return with(s -> s.serverName = v); }

    /**
     * {@link TlcpClientCrypto#FULL} (a normal client, the default) or the load mode {@link TlcpClientCrypto#MINIMAL}.
     */
    public TlcpClientSettings withClientCrypto(TlcpClientCrypto v) { return with(s -> s.clientCrypto = v); }

    public TlcpProtocol protocol() { return protocol; }

    public List<TlcpSuite> suites() { return suites; }

    public List<X509Certificate> trustAnchors() { return trustAnchors; }

    public TlcpCredentials credentials() { return credentials; }

    public boolean sessionReuse() { return sessionReuse; }

    public int connectTimeoutMillis() { return connectTimeoutMillis; }

    public int readTimeoutMillis() { return readTimeoutMillis; }

    public String serverName() { return serverName; }

    public TlcpClientCrypto clientCrypto() { return clientCrypto; }

    /** Checks what every engine needs; engines add their own checks. */
    public void validate() throws TlcpException {
        if (suites.isEmpty()) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "no cipher suite");
        }
        for (TlcpSuite suite : suites) {
            if (suite.protocol() != protocol) {
                throw new TlcpException(TlcpException.CONFIG_ERROR,
                        "suite " + suite + " is not a " + protocol.label() + " suite");
            }
        }
        if (trustAnchors.isEmpty()) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "no trust anchor (CA certificate)");
        }
        if (connectTimeoutMillis <= 0 || readTimeoutMillis <= 0) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "timeouts must be > 0 ms");
        }
        if (protocol == TlcpProtocol.TLCP && credentials != null && credentials.enc() == null) {
            throw new TlcpException(TlcpException.CONFIG_ERROR,
                    "TLCP client authentication needs an encryption key pair");
        }
    }
}
