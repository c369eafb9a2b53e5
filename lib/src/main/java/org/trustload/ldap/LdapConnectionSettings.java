package org.trustload.ldap;

import java.util.Objects;

/**
 * Everything needed to open and authenticate one connection. Immutable; {@link #equals} lets a
 * caller keep a connection open while its settings stay the same. {@link #toString} never shows
 * passwords.
 */
public final class LdapConnectionSettings {
    /** Default connect timeout, ms. */
    public static final int DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
    /** Default response timeout, ms. */
    public static final int DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;

    private final LdapScheme scheme;
    private final String host;
    private final int port;
    private final String socketPath;
    private final boolean startTls;
    private final int connectTimeoutMs;
    private final int responseTimeoutMs;
    private final TrustMode trustMode;
    private final String trustStorePath;
    private final String trustStorePassword;
    private final String trustStoreType;
    private final boolean verifyHostname;
    private final boolean tlsSessionResumption;
    private final BindType bindType;
    private final String bindDn;
    private final String bindPassword;
    private final String authzId;

    private LdapConnectionSettings(Builder b) {
        this.scheme = b.scheme;
        this.host = b.host;
        this.port = b.port;
        this.socketPath = b.socketPath;
        this.startTls = b.startTls;
        this.connectTimeoutMs = b.connectTimeoutMs;
        this.responseTimeoutMs = b.responseTimeoutMs;
        this.trustMode = b.trustMode;
        this.trustStorePath = b.trustStorePath;
        this.trustStorePassword = b.trustStorePassword;
        this.trustStoreType = b.trustStoreType;
        this.verifyHostname = b.verifyHostname;
        this.tlsSessionResumption = b.tlsSessionResumption;
        this.bindType = b.bindType;
        this.bindDn = b.bindDn;
        this.bindPassword = b.bindPassword;
        this.authzId = b.authzId;
    }

    /** A new builder with the defaults: ldap://127.0.0.1:389, no bind, JVM trust, 5 s / 30 s timeouts. */
    public static Builder builder() {
        return new Builder();
    }

    public LdapScheme scheme() {
        return scheme;
    }

    public String host() {
        return host;
    }

    /** The TCP port; the scheme's default when 0 was given. */
    public int port() {
        return port > 0 ? port : scheme.defaultPort();
    }

    public String socketPath() {
        return socketPath;
    }

    public boolean startTls() {
        return startTls;
    }

    public int connectTimeoutMs() {
        return connectTimeoutMs;
    }

    public int responseTimeoutMs() {
        return responseTimeoutMs;
    }

    public TrustMode trustMode() {
        return trustMode;
    }

    public String trustStorePath() {
        return trustStorePath;
    }

    public String trustStorePassword() {
        return trustStorePassword;
    }

    public String trustStoreType() {
        return trustStoreType;
    }

    public boolean verifyHostname() {
        return verifyHostname;
    }

    /**
     * Whether a TLS connection may resume the session of an earlier one (ldaps, StartTLS). Off by default:
     * every connection makes a full handshake, as the reference script did; on, the test's one TLS context
     * offers its cached sessions (what a client that keeps its TLS context does).
     */
    public boolean tlsSessionResumption() {
        return tlsSessionResumption;
    }

    public BindType bindType() {
        return bindType;
    }

    public String bindDn() {
        return bindDn;
    }

    public String bindPassword() {
        return bindPassword;
    }

    public String authzId() {
        return authzId;
    }

    /** True when the connection uses TLS (ldaps or StartTLS). */
    public boolean usesTls() {
        return scheme == LdapScheme.LDAPS || startTls;
    }

    /** Where the connection goes, for messages: {@code ldaps://127.0.0.1:636} or {@code ldapi:///tmp/x/ldapi}. */
    public String target() {
        if (scheme == LdapScheme.LDAPI) {
            return "ldapi://" + socketPath;
        }
        return scheme.id() + "://" + host + ":" + port() + (startTls ? " (StartTLS)" : "");
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof LdapConnectionSettings)) {
            return false;
        }
        LdapConnectionSettings s = (LdapConnectionSettings) o;
        return port == s.port && startTls == s.startTls && connectTimeoutMs == s.connectTimeoutMs
                && responseTimeoutMs == s.responseTimeoutMs && verifyHostname == s.verifyHostname
                && tlsSessionResumption == s.tlsSessionResumption
                && scheme == s.scheme && trustMode == s.trustMode && bindType == s.bindType
                && Objects.equals(host, s.host) && Objects.equals(socketPath, s.socketPath)
                && Objects.equals(trustStorePath, s.trustStorePath)
                && Objects.equals(trustStorePassword, s.trustStorePassword)
                && Objects.equals(trustStoreType, s.trustStoreType) && Objects.equals(bindDn, s.bindDn)
                && Objects.equals(bindPassword, s.bindPassword) && Objects.equals(authzId, s.authzId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scheme, host, port, socketPath, startTls, bindType, bindDn);
    }

    @Override
    public String toString() {
        return target() + " bind=" + bindType.id() + (bindDn.isEmpty() ? "" : " dn=" + bindDn)
                + " trust=" + trustMode.id();
    }

    /** Builds {@link LdapConnectionSettings}; {@link #build()} validates. */
    public static final class Builder {
        private LdapScheme scheme = LdapScheme.LDAP;
        private String host = "127.0.0.1";
        private int port;
        private String socketPath = "";
        private boolean startTls;
        private int connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;
        private int responseTimeoutMs = DEFAULT_RESPONSE_TIMEOUT_MS;
        private TrustMode trustMode = TrustMode.JVM_DEFAULT;
        private String trustStorePath = "";
        private String trustStorePassword = "";
        private String trustStoreType = "PKCS12";
        private boolean verifyHostname;
        private boolean tlsSessionResumption;
        private BindType bindType = BindType.NONE;
        private String bindDn = "";
        private String bindPassword = "";
        private String authzId = "";

        private Builder() {
        }

        public Builder scheme(LdapScheme v) {
            scheme = Objects.requireNonNull(v);
            return this;
        }

        public Builder host(String v) {
            host = trim(v);
            return this;
        }

        /** 0 means the scheme's default port. */
        public Builder port(int v) {
            port = v;
            return this;
        }

        public Builder socketPath(String v) {
            socketPath = trim(v);
            return this;
        }

        public Builder startTls(boolean v) {
            startTls = v;
            return this;
        }

        public Builder connectTimeoutMs(int v) {
            connectTimeoutMs = v;
            return this;
        }

        public Builder responseTimeoutMs(int v) {
            responseTimeoutMs = v;
            return this;
        }

        public Builder trustMode(TrustMode v) {
            trustMode = Objects.requireNonNull(v);
            return this;
        }

        public Builder trustStorePath(String v) {
            trustStorePath = trim(v);
            return this;
        }

        public Builder trustStorePassword(String v) {
            trustStorePassword = v == null ? "" : v;
            return this;
        }

        public Builder trustStoreType(String v) {
            trustStoreType = trim(v).isEmpty() ? "PKCS12" : trim(v);
            return this;
        }

        public Builder verifyHostname(boolean v) {
            verifyHostname = v;
            return this;
        }

        /** See {@link LdapConnectionSettings#tlsSessionResumption()}; false by default. */
        public Builder tlsSessionResumption(boolean v) {
            tlsSessionResumption = v;
            return this;
        }

        public Builder bindType(BindType v) {
            bindType = Objects.requireNonNull(v);
            return this;
        }

        public Builder bindDn(String v) {
            bindDn = trim(v);
            return this;
        }

        public Builder bindPassword(String v) {
            bindPassword = v == null ? "" : v;
            return this;
        }

        /** Authorization identity for SASL EXTERNAL; empty means "the one the server derives". */
        public Builder authzId(String v) {
            authzId = trim(v);
            return this;
        }

        /**
         * Sets scheme, host, port or socket path from a URL: {@code ldap://host:port},
         * {@code ldaps://host}, {@code ldapi://%2Fpath%2Fto%2Fsocket} or {@code ldapi:///path/to/socket}.
         */
        public Builder url(String url) throws LdapClientException {
            String u = trim(url);
            int sep = u.indexOf("://");
            if (sep < 0) {
                throw LdapClientException.config("not an LDAP URL: '" + url + "'");
            }
            scheme(LdapScheme.parse(u.substring(0, sep)));
            String rest = u.substring(sep + 3);
            if (scheme == LdapScheme.LDAPI) {
                int slash = rest.indexOf('/', rest.startsWith("/") ? 1 : 0);
                String path = rest.startsWith("/") ? rest : (slash < 0 ? rest : rest.substring(0, slash));
                // URLDecoder is for HTML forms: keep a literal '+' (legal in a URL path) instead of a space.
                socketPath(java.net.URLDecoder.decode(path.replace("+", "%2B"),
                        java.nio.charset.StandardCharsets.UTF_8));
                return this;
            }
            int slash = rest.indexOf('/');
            String hostPort = slash < 0 ? rest : rest.substring(0, slash);
            int colon = hostPort.lastIndexOf(':');
            // colon >= 0: "ldap://:389" has an empty host (rejected by build), not the host ":389".
            if (colon >= 0 && !hostPort.endsWith("]")) {
                host(hostPort.substring(0, colon));
                try {
                    port(Integer.parseInt(hostPort.substring(colon + 1)));
                } catch (NumberFormatException e) {
                    throw LdapClientException.config("bad port in URL '" + url + "'");
                }
            } else {
                host(hostPort);
                port(0);
            }
            if (host.startsWith("[") && host.endsWith("]")) {
                host(host.substring(1, host.length() - 1));
            }
            return this;
        }

        /** Validates and builds. */
        public LdapConnectionSettings build() throws LdapClientException {
            if (scheme == LdapScheme.LDAPI) {
                if (socketPath.isEmpty()) {
                    throw LdapClientException.config("socketPath", "", "ldapi needs a socket path", null);
                }
                if (startTls) {
                    throw LdapClientException.config("startTls", "", "StartTLS is not supported over ldapi", null);
                }
            } else {
                if (host.isEmpty()) {
                    throw LdapClientException.config("host", "", "host is empty", null);
                }
                if (port < 0 || port > 65535) {
                    throw LdapClientException.config("port", "", "port " + port + " is out of range 1-65535", null);
                }
            }
            if (scheme == LdapScheme.LDAPS && startTls) {
                throw LdapClientException.config("startTls", "", "StartTLS makes no sense over ldaps", null);
            }
            if (connectTimeoutMs <= 0 || responseTimeoutMs <= 0) {
                throw LdapClientException.config(connectTimeoutMs <= 0 ? "connectTimeout" : "responseTimeout", "",
                        "timeouts must be positive (connect " + connectTimeoutMs
                        + " ms, response " + responseTimeoutMs + " ms)", null);
            }
            if ((scheme == LdapScheme.LDAPS || startTls) && trustMode == TrustMode.TRUST_STORE
                    && trustStorePath.isEmpty()) {
                throw LdapClientException.config("trustStore", "", "trust mode trust-store needs a trust store file",
                        null);
            }
            if (bindType == BindType.SIMPLE && bindDn.isEmpty()) {
                throw LdapClientException.config("bindDn", "", "simple bind needs a bind DN", null);
            }
            return new LdapConnectionSettings(this);
        }

        private static String trim(String v) {
            return v == null ? "" : v.trim();
        }
    }
}
