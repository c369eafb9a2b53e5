package org.trustload.gmssl;

import java.util.Set;

/**
 * A GM-SSL implementation, found by {@link #name()} through {@code META-INF/services}
 * ({@link TlcpEngines#get(String)}). The plans' {@code engine} property holds that name:
 * {@code bgm} (openEuler bgmprovider, pure Java: TLCP and RFC 8998 TLS 1.3) or {@code tongsuo}
 * (Tongsuo's native library: RFC 8998 TLS 1.3).
 *
 * <p>Engines must coexist with SunJSSE and BouncyCastle in one JVM and must not change the JVM's
 * default TLS: they register their providers without making them the default and ask for them by
 * name.
 */
public interface TlcpEngine {

    /** The name plans use, lower case: {@code bgm}, {@code tongsuo}. */
    String name();

    /** The protocols this engine implements. */
    Set<TlcpProtocol> protocols();

    /**
     * Throws {@link TlcpException#ENGINE_UNAVAILABLE} with a message saying what to fix (missing
     * library, missing JVM flags, unsupported Java) when the engine cannot run in this JVM.
     */
    void checkAvailable() throws TlcpException;

    /**
     * Builds a client: the expensive part (SSL context, key managers, trust managers) done once,
     * to be shared by every thread of a test.
     */
    TlcpClient newClient(TlcpClientSettings settings) throws TlcpException;

    /** Builds a server whose {@link TlcpServer#bind} sockets speak the configured protocol. */
    TlcpServer newServer(TlcpServerSettings settings) throws TlcpException;
}
