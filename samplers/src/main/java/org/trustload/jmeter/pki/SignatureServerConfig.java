package org.trustload.jmeter.pki;

import java.io.File;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.ClientConfig;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.pki.KeyStores;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignatureServer;
import org.trustload.pki.api.SignatureApis;

/**
 * Signature Server Config (TrustLoad): which API a signature server speaks ({@code api}: {@code rest-pki},
 * {@code rest-pki-core}, {@code dss}) and its credential (held like a password: never in results, logs or
 * screenshots), where its endpoints are (the API's base URL, an RFC 3161 TSA, certificate login through the
 * API and over mutual TLS), how its TLS certificate is trusted, and the timeouts. Builds one HTTP client
 * per test in {@code testStarted} (each distributed engine its own), shared by the CAdES Sign, PAdES Sign,
 * Timestamp Request and Certificate Login samplers that name it, and closes it in {@code testEnded}. An
 * unknown API, a wrong URL, an unknown host or an unreadable CA file stops the test before the first sample.
 *
 * <p>Property names are stored in users' plans: never rename them.
 */
public class SignatureServerConfig extends ClientConfig<SignatureServer> {
    private static final long serialVersionUID = 1L;

    /** What users see in menus and messages. */
    static final String KIND = "Signature Server Config";
    /** The default config name, the one samplers name by default. */
    static final String DEFAULT_NAME = "signature-server";

    private String api = SignatureApis.REST_PKI;
    private String serverUrl = "";
    private String credential = "";
    private String securityContext = "";
    private String tsaUrl = "";
    private String loginUrl = "";
    private String mtlsUrl = "";
    private String trustAnchorsFile = "";
    private boolean trustAll;
    private String handshakeTimeout = "10000";

    public SignatureServerConfig() {
        super(KIND, SignatureServer.class, DEFAULT_NAME, 5000, 60000);
    }

    @Override
    protected SignatureServer build(PropertyParser p) throws ClientException {
        return new SignatureServer(settings(p));
    }

    /**
     * The validated settings: URLs parsed and their hosts resolved, the CA file read. The API's name is
     * checked where the server looks it up ({@link SignatureServer#SignatureServer}).
     */
    SignatureServer.Settings settings(PropertyParser p) throws ClientException {
        String a = p.required("api", api);
        URI server = url(p, "serverUrl", serverUrl, null, false);
        URI tsa = url(p, "tsaUrl", tsaUrl, server, false);
        URI login = url(p, "loginUrl", loginUrl, server, false);
        URI mtls = url(p, "mtlsUrl", mtlsUrl, null, true);
        if (server == null && tsa == null && login == null && mtls == null) {
            throw p.error("serverUrl", "", "is empty: give the signature server's URL (or its TSA or login URL)", null);
        }
        List<X509Certificate> anchors = List.of();
        File f = p.file("trustAnchorsFile", trustAnchorsFile, false);
        if (f != null && !trustAll) {
            try {
                anchors = KeyStores.certificates(f.toPath(), "CA file");
            } catch (PkiException e) {
                throw p.error("trustAnchorsFile", f.getPath(), e.getMessage(), e.getCause());
            }
        }
        return new SignatureServer.Settings(a.trim(), server, credential == null ? "" : credential.trim(),
                securityContext == null ? "" : securityContext.trim(), tsa, login, mtls, anchors, trustAll,
                Duration.ofMillis(connectTimeoutMs(p)),
                Duration.ofMillis(p.timeoutMs("handshakeTimeout", handshakeTimeout, 10000)),
                Duration.ofMillis(responseTimeoutMs(p)));
    }

    /**
     * An http(s) URL, or null when blank; a path starting with '/' is taken on {@code base}. The host
     * is resolved now: an unknown host is a wrong setting, not a failed sample per iteration.
     */
    private static URI url(PropertyParser p, String property, String value, URI base, boolean httpsOnly)
            throws ClientException {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            return null;
        }
        URI u;
        try {
            u = v.startsWith("/") && base != null ? URI.create(base.toString().replaceAll("/+$", "") + v)
                    : URI.create(v);
        } catch (IllegalArgumentException e) {
            throw p.error(property, "", "not a URL: '" + v + "'", null);
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (httpsOnly ? !scheme.equals("https") : !(scheme.equals("http") || scheme.equals("https"))) {
            throw p.error(property, "",
                    "must be an " + (httpsOnly ? "https" : "http or https") + " URL, not '" + v + "'", null);
        }
        if (u.getHost() == null || u.getHost().isEmpty()) {
            throw p.error(property, "", "has no host: '" + v + "'", null);
        }
        try {
            InetAddress.getByName(u.getHost());
        } catch (UnknownHostException e) {
            throw p.error(property, "", "unknown host '" + u.getHost() + "'", null);
        }
        return u;
    }

    // ---- bean accessors (names are the stored property names) ----

    public String getApi() {
        return api;
    }

    public void setApi(String api) {
        this.api = api;
    }

    public String getCredential() {
        return credential;
    }

    public void setCredential(String credential) {
        this.credential = credential;
    }

    public String getSecurityContext() {
        return securityContext;
    }

    public void setSecurityContext(String securityContext) {
        this.securityContext = securityContext;
    }

    public String getServerUrl() {
        return serverUrl;
    }

    public void setServerUrl(String serverUrl) {
        this.serverUrl = serverUrl;
    }

    public String getTsaUrl() {
        return tsaUrl;
    }

    public void setTsaUrl(String tsaUrl) {
        this.tsaUrl = tsaUrl;
    }

    public String getLoginUrl() {
        return loginUrl;
    }

    public void setLoginUrl(String loginUrl) {
        this.loginUrl = loginUrl;
    }

    public String getMtlsUrl() {
        return mtlsUrl;
    }

    public void setMtlsUrl(String mtlsUrl) {
        this.mtlsUrl = mtlsUrl;
    }

    public String getTrustAnchorsFile() {
        return trustAnchorsFile;
    }

    public void setTrustAnchorsFile(String trustAnchorsFile) {
        this.trustAnchorsFile = trustAnchorsFile;
    }

    public boolean isTrustAll() {
        return trustAll;
    }

    public void setTrustAll(boolean trustAll) {
        this.trustAll = trustAll;
    }

    public String getHandshakeTimeout() {
        return handshakeTimeout;
    }

    public void setHandshakeTimeout(String handshakeTimeout) {
        this.handshakeTimeout = handshakeTimeout;
    }
}
