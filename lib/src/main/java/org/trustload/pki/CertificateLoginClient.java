package org.trustload.pki;

import static org.trustload.common.Closeables.closeQuietly;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import org.apache.http.HttpEntity;
import org.apache.http.HttpException;
import org.apache.http.HttpResponse;
import org.apache.http.HttpVersion;
import org.apache.http.NoHttpResponseException;
import org.apache.http.impl.DefaultBHttpClientConnection;
import org.apache.http.message.BasicHttpRequest;

/**
 * Certificate login by mutual TLS: a new connection and a full TLS handshake presenting the user's certificate
 * (a new {@link SSLContext} per login unless sessions are reused), then a GET of the login URL, read with
 * httpcore on that {@link SSLSocket}. A login never throws for what the server or the network did: the
 * {@link Flow} names the steps and the failure's category; {@link LoginRefusal} judges expected refusals.
 * Timeouts always apply; thread-safe. Challenge–response login is the signature server APIs' (SignatureApiClient).
 * Categories and why not java.net.http: docs/elements/certificate-login.md.
 */
public final class CertificateLoginClient {
    /** TLS failed: the server refused the client certificate, or its own certificate is not trusted. */
    public static final String HANDSHAKE_FAILED = "handshakeFailed";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 1 << 20;

    private final URI mtlsUrl;
    private final boolean trustAll;
    private final boolean sessionReuse;
    private final boolean verifyHostname;
    private final Duration connectTimeout;
    private final Duration handshakeTimeout;
    private final Duration responseTimeout;
    private final TrustManager trustManager;
    private final String host;
    private final int port;
    private final String requestPath;
    private volatile boolean closed;
    private final ConcurrentHashMap<KeyMaterial, SSLContext> reusedContexts = new ConcurrentHashMap<>();

    private CertificateLoginClient(Builder b) throws PkiException {
        this.mtlsUrl = b.mtlsUrl;
        if (mtlsUrl == null || mtlsUrl.getHost() == null || !"https".equalsIgnoreCase(mtlsUrl.getScheme())) {
            throw PkiException.setting("mtlsUrl", "must be https://host[:port]/path", String.valueOf(mtlsUrl));
        }
        this.trustAll = b.trustAll;
        this.sessionReuse = b.sessionReuse;
        this.verifyHostname = b.verifyHostname;
        this.connectTimeout = b.connectTimeout;
        this.handshakeTimeout = b.handshakeTimeout;
        this.responseTimeout = b.responseTimeout;
        this.trustManager = ServerTrust.trustManager(List.copyOf(b.trustAnchors), trustAll);
        this.host = mtlsUrl.getHost();
        this.port = mtlsUrl.getPort() > 0 ? mtlsUrl.getPort() : 443;
        String path = mtlsUrl.getRawPath() == null || mtlsUrl.getRawPath().isEmpty() ? "/" : mtlsUrl.getRawPath();
        this.requestPath = mtlsUrl.getRawQuery() == null ? path : path + "?" + mtlsUrl.getRawQuery();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Settings; every one has a sensible default except the URL. */
    public static final class Builder {
        private URI mtlsUrl;
        private List<X509Certificate> trustAnchors = List.of();
        private boolean trustAll;
        private boolean sessionReuse;
        private boolean verifyHostname = true;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration handshakeTimeout = Duration.ofSeconds(10);
        private Duration responseTimeout = Duration.ofSeconds(30);

        /** The mTLS login URL, e.g. {@code https://127.0.0.1:18444/auth/mtls}. */
        public Builder mtlsUrl(URI v) { mtlsUrl = v; return this; }
        /** Certificates that the server's certificate must chain to. */
        public Builder trustAnchors(List<X509Certificate> v) { trustAnchors = v; return this; }
        /** Accept any server certificate (explicit choice; never the default). */
        public Builder trustAll(boolean v) { trustAll = v; return this; }
        /** Resume each user's TLS session (abbreviated handshakes) instead of a full handshake per login. */
        public Builder sessionReuse(boolean v) { sessionReuse = v; return this; }
        /** Check the server certificate's name against the URL host (default true). */
        public Builder verifyHostname(boolean v) { verifyHostname = v; return this; }
        public Builder connectTimeout(Duration v) { connectTimeout = v; return this; }
        public Builder handshakeTimeout(Duration v) { handshakeTimeout = v; return this; }
        public Builder responseTimeout(Duration v) { responseTimeout = v; return this; }

        /** @throws PkiException {@code configError} about {@code mtlsUrl} when it is not an https URL */
        public CertificateLoginClient build() throws PkiException {
            return new CertificateLoginClient(this);
        }
    }

    /** The URL logins go to. */
    public URI url() {
        return mtlsUrl;
    }

    /** Releases the users' resumable TLS sessions; later logins fail with {@code configError}. */
    public void close() {
        closed = true;
        reusedContexts.clear();
    }

    /** True after {@link #close()}. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * New TCP connection, TLS handshake with the user's certificate, GET of the mTLS URL
     * ({@code Connection: close}). Steps {@code handshake} (TCP connect + TLS handshake) and {@code get}.
     */
    public Flow mutualTls(KeyMaterial key) {
        Flow login = new Flow();
        if (closed) {
            return login.fail(new PkiException(PkiException.CONFIG_ERROR, "the login client was closed at test end"));
        }
        Connection c;
        try {
            c = login.step("handshake", () -> handshake(key), x -> {
                SSLSession session = x.ssl().getSession();
                return session.getProtocol() + " " + session.getCipherSuite();
            });
        } catch (PkiException e) {
            return login;
        }
        SSLSession session = c.ssl().getSession();
        login.info(session.getProtocol() + " " + session.getCipherSuite());
        try {
            login.step("get", () -> get(c.ssl(), login), status -> summary(login));
            login.done(null, "login OK");
            closeQuietly(c.ssl()); // a TLS close (close_notify), as a browser leaves
        } catch (PkiException e) {
            // recorded by the step; drop the TCP connection: a TLS close would wait for a server that is stuck
            closeQuietly(c.plain());
        }
        return login;
    }

    /** A handshaken connection: the TLS socket and the TCP socket under it. */
    private record Connection(SSLSocket ssl, Socket plain) {
    }

    private Connection handshake(KeyMaterial key) throws PkiException {
        Socket plain = new Socket();
        SSLSocket ssl = null;
        try {
            SSLContext ctx = sessionReuse ? reused(key) : context(key);
            try {
                plain.connect(new InetSocketAddress(host, port), (int) connectTimeout.toMillis());
            } catch (SocketTimeoutException e) {
                throw new PkiException(PkiException.CONNECT_ERROR, "login server connect timed out",
                        host + ":" + port + ": " + e, e);
            } catch (IOException e) {
                throw new PkiException(PkiException.CONNECT_ERROR, "login server unreachable",
                        host + ":" + port + ": " + e, e);
            }
            plain.setTcpNoDelay(true);
            plain.setSoTimeout((int) handshakeTimeout.toMillis());
            ssl = (SSLSocket) ctx.getSocketFactory().createSocket(plain, host, port, true);
            SSLParameters p = ssl.getSSLParameters();
            if (verifyHostname && !trustAll) {
                p.setEndpointIdentificationAlgorithm("HTTPS");
            }
            ssl.setSSLParameters(p);
            try {
                ssl.startHandshake();
            } catch (SocketTimeoutException e) {
                throw new PkiException(PkiException.CONNECT_ERROR, "TLS handshake timed out",
                        host + ":" + port + ": " + e, e);
            } catch (IOException e) {
                throw new PkiException(HANDSHAKE_FAILED, "TLS handshake failed", host + ":" + port + ": " + e, e);
            }
            return new Connection(ssl, plain);
        } catch (PkiException e) {
            closeQuietly(plain);
            throw e;
        } catch (IOException e) {
            closeQuietly(plain);
            throw new PkiException(PkiException.CONNECT_ERROR, "login server connection failed",
                    host + ":" + port + ": " + e, e);
        }
    }

    private SSLContext reused(KeyMaterial key) throws PkiException {
        SSLContext c = reusedContexts.get(key);
        if (c == null) {
            c = context(key);
            SSLContext prev = reusedContexts.putIfAbsent(key, c);
            c = prev != null ? prev : c;
        }
        return c;
    }

    /** The GET on the handshaken socket, read by httpcore; returns the HTTP status of a 2xx answer. */
    private Integer get(SSLSocket socket, Flow login) throws PkiException {
        String where = "GET " + mtlsUrl;
        try {
            socket.setSoTimeout((int) responseTimeout.toMillis());
            DefaultBHttpClientConnection conn = new DefaultBHttpClientConnection(8192);
            conn.bind(socket);
            BasicHttpRequest request = new BasicHttpRequest("GET", requestPath, HttpVersion.HTTP_1_1);
            request.addHeader("Host", port == 443 ? host : host + ":" + port);
            request.addHeader("User-Agent", "TrustLoad");
            request.addHeader("Accept", "application/json");
            request.addHeader("Connection", "close");
            conn.sendRequestHeader(request);
            conn.flush();
            long deadline = System.nanoTime() + responseTimeout.toNanos();
            HttpResponse response = conn.receiveResponseHeader();
            conn.receiveResponseEntity(response);
            byte[] body = read(response.getEntity(), deadline);
            int status = response.getStatusLine().getStatusCode();
            answer(login, status, body, where);
            return status;
        } catch (NoHttpResponseException e) {
            // TLS 1.3: the client's handshake completes before the server checks the client certificate; a
            // refusal then arrives as a closed connection (or an alert on the first read, below)
            throw new PkiException(HANDSHAKE_FAILED, "TLS handshake failed",
                    where + ": the server closed the connection after the handshake without answering"
                            + " (client certificate refused?)", e);
        } catch (SocketTimeoutException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "login server did not answer in time",
                    where + ": " + e, e);
        } catch (SSLException e) {
            throw new PkiException(HANDSHAKE_FAILED, "TLS handshake failed", where + ": " + e, e);
        } catch (HttpException e) {
            throw new PkiException(PkiException.SERVER_ERROR, "HTTP 0 " + PkiException.SERVER_ERROR,
                    where + ": not an HTTP answer: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "login server connection failed", where + ": " + e, e);
        }
    }

    /** The body, at most {@value #MAX_BODY} bytes, within the response deadline. */
    private static byte[] read(HttpEntity entity, long deadline) throws IOException, PkiException {
        if (entity == null) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try (InputStream in = entity.getContent()) {
            for (int r; (r = in.read(buf)) >= 0; ) {
                out.write(buf, 0, r);
                if (out.size() > MAX_BODY) {
                    throw new PkiException(PkiException.SERVER_ERROR, "HTTP 0 " + PkiException.SERVER_ERROR,
                            "answer larger than " + MAX_BODY + " bytes", null);
                }
                if (System.nanoTime() > deadline) {
                    throw new SocketTimeoutException("answer not complete within the response timeout");
                }
            }
        }
        return out.toByteArray();
    }

    /** Records the answer; any status but 2xx becomes a failure (the server's JSON code, if it sends one). */
    private static void answer(Flow login, int status, byte[] body, String where) throws PkiException {
        String text = new String(body, StandardCharsets.UTF_8);
        login.answer(status, text);
        JsonNode json;
        try {
            json = body.length == 0 ? null : JSON.readTree(body);
        } catch (IOException e) {
            json = null;
        }
        if (json != null && json.isObject() && json.hasNonNull("subject")) {
            login.subject(json.get("subject").asText());
        }
        if (status >= 200 && status <= 299) {
            return;
        }
        boolean coded = json != null && json.isObject() && json.hasNonNull("error") && json.get("error").isTextual();
        String code = coded ? json.get("error").asText()
                : status >= 500 ? PkiException.SERVER_ERROR : PkiException.REQUEST_REFUSED;
        String message = coded && json.hasNonNull("message") ? json.get("message").asText() : text.strip();
        throw new PkiException(code, "HTTP " + status + " " + code, where + ": " + truncate(message), null);
    }

    private static String summary(Flow login) {
        return "HTTP " + login.status() + (login.subject().isEmpty() ? "" : " " + login.subject());
    }

    /** An SSL context with the user's key and the configured trust. */
    private SSLContext context(KeyMaterial key) throws PkiException {
        return ServerTrust.context(new javax.net.ssl.KeyManager[] {new OneKey(key)}, trustManager);
    }

    private static String truncate(String s) {
        return s.length() > 500 ? s.substring(0, 500) + "…" : s;
    }

    // ------------------------------------------------------------------ key manager

    /** Presents one key and its chain, whatever the server asks for (so a refusal is the server's). */
    private static final class OneKey extends X509ExtendedKeyManager {
        private static final String ALIAS = "login";
        private final KeyMaterial key;

        OneKey(KeyMaterial key) {
            this.key = key;
        }

        private String pick(String[] keyTypes) {
            String alg = key.privateKey().getAlgorithm().toUpperCase(Locale.ROOT);
            if (keyTypes == null) {
                return ALIAS;
            }
            for (String t : keyTypes) {
                String u = t.toUpperCase(Locale.ROOT);
                if (u.equals(alg) || (u.equals("EC") && alg.equals("ECDSA"))
                        || (u.equals("RSASSA-PSS") && alg.equals("RSA"))) {
                    return ALIAS;
                }
            }
            return null;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return pick(keyType);
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return pick(keyType);
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return pick(new String[] {keyType}) == null ? null : new String[] {ALIAS};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return ALIAS.equals(alias) ? key.chain().toArray(new X509Certificate[0]) : null;
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return ALIAS.equals(alias) ? key.privateKey() : null;
        }
    }
}
