package org.trustload.lab.kms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.crypto.SecretKey;
import javax.net.ssl.SSLContext;
import org.trustload.lab.EndpointInUseException;
import org.trustload.lab.LabContext;

/**
 * AWS KMS + Secrets Manager emulator speaking the AWS JSON 1.1 protocol ({@code POST /},
 * {@code X-Amz-Target: TrentService.<Op>} or {@code secretsmanager.<Op>}) on HTTP
 * base+{@value #HTTP_OFFSET} and HTTPS base+{@value #HTTPS_OFFSET}. Operations: DescribeKey, Encrypt,
 * Decrypt, GenerateDataKey, Sign, Verify (RAW and DIGEST, as AWS does them), GetSecretValue. Keys and the
 * secret are created at start (fixed ids, fresh key material). The caller's access key id is checked;
 * the SigV4 signature is not (the lab is a load target, not an authentication test).
 * Throttling answers HTTP 429 {@code ThrottlingException}; see {@link KmsFaults}.
 */
public final class AwsKmsEmulator implements KmsEmulator {
    /** Port offset of the HTTP listener. */
    public static final int HTTP_OFFSET = 8610;
    /** Port offset of the HTTPS listener. */
    public static final int HTTPS_OFFSET = 8611;
    /** Region reported in ARNs and written to lab.properties. */
    public static final String REGION = "us-east-1";
    /** Account in ARNs. */
    static final String ACCOUNT = "111122223333";
    /** Lab credentials (fixed lab values, written to lab.properties). */
    public static final String ACCESS_KEY_ID = "AKIATRUSTLOADLAB0001";
    /** Secret access key of the lab credentials. */
    public static final String SECRET_ACCESS_KEY = "trustload-lab-secret-access-key";
    /** The AES-256 key (alias {@code alias/trustload-aes}). */
    public static final String AES_KEY_ID = "0b7a1c6e-5f1d-4c2a-9d3e-aes256000001";
    /** The RSA-2048 signing key (alias {@code alias/trustload-rsa}). */
    public static final String RSA_KEY_ID = "0b7a1c6e-5f1d-4c2a-9d3e-rsa2048sign01";
    /** The ECC P-256 signing key (alias {@code alias/trustload-ecc}). */
    public static final String EC_KEY_ID = "0b7a1c6e-5f1d-4c2a-9d3e-eccp256sign01";
    /** The secret's name. */
    public static final String SECRET_NAME = "trustload/benchmark";
    /** Largest plaintext of Encrypt and message of Sign (AWS's limit). */
    static final int MAX_MESSAGE = 4096;
    private static final int MAX_BODY = 1 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> properties = new LinkedHashMap<>();
    private final Map<String, Key> keys = new LinkedHashMap<>();
    private String secretValue;
    private String secretVersion;
    private HttpServer http;
    private HttpsServer https;
    private ExecutorService workers;
    private KmsFaults faults;

    /** A key: symmetric (aes) or signing (pair + algorithms). */
    private record Key(String id, String spec, SecretKey aes, KeyPair pair, List<String> algorithms) {
        String arn() {
            return "arn:aws:kms:" + REGION + ":" + ACCOUNT + ":key/" + id;
        }
    }

    /** A request the emulator refuses: HTTP status + AWS error type. */
    private static final class Fault extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;
        final String type;

        Fault(int status, String type, String message) {
            super(message, null, false, false);
            this.status = status;
            this.type = type;
        }

        static Fault validation(String message) {
            return new Fault(400, "ValidationException", message);
        }
    }

    @Override
    public String name() {
        return "aws";
    }

    @Override
    public void start(LabContext ctx, SSLContext tls, Path dir, KmsFaults faults) throws Exception {
        this.faults = faults;
        int httpPort = ctx.port(HTTP_OFFSET);
        int httpsPort = ctx.port(HTTPS_OFFSET);
        http = bind(HttpServer.create(), ctx, httpPort);
        https = bind(HttpsServer.create(), ctx, httpsPort);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));

        addKey(new Key(AES_KEY_ID, "SYMMETRIC_DEFAULT", KmsCrypto.aesKey(), null, List.of()), "alias/trustload-aes");
        addKey(new Key(RSA_KEY_ID, "RSA_2048", null, KmsCrypto.rsa(2048), List.of("RSASSA_PSS_SHA_256",
                "RSASSA_PSS_SHA_384", "RSASSA_PSS_SHA_512", "RSASSA_PKCS1_V1_5_SHA_256", "RSASSA_PKCS1_V1_5_SHA_384",
                "RSASSA_PKCS1_V1_5_SHA_512")), "alias/trustload-rsa");
        addKey(new Key(EC_KEY_ID, "ECC_NIST_P256", null, KmsCrypto.ec("secp256r1"), List.of("ECDSA_SHA_256")),
                "alias/trustload-ecc");
        // A lab value, but random per start: nothing should depend on it except its presence.
        secretValue = "{\"username\":\"trustload\",\"password\":\"" + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(KmsCrypto.random(18)) + "\"}";
        secretVersion = UUID.randomUUID().toString();

        workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "kms-lab-aws");
            t.setDaemon(true);
            return t;
        });
        for (HttpServer s : new HttpServer[] {http, https}) {
            s.setExecutor(workers);
            s.createContext("/", this::serve);
            s.createContext(KmsFaults.ADMIN_PATH, faults::handleAdmin);
            s.start();
        }
        properties.put("kms.aws.endpoint", "http://" + LabContext.HOST + ":" + httpPort);
        properties.put("kms.aws.https.endpoint", "https://" + LabContext.HOST + ":" + httpsPort);
        properties.put("kms.aws.region", REGION);
        properties.put("kms.aws.access_key_id", ACCESS_KEY_ID);
        properties.put("kms.aws.secret_access_key", SECRET_ACCESS_KEY);
        properties.put("kms.aws.key_id", AES_KEY_ID);
        properties.put("kms.aws.rsa_key_id", RSA_KEY_ID);
        properties.put("kms.aws.ec_key_id", EC_KEY_ID);
        properties.put("kms.aws.secret_name", SECRET_NAME);
    }

    private void addKey(Key k, String alias) {
        keys.put(k.id(), k);
        keys.put(k.arn(), k);
        keys.put(alias, k);
        keys.put("arn:aws:kms:" + REGION + ":" + ACCOUNT + ":" + alias, k);
    }

    /* ---------------------------------------------------------------- HTTP */

    private void serve(HttpExchange ex) throws IOException {
        String requestId = UUID.randomUUID().toString();
        int status = 200;
        byte[] body;
        try (ex) {
            try {
                byte[] in = readBody(ex);
                if (!"POST".equals(ex.getRequestMethod())) {
                    throw new Fault(405, "MethodNotAllowed", "use POST");
                }
                checkCredentials(ex.getRequestHeaders().getFirst("Authorization"));
                faults.delay(ex);
                if (!faults.admit(ex)) {
                    throw new Fault(429, "ThrottlingException", "Rate exceeded");
                }
                String target = ex.getRequestHeaders().getFirst("X-Amz-Target");
                JsonNode req;
                try {
                    req = in.length == 0 ? JSON.createObjectNode() : JSON.readTree(in);
                } catch (IOException e) {
                    throw new Fault(400, "SerializationException", "the body is not JSON");
                }
                body = JSON.writeValueAsBytes(dispatch(target == null ? "" : target, req));
            } catch (Fault f) {
                status = f.status;
                ObjectNode err = JSON.createObjectNode().put("__type", f.type).put("message", f.getMessage());
                body = JSON.writeValueAsBytes(err);
            } catch (GeneralSecurityException | RuntimeException e) {
                status = 500;
                body = JSON.writeValueAsBytes(JSON.createObjectNode().put("__type", "KMSInternalException")
                        .put("message", e.toString()));
            }
            ex.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
            ex.getResponseHeaders().set("x-amzn-RequestId", requestId);
            ex.sendResponseHeaders(status, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static byte[] readBody(HttpExchange ex) throws IOException, Fault {
        try (InputStream in = ex.getRequestBody()) {
            byte[] b = in.readNBytes(MAX_BODY + 1);
            if (b.length > MAX_BODY) {
                throw new Fault(413, "RequestEntityTooLarge", "request body over " + MAX_BODY + " bytes");
            }
            return b;
        }
    }

    /** SigV4's {@code Credential=<access key id>/…}: an unknown id is refused like AWS refuses it. */
    private static void checkCredentials(String authorization) throws Fault {
        if (authorization == null) {
            throw new Fault(400, "MissingAuthenticationTokenException", "Request is missing Authentication Token");
        }
        int i = authorization.indexOf("Credential=");
        int slash = i < 0 ? -1 : authorization.indexOf('/', i);
        String id = slash < 0 ? "" : authorization.substring(i + "Credential=".length(), slash);
        if (!ACCESS_KEY_ID.equals(id)) {
            throw new Fault(400, "UnrecognizedClientException", "The security token included in the request is invalid.");
        }
    }

    private ObjectNode dispatch(String target, JsonNode req) throws Fault, GeneralSecurityException {
        return switch (target) {
            case "TrentService.DescribeKey" -> describeKey(req);
            case "TrentService.Encrypt" -> encrypt(req);
            case "TrentService.Decrypt" -> decrypt(req);
            case "TrentService.GenerateDataKey" -> generateDataKey(req);
            case "TrentService.Sign" -> sign(req);
            case "TrentService.Verify" -> verify(req);
            case "secretsmanager.GetSecretValue" -> getSecretValue(req);
            default -> throw new Fault(400, "UnknownOperationException", "unsupported operation " + target);
        };
    }

    /* ---------------------------------------------------------------- operations */

    private ObjectNode describeKey(JsonNode req) throws Fault {
        Key k = key(req);
        ObjectNode meta = JSON.createObjectNode().put("KeyId", k.id()).put("Arn", k.arn())
                .put("AWSAccountId", ACCOUNT).put("Enabled", true).put("KeyState", "Enabled")
                .put("KeySpec", k.spec()).put("CustomerMasterKeySpec", k.spec())
                .put("KeyUsage", k.aes() != null ? "ENCRYPT_DECRYPT" : "SIGN_VERIFY").put("KeyManager", "CUSTOMER")
                .put("Origin", "AWS_KMS").put("CreationDate", 1.7e9);
        if (k.aes() != null) {
            meta.putArray("EncryptionAlgorithms").add("SYMMETRIC_DEFAULT");
        } else {
            k.algorithms().forEach(meta.putArray("SigningAlgorithms")::add);
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("KeyMetadata", meta);
        return out;
    }

    private ObjectNode encrypt(JsonNode req) throws Fault, GeneralSecurityException {
        Key k = symmetric(req);
        byte[] plain = blob(req, "Plaintext");
        if (plain.length < 1 || plain.length > MAX_MESSAGE) {
            throw Fault.validation("Plaintext must be 1 to " + MAX_MESSAGE + " bytes");
        }
        return JSON.createObjectNode().put("CiphertextBlob", b64(wrap(k, plain))).put("KeyId", k.arn())
                .put("EncryptionAlgorithm", "SYMMETRIC_DEFAULT");
    }

    /** Ciphertext blob: key id length (1 byte), key id, AES-GCM(iv || ct || tag) with the key id as AAD. */
    private static byte[] wrap(Key k, byte[] plain) throws GeneralSecurityException {
        byte[] id = k.id().getBytes(StandardCharsets.US_ASCII);
        byte[] sealed = KmsCrypto.seal(k.aes(), id, plain);
        byte[] out = new byte[1 + id.length + sealed.length];
        out[0] = (byte) id.length;
        System.arraycopy(id, 0, out, 1, id.length);
        System.arraycopy(sealed, 0, out, 1 + id.length, sealed.length);
        return out;
    }

    private ObjectNode decrypt(JsonNode req) throws Fault {
        byte[] blob = blob(req, "CiphertextBlob");
        int idLen = blob.length == 0 ? 0 : blob[0] & 0xff;
        if (blob.length < 1 + idLen + KmsCrypto.IV_BYTES + 16 || idLen == 0) {
            throw new Fault(400, "InvalidCiphertextException", "");
        }
        String id = new String(blob, 1, idLen, StandardCharsets.US_ASCII);
        Key k = keys.get(id);
        if (k == null || k.aes() == null) {
            throw new Fault(400, "InvalidCiphertextException", "");
        }
        if (req.hasNonNull("KeyId") && keys.get(req.get("KeyId").asText()) != k) {
            throw new Fault(400, "IncorrectKeyException", "The key ID in the request does not identify the key used to encrypt");
        }
        try {
            byte[] plain = KmsCrypto.open(k.aes(), id.getBytes(StandardCharsets.US_ASCII),
                    java.util.Arrays.copyOfRange(blob, 1 + idLen, blob.length));
            return JSON.createObjectNode().put("Plaintext", b64(plain)).put("KeyId", k.arn())
                    .put("EncryptionAlgorithm", "SYMMETRIC_DEFAULT");
        } catch (GeneralSecurityException e) {
            throw new Fault(400, "InvalidCiphertextException", "");
        }
    }

    private ObjectNode generateDataKey(JsonNode req) throws Fault, GeneralSecurityException {
        Key k = symmetric(req);
        int n;
        if (req.hasNonNull("NumberOfBytes")) {
            n = req.get("NumberOfBytes").asInt();
        } else if (req.hasNonNull("KeySpec")) {
            n = switch (req.get("KeySpec").asText()) {
                case "AES_256" -> 32;
                case "AES_128" -> 16;
                default -> throw Fault.validation("KeySpec must be AES_256 or AES_128");
            };
        } else {
            throw Fault.validation("KeySpec or NumberOfBytes is required");
        }
        if (n < 1 || n > 1024) {
            throw Fault.validation("NumberOfBytes must be 1 to 1024");
        }
        byte[] plain = KmsCrypto.random(n);
        return JSON.createObjectNode().put("CiphertextBlob", b64(wrap(k, plain))).put("Plaintext", b64(plain))
                .put("KeyId", k.arn());
    }

    private ObjectNode sign(JsonNode req) throws Fault, GeneralSecurityException {
        Key k = signing(req);
        KmsCrypto.SigAlg alg = algorithm(k, req);
        byte[] msg = message(req, alg);
        byte[] sig = KmsCrypto.sign(k.pair().getPrivate(), alg, digest(req), msg);
        return JSON.createObjectNode().put("KeyId", k.arn()).put("Signature", b64(sig))
                .put("SigningAlgorithm", req.get("SigningAlgorithm").asText());
    }

    private ObjectNode verify(JsonNode req) throws Fault, GeneralSecurityException {
        Key k = signing(req);
        KmsCrypto.SigAlg alg = algorithm(k, req);
        byte[] msg = message(req, alg);
        byte[] sig = blob(req, "Signature");
        if (!KmsCrypto.verify(k.pair().getPublic(), alg, digest(req), msg, sig)) {
            // what AWS does: an invalid signature is an error, not SignatureValid=false
            throw new Fault(400, "KMSInvalidSignatureException", "");
        }
        return JSON.createObjectNode().put("KeyId", k.arn()).put("SignatureValid", true)
                .put("SigningAlgorithm", req.get("SigningAlgorithm").asText());
    }

    private ObjectNode getSecretValue(JsonNode req) throws Fault {
        String id = text(req, "SecretId");
        String arn = "arn:aws:secretsmanager:" + REGION + ":" + ACCOUNT + ":secret:" + SECRET_NAME + "-tlLab1";
        if (!id.equals(SECRET_NAME) && !id.equals(arn)) {
            throw new Fault(400, "ResourceNotFoundException", "Secrets Manager can't find the specified secret.");
        }
        ObjectNode out = JSON.createObjectNode().put("ARN", arn).put("Name", SECRET_NAME)
                .put("VersionId", secretVersion).put("SecretString", secretValue).put("CreatedDate", 1.7e9);
        out.putArray("VersionStages").add("AWSCURRENT");
        return out;
    }

    /* ---------------------------------------------------------------- request fields */

    private Key key(JsonNode req) throws Fault {
        String id = text(req, "KeyId");
        Key k = keys.get(id);
        if (k == null) {
            throw new Fault(400, "NotFoundException", "Key '" + id + "' does not exist");
        }
        return k;
    }

    private Key symmetric(JsonNode req) throws Fault {
        Key k = key(req);
        if (k.aes() == null) {
            throw new Fault(400, "InvalidKeyUsageException", "the key is not an ENCRYPT_DECRYPT key");
        }
        return k;
    }

    private Key signing(JsonNode req) throws Fault {
        Key k = key(req);
        if (k.pair() == null) {
            throw new Fault(400, "InvalidKeyUsageException", "the key is not a SIGN_VERIFY key");
        }
        return k;
    }

    private static KmsCrypto.SigAlg algorithm(Key k, JsonNode req) throws Fault {
        String name = text(req, "SigningAlgorithm");
        if (!k.algorithms().contains(name)) {
            throw new Fault(400, "InvalidKeyUsageException", "algorithm " + name + " is not valid for this key");
        }
        return KmsCrypto.awsAlgorithm(name);
    }

    private static boolean digest(JsonNode req) throws Fault {
        String type = req.hasNonNull("MessageType") ? req.get("MessageType").asText() : "RAW";
        return switch (type) {
            case "RAW" -> false;
            case "DIGEST" -> true;
            default -> throw Fault.validation("MessageType must be RAW or DIGEST");
        };
    }

    private static byte[] message(JsonNode req, KmsCrypto.SigAlg alg) throws Fault {
        byte[] msg = blob(req, "Message");
        if (msg.length < 1 || msg.length > MAX_MESSAGE) {
            throw Fault.validation("Message must be 1 to " + MAX_MESSAGE + " bytes");
        }
        if (digest(req) && msg.length != alg.digestBytes()) {
            throw Fault.validation("Digest is invalid length for algorithm " + req.get("SigningAlgorithm").asText());
        }
        return msg;
    }

    private static String text(JsonNode req, String field) throws Fault {
        JsonNode v = req.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw Fault.validation(field + " is required");
        }
        return v.asText();
    }

    private static byte[] blob(JsonNode req, String field) throws Fault {
        try {
            return Base64.getDecoder().decode(text(req, field));
        } catch (IllegalArgumentException e) {
            throw new Fault(400, "SerializationException", field + " is not base64");
        }
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static <S extends HttpServer> S bind(S server, LabContext ctx, int port) throws IOException {
        try {
            server.bind(new InetSocketAddress(ctx.bindAddress(), port), 1024);
            return server;
        } catch (BindException e) {
            throw new EndpointInUseException(LabContext.HOST + ":" + port + " (kms aws)", e);
        }
    }

    @Override
    public Map<String, String> properties() {
        return Collections.unmodifiableMap(properties);
    }

    @Override
    public void close() {
        if (http != null) {
            http.stop(0);
        }
        if (https != null) {
            https.stop(0);
        }
        if (workers != null) {
            workers.shutdownNow();
        }
    }
}
