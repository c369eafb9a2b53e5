package org.trustload.lab.kms;

import com.aliyun.dkms.gcs.openapi.util.protobuf.ApiModels;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.SecretKey;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabHttp;
import org.trustload.lab.Tally;

/**
 * The Alibaba Cloud KMS instance API ({@code alibabacloud-dkms-gcs-sdk} 0.5.2: {@code POST /} with a protobuf
 * body) on 127.0.0.1, HTTPS and HTTP, built on the SDK's own message classes ({@link ApiModels}) and checking
 * every request's signature, so the unmodified SDK is its client. A load target, not a KMS: throwaway keys
 * ({@value AwsKmsEmulator#KEYS_PER_KIND} per kind), faults through {@link KmsFaults}. Operations, keys,
 * errors and what is faithful: docs/lab.md, "Alibaba KMS instance emulator".
 */
public final class AliyunKmsEmulator implements KmsEmulator {

    /** Port offset of the HTTPS listener. */
    public static final int HTTPS_OFFSET = 8600;
    /** Port offset of the plain HTTP listener. */
    public static final int HTTP_OFFSET = 8601;
    /** Id of the AES-256 key (Encrypt, Decrypt, GenerateDataKey). */
    public static final String AES_KEY_ID = "key-trustload-aes256";
    /** Id of the RSA-2048 key (Sign, Verify with RSA_PKCS1_SHA_256 or RSA_PSS_SHA_256). */
    public static final String RSA_KEY_ID = "key-trustload-rsa2048";
    /** Id of the EC P-256 key (Sign, Verify with ECDSA_SHA_256). */
    public static final String EC_KEY_ID = "key-trustload-ecp256";
    /** Name of the one secret. */
    public static final String SECRET_NAME = "trustload-secret";
    /** Value of that secret (test data, not a credential). */
    public static final String SECRET_DATA = "{\"user\":\"trustload\",\"password\":\"lab-secret-value\"}";

    private static final int MAX_BODY = 8 * 1024 * 1024;

    private final Map<String, PublicKey> clientKeys = new LinkedHashMap<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private final AtomicLong served = new AtomicLong();
    private KmsFaults faults;
    private final Map<String, SecretKey> aesKeys = new LinkedHashMap<>();
    private final Map<String, KeyPair> rsaKeys = new LinkedHashMap<>();
    private final Map<String, KeyPair> ecKeys = new LinkedHashMap<>();
    /** Requests that named each key, for the stop line. */
    private final Tally used = new Tally();
    private HttpsServer https;
    private HttpServer http;
    private ExecutorService workers;
    private Path clientKeyFile;
    private Path passwordFile;

    @Override
    public String name() {
        return "aliyun";
    }

    /** Starts the HTTPS and HTTP listeners at the offsets {@value #HTTPS_OFFSET} and {@value #HTTP_OFFSET}. */
    @Override
    public synchronized void start(LabContext ctx, SSLContext tls, Path dir, KmsFaults faults)
            throws IOException, GeneralSecurityException {
        this.faults = faults;
        int httpsPort = ctx.port(HTTPS_OFFSET);
        int httpPort = ctx.port(HTTP_OFFSET);
        https = LabHttp.bind(HttpsServer.create(), ctx, httpsPort, "kms aliyun");
        http = LabHttp.bind(HttpServer.create(), ctx, httpPort, "kms aliyun");
        for (int i = 1; i <= AwsKmsEmulator.KEYS_PER_KIND; i++) {
            String n = i == 1 ? "" : "-" + i;
            aesKeys.put(AES_KEY_ID + n, KmsCrypto.aesKey());
            rsaKeys.put(RSA_KEY_ID + n, KmsCrypto.rsa(2048, dir, "aliyun-rsa" + i));
            ecKeys.put(EC_KEY_ID + n, KmsCrypto.ec("secp256r1"));
        }

        String password = HexFormat.of().formatHex(KmsCrypto.random(12));
        String clientKeyId = "KAAP." + UUID.randomUUID();
        KeyPair client = KmsCrypto.rsa(2048); // a credential: new per start
        clientKeys.put(clientKeyId, client.getPublic());
        // The SDK names these files clientKey_<KeyId>.json and clientKey_<KeyId>_Password.txt.
        clientKeyFile = dir.resolve("clientKey_" + clientKeyId + ".json");
        passwordFile = dir.resolve("clientKey_" + clientKeyId + "_Password.txt");
        Files.writeString(clientKeyFile, clientKeyJson(clientKeyId, client, password.toCharArray()));
        Files.writeString(passwordFile, password);

        workers = Executors.newCachedThreadPool(LabHttp.daemon("kms-aliyun-lab"));
        for (HttpServer s : new HttpServer[] {https, http}) {
            s.setExecutor(workers);
            s.createContext("/", this::handle);
            s.createContext(KmsFaults.ADMIN_PATH, faults::handleAdmin);
        }
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        https.start();
        http.start();

        properties.put("kms.aliyun.endpoint", ctx.authority(httpsPort));
        properties.put("kms.aliyun.http_endpoint", ctx.authority(httpPort));
        properties.put("kms.aliyun.client_key_file", clientKeyFile.toAbsolutePath().toString());
        properties.put("kms.aliyun.client_key_password", password);
        properties.put("kms.aliyun.client_key_password_file", passwordFile.toAbsolutePath().toString());
        properties.put("kms.aliyun.key_id", AES_KEY_ID);
        properties.put("kms.aliyun.key_ids", String.join(",", aesKeys.keySet()));
        properties.put("kms.aliyun.rsa_key_id", RSA_KEY_ID);
        properties.put("kms.aliyun.rsa_key_ids", String.join(",", rsaKeys.keySet()));
        properties.put("kms.aliyun.ec_key_id", EC_KEY_ID);
        properties.put("kms.aliyun.ec_key_ids", String.join(",", ecKeys.keySet()));
        properties.put("kms.aliyun.secret_name", SECRET_NAME);
    }

    /** The {@code lab.properties} entries: endpoints, client key file and password, key ids, secret name. */
    @Override
    public Map<String, String> properties() {
        return Map.copyOf(properties);
    }

    /** Requests answered so far (successes and errors). */
    public long served() {
        return served.get();
    }

    /** The public key of a KMS key, e.g. to check a signature independently. */
    public PublicKey publicKey(String keyId) {
        KeyPair k = rsaKeys.containsKey(keyId) ? rsaKeys.get(keyId) : ecKeys.get(keyId);
        if (k == null) {
            throw new IllegalArgumentException("no asymmetric key " + keyId);
        }
        return k.getPublic();
    }

    private void used(String keyId) {
        used.add(keyId);
    }

    @Override
    public synchronized void close() {
        if (https != null) {
            used.print("kms aliyun", "requests", "keys");
        }
        LabHttp.stop(workers, https, http);
        https = null;
        http = null;
        workers = null;
        for (Path p : new Path[] {clientKeyFile, passwordFile}) {
            try {
                if (p != null) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                System.err.println("trustload-lab: cannot remove " + p + ": " + e);
            }
        }
    }

    /* ---------------------------------------------------------------- key material */

    private String clientKeyJson(String keyId, KeyPair pair, char[] password)
            throws GeneralSecurityException, IOException {
        X509Certificate cert;
        try {
            Instant now = Instant.now();
            X500Name name = new X500Name("CN=" + keyId + ",O=TrustLoad lab");
            cert = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name,
                    BigInteger.valueOf(now.toEpochMilli()), java.util.Date.from(now.minus(1, ChronoUnit.DAYS)),
                    java.util.Date.from(now.plus(365, ChronoUnit.DAYS)), name, pair.getPublic())
                    .build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate())));
        } catch (org.bouncycastle.operator.OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
        KeyStore p12 = KeyStore.getInstance("PKCS12");
        p12.load(null, null);
        p12.setKeyEntry("client-key", pair.getPrivate(), password, new X509Certificate[] {cert});
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        p12.store(out, password);
        return "{\"KeyId\":\"" + keyId + "\",\"PrivateKeyData\":\""
                + Base64.getEncoder().encodeToString(out.toByteArray()) + "\"}";
    }

    /* ---------------------------------------------------------------- requests */

    /** An answer other than success: the status and the service's error code and message. */
    static final class KmsError extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;
        final String code;

        KmsError(int status, String code, String message) {
            super(message, null, false, false);
            this.status = status;
            this.code = code;
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        long cpu0 = LabHttp.threadCpu();
        String requestId = UUID.randomUUID().toString();
        int status = 200;
        byte[] answer;
        try {
            byte[] body = readBody(exchange);
            Headers h = exchange.getRequestHeaders();
            if (!faults.admit(exchange)) {
                throw new KmsError(429, "Rejected.Throttling", "QPS Limit Exceeded");
            }
            faults.delay(exchange);
            answer = dispatch(exchange, h, body, requestId).toByteArray();
        } catch (KmsError e) {
            status = e.status;
            answer = error(e.status, e.code, e.getMessage(), requestId);
        } catch (InvalidProtocolBufferException e) {
            status = 400;
            answer = error(400, "InvalidParameter", "The request body is not a valid message.", requestId);
        } catch (GeneralSecurityException | RuntimeException e) {
            status = 500;
            answer = error(500, "InternalFailure", "Internal Failure: " + e.getClass().getSimpleName(), requestId);
        }
        served.incrementAndGet();
        exchange.getResponseHeaders().set("x-kms-requestid", requestId);
        LabHttp.send(exchange, cpu0, status, "application/x-protobuf", answer);
    }

    private static byte[] error(int status, String code, String message, String requestId) {
        return ApiModels.Error.newBuilder().setStatusCode(status).setErrorCode(code)
                .setErrorMessage(message).setRequestId(requestId).build().toByteArray();
    }

    private static byte[] readBody(HttpExchange exchange) throws IOException, KmsError {
        // not closed here: LabHttp.send reads what is left of a too-long body before answering
        byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            throw new KmsError(413, "InvalidParameter", "The request body is too large.");
        }
        return body;
    }

    private MessageLite dispatch(HttpExchange exchange, Headers h, byte[] body, String requestId)
            throws KmsError, IOException, GeneralSecurityException {
        if (!"POST".equals(exchange.getRequestMethod()) || !"/".equals(exchange.getRequestURI().getPath())) {
            throw new KmsError(404, "InvalidApiName", "Only POST / is served.");
        }
        String apiName = h.getFirst("x-kms-apiname");
        if (apiName == null || apiName.isEmpty()) {
            throw new KmsError(400, "InvalidApiName", "The ApiName \"\" is invalid.");
        }
        if (h.getFirst("x-kms-apiversion") == null) {
            throw new KmsError(400, "InvalidApiVersion", "The ApiVersion \"\" is invalid.");
        }
        authenticate(h, body);
        return switch (apiName) {
            case "Encrypt" -> encrypt(ApiModels.EncryptRequest.parseFrom(body), requestId);
            case "Decrypt" -> decrypt(ApiModels.DecryptRequest.parseFrom(body), requestId);
            case "GenerateDataKey" -> generateDataKey(ApiModels.GenerateDataKeyRequest.parseFrom(body), requestId);
            case "Sign" -> sign(ApiModels.SignRequest.parseFrom(body), requestId);
            case "Verify" -> verify(ApiModels.VerifyRequest.parseFrom(body), requestId);
            case "GetPublicKey" -> publicKey(ApiModels.GetPublicKeyRequest.parseFrom(body), requestId);
            case "GenerateRandom" -> random(ApiModels.GenerateRandomRequest.parseFrom(body), requestId);
            case "GetSecretValue" -> secret(ApiModels.GetSecretValueRequest.parseFrom(body), requestId);
            default -> throw new KmsError(400, "InvalidApiName", "The ApiName \"" + apiName + "\" is invalid.");
        };
    }

    /** Checks {@code content-sha256} and the request signature the way the service does. */
    private void authenticate(Headers h, byte[] body) throws KmsError, GeneralSecurityException {
        String method = h.getFirst("x-kms-signaturemethod");
        if (method == null) {
            throw new KmsError(400, "InvalidParam", "The Param x-kms-signaturemethod is invalid.");
        }
        if (!"RSA_PKCS1_SHA_256".equals(method)) {
            throw new KmsError(400, "InvalidParam",
                    "The Param x-kms-signaturemethod is invalid. message:\"" + method + "\".");
        }
        String accessKeyId = h.getFirst("x-kms-acccesskeyid");
        if (accessKeyId == null || accessKeyId.isEmpty()) {
            throw new KmsError(400, "MissingParameter",
                    "Parameter x-kms-acccesskeyid does not exist in http header or body.");
        }
        PublicKey key = clientKeys.get(accessKeyId);
        if (key == null) {
            throw new KmsError(404, "InvalidAccessKeyId.NotFound", "The AccessKey ID provided does not exist.");
        }
        String sha = h.getFirst("content-sha256");
        String actual = HexFormat.of().withUpperCase().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        if (sha == null || !sha.equals(actual)) {
            throw new KmsError(400, "InvalidParam", "The Param Content-SHA256 is invalid.");
        }
        String authorization = h.getFirst("authorization");
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            throw new KmsError(401, "SignatureNotMatch", "Signature is not matched.");
        }
        byte[] signature;
        try {
            signature = Base64.getDecoder().decode(authorization.substring("Bearer ".length()).trim());
        } catch (IllegalArgumentException e) {
            throw new KmsError(401, "SignatureNotMatch", "Signature is not matched.");
        }
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(key);
        verifier.update(stringToSign(h).getBytes(StandardCharsets.UTF_8));
        if (!verifier.verify(signature)) {
            throw new KmsError(401, "SignatureNotMatch", "Signature is not matched.");
        }
    }

    /** The SDK's canonical string: method, content hash, type, date, sorted x-kms-* headers, "/". */
    static String stringToSign(Headers h) {
        StringBuilder s = new StringBuilder("POST\n");
        s.append(nullToEmpty(h.getFirst("content-sha256"))).append('\n');
        s.append(nullToEmpty(h.getFirst("content-type"))).append('\n');
        s.append(nullToEmpty(h.getFirst("date"))).append('\n');
        // The JDK server capitalises header names; the client signed them in lower case.
        Map<String, String> kms = new TreeMap<>();
        h.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith("x-kms-") && !values.isEmpty()) {
                kms.put(lower, values.get(0).trim());
            }
        });
        kms.forEach((name, value) -> s.append(name).append(':').append(value).append('\n'));
        return s.append('/').toString();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /* ---------------------------------------------------------------- operations */

    private SecretKey requireAesKey(String keyId) throws KmsError {
        SecretKey k = aesKeys.get(keyId);
        if (k == null) {
            throw unknownOrWrongKey(keyId, AES_KEY_ID);
        }
        used(keyId);
        return k;
    }

    private KmsError unknownOrWrongKey(String keyId, String... usable) {
        if (keyId == null || keyId.isEmpty()) {
            return new KmsError(400, "MissingParameter", "Parameter KeyId does not exist.");
        }
        if (!aesKeys.containsKey(keyId) && !rsaKeys.containsKey(keyId) && !ecKeys.containsKey(keyId)) {
            return new KmsError(404, "Forbidden.KeyNotFound", "The specified Key is not found.");
        }
        return new KmsError(400, "InvalidParameter",
                "The key " + keyId + " cannot do this; use " + String.join(" or ", usable) + ".");
    }

    private static void requireAlgorithm(String algorithm, String... allowed) throws KmsError {
        if (algorithm == null || algorithm.isEmpty()) {
            return;
        }
        for (String a : allowed) {
            if (a.equals(algorithm)) {
                return;
            }
        }
        throw new KmsError(400, "InvalidParameter", "The Algorithm " + algorithm + " is not supported by this key.");
    }

    private MessageLite encrypt(ApiModels.EncryptRequest r, String requestId)
            throws KmsError, GeneralSecurityException {
        SecretKey aesKey = requireAesKey(r.getKeyId());
        requireAlgorithm(r.getAlgorithm(), "AES_GCM");
        if (!r.getIv().isEmpty()) {
            throw new KmsError(400, "InvalidParameter", "The emulator chooses the Iv; do not send one.");
        }
        byte[] sealed = KmsCrypto.seal(aesKey, r.getAad().toByteArray(), r.getPlaintext().toByteArray());
        return ApiModels.EncryptResponse.newBuilder().setKeyId(r.getKeyId()).setCiphertextBlob(blob(sealed))
                .setIv(iv(sealed)).setAlgorithm("AES_GCM").setRequestId(requestId).build();
    }

    private MessageLite decrypt(ApiModels.DecryptRequest r, String requestId)
            throws KmsError, GeneralSecurityException {
        SecretKey aesKey = requireAesKey(r.getKeyId());
        requireAlgorithm(r.getAlgorithm(), "AES_GCM");
        if (r.getIv().size() != KmsCrypto.IV_BYTES) {
            throw new KmsError(400, "InvalidParameter", "The Iv is invalid.");
        }
        byte[] plain;
        try {
            plain = KmsCrypto.open(aesKey, r.getAad().toByteArray(),
                    r.getIv().concat(r.getCiphertextBlob()).toByteArray());
        } catch (javax.crypto.AEADBadTagException e) {
            // the GCM tag covers the Aad: another Aad than at Encrypt fails here, like a tampered blob
            throw new KmsError(400, "Rejected.InvalidCiphertext", "The CiphertextBlob is invalid.");
        }
        return ApiModels.DecryptResponse.newBuilder().setKeyId(r.getKeyId()).setPlaintext(ByteString.copyFrom(plain))
                .setAlgorithm("AES_GCM").setRequestId(requestId).build();
    }

    private MessageLite generateDataKey(ApiModels.GenerateDataKeyRequest r, String requestId)
            throws KmsError, GeneralSecurityException {
        SecretKey aesKey = requireAesKey(r.getKeyId());
        requireAlgorithm(r.getAlgorithm(), "AES_GCM");
        int n = r.getNumberOfBytes() == 0 ? 32 : r.getNumberOfBytes();
        if (n < 1 || n > 1024) {
            throw new KmsError(400, "InvalidParameter", "The NumberOfBytes must be 1..1024.");
        }
        byte[] plain = KmsCrypto.random(n);
        byte[] sealed = KmsCrypto.seal(aesKey, r.getAad().toByteArray(), plain);
        return ApiModels.GenerateDataKeyResponse.newBuilder().setKeyId(r.getKeyId()).setIv(iv(sealed))
                .setPlaintext(ByteString.copyFrom(plain)).setCiphertextBlob(blob(sealed))
                .setAlgorithm("AES_GCM").setRequestId(requestId).build();
    }

    /** The service sends IV and ciphertext apart; {@link KmsCrypto#seal} returns them joined. */
    private static ByteString iv(byte[] sealed) {
        return ByteString.copyFrom(sealed, 0, KmsCrypto.IV_BYTES);
    }

    private static ByteString blob(byte[] sealed) {
        return ByteString.copyFrom(sealed, KmsCrypto.IV_BYTES, sealed.length - KmsCrypto.IV_BYTES);
    }

    /** The signing algorithm of a request, checked against the key; the key's default when empty. */
    private String signAlgorithm(String keyId, String requested) throws KmsError {
        if (rsaKeys.containsKey(keyId)) {
            used(keyId);
            requireAlgorithm(requested, "RSA_PKCS1_SHA_256", "RSA_PSS_SHA_256");
            return requested.isEmpty() ? "RSA_PKCS1_SHA_256" : requested;
        }
        if (ecKeys.containsKey(keyId)) {
            used(keyId);
            requireAlgorithm(requested, "ECDSA_SHA_256");
            return "ECDSA_SHA_256";
        }
        throw unknownOrWrongKey(keyId, RSA_KEY_ID, EC_KEY_ID);
    }

    /**
     * Whether a request's input is a {@code DIGEST} (computed by the client) rather than the {@code RAW}
     * message. An empty type means RAW, unless only the older {@code Digest} field is set.
     */
    private static boolean isDigest(String messageType, ByteString message, ByteString digest) throws KmsError {
        String type = messageType.isEmpty() ? (message.isEmpty() && !digest.isEmpty() ? "DIGEST" : "RAW") : messageType;
        return switch (type) {
            case "RAW" -> false;
            case "DIGEST" -> true;
            default -> throw new KmsError(400, "InvalidParameter", "The MessageType " + messageType + " is invalid.");
        };
    }

    private static byte[] input(ByteString message, ByteString digest) {
        return (message.isEmpty() ? digest : message).toByteArray();
    }

    private static KmsCrypto.SigAlg sigAlg(String algorithm) {
        return new KmsCrypto.SigAlg(switch (algorithm) {
            case "RSA_PSS_SHA_256" -> KmsCrypto.Scheme.RSA_PSS;
            case "RSA_PKCS1_SHA_256" -> KmsCrypto.Scheme.RSA_PKCS1;
            default -> KmsCrypto.Scheme.ECDSA;
        }, "SHA-256");
    }

    private MessageLite sign(ApiModels.SignRequest r, String requestId) throws KmsError, GeneralSecurityException {
        String algorithm = signAlgorithm(r.getKeyId(), r.getAlgorithm());
        boolean digest = isDigest(r.getMessageType(), r.getMessage(), r.getDigest());
        byte[] signature;
        try {
            String id = r.getKeyId();
            PrivateKey key = (rsaKeys.containsKey(id) ? rsaKeys.get(id) : ecKeys.get(id)).getPrivate();
            signature = KmsCrypto.sign(key, sigAlg(algorithm), digest, input(r.getMessage(), r.getDigest()));
        } catch (IllegalArgumentException e) {
            throw new KmsError(400, "InvalidParameter", "A SHA-256 DIGEST must be 32 bytes.");
        }
        return ApiModels.SignResponse.newBuilder().setKeyId(r.getKeyId()).setSignature(ByteString.copyFrom(signature))
                .setAlgorithm(algorithm).setMessageType(r.getMessageType()).setRequestId(requestId).build();
    }

    private MessageLite verify(ApiModels.VerifyRequest r, String requestId) throws KmsError, GeneralSecurityException {
        String algorithm = signAlgorithm(r.getKeyId(), r.getAlgorithm());
        boolean digest = isDigest(r.getMessageType(), r.getMessage(), r.getDigest());
        boolean valid;
        try {
            valid = KmsCrypto.verify(publicKey(r.getKeyId()), sigAlg(algorithm), digest,
                    input(r.getMessage(), r.getDigest()),
                    r.getSignature().toByteArray());
        } catch (IllegalArgumentException e) {
            throw new KmsError(400, "InvalidParameter", "A SHA-256 DIGEST must be 32 bytes.");
        }
        return ApiModels.VerifyResponse.newBuilder().setKeyId(r.getKeyId()).setValue(valid)
                .setAlgorithm(algorithm).setMessageType(r.getMessageType()).setRequestId(requestId).build();
    }

    private MessageLite publicKey(ApiModels.GetPublicKeyRequest r, String requestId) throws KmsError {
        if (!rsaKeys.containsKey(r.getKeyId()) && !ecKeys.containsKey(r.getKeyId())) {
            throw unknownOrWrongKey(r.getKeyId(), RSA_KEY_ID, EC_KEY_ID);
        }
        String pem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(publicKey(r.getKeyId()).getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        return ApiModels.GetPublicKeyResponse.newBuilder().setKeyId(r.getKeyId()).setPublicKey(pem)
                .setRequestId(requestId).build();
    }

    private static MessageLite random(ApiModels.GenerateRandomRequest r, String requestId) throws KmsError {
        if (r.getLength() < 1 || r.getLength() > 1024) {
            throw new KmsError(400, "InvalidParameter", "The Length must be 1..1024.");
        }
        return ApiModels.GenerateRandomResponse.newBuilder()
                .setRandom(ByteString.copyFrom(KmsCrypto.random(r.getLength())))
                .setRequestId(requestId).build();
    }

    private MessageLite secret(ApiModels.GetSecretValueRequest r, String requestId) throws KmsError {
        if (r.getSecretName().isEmpty()) {
            throw new KmsError(400, "MissingParameter", "Parameter SecretName does not exist.");
        }
        if (!SECRET_NAME.equals(r.getSecretName())) {
            throw new KmsError(404, "Forbidden.ResourceNotFound", "The specified secret is not found.");
        }
        return ApiModels.GetSecretValueResponse.newBuilder().setSecretName(SECRET_NAME).setSecretType("Generic")
                .setSecretData(SECRET_DATA).setSecretDataType("text").addVersionStages("ACSCurrent")
                .setVersionId("v1").setCreateTime("2026-01-01T00:00:00Z").setRequestId(requestId).build();
    }
}
