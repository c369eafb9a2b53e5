package org.trustload.lab.kms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.crypto.SecretKey;
import javax.net.ssl.SSLContext;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabHttp;
import org.trustload.lab.LabSecrets;
import org.trustload.lab.Tally;

/**
 * AWS KMS and Secrets Manager over the AWS JSON 1.1 protocol on HTTP base+{@value #HTTP_OFFSET} and HTTPS
 * base+{@value #HTTPS_OFFSET}: the data-plane calls a KMS load test makes ({@link #OPERATIONS}), with
 * EncryptionContext bound into ciphertexts as on AWS. A load target, not an authentication test: the access
 * key id is checked, the SigV4 signature is not. Keys, operations and what is faithful: docs/lab.md, "AWS KMS
 * and Secrets Manager emulator".
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
    /** Secret access key of the lab credentials: random per lab process (LabSecrets). */
    public static final String SECRET_ACCESS_KEY = LabSecrets.generate();
    /** The AES-256 key (alias {@code alias/trustload-aes}). */
    public static final String AES_KEY_ID = "0b7a1c6e-5f1d-4c2a-9d3e-aes256000001";
    /** The RSA-2048 signing key (alias {@code alias/trustload-rsa}). */
    public static final String RSA_KEY_ID = "0b7a1c6e-5f1d-4c2a-9d3e-rsa2048sign01";
    /** The ECC P-256 signing key (alias {@code alias/trustload-ecc}). */
    public static final String EC_KEY_ID = "0b7a1c6e-5f1d-4c2a-9d3e-eccp256sign01";
    /** Keys of each kind (AES, RSA, EC): the first has the ids above, the others end in -2, -3, ... */
    public static final int KEYS_PER_KIND = 3;
    /** The HMAC-256 key (alias {@code alias/trustload-hmac}). */
    public static final String HMAC_KEY_ID = "0b7a1c6e-5f1d-4c2a-9d3e-hmac256mac01";
    /** The X-Amz-Target operations served, KMS ({@code TrentService.}) and Secrets Manager. */
    public static final List<String> OPERATIONS = List.of("Encrypt", "Decrypt", "ReEncrypt", "GenerateDataKey",
            "GenerateDataKeyWithoutPlaintext", "GenerateDataKeyPair", "GenerateDataKeyPairWithoutPlaintext",
            "GenerateRandom", "Sign", "Verify", "GenerateMac", "VerifyMac", "GetPublicKey", "DescribeKey", "ListKeys",
            "ListAliases", "secretsmanager.GetSecretValue");
    /** The secret's name. */
    public static final String SECRET_NAME = "trustload/benchmark";
    /** Largest plaintext of Encrypt and message of Sign (AWS's limit). */
    static final int MAX_MESSAGE = 4096;
    private static final int MAX_BODY = 1 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> properties = new LinkedHashMap<>();
    /** Keys by id, key ARN, alias name and alias ARN. */
    private final Map<String, Key> keys = new LinkedHashMap<>();
    /** Alias name to key, in creation order (ListAliases). */
    private final Map<String, Key> aliases = new LinkedHashMap<>();
    /** Keys in creation order (ListKeys). */
    private final List<Key> keyList = new ArrayList<>();
    /** Requests that named each key (by the alias it was created with), for the stop line. */
    private final Tally used = new Tally();
    private final Map<Key, String> aliasOf = new HashMap<>();
    private String secretValue;
    private String secretVersion;
    private HttpServer http;
    private HttpsServer https;
    private ExecutorService workers;
    private KmsFaults faults;

    /**
     * A key: symmetric (aes), signing (pair + signing algorithms) or HMAC (hmac + MAC algorithms).
     * {@code aes} and {@code hmac} are both JCA secret keys; the usage tells them apart.
     */
    private record Key(String id, String spec, String usage, SecretKey aes, KeyPair pair, List<String> algorithms) {
        static final String ENCRYPT_DECRYPT = "ENCRYPT_DECRYPT";
        static final String SIGN_VERIFY = "SIGN_VERIFY";
        static final String GENERATE_VERIFY_MAC = "GENERATE_VERIFY_MAC";

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
        http = LabHttp.bind(HttpServer.create(), ctx, httpPort, "kms aws");
        https = LabHttp.bind(HttpsServer.create(), ctx, httpsPort, "kms aws");
        https.setHttpsConfigurator(new HttpsConfigurator(tls));

        List<String> aesIds = new ArrayList<>();
        List<String> rsaIds = new ArrayList<>();
        List<String> ecIds = new ArrayList<>();
        for (int i = 1; i <= KEYS_PER_KIND; i++) {
            String n = i == 1 ? "" : "-" + i;
            aesIds.add(addKey(new Key(AES_KEY_ID + n, "SYMMETRIC_DEFAULT", Key.ENCRYPT_DECRYPT,
                    KmsCrypto.aesKey(), null,
                    List.of("SYMMETRIC_DEFAULT")), "alias/trustload-aes" + n));
            rsaIds.add(addKey(new Key(RSA_KEY_ID + n, "RSA_2048", Key.SIGN_VERIFY, null,
                    KmsCrypto.rsa(2048, dir, "aws-rsa" + i),
                    List.of("RSASSA_PSS_SHA_256", "RSASSA_PSS_SHA_384", "RSASSA_PSS_SHA_512",
                            "RSASSA_PKCS1_V1_5_SHA_256",
                            "RSASSA_PKCS1_V1_5_SHA_384", "RSASSA_PKCS1_V1_5_SHA_512")), "alias/trustload-rsa" + n));
            ecIds.add(addKey(new Key(EC_KEY_ID + n, "ECC_NIST_P256", Key.SIGN_VERIFY, null, KmsCrypto.ec("secp256r1"),
                    List.of("ECDSA_SHA_256")), "alias/trustload-ecc" + n));
        }
        addKey(new Key(HMAC_KEY_ID, "HMAC_256", Key.GENERATE_VERIFY_MAC, KmsCrypto.hmacKey(32), null,
                List.of("HMAC_SHA_256")), "alias/trustload-hmac");
        // A lab value, but random per start: nothing should depend on it except its presence.
        secretValue = "{\"username\":\"trustload\",\"password\":\"" + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(KmsCrypto.random(18)) + "\"}";
        secretVersion = UUID.randomUUID().toString();

        workers = Executors.newCachedThreadPool(LabHttp.daemon("kms-lab-aws"));
        for (HttpServer s : new HttpServer[] {http, https}) {
            s.setExecutor(workers);
            s.createContext("/", this::serve);
            s.createContext(KmsFaults.ADMIN_PATH, faults::handleAdmin);
            s.start();
        }
        properties.put("kms.aws.endpoint", "http://" + ctx.authority(httpPort));
        properties.put("kms.aws.https.endpoint", "https://" + ctx.authority(httpsPort));
        properties.put("kms.aws.region", REGION);
        properties.put("kms.aws.access_key_id", ACCESS_KEY_ID);
        properties.put("kms.aws.secret_access_key", SECRET_ACCESS_KEY);
        properties.put("kms.aws.key_id", AES_KEY_ID);
        properties.put("kms.aws.key_ids", String.join(",", aesIds));
        properties.put("kms.aws.rsa_key_id", RSA_KEY_ID);
        properties.put("kms.aws.rsa_key_ids", String.join(",", rsaIds));
        properties.put("kms.aws.ec_key_id", EC_KEY_ID);
        properties.put("kms.aws.ec_key_ids", String.join(",", ecIds));
        properties.put("kms.aws.hmac_key_id", HMAC_KEY_ID);
        properties.put("kms.aws.secret_name", SECRET_NAME);
    }

    /** Adds {@code k} under its id, ARN, alias and alias ARN; returns its id. */
    private String addKey(Key k, String alias) {
        keyList.add(k);
        aliasOf.put(k, alias);
        aliases.put(alias, k);
        keys.put(k.id(), k);
        keys.put(k.arn(), k);
        keys.put(alias, k);
        keys.put("arn:aws:kms:" + REGION + ":" + ACCOUNT + ":" + alias, k);
        return k.id();
    }

    /** Counts a request that named {@code k}. */
    private Key used(Key k) {
        used.add(aliasOf.getOrDefault(k, k.id()));
        return k;
    }

    /* ---------------------------------------------------------------- HTTP */

    private void serve(HttpExchange ex) throws IOException {
        long cpu0 = LabHttp.threadCpu();
        String requestId = UUID.randomUUID().toString();
        int status = 200;
        byte[] body;
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
        ex.getResponseHeaders().set("x-amzn-RequestId", requestId);
        LabHttp.send(ex, cpu0, status, "application/x-amz-json-1.1", body);
    }

    private static byte[] readBody(HttpExchange ex) throws IOException, Fault {
        // not closed here: LabHttp.send reads what is left of a too-long body before answering
        byte[] b = ex.getRequestBody().readNBytes(MAX_BODY + 1);
        if (b.length > MAX_BODY) {
            throw new Fault(413, "RequestEntityTooLarge", "request body over " + MAX_BODY + " bytes");
        }
        return b;
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
            throw new Fault(400, "UnrecognizedClientException",
                    "The security token included in the request is invalid.");
        }
    }

    private ObjectNode dispatch(String target, JsonNode req) throws Fault, GeneralSecurityException {
        if (target.equals("secretsmanager.GetSecretValue")) {
            return getSecretValue(req);
        }
        String op = target.startsWith("TrentService.") ? target.substring("TrentService.".length()) : "";
        ObjectNode out = switch (op) {
            case "Encrypt" -> encrypt(req);
            case "Decrypt" -> decrypt(req);
            case "ReEncrypt" -> reEncrypt(req);
            case "GenerateDataKey" -> generateDataKey(req, true);
            case "GenerateDataKeyWithoutPlaintext" -> generateDataKey(req, false);
            case "GenerateDataKeyPair" -> generateDataKeyPair(req, true);
            case "GenerateDataKeyPairWithoutPlaintext" -> generateDataKeyPair(req, false);
            case "GenerateRandom" -> generateRandom(req);
            case "Sign" -> sign(req);
            case "Verify" -> verify(req);
            case "GenerateMac" -> generateMac(req);
            case "VerifyMac" -> verifyMac(req);
            case "GetPublicKey" -> getPublicKey(req);
            case "DescribeKey" -> describeKey(req);
            case "ListKeys" -> listKeys(req);
            case "ListAliases" -> listAliases(req);
            default -> throw new Fault(400, "UnknownOperationException", "unsupported operation " + target);
        };
        // AWS checks the whole request, then answers DryRun instead of the result.
        if (req.path("DryRun").asBoolean(false)) {
            throw new Fault(412, "DryRunOperationException",
                    "The request would have succeeded, but the DryRun option is set.");
        }
        return out;
    }

    /* ---------------------------------------------------------------- operations */

    private ObjectNode describeKey(JsonNode req) throws Fault {
        Key k = key(req, "KeyId");
        ObjectNode meta = JSON.createObjectNode().put("AWSAccountId", ACCOUNT).put("KeyId", k.id()).put("Arn", k.arn())
                .put("CreationDate", 1.7e9).put("Enabled", true).put("Description", "TrustLoad lab key")
                .put("KeyUsage", k.usage()).put("KeyState", "Enabled").put("Origin", "AWS_KMS")
                .put("KeyManager", "CUSTOMER").put("CustomerMasterKeySpec", k.spec()).put("KeySpec", k.spec())
                .put("MultiRegion", false);
        k.algorithms().forEach(meta.putArray(algorithmsField(k))::add);
        ObjectNode out = JSON.createObjectNode();
        out.set("KeyMetadata", meta);
        return out;
    }

    private static String algorithmsField(Key k) {
        return switch (k.usage()) {
            case Key.ENCRYPT_DECRYPT -> "EncryptionAlgorithms";
            case Key.SIGN_VERIFY -> "SigningAlgorithms";
            default -> "MacAlgorithms";
        };
    }

    private ObjectNode listKeys(JsonNode req) throws Fault {
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("Keys");
        page(req, keyList.size(), out, i -> list.addObject().put("KeyId", keyList.get(i).id())
                .put("KeyArn", keyList.get(i).arn()));
        return out;
    }

    private ObjectNode listAliases(JsonNode req) throws Fault {
        List<Map.Entry<String, Key>> selected = new ArrayList<>();
        Key only = req.hasNonNull("KeyId") ? key(req, "KeyId") : null;
        for (Map.Entry<String, Key> a : aliases.entrySet()) {
            if (only == null || a.getValue() == only) {
                selected.add(a);
            }
        }
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("Aliases");
        page(req, selected.size(), out, i -> list.addObject().put("AliasName", selected.get(i).getKey())
                .put("AliasArn", "arn:aws:kms:" + REGION + ":" + ACCOUNT + ":" + selected.get(i).getKey())
                .put("TargetKeyId", selected.get(i).getValue().id()).put("CreationDate", 1.7e9)
                .put("LastUpdatedDate", 1.7e9));
        return out;
    }

    /** {@code Limit} (1–1000, default 100) and {@code Marker} paging; the marker is the next index. */
    private static void page(JsonNode req, int size, ObjectNode out, java.util.function.IntConsumer add) throws Fault {
        int limit = req.hasNonNull("Limit") ? req.get("Limit").asInt() : 100;
        if (limit < 1 || limit > 1000) {
            throw Fault.validation("1 validation error detected: Value '" + limit
                    + "' at 'limit' failed to satisfy constraint: Member must have value between 1 and 1000");
        }
        int from = 0;
        if (req.hasNonNull("Marker")) {
            try {
                from = Integer.parseInt(req.get("Marker").asText());
            } catch (NumberFormatException e) {
                from = -1;
            }
            if (from < 0 || from > size) {
                throw new Fault(400, "InvalidMarkerException", "Invalid marker");
            }
        }
        int to = Math.min(size, from + limit);
        for (int i = from; i < to; i++) {
            add.accept(i);
        }
        out.put("Truncated", to < size);
        if (to < size) {
            out.put("NextMarker", Integer.toString(to));
        }
    }

    private ObjectNode encrypt(JsonNode req) throws Fault, GeneralSecurityException {
        Key k = symmetric(req, "KeyId");
        encryptionAlgorithm(req, "EncryptionAlgorithm");
        byte[] plain = blob(req, "Plaintext");
        if (plain.length < 1 || plain.length > MAX_MESSAGE) {
            throw Fault.validation("Plaintext must be 1 to " + MAX_MESSAGE + " bytes");
        }
        return JSON.createObjectNode().put("CiphertextBlob", b64(wrap(k, context(req, "EncryptionContext"), plain)))
                .put("KeyId", k.arn()).put("EncryptionAlgorithm", "SYMMETRIC_DEFAULT");
    }

    private ObjectNode decrypt(JsonNode req) throws Fault {
        encryptionAlgorithm(req, "EncryptionAlgorithm");
        Opened o = unwrap(req, "CiphertextBlob", "KeyId", "EncryptionContext");
        return JSON.createObjectNode().put("KeyId", o.key().arn()).put("Plaintext", b64(o.plain()))
                .put("EncryptionAlgorithm", "SYMMETRIC_DEFAULT");
    }

    private ObjectNode reEncrypt(JsonNode req) throws Fault, GeneralSecurityException {
        encryptionAlgorithm(req, "SourceEncryptionAlgorithm");
        encryptionAlgorithm(req, "DestinationEncryptionAlgorithm");
        Key dest = symmetric(req, "DestinationKeyId");
        Opened o = unwrap(req, "CiphertextBlob", "SourceKeyId", "SourceEncryptionContext");
        return JSON.createObjectNode()
                .put("CiphertextBlob", b64(wrap(dest, context(req, "DestinationEncryptionContext"), o.plain())))
                .put("SourceKeyId", o.key().arn()).put("KeyId", dest.arn())
                .put("SourceEncryptionAlgorithm", "SYMMETRIC_DEFAULT")
                .put("DestinationEncryptionAlgorithm", "SYMMETRIC_DEFAULT");
    }

    /**
     * Ciphertext blob: key id length (1 byte), key id, AES-GCM(iv || ct || tag) with the key id and the
     * encryption context (see {@link #aad}) as additional authenticated data.
     */
    private static byte[] wrap(Key k, Map<String, String> context, byte[] plain) throws GeneralSecurityException {
        byte[] id = k.id().getBytes(StandardCharsets.US_ASCII);
        byte[] sealed = KmsCrypto.seal(k.aes(), aad(k, context), plain);
        byte[] out = new byte[1 + id.length + sealed.length];
        out[0] = (byte) id.length;
        System.arraycopy(id, 0, out, 1, id.length);
        System.arraycopy(sealed, 0, out, 1 + id.length, sealed.length);
        return out;
    }

    /**
     * The AAD: key id, then the context's pairs sorted by key, each string length-prefixed, so that
     * no two different contexts give the same bytes ({"ab":"c"} is not {"a":"bc"}).
     */
    private static byte[] aad(Key k, Map<String, String> context) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.util.function.Consumer<String> put = s -> {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.write(b.length >>> 24);
            out.write(b.length >>> 16);
            out.write(b.length >>> 8);
            out.write(b.length);
            out.writeBytes(b);
        };
        put.accept(k.id());
        new TreeMap<>(context).forEach((name, value) -> {
            put.accept(name);
            put.accept(value);
        });
        return out.toByteArray();
    }

    /** A decrypted ciphertext and the key that made it. */
    private record Opened(Key key, byte[] plain) {
    }

    private Opened unwrap(JsonNode req, String blobField, String keyField, String contextField) throws Fault {
        byte[] blob = blob(req, blobField);
        Map<String, String> context = context(req, contextField);
        int idLen = blob.length == 0 ? 0 : blob[0] & 0xff;
        if (blob.length < 1 + idLen + KmsCrypto.IV_BYTES + 16 || idLen == 0) {
            throw new Fault(400, "InvalidCiphertextException", "");
        }
        String id = new String(blob, 1, idLen, StandardCharsets.US_ASCII);
        Key k = keys.get(id);
        if (k == null || !Key.ENCRYPT_DECRYPT.equals(k.usage())) {
            throw new Fault(400, "InvalidCiphertextException", "");
        }
        if (!req.hasNonNull(keyField)) {
            used(k);
        } else if (key(req, keyField) != k) {
            throw new Fault(400, "IncorrectKeyException",
                    "The key ID in the request does not identify a CMK that can perform this operation.");
        }
        try {
            return new Opened(k, KmsCrypto.open(k.aes(), aad(k, context),
                    Arrays.copyOfRange(blob, 1 + idLen, blob.length)));
        } catch (GeneralSecurityException e) {
            // a wrong encryption context and a tampered blob are the same error on AWS
            throw new Fault(400, "InvalidCiphertextException", "");
        }
    }

    private ObjectNode generateDataKey(JsonNode req, boolean withPlaintext) throws Fault, GeneralSecurityException {
        Key k = symmetric(req, "KeyId");
        int n;
        boolean spec = req.hasNonNull("KeySpec");
        if (req.hasNonNull("NumberOfBytes") == spec) {
            throw Fault.validation("Please specify either number of bytes or key spec.");
        }
        if (spec) {
            n = switch (req.get("KeySpec").asText()) {
                case "AES_256" -> 32;
                case "AES_128" -> 16;
                default -> throw Fault.validation("1 validation error detected: Value '" + req.get("KeySpec").asText()
                        + "' at 'keySpec' failed to satisfy constraint: Member must satisfy enum value set:"
                        + " [AES_256, AES_128]");
            };
        } else {
            n = req.get("NumberOfBytes").asInt();
            if (n < 1 || n > 1024) {
                throw Fault.validation("1 validation error detected: Value '" + n
                        + "' at 'numberOfBytes' failed to satisfy constraint: Member must have value"
                        + " between 1 and 1024");
            }
        }
        byte[] plain = KmsCrypto.random(n);
        ObjectNode out = JSON.createObjectNode()
                .put("CiphertextBlob", b64(wrap(k, context(req, "EncryptionContext"), plain)));
        if (withPlaintext) {
            out.put("Plaintext", b64(plain));
        }
        return out.put("KeyId", k.arn());
    }

    private ObjectNode generateDataKeyPair(JsonNode req, boolean withPlaintext) throws Fault, GeneralSecurityException {
        Key k = symmetric(req, "KeyId");
        String spec = text(req, "KeyPairSpec");
        KeyPair pair = switch (spec) {
            case "RSA_2048" -> KmsCrypto.rsa(2048);
            case "RSA_3072" -> KmsCrypto.rsa(3072);
            case "RSA_4096" -> KmsCrypto.rsa(4096);
            case "ECC_NIST_P256" -> KmsCrypto.ec("secp256r1");
            case "ECC_NIST_P384" -> KmsCrypto.ec("secp384r1");
            case "ECC_NIST_P521" -> KmsCrypto.ec("secp521r1");
            default -> throw Fault.validation("1 validation error detected: Value '" + spec + "' at 'keyPairSpec' "
                    + "failed to satisfy constraint: the lab serves RSA_2048, RSA_3072, RSA_4096, ECC_NIST_P256, "
                    + "ECC_NIST_P384, ECC_NIST_P521");
        };
        byte[] pkcs8 = pair.getPrivate().getEncoded();
        ObjectNode out = JSON.createObjectNode()
                .put("PrivateKeyCiphertextBlob", b64(wrap(k, context(req, "EncryptionContext"), pkcs8)));
        if (withPlaintext) {
            out.put("PrivateKeyPlaintext", b64(pkcs8));
        }
        return out.put("PublicKey", b64(pair.getPublic().getEncoded())).put("KeyId", k.arn()).put("KeyPairSpec", spec);
    }

    private ObjectNode generateRandom(JsonNode req) throws Fault {
        if (!req.hasNonNull("NumberOfBytes")) {
            throw Fault.validation("NumberOfBytes is required");
        }
        int n = req.get("NumberOfBytes").asInt();
        if (n < 1 || n > 1024) {
            throw Fault.validation("1 validation error detected: Value '" + n
                    + "' at 'numberOfBytes' failed to satisfy constraint: Member must have value between 1 and 1024");
        }
        if (req.hasNonNull("CustomKeyStoreId")) {
            throw new Fault(400, "CustomKeyStoreNotFoundException", "the lab has no custom key store");
        }
        return JSON.createObjectNode().put("Plaintext", b64(KmsCrypto.random(n)));
    }

    private ObjectNode sign(JsonNode req) throws Fault, GeneralSecurityException {
        Key k = usage(req, "KeyId", Key.SIGN_VERIFY);
        KmsCrypto.SigAlg alg = algorithm(k, req);
        byte[] msg = message(req, alg);
        byte[] sig = KmsCrypto.sign(k.pair().getPrivate(), alg, digest(req), msg);
        return JSON.createObjectNode().put("KeyId", k.arn()).put("Signature", b64(sig))
                .put("SigningAlgorithm", req.get("SigningAlgorithm").asText());
    }

    private ObjectNode verify(JsonNode req) throws Fault, GeneralSecurityException {
        Key k = usage(req, "KeyId", Key.SIGN_VERIFY);
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

    private ObjectNode generateMac(JsonNode req) throws Fault, GeneralSecurityException {
        Key k = usage(req, "KeyId", Key.GENERATE_VERIFY_MAC);
        String alg = macAlgorithm(k, req);
        return JSON.createObjectNode().put("Mac", b64(KmsCrypto.hmac(k.aes(), alg, macMessage(req))))
                .put("MacAlgorithm", alg).put("KeyId", k.arn());
    }

    private ObjectNode verifyMac(JsonNode req) throws Fault, GeneralSecurityException {
        Key k = usage(req, "KeyId", Key.GENERATE_VERIFY_MAC);
        String alg = macAlgorithm(k, req);
        byte[] expected = KmsCrypto.hmac(k.aes(), alg, macMessage(req));
        if (!java.security.MessageDigest.isEqual(expected, blob(req, "Mac"))) {
            throw new Fault(400, "KMSInvalidMacException", "");
        }
        return JSON.createObjectNode().put("KeyId", k.arn()).put("MacValid", true).put("MacAlgorithm", alg);
    }

    private static String macAlgorithm(Key k, JsonNode req) throws Fault {
        String name = text(req, "MacAlgorithm");
        if (!k.algorithms().contains(name)) {
            throw new Fault(400, "InvalidKeyUsageException", "algorithm " + name + " is not valid for this key");
        }
        return name;
    }

    private static byte[] macMessage(JsonNode req) throws Fault {
        byte[] msg = blob(req, "Message");
        if (msg.length < 1 || msg.length > MAX_MESSAGE) {
            throw Fault.validation("Message must be 1 to " + MAX_MESSAGE + " bytes");
        }
        return msg;
    }

    private ObjectNode getPublicKey(JsonNode req) throws Fault {
        Key k = key(req, "KeyId");
        if (k.pair() == null) {
            throw new Fault(400, "UnsupportedOperationException",
                    k.arn() + " key usage is not supported for this operation.");
        }
        ObjectNode out = JSON.createObjectNode().put("KeyId", k.arn())
                .put("PublicKey", b64(k.pair().getPublic().getEncoded()))
                .put("CustomerMasterKeySpec", k.spec()).put("KeySpec", k.spec()).put("KeyUsage", k.usage());
        k.algorithms().forEach(out.putArray("SigningAlgorithms")::add);
        return out;
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

    private Key key(JsonNode req, String field) throws Fault {
        String id = text(req, field);
        Key k = keys.get(id);
        if (k == null) {
            if (id.startsWith("alias/") || id.contains(":alias/")) {
                String arn = id.startsWith("alias/") ? "arn:aws:kms:" + REGION + ":" + ACCOUNT + ":" + id : id;
                throw new Fault(400, "NotFoundException", "Alias " + arn + " is not found.");
            }
            throw new Fault(400, "NotFoundException", "Key '" + id + "' does not exist");
        }
        return used(k);
    }

    private Key symmetric(JsonNode req, String field) throws Fault {
        return usage(req, field, Key.ENCRYPT_DECRYPT);
    }

    private Key usage(JsonNode req, String field, String usage) throws Fault {
        Key k = key(req, field);
        if (!usage.equals(k.usage())) {
            throw new Fault(400, "InvalidKeyUsageException", k.arn() + " key usage is " + k.usage()
                    + " which is not valid for this operation.");
        }
        return k;
    }

    /** The lab's keys are symmetric: only SYMMETRIC_DEFAULT (the default when absent). */
    private static void encryptionAlgorithm(JsonNode req, String field) throws Fault {
        if (req.hasNonNull(field) && !"SYMMETRIC_DEFAULT".equals(req.get(field).asText())) {
            throw new Fault(400, "InvalidKeyUsageException", "Algorithm " + req.get(field).asText()
                    + " is incompatible with key spec SYMMETRIC_DEFAULT.");
        }
    }

    /** An EncryptionContext map (absent or null = empty); values must be strings. */
    private static Map<String, String> context(JsonNode req, String field) throws Fault {
        JsonNode v = req.get(field);
        if (v == null || v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            throw new Fault(400, "SerializationException", field + " must be an object");
        }
        Map<String, String> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new Fault(400, "SerializationException", field + " values must be strings");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
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

    @Override
    public Map<String, String> properties() {
        return Collections.unmodifiableMap(properties);
    }

    @Override
    public void close() {
        if (http != null) {
            used.print("kms aws", "requests", "keys");
        }
        LabHttp.stop(workers, http, https);
    }
}
