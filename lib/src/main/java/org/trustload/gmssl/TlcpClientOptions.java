package org.trustload.gmssl;

import java.nio.file.Path;

/**
 * What a TLCP Client Config holds, already parsed as plain values: the engine, the server, the
 * protocol and suite, the trust anchors file, the client's sign + enc key pair store, session reuse
 * and timeouts. Names of the components are the config element's property names, which
 * {@link TlcpClients#open} names in its configuration errors. The password never appears in
 * {@link #toString()}.
 *
 * @param engine engine name ({@code bc}, {@code bgm}, {@code tongsuo}); blank or {@code auto} means the
 *     protocol's default ({@link TlcpEngines#forProtocol})
 * @param host server host name or address
 * @param port server port
 * @param protocol {@code TLCP} or {@code TLSv1.3}; blank means the suite's
 * @param suite cipher suite name ({@link TlcpSuite})
 * @param caFile PEM or DER file of the CA certificates the server chain must lead to
 * @param clientKeyStore PKCS#12 or {@code .jks} file with the client's sign (and enc) keys, or null
 * @param clientKeyStorePassword its password ("" for none)
 * @param clientSignAlias alias of the signing key; blank means {@code sign}
 * @param clientEncAlias alias of the encryption key; blank means {@code enc}
 * @param sessionReuse let new connections resume an earlier session
 * @param connectTimeoutMs TCP connect timeout
 * @param responseTimeoutMs timeout of every read (handshake and response)
 * @param clientCrypto {@code full} or {@code minimal} ({@link TlcpClientCrypto}); blank means full
 */
public record TlcpClientOptions(String engine, String host, int port, String protocol, String suite, Path caFile,
        Path clientKeyStore, String clientKeyStorePassword, String clientSignAlias, String clientEncAlias,
        boolean sessionReuse, int connectTimeoutMs, int responseTimeoutMs, String clientCrypto) {

    @Override
    public String toString() {
        return "TlcpClientOptions[" + engine + " " + host + ":" + port + " " + protocol + " " + suite + " ca=" + caFile
                // never the password
                + " client=" + clientKeyStore + " reuse=" + sessionReuse + " crypto=" + clientCrypto + "]";
    }
}
