package org.trustload.gmssl;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a GM-SSL server needs. Immutable; {@code with…} methods return modified copies. A server
 * speaks one protocol; its suites must belong to it (empty: every suite of the protocol the engine
 * supports).
 */
public final class TlcpServerSettings {
    /** Whether the server asks for a client certificate. */
    public enum ClientAuth { NONE, WANT, NEED }

    private TlcpProtocol protocol = TlcpProtocol.TLCP;
    private List<TlcpSuite> suites = List.of();
    private TlcpCredentials credentials;
    private List<X509Certificate> trustAnchors = List.of();
    private ClientAuth clientAuth = ClientAuth.NONE;
    private int handshakeTimeoutMillis = 10000;

    public TlcpServerSettings() {
    }

    private TlcpServerSettings copy() {
        TlcpServerSettings s = new TlcpServerSettings();
        s.protocol = protocol; s.suites = suites; s.credentials = credentials; s.trustAnchors = trustAnchors;
        s.clientAuth = clientAuth; s.handshakeTimeoutMillis = handshakeTimeoutMillis;
        return s;
    }

    /** A copy with {@code change} applied to it. */
    private TlcpServerSettings with(Consumer<TlcpServerSettings> change) {
        TlcpServerSettings s = copy();
        change.accept(s);
        return s;
    }

    public TlcpServerSettings withProtocol(TlcpProtocol v) { return with(s -> s.protocol = v); }

    public TlcpServerSettings withSuites(List<TlcpSuite> v) { return with(s -> s.suites = List.copyOf(v)); }

    /** The server's signing + encryption pairs (required; TLS 1.3 uses the signing pair only). */
    public TlcpServerSettings withCredentials(TlcpCredentials v) { return with(s -> s.credentials = v); }

    /** CAs client certificates must chain to (needed when client auth is WANT or NEED). */
    public TlcpServerSettings withTrustAnchors(List<X509Certificate> v) {
        return with(s -> s.trustAnchors = List.copyOf(v));
    }

    public TlcpServerSettings withClientAuth(ClientAuth v) { return with(s -> s.clientAuth = v); }

    /** Read timeout in ms the server applies to accepted sockets (handshake and idle keep-alive). */
    public TlcpServerSettings withHandshakeTimeoutMillis(int v) { return with(s -> s.handshakeTimeoutMillis = v); }

    public TlcpProtocol protocol() { return protocol; }

    /** The configured suites, or every suite of {@link #protocol()} when none was configured. */
    public List<TlcpSuite> suites() {
        if (!suites.isEmpty()) {
            return suites;
        }
        return java.util.Arrays.stream(TlcpSuite.values()).filter(x -> x.protocol() == protocol).toList();
    }

    public TlcpCredentials credentials() { return credentials; }

    public List<X509Certificate> trustAnchors() { return trustAnchors; }

    public ClientAuth clientAuth() { return clientAuth; }

    public int handshakeTimeoutMillis() { return handshakeTimeoutMillis; }

    /** Checks what every engine needs. */
    public void validate() throws TlcpException {
        if (credentials == null) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "a server needs its key pairs");
        }
        if (protocol == TlcpProtocol.TLCP && credentials.enc() == null) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "a TLCP server needs an encryption key pair");
        }
        for (TlcpSuite suite : suites()) {
            if (suite.protocol() != protocol) {
                throw new TlcpException(TlcpException.CONFIG_ERROR,
                        "suite " + suite + " is not a " + protocol.label() + " suite");
            }
        }
        if (clientAuth != ClientAuth.NONE && trustAnchors.isEmpty()) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "client authentication needs trust anchors");
        }
    }
}
