package org.trustload.jmeter.gmssl;

import java.io.File;
import org.trustload.common.ClientException;
import org.trustload.gmssl.TlcpClientOptions;
import org.trustload.gmssl.TlcpClients;
import org.trustload.gmssl.TlcpTarget;
import org.trustload.jmeter.common.ClientConfig;
import org.trustload.jmeter.common.PropertyParser;

/**
 * TLCP Client Config (TrustLoad): the GM-SSL client TLCP Requests use — engine, server, protocol and
 * suite, CA file, the client's sign + enc key pairs, session reuse, client crypto (full or the load
 * mode minimal), timeouts. Built once at test start
 * (key stores read, SSL contexts made, the host resolved, the engine checked: bgm's JVM options
 * included), so a wrong setting stops the test before the first sample; closed at test end with
 * every connection its requests kept open. TLCP Requests find it by its {@code configName}.
 *
 * <p>Property names are stored in users' plans: never rename them.
 */
public class TlcpClientConfig extends ClientConfig<TlcpTarget> {
    private static final long serialVersionUID = 1L;

    /** What users see in menus and messages. */
    static final String KIND = "TLCP Client Config";

    private String engine = "auto";
    private String host = "127.0.0.1";
    private String port = "";
    private String protocol = "TLCP";
    private String suite = "ECC_SM4_CBC_SM3";
    private String caFile = "";
    private String clientKeyStore = "";
    private String clientKeyStorePassword = "";
    private String clientSignAlias = "sign";
    private String clientEncAlias = "enc";
    private boolean sessionReuse;
    private String clientCrypto = "full";

    public TlcpClientConfig() {
        super(KIND, TlcpTarget.class, "tlcp", 5000, 10000);
    }

    @Override
    protected TlcpTarget build(PropertyParser p) throws ClientException {
        return TlcpClients.open(options(p));
    }

    /** The parsed options; files resolved like JMeter's (relative to the plan's directory). */
    TlcpClientOptions options(PropertyParser p) throws ClientException {
        int prt = p.integer("port", p.required("port", port), 0, 1, 65535);
        File ca = p.file("caFile", caFile, true);
        File keys = p.file("clientKeyStore", clientKeyStore, false);
        return new TlcpClientOptions(engine, p.required("host", host), prt, protocol, suite, ca.toPath(),
                keys == null ? null : keys.toPath(), p.secret(clientKeyStorePassword), clientSignAlias, clientEncAlias,
                sessionReuse, connectTimeoutMs(p), responseTimeoutMs(p), clientCrypto);
    }

    // ---- bean accessors (names are the stored property names) ----

    public String getEngine() {
        return engine;
    }

    public void setEngine(String v) {
        engine = v;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String v) {
        host = v;
    }

    public String getPort() {
        return port;
    }

    public void setPort(String v) {
        port = v;
    }

    public String getProtocol() {
        return protocol;
    }

    public void setProtocol(String v) {
        protocol = v;
    }

    public String getSuite() {
        return suite;
    }

    public void setSuite(String v) {
        suite = v;
    }

    public String getCaFile() {
        return caFile;
    }

    public void setCaFile(String v) {
        caFile = v;
    }

    public String getClientKeyStore() {
        return clientKeyStore;
    }

    public void setClientKeyStore(String v) {
        clientKeyStore = v;
    }

    public String getClientKeyStorePassword() {
        return clientKeyStorePassword;
    }

    public void setClientKeyStorePassword(String v) {
        clientKeyStorePassword = v;
    }

    public String getClientSignAlias() {
        return clientSignAlias;
    }

    public void setClientSignAlias(String v) {
        clientSignAlias = v;
    }

    public String getClientEncAlias() {
        return clientEncAlias;
    }

    public void setClientEncAlias(String v) {
        clientEncAlias = v;
    }

    public boolean isSessionReuse() {
        return sessionReuse;
    }

    public void setSessionReuse(boolean v) {
        sessionReuse = v;
    }

    public String getClientCrypto() {
        return clientCrypto;
    }

    public void setClientCrypto(String v) {
        clientCrypto = v;
    }
}
