package org.trustload.gmssl.tlcp;

import java.util.EnumSet;
import java.util.Set;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpEngine;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServer;
import org.trustload.gmssl.TlcpServerSettings;

/**
 * The {@code bc} engine: TrustLoad's own TLCP (GB/T 38636-2020) client and server on BouncyCastle's
 * SM2/SM3/SM4 primitives — the four suites, SM2 double certificates, client authentication,
 * resumption by session id, and the client's {@link org.trustload.gmssl.TlcpClientCrypto} modes. Pure
 * Java without JDK internals: runs on Java 17 through 25 without JVM options. TLS 1.3 SM is the
 * {@code tongsuo} (or {@code bgm}) engine's.
 */
public final class BcEngine implements TlcpEngine {

    @Override
    public String name() {
        return "bc";
    }

    @Override
    public Set<TlcpProtocol> protocols() {
        return EnumSet.of(TlcpProtocol.TLCP);
    }

    @Override
    public void checkAvailable() {
        // BouncyCastle is TrustLoad's own dependency; nothing else is needed
    }

    @Override
    public TlcpClient newClient(TlcpClientSettings settings) throws TlcpException {
        settings.validate();
        requireTlcp(settings.protocol());
        return new BcTlcpClient(settings);
    }

    @Override
    public TlcpServer newServer(TlcpServerSettings settings) throws TlcpException {
        settings.validate();
        requireTlcp(settings.protocol());
        return new BcTlcpServer(settings);
    }

    private static void requireTlcp(TlcpProtocol p) throws TlcpException {
        if (p != TlcpProtocol.TLCP) {
            throw new TlcpException(TlcpException.CONFIG_ERROR,
                    "bc engine has no " + p.label() + "; use engine tongsuo",
                    "the bc engine implements TLCP (GB/T 38636) only; TLS 1.3 with the RFC 8998 suites is the tongsuo"
                    + " engine's (or bgm's on Java 17-21)", null);
        }
    }
}
