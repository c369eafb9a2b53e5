package org.trustload.jmeter.ldap;

import java.io.File;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.ClientConfig;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.ldap.BindType;
import org.trustload.ldap.LdapConnectionSettings;
import org.trustload.ldap.LdapConnections;
import org.trustload.ldap.LdapScheme;
import org.trustload.ldap.TrustMode;

/**
 * LDAP Connection Config (TrustLoad): where and how LDAP Requests connect — scheme, host and port or
 * Unix socket, StartTLS, TLS trust, bind, connection mode, timeouts. Read once at test start (JMeter
 * properties and functions work, thread variables do not); a wrong setting stops the test before the
 * first sample. LDAP Requests find it by its {@code configName}.
 *
 * <p>Property names are stored in users' plans: never rename them.
 */
public class LdapConnectionConfig extends ClientConfig<LdapConnections> {
    private static final long serialVersionUID = 1L;

    /** What users see in menus and messages. */
    static final String KIND = "LDAP Connection Config";

    private String scheme = "ldap";
    private String host = "127.0.0.1";
    private String port = "";
    private String socketPath = "";
    private boolean startTls;
    private String trustMode = "jvm-default";
    private String trustStore = "";
    private String trustStorePassword = "";
    private String trustStoreType = "PKCS12";
    private boolean verifyHostname;
    private boolean tlsSessionResumption;
    private String bindType = "anonymous";
    private String bindDn = "";
    private String bindPassword = "";
    private String authzId = "";
    private String connectionMode = LdapConnections.Mode.PER_ITERATION.id();

    public LdapConnectionConfig() {
        super(KIND, LdapConnections.class, "ldap", LdapConnectionSettings.DEFAULT_CONNECT_TIMEOUT_MS,
                LdapConnectionSettings.DEFAULT_RESPONSE_TIMEOUT_MS);
    }

    @Override
    protected LdapConnections build(PropertyParser p) throws ClientException {
        return LdapConnections.start(settings(p), LdapConnections.Mode.parse(connectionMode));
    }

    /** The validated settings; files resolved like JMeter's (relative to the plan's directory). */
    LdapConnectionSettings settings(PropertyParser p) throws ClientException {
        LdapScheme s = LdapScheme.parse(scheme);
        TrustMode trust = TrustMode.parse(trustMode);
        boolean tls = s == LdapScheme.LDAPS || startTls;
        String store = "";
        if (tls && trust == TrustMode.TRUST_STORE) {
            File f = p.file("trustStore", trustStore, true);
            store = f.getPath();
        }
        return LdapConnectionSettings.builder()
                .scheme(s)
                .host(host)
                .port(p.integer("port", port, 0, 0, 65535))
                .socketPath(s == LdapScheme.LDAPI
                        ? PropertyParser.resolve(p.required("socketPath", socketPath)).getPath() : "")
                .startTls(startTls)
                .connectTimeoutMs(connectTimeoutMs(p))
                .responseTimeoutMs(responseTimeoutMs(p))
                .trustMode(trust)
                .trustStorePath(store)
                .trustStorePassword(p.secret(trustStorePassword))
                .trustStoreType(trustStoreType)
                .verifyHostname(verifyHostname)
                .tlsSessionResumption(tlsSessionResumption)
                .bindType(BindType.parse(bindType))
                .bindDn(bindDn)
                .bindPassword(p.secret(bindPassword))
                .authzId(authzId)
                .build();
    }

    // ---- bean accessors (names are the stored property names) ----

    public String getScheme() {
        return scheme;
    }

    public void setScheme(String scheme) {
        this.scheme = scheme;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public String getPort() {
        return port;
    }

    public void setPort(String port) {
        this.port = port;
    }

    public String getSocketPath() {
        return socketPath;
    }

    public void setSocketPath(String socketPath) {
        this.socketPath = socketPath;
    }

    public boolean isStartTls() {
        return startTls;
    }

    public void setStartTls(boolean startTls) {
        this.startTls = startTls;
    }

    public String getTrustMode() {
        return trustMode;
    }

    public void setTrustMode(String trustMode) {
        this.trustMode = trustMode;
    }

    public String getTrustStore() {
        return trustStore;
    }

    public void setTrustStore(String trustStore) {
        this.trustStore = trustStore;
    }

    public String getTrustStorePassword() {
        return trustStorePassword;
    }

    public void setTrustStorePassword(String trustStorePassword) {
        this.trustStorePassword = trustStorePassword;
    }

    public String getTrustStoreType() {
        return trustStoreType;
    }

    public void setTrustStoreType(String trustStoreType) {
        this.trustStoreType = trustStoreType;
    }

    public boolean isVerifyHostname() {
        return verifyHostname;
    }

    public void setVerifyHostname(boolean verifyHostname) {
        this.verifyHostname = verifyHostname;
    }

    public boolean isTlsSessionResumption() {
        return tlsSessionResumption;
    }

    public void setTlsSessionResumption(boolean tlsSessionResumption) {
        this.tlsSessionResumption = tlsSessionResumption;
    }

    public String getBindType() {
        return bindType;
    }

    public void setBindType(String bindType) {
        this.bindType = bindType;
    }

    public String getBindDn() {
        return bindDn;
    }

    public void setBindDn(String bindDn) {
        this.bindDn = bindDn;
    }

    public String getBindPassword() {
        return bindPassword;
    }

    public void setBindPassword(String bindPassword) {
        this.bindPassword = bindPassword;
    }

    public String getAuthzId() {
        return authzId;
    }

    public void setAuthzId(String authzId) {
        this.authzId = authzId;
    }

    public String getConnectionMode() {
        return connectionMode;
    }

    public void setConnectionMode(String connectionMode) {
        this.connectionMode = connectionMode;
    }
}
