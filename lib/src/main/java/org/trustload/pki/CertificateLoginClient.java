package org.trustload.pki;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import org.trustload.common.BoundedBody;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
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

/**
 * Certificate login against a login server, the two ways real systems do it:
 * <ul>
 * <li><b>challenge–response</b>: fetch a nonce (GET or POST), sign the raw nonce bytes with the user's
 * key, POST nonce + certificate + chain + signature (JSON field names configurable; the defaults match
 * the lab's {@code /auth/nonce} and {@code /auth/login});</li>
 * <li><b>mutual TLS</b>: a new TCP connection and a TLS handshake presenting the user's certificate,
 * then a GET of the login URL with {@code Connection: close}. Without session reuse (the default)
 * every login builds a new {@link SSLContext} — a new, empty client session cache — so every login is
 * a full handshake; with reuse, each user keeps one context and resumes its session.</li>
 * </ul>
 * A login never throws for what the server or the network did: {@link Login} lists the steps with
 * their timings and, on failure, a {@link PkiException} whose category is the server's code
 * ({@code certificateRevoked}, {@code unknownNonce}, …), {@code connectError}, {@code handshakeFailed}
 * or {@code serverError} (garbage), with the stable message {@code HTTP <status> <code>} for server
 * refusals. Connect, handshake and response timeouts are always set. Thread-safe.
 *
 * <p>mTLS is done on a plain {@link SSLSocket} rather than {@code java.net.http}: the HttpClient
 * pools connections (a "login" would then often be a request on an old connection) and gives no
 * separate handshake time. The challenge–response flow uses one shared {@link HttpClient}
 * (keep-alive, as a browser or an app server would).
 */
public final class CertificateLoginClient {
    /** TLS failed: the server refused the client certificate, or its own certificate is not trusted. */
    public static final String HANDSHAKE_FAILED = "handshakeFailed";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 1 << 20;

    /** JSON field names of the challenge–response exchange. */
    public record Fields(String nonce, String certificate, String chain, String signature,
            String signatureAlgorithm) {
        /** The lab's names: nonce, certificate, chain, signature, signatureAlgorithm. */
        public static final Fields DEFAULTS = new Fields("nonce", "certificate", "chain", "signature",
                "signatureAlgorithm");
    }

    /** One timed step of a login. {@code failure} is null when the step succeeded. */
    public record Step(String name, long startMillis, long elapsedNanos, String summary, PkiException failure) {
        public long elapsedMillis() {
            return elapsedNanos / 1_000_000L;
        }

        public boolean ok() {
            return failure == null;
        }
    }

    /** The outcome of one login: its steps, the HTTP status and the server's JSON answer (if any). */
    public static final class Login {
        private final List<Step> steps = new ArrayList<>();
        private int status;
        private JsonNode answer;
        private PkiException failure;
        private String tls = "";

        public List<Step> steps() {
            return Collections.unmodifiableList(steps);
        }

        /** The last HTTP status seen (0: none). */
        public int status() {
            return status;
        }

        /** The server's last JSON answer (login answer or error), or null. */
        public JsonNode answer() {
            return answer;
        }

        /** Null when the login succeeded. */
        public PkiException failure() {
            return failure;
        }

        public boolean ok() {
            return failure == null;
        }

        /** The server's error code, or null when the login succeeded. */
        public String code() {
            return failure == null ? null : failure.category();
        }

        public String subject() {
            return answer == null ? "" : answer.path("subject").asText("");
        }

        public String sessionId() {
            return answer == null ? "" : answer.path("sessionId").asText("");
        }

        /** For mTLS: protocol, cipher suite and whether the session was resumed; else empty. */
        public String tls() {
            return tls;
        }

        /** Throws the failure, if any. */
        public Login orThrow() throws PkiException {
            if (failure != null) {
                throw failure;
            }
            return this;
        }
    }

    private final URI loginUrl;
    private final String noncePath;
    private final String nonceMethod;
    private final String loginPath;
    private final Fields fields;
    private final String digest;
    private final URI mtlsUrl;
    private final List<X509Certificate> trustAnchors;
    private final boolean trustAll;
    private final boolean sessionReuse;
    private final boolean verifyHostname;
    private final Duration connectTimeout;
    private final Duration handshakeTimeout;
    private final Duration responseTimeout;
    private final TrustManager trustManager;
    private volatile HttpClient http;
    /** The HTTP client of the owner (a signature-server config), or null: this client builds its own. */
    private final HttpClient shared;
    private volatile boolean closed;
    private final ConcurrentHashMap<KeyMaterial, SSLContext> reusedContexts = new ConcurrentHashMap<>();

    private CertificateLoginClient(Builder b) throws PkiException {
        this.loginUrl = b.loginUrl;
        this.noncePath = b.noncePath;
        this.nonceMethod = b.nonceMethod.trim().toUpperCase(Locale.ROOT);
        if (!nonceMethod.equals("GET") && !nonceMethod.equals("POST")) {
            throw new PkiException(PkiException.CONFIG_ERROR, "nonce method must be GET or POST, not '" + b.nonceMethod + "'");
        }
        this.loginPath = b.loginPath;
        this.fields = b.fields;
        this.digest = b.digest;
        this.mtlsUrl = b.mtlsUrl;
        this.trustAnchors = List.copyOf(b.trustAnchors);
        this.trustAll = b.trustAll;
        this.sessionReuse = b.sessionReuse;
        this.verifyHostname = b.verifyHostname;
        this.connectTimeout = b.connectTimeout;
        this.handshakeTimeout = b.handshakeTimeout;
        this.responseTimeout = b.responseTimeout;
        this.trustManager = ServerTrust.trustManager(trustAnchors, trustAll);
        this.shared = b.httpClient;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Settings; every one has a sensible default except the URLs. */
    public static final class Builder {
        private URI loginUrl;
        private String noncePath = "/auth/nonce";
        private String nonceMethod = "GET";
        private String loginPath = "/auth/login";
        private Fields fields = Fields.DEFAULTS;
        private String digest = "SHA-256";
        private URI mtlsUrl;
        private List<X509Certificate> trustAnchors = List.of();
        private boolean trustAll;
        private boolean sessionReuse;
        private boolean verifyHostname = true;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration handshakeTimeout = Duration.ofSeconds(10);
        private Duration responseTimeout = Duration.ofSeconds(30);
        private HttpClient httpClient;

        /** Base of the challenge–response API; the nonce and login paths resolve against it. */
        public Builder loginUrl(URI v) { loginUrl = v; return this; }
        /** {@code /auth/nonce} by default; a path or a full URL. */
        public Builder noncePath(String v) { noncePath = v; return this; }
        /** {@code GET} (default) or {@code POST} (empty JSON object as body). */
        public Builder nonceMethod(String v) { nonceMethod = v; return this; }
        /** {@code /auth/login} by default; a path or a full URL. */
        public Builder loginPath(String v) { loginPath = v; return this; }
        public Builder fields(Fields v) { fields = v; return this; }
        /** Digest of the signature over the nonce: SHA-256 (default), SHA-384, SHA-512, SM3. */
        public Builder digest(String v) { digest = v; return this; }
        /** The mTLS login URL, e.g. {@code https://127.0.0.1:18444/auth/mtls}. */
        public Builder mtlsUrl(URI v) { mtlsUrl = v; return this; }
        /** Certificates that the server's certificate must chain to (https login URL, mTLS). */
        public Builder trustAnchors(List<X509Certificate> v) { trustAnchors = v; return this; }
        /** Accept any server certificate (explicit choice; never the default). */
        public Builder trustAll(boolean v) { trustAll = v; return this; }
        /** mTLS: resume each user's TLS session (abbreviated handshakes) instead of a full handshake per login. */
        public Builder sessionReuse(boolean v) { sessionReuse = v; return this; }
        /** mTLS: check the server certificate's name against the URL host (default true). */
        public Builder verifyHostname(boolean v) { verifyHostname = v; return this; }
        public Builder connectTimeout(Duration v) { connectTimeout = v; return this; }
        public Builder handshakeTimeout(Duration v) { handshakeTimeout = v; return this; }
        public Builder responseTimeout(Duration v) { responseTimeout = v; return this; }
        /**
         * Challenge–response over this HTTP client (shared with other clients of the same server, its
         * TLS trust already set) instead of one of its own.
         */
        public Builder httpClient(HttpClient v) { httpClient = v; return this; }

        public CertificateLoginClient build() throws PkiException {
            return new CertificateLoginClient(this);
        }
    }

    /**
     * Releases what this client holds (its own HTTP client, the users' resumable TLS sessions); later
     * logins fail with {@code configError}. A shared HTTP client is its owner's to close.
     */
    public void close() {
        closed = true;
        http = null;
        reusedContexts.clear();
    }

    /** True after {@link #close()}. */
    public boolean isClosed() {
        return closed;
    }

    // ------------------------------------------------------------------ challenge–response

    /** Nonce → sign → login. Steps {@code nonce}, {@code sign}, {@code login}. */
    public Login challengeResponse(KeyMaterial key) {
        Login login = new Login();
        if (loginUrl == null) {
            login.failure = new PkiException(PkiException.CONFIG_ERROR, "challenge-response needs a login URL");
            return login;
        }
        // nonce
        long t0 = System.currentTimeMillis();
        long n0 = System.nanoTime();
        String nonceText;
        byte[] nonce;
        try {
            URI u = resolve(loginUrl, noncePath);
            HttpRequest.Builder rb = HttpRequest.newBuilder(u).timeout(responseTimeout).header("Accept", "application/json");
            if (nonceMethod.equals("POST")) {
                rb.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}"));
            } else {
                rb.GET();
            }
            JsonNode r = exchange(login, rb.build());
            JsonNode v = r.get(fields.nonce());
            if (v == null || !v.isTextual() || v.asText().isEmpty()) {
                throw new PkiException(PkiException.SERVER_ERROR, "nonce answer lacks '" + fields.nonce() + "'",
                        truncate(r.toString()), null);
            }
            nonceText = v.asText();
            try {
                nonce = Base64.getDecoder().decode(nonceText);
            } catch (IllegalArgumentException e) {
                throw new PkiException(PkiException.SERVER_ERROR, "nonce is not base64", truncate(nonceText), null);
            }
            if (nonce.length == 0) {
                throw new PkiException(PkiException.SERVER_ERROR, "nonce is empty");
            }
            login.steps.add(new Step("nonce", t0, System.nanoTime() - n0, nonce.length + "-byte nonce", null));
        } catch (PkiException e) {
            fail(login, "nonce", t0, n0, e);
            return login;
        }
        // sign
        t0 = System.currentTimeMillis();
        n0 = System.nanoTime();
        String alg = key.signatureAlgorithm(digest);
        byte[] signature;
        ObjectNode body = JSON.createObjectNode();
        try {
            signature = key.sign(alg, nonce);
            body.put(fields.nonce(), nonceText);
            body.put(fields.certificate(), b64(key.certificate()));
            if (fields.chain() != null && !fields.chain().isEmpty()) {
                var arr = body.putArray(fields.chain());
                for (X509Certificate c : key.chain()) {
                    arr.add(b64(c));
                }
            }
            body.put(fields.signature(), Base64.getEncoder().encodeToString(signature));
            if (fields.signatureAlgorithm() != null && !fields.signatureAlgorithm().isEmpty()) {
                body.put(fields.signatureAlgorithm(), alg);
            }
            login.steps.add(new Step("sign", t0, System.nanoTime() - n0, alg + " " + signature.length + " bytes", null));
        } catch (PkiException e) {
            fail(login, "sign", t0, n0, e);
            return login;
        }
        // login
        t0 = System.currentTimeMillis();
        n0 = System.nanoTime();
        try {
            URI u = resolve(loginUrl, loginPath);
            HttpRequest req = HttpRequest.newBuilder(u).timeout(responseTimeout).header("Accept", "application/json")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))).build();
            JsonNode r = exchange(login, req);
            checkStatus(r);
            login.steps.add(new Step("login", t0, System.nanoTime() - n0, summary(login), null));
        } catch (PkiException e) {
            fail(login, "login", t0, n0, e);
        } catch (IOException e) {
            fail(login, "login", t0, n0, new PkiException(PkiException.CONFIG_ERROR, "login body cannot be written", e));
        }
        return login;
    }

    private HttpClient http() throws PkiException {
        if (closed) {
            throw new PkiException(PkiException.CONFIG_ERROR, "the login client was closed at test end");
        }
        if (shared != null) {
            return shared;
        }
        HttpClient h = http;
        if (h == null) {
            synchronized (this) {
                if (http == null) {
                    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(connectTimeout)
                            .version(HttpClient.Version.HTTP_1_1);
                    if (loginUrl.getScheme() != null && loginUrl.getScheme().equalsIgnoreCase("https")) {
                        b.sslContext(context(null));
                    }
                    http = b.build();
                }
                h = http;
            }
        }
        return h;
    }

    private JsonNode exchange(Login login, HttpRequest req) throws PkiException {
        HttpResponse<byte[]> resp;
        String where = req.method() + " " + req.uri();
        try {
            HttpClient h = http();
            // the request timeout stops at the headers; the body's deadline bounds the whole answer
            resp = h.send(req, BoundedBody.handler(h.connectTimeout().orElse(connectTimeout).plus(responseTimeout),
                    Integer.MAX_VALUE - 8));
        } catch (HttpConnectTimeoutException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "login server connect timed out", where + ": " + e, e);
        } catch (HttpTimeoutException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "login server did not answer in time", where + ": " + e, e);
        } catch (ConnectException e) {
            throw new PkiException(PkiException.CONNECT_ERROR, "login server unreachable", where + ": " + e, e);
        } catch (SSLException e) {
            throw new PkiException(HANDSHAKE_FAILED, "TLS handshake failed", where + ": " + e, e);
        } catch (IOException e) {
            if (e.getCause() instanceof SSLException) {
                throw new PkiException(HANDSHAKE_FAILED, "TLS handshake failed", where + ": " + e.getCause(), e);
            }
            throw new PkiException(PkiException.CONNECT_ERROR, "login server connection failed", where + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PkiException(PkiException.CONNECT_ERROR, "interrupted", where, e);
        }
        return answer(login, resp.statusCode(), resp.body(), where);
    }

    // ------------------------------------------------------------------ mutual TLS

    /**
     * New TCP connection, TLS handshake with the user's certificate, GET of the mTLS URL
     * ({@code Connection: close}). Steps {@code handshake} (TCP connect + TLS handshake) and {@code get}.
     */
    public Login mutualTls(KeyMaterial key) {
        Login login = new Login();
        if (mtlsUrl == null) {
            login.failure = new PkiException(PkiException.CONFIG_ERROR, "mtls needs an mTLS URL");
            return login;
        }
        String host = mtlsUrl.getHost();
        int port = mtlsUrl.getPort() > 0 ? mtlsUrl.getPort() : 443;
        if (host == null || !"https".equalsIgnoreCase(mtlsUrl.getScheme())) {
            login.failure = new PkiException(PkiException.CONFIG_ERROR, "mTLS URL must be https://host[:port]/path",
                    String.valueOf(mtlsUrl), null);
            return login;
        }
        long t0 = System.currentTimeMillis();
        long n0 = System.nanoTime();
        SSLSocket ssl = null;
        Socket plain = new Socket();
        try {
            SSLContext ctx;
            try {
                ctx = sessionReuse ? reusedContexts.computeIfAbsent(key, k -> {
                    try {
                        return context(k);
                    } catch (PkiException e) {
                        throw new IllegalStateException(e);
                    }
                }) : context(key);
            } catch (IllegalStateException e) {
                throw (PkiException) e.getCause();
            }
            try {
                plain.connect(new InetSocketAddress(host, port), (int) connectTimeout.toMillis());
            } catch (SocketTimeoutException e) {
                throw new PkiException(PkiException.CONNECT_ERROR, "login server connect timed out", host + ":" + port + ": " + e, e);
            } catch (IOException e) {
                throw new PkiException(PkiException.CONNECT_ERROR, "login server unreachable", host + ":" + port + ": " + e, e);
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
                throw new PkiException(PkiException.CONNECT_ERROR, "TLS handshake timed out", host + ":" + port + ": " + e, e);
            } catch (SSLException e) {
                throw new PkiException(HANDSHAKE_FAILED, "TLS handshake failed", host + ":" + port + ": " + e, e);
            } catch (IOException e) {
                throw new PkiException(HANDSHAKE_FAILED, "TLS handshake failed", host + ":" + port + ": " + e, e);
            }
            SSLSession s = ssl.getSession();
            login.tls = s.getProtocol() + " " + s.getCipherSuite();
            login.steps.add(new Step("handshake", t0, System.nanoTime() - n0, login.tls, null));
        } catch (PkiException e) {
            fail(login, "handshake", t0, n0, e);
            closeQuietly(ssl != null ? ssl : plain);
            return login;
        } catch (IOException e) {
            fail(login, "handshake", t0, n0, new PkiException(PkiException.CONNECT_ERROR, "login server connection failed",
                    host + ":" + port + ": " + e, e));
            closeQuietly(ssl != null ? ssl : plain);
            return login;
        }
        t0 = System.currentTimeMillis();
        n0 = System.nanoTime();
        String where = "GET " + mtlsUrl;
        try (SSLSocket socket = ssl) {
            socket.setSoTimeout((int) responseTimeout.toMillis());
            String path = mtlsUrl.getRawPath() == null || mtlsUrl.getRawPath().isEmpty() ? "/" : mtlsUrl.getRawPath();
            if (mtlsUrl.getRawQuery() != null) {
                path += "?" + mtlsUrl.getRawQuery();
            }
            String request = "GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                    + "\r\nUser-Agent: TrustLoad\r\nAccept: application/json\r\nConnection: close\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long deadline = System.nanoTime() + responseTimeout.toNanos();
            RawResponse raw = RawResponse.read(new BufferedInputStream(socket.getInputStream()), deadline);
            JsonNode r = answer(login, raw.status, raw.body, where);
            checkStatus(r);
            login.steps.add(new Step("get", t0, System.nanoTime() - n0, summary(login), null));
        } catch (PkiException e) {
            fail(login, "get", t0, n0, e);
        } catch (SocketTimeoutException e) {
            fail(login, "get", t0, n0, new PkiException(PkiException.CONNECT_ERROR, "login server did not answer in time",
                    where + ": " + e, e));
        } catch (SSLException e) {
            // TLS 1.3: a refused client certificate shows up as an alert on the first read
            fail(login, "get", t0, n0, new PkiException(HANDSHAKE_FAILED, "TLS handshake failed", where + ": " + e, e));
        } catch (IOException e) {
            fail(login, "get", t0, n0, new PkiException(PkiException.CONNECT_ERROR, "login server connection failed",
                    where + ": " + e, e));
        }
        return login;
    }

    /** An SSL context with the user's key (null: none) and the configured trust. */
    private SSLContext context(KeyMaterial key) throws PkiException {
        return ServerTrust.context(key == null ? null : new javax.net.ssl.KeyManager[] {new OneKey(key)}, trustManager);
    }

    // ------------------------------------------------------------------ answers

    /** Parses the server's answer; any status but 2xx becomes the server's code. */
    private static JsonNode answer(Login login, int status, byte[] body, String where) throws PkiException {
        login.status = status;
        JsonNode json;
        try {
            json = body == null || body.length == 0 ? null : JSON.readTree(body);
        } catch (IOException e) {
            json = null;
        }
        if (json != null && json.isObject()) {
            login.answer = json;
        }
        String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
        if (status < 200 || status > 299) {
            boolean coded = json != null && json.isObject() && json.hasNonNull("error") && json.get("error").isTextual();
            String code = coded ? json.get("error").asText() : PkiException.SERVER_ERROR;
            String message = coded && json.hasNonNull("message") ? json.get("message").asText() : text;
            throw new PkiException(code, "HTTP " + status + " " + code, where + ": " + truncate(message), null);
        }
        if (json == null || !json.isObject()) {
            throw new PkiException(PkiException.SERVER_ERROR, "HTTP " + status + " " + PkiException.SERVER_ERROR,
                    where + ": answer is not a JSON object: " + truncate(text), null);
        }
        return json;
    }

    private static void checkStatus(JsonNode r) throws PkiException {
        JsonNode s = r.get("status");
        if (s != null && !"OK".equalsIgnoreCase(s.asText())) {
            throw new PkiException(PkiException.SERVER_ERROR, "login answer status is not OK", truncate(r.toString()), null);
        }
    }

    private static String summary(Login login) {
        JsonNode a = login.answer;
        if (a == null) {
            return "HTTP " + login.status;
        }
        StringBuilder sb = new StringBuilder("HTTP ").append(login.status).append(' ').append(a.path("status").asText("OK"));
        if (a.hasNonNull("subject")) {
            sb.append(' ').append(a.get("subject").asText());
        }
        if (a.hasNonNull("ca")) {
            sb.append(" ca ").append(a.get("ca").asText());
        }
        return sb.toString();
    }

    private static void fail(Login login, String step, long t0, long n0, PkiException e) {
        login.steps.add(new Step(step, t0, System.nanoTime() - n0, e.getMessage(), e));
        login.failure = e;
    }

    private static URI resolve(URI base, String path) throws PkiException {
        try {
            return path == null || path.isBlank() ? base : base.resolve(path.trim());
        } catch (IllegalArgumentException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "bad path '" + path + "'");
        }
    }

    private static String b64(X509Certificate c) throws PkiException {
        try {
            return Base64.getEncoder().encodeToString(c.getEncoded());
        } catch (CertificateEncodingException e) {
            throw new PkiException(PkiException.KEY_ERROR, "the certificate cannot be encoded", e);
        }
    }

    private static String truncate(String s) {
        return s.length() > 500 ? s.substring(0, 500) + "…" : s;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing a failed connection
        }
    }

    // ------------------------------------------------------------------ minimal HTTP/1.1 response reader

    private static final class RawResponse {
        int status;
        byte[] body;

        static RawResponse read(InputStream in, long deadline) throws IOException, PkiException {
            RawResponse r = new RawResponse();
            String statusLine = line(in);
            if (statusLine == null) {
                // Mutual TLS 1.3: the client's handshake completes before the server checks the client
                // certificate; a refusal then arrives as a closed connection instead of an alert.
                throw new PkiException(HANDSHAKE_FAILED, "TLS handshake failed",
                        "the server closed the connection after the handshake without answering"
                                + " (client certificate refused?)", null);
            }
            if (!statusLine.startsWith("HTTP/1.")) {
                throw new PkiException(PkiException.SERVER_ERROR, "HTTP 0 " + PkiException.SERVER_ERROR,
                        "not an HTTP answer: " + truncate(String.valueOf(statusLine)), null);
            }
            String[] parts = statusLine.split(" ", 3);
            try {
                r.status = Integer.parseInt(parts[1].trim());
            } catch (RuntimeException e) {
                throw new PkiException(PkiException.SERVER_ERROR, "HTTP 0 " + PkiException.SERVER_ERROR,
                        "bad status line: " + truncate(statusLine), null);
            }
            long length = -1;
            boolean chunked = false;
            for (String h; (h = line(in)) != null && !h.isEmpty(); ) {
                int c = h.indexOf(':');
                if (c < 0) {
                    continue;
                }
                String name = h.substring(0, c).trim().toLowerCase(Locale.ROOT);
                String value = h.substring(c + 1).trim();
                if (name.equals("content-length")) {
                    try {
                        length = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        length = -1;
                    }
                } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
                    chunked = true;
                }
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if (chunked) {
                while (true) {
                    String size = line(in);
                    if (size == null) {
                        break;
                    }
                    int semi = size.indexOf(';');
                    int n = Integer.parseInt((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
                    if (n == 0) {
                        break;
                    }
                    copy(in, body, n, deadline);
                    line(in);
                }
            } else if (length >= 0) {
                copy(in, body, length, deadline);
            } else {
                copy(in, body, Long.MAX_VALUE, deadline);
            }
            r.body = body.toByteArray();
            return r;
        }

        private static void copy(InputStream in, ByteArrayOutputStream out, long n, long deadline)
                throws IOException, PkiException {
            byte[] buf = new byte[8192];
            long left = n;
            while (left > 0) {
                if (System.nanoTime() > deadline) {
                    throw new SocketTimeoutException("response not complete within the response timeout");
                }
                int r = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (r < 0) {
                    if (n != Long.MAX_VALUE) {
                        throw new IOException("connection closed before the end of the answer");
                    }
                    return;
                }
                out.write(buf, 0, r);
                left -= r;
                if (out.size() > MAX_BODY) {
                    throw new PkiException(PkiException.SERVER_ERROR, "HTTP 0 " + PkiException.SERVER_ERROR,
                            "answer larger than " + MAX_BODY + " bytes", null);
                }
            }
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) >= 0) {
                if (c == '\n') {
                    break;
                }
                if (c != '\r') {
                    b.write(c);
                }
                if (b.size() > 16384) {
                    throw new IOException("header line too long");
                }
            }
            if (c < 0 && b.size() == 0) {
                return null;
            }
            return b.toString(StandardCharsets.ISO_8859_1);
        }
    }

    // ------------------------------------------------------------------ key and trust managers

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
                if (u.equals(alg) || (u.equals("EC") && alg.equals("ECDSA")) || (u.equals("RSASSA-PSS") && alg.equals("RSA"))) {
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
