package org.trustload.kms.aliyun;

import com.aliyun.dkms.gcs.openapi.models.Config;
import com.aliyun.dkms.gcs.openapi.util.models.RuntimeOptions;
import com.aliyun.dkms.gcs.sdk.Client;
import com.aliyun.dkms.gcs.sdk.models.DecryptRequest;
import com.aliyun.dkms.gcs.sdk.models.EncryptRequest;
import com.aliyun.dkms.gcs.sdk.models.EncryptResponse;
import com.aliyun.dkms.gcs.sdk.models.GenerateDataKeyRequest;
import com.aliyun.dkms.gcs.sdk.models.GenerateDataKeyResponse;
import com.aliyun.dkms.gcs.sdk.models.GetSecretValueRequest;
import com.aliyun.dkms.gcs.sdk.models.GetSecretValueResponse;
import com.aliyun.dkms.gcs.sdk.models.SignRequest;
import com.aliyun.dkms.gcs.sdk.models.SignResponse;
import com.aliyun.dkms.gcs.sdk.models.VerifyRequest;
import com.aliyun.dkms.gcs.sdk.models.VerifyResponse;
import com.aliyun.tea.okhttp.ClientHelper;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import okhttp3.OkHttpClient;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsOperation;
import org.trustload.kms.KmsRequest;
import org.trustload.kms.KmsResult;
import org.trustload.kms.KmsSettings;
import org.trustload.kms.MessageType;

/**
 * An open {@link KmsClient} on the Alibaba KMS instance SDK; thread-safe, one per test.
 *
 * <p><b>The SDK's JVM-wide HTTP client cache.</b> Tea (the SDK's HTTP layer) keeps one OkHttp client
 * per {@code host:port} in a static map and builds it from the options of the first call, so the
 * first caller's timeouts, pool size and trust settings would win for the whole JVM. {@link #open}
 * therefore builds the OkHttp client from these settings and puts it into that map itself, replacing
 * any earlier one for the endpoint; {@link #close} removes it (only if it is still ours) and closes
 * its connections. Consequence: two clients with different settings for the same {@code host:port}
 * in one JVM at the same time share the last opened client's settings. Use one KMS configuration per
 * endpoint in a test plan.
 *
 * <p>Envelope of ENCRYPT and GENERATE_DATA_KEY outputs: one byte IV length, the IV, the ciphertext blob.
 */
final class AliyunKmsInstanceClient implements KmsClient {
    /** Longest IV an envelope holds (AES-GCM uses 12 bytes); a longer one means a foreign ciphertext. */
    private static final int ENVELOPE_MAX_IV = 64;

    private final Client sdk;
    private final RuntimeOptions runtime;
    private final String cacheKey;
    private final OkHttpClient http;
    private volatile boolean closed;

    private AliyunKmsInstanceClient(Client sdk, RuntimeOptions runtime, String cacheKey, OkHttpClient http) {
        this.sdk = sdk;
        this.runtime = runtime;
        this.cacheKey = cacheKey;
        this.http = http;
    }

    static AliyunKmsInstanceClient open(KmsSettings s) throws KmsException {
        String endpoint = s.endpoint();
        String protocol = "https";
        if (endpoint.isEmpty()) {
            throw KmsException.config("MissingEndpoint", "endpoint",
                    "the aliyun-kms-instance backend needs an endpoint "
                    + "(host:port of the KMS instance, e.g. kst-xxx.cryptoservice.kms.aliyuncs.com)");
        }
        int scheme = endpoint.indexOf("://");
        if (scheme >= 0) {
            protocol = endpoint.substring(0, scheme).toLowerCase(java.util.Locale.ROOT);
            endpoint = endpoint.substring(scheme + 3);
            if (endpoint.endsWith("/")) {
                endpoint = endpoint.substring(0, endpoint.length() - 1);
            }
            if (!protocol.equals("https") && !protocol.equals("http")) {
                throw KmsException.config("BadEndpoint", "endpoint",
                        "the scheme must be https or http, was '" + protocol + "'");
            }
        }
        String cacheKey;
        String host;
        try {
            URL url = new URL(protocol + "://" + endpoint + "/");
            if (!url.getPath().equals("/") || url.getHost().isEmpty()) {
                throw new MalformedURLException("not host:port");
            }
            host = url.getHost();
            cacheKey = ClientHelper.getClientKey(host, url.getPort());
        } catch (MalformedURLException e) {
            throw KmsException.config("BadEndpoint", "endpoint", "must be host:port, was '" + s.endpoint() + "'");
        }
        KmsBackends.requireKnownHost(host);
        boolean tls = protocol.equals("https");
        String ca = null;
        if (tls && !s.trustAll()) {
            if (s.caFile().isEmpty()) {
                throw KmsException.config("MissingCa", "caFile",
                        "HTTPS to a KMS instance needs a CA file (the instance CA "
                        + "PEM) or an explicit trust-all: the SDK trusts no other certificate");
            }
            try {
                ca = Files.readString(Path.of(s.caFile()), StandardCharsets.US_ASCII);
            } catch (IOException | RuntimeException e) {
                throw KmsException.config("BadCaFile", "caFile", s.caFile(),
                        e instanceof java.nio.file.NoSuchFileException
                        ? "file not found" : "cannot read the CA file", e);
            }
            if (!ca.contains("-----BEGIN CERTIFICATE-----")) {
                throw KmsException.config("BadCaFile", "caFile", s.caFile(), "no PEM certificate in the CA file", null);
            }
        }
        if (s.clientKeyFile().isEmpty()) {
            throw KmsException.config("MissingClientKey", "clientKeyFile",
                    "the aliyun-kms-instance backend needs a client key file");
        }
        Path keyFile = Path.of(s.clientKeyFile());
        if (!Files.isReadable(keyFile)) {
            throw KmsException.config("ClientKeyFileNotFound", "clientKeyFile", keyFile.toString(),
                    Files.exists(keyFile)
                    ? "not a readable file" : "file not found", null);
        }
        String clientKey;
        try {
            clientKey = Files.readString(keyFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw KmsException.config("ClientKeyFileNotFound", "clientKeyFile", keyFile.toString(),
                    "cannot read the client key file", e);
        }

        Config config = new Config().setEndpoint(endpoint).setProtocol(protocol)
                .setClientKeyContent(clientKey).setPassword(s.clientKeyPassword())
                .setConnectTimeout(s.connectTimeoutMs()).setReadTimeout(s.responseTimeoutMs())
                .setMaxIdleConns(s.maxConnections());
        if (ca != null) {
            config.setCa(ca);
        }
        if (tls && s.trustAll()) {
            config.setIgnoreSSL(true);
        }
        Client sdk;
        try {
            sdk = new Client(config);
        } catch (Exception e) {
            throw clientKeyError(keyFile, e);
        }

        RuntimeOptions runtime = new RuntimeOptions()
                .setAutoretry(s.maxRetries() > 0).setMaxAttempts(s.maxRetries()).setBackoffPolicy("no")
                .setConnectTimeout(s.connectTimeoutMs()).setReadTimeout(s.responseTimeoutMs())
                .setMaxIdleConns(s.maxConnections());
        // The options Tea would build the cached OkHttp client from (see the class comment).
        Map<String, Object> options = new HashMap<>();
        options.put("connectTimeout", s.connectTimeoutMs());
        options.put("readTimeout", s.responseTimeoutMs());
        options.put("maxIdleConns", s.maxConnections());
        options.put("ignoreSSL", tls && s.trustAll());
        if (ca != null) {
            // The SDK keeps only the last certificate of a chain file (its resolveSubCa); do the same.
            options.put("ca", sdk._ca);
        }
        OkHttpClient http;
        try {
            http = ClientHelper.creatClient(options);
        } catch (RuntimeException e) {
            throw KmsException.config("BadCaFile", "caFile", s.caFile(), "the CA certificate is not usable", e);
        }
        ClientHelper.clients.put(cacheKey, http);
        return new AliyunKmsInstanceClient(sdk, runtime, cacheKey, http);
    }

    private static KmsException clientKeyError(Path keyFile, Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.security.UnrecoverableKeyException
                    || (t instanceof IOException && String.valueOf(t.getMessage()).contains("password"))) {
                return KmsException.config("BadClientKeyPassword", "clientKeyPassword", keyFile.toString(),
                        "wrong client key password", null);
            }
        }
        // The SDK's messages name the file, never the password.
        return KmsException.config("BadClientKeyFile", "clientKeyFile", keyFile.toString(),
                "not a client key file (ClientKey_*.json)", e);
    }

    @Override
    public KmsResult execute(KmsRequest r) throws KmsException {
        if (closed) {
            throw KmsException.config("ClientClosed", "", "the KMS client was closed (test ended)");
        }
        try {
            switch (r.operation()) {
                case ENCRYPT: {
                    EncryptRequest req = new EncryptRequest().setKeyId(r.keyId()).setPlaintext(r.data());
                    if (!r.context().isEmpty()) {
                        req.setAad(r.context().aad());
                    }
                    EncryptResponse out = sdk.encryptWithOptions(req, runtime);
                    return result(r.operation(), envelope(out.getIv(), out.getCiphertextBlob()), true,
                            out.getKeyId(), out.getRequestId());
                }
                case DECRYPT: {
                    byte[][] parts = unwrap(r.ciphertext());
                    DecryptRequest req = new DecryptRequest().setKeyId(r.keyId()).setIv(parts[0])
                            .setCiphertextBlob(parts[1]);
                    if (!r.context().isEmpty()) {
                        req.setAad(r.context().aad());
                    }
                    var out = sdk.decryptWithOptions(req, runtime);
                    return result(r.operation(), out.getPlaintext(), true, out.getKeyId(), out.getRequestId());
                }
                case SIGN: {
                    SignRequest req = new SignRequest().setKeyId(r.keyId()).setMessage(r.data())
                            .setMessageType(messageType(r.messageType()));
                    if (!r.algorithm().isEmpty()) {
                        req.setAlgorithm(r.algorithm());
                    }
                    SignResponse out = sdk.signWithOptions(req, runtime);
                    return result(r.operation(), out.getSignature(), true, out.getKeyId(), out.getRequestId());
                }
                case VERIFY: {
                    VerifyRequest req = new VerifyRequest().setKeyId(r.keyId()).setMessage(r.data())
                            .setMessageType(messageType(r.messageType())).setSignature(r.signature());
                    if (!r.algorithm().isEmpty()) {
                        req.setAlgorithm(r.algorithm());
                    }
                    VerifyResponse out = sdk.verifyWithOptions(req, runtime);
                    return result(r.operation(), new byte[0], Boolean.TRUE.equals(out.getValue()), out.getKeyId(),
                            out.getRequestId());
                }
                case GET_SECRET_VALUE: {
                    GetSecretValueResponse out = sdk.getSecretValueWithOptions(
                            new GetSecretValueRequest().setSecretName(r.secretName()), runtime);
                    String data = out.getSecretData() == null ? "" : out.getSecretData();
                    return result(r.operation(), data.getBytes(StandardCharsets.UTF_8), true, "", out.getRequestId());
                }
                case GENERATE_DATA_KEY: {
                    GenerateDataKeyRequest req = new GenerateDataKeyRequest().setKeyId(r.keyId())
                            .setNumberOfBytes(r.dataKeyBytes() > 0 ? r.dataKeyBytes() : 32);
                    if (!r.context().isEmpty()) {
                        req.setAad(r.context().aad());
                    }
                    GenerateDataKeyResponse out = sdk.generateDataKeyWithOptions(req, runtime);
                    return result(r.operation(), envelope(out.getIv(), out.getCiphertextBlob()), true,
                            out.getKeyId(), out.getRequestId());
                }
                case GENERATE_RANDOM: {
                    var out = sdk.generateRandomWithOptions(new com.aliyun.dkms.gcs.sdk.models.GenerateRandomRequest()
                            .setLength(r.dataKeyBytes() > 0 ? r.dataKeyBytes() : 32), runtime);
                    return result(r.operation(), out.getRandom(), true, "", out.getRequestId());
                }
                case GET_PUBLIC_KEY: {
                    var out = sdk.getPublicKeyWithOptions(new com.aliyun.dkms.gcs.sdk.models.GetPublicKeyRequest()
                            .setKeyId(r.keyId()), runtime);
                    String pem = out.getPublicKey() == null ? "" : out.getPublicKey();
                    return result(r.operation(), pem.getBytes(StandardCharsets.US_ASCII), true, out.getKeyId(),
                            out.getRequestId());
                }
                default:
                    KmsBackends.requireOperation(new AliyunKmsInstanceBackend(), r.operation());
                    throw KmsException.config("UnsupportedOperation", "operation",
                            "operation " + r.operation().planName() + " is not supported");
            }
        } catch (KmsException e) {
            throw e;
        } catch (Exception e) {
            throw AliyunErrors.map(e);
        }
    }

    private static KmsResult result(KmsOperation op, byte[] output, boolean valid, String keyId, String requestId) {
        return new KmsResult(op, output, valid, keyId, requestId);
    }

    private static String messageType(MessageType t) {
        return t == MessageType.DIGEST ? "DIGEST" : "RAW";
    }

    /** IV and ciphertext blob in one opaque value (see the class comment). */
    static byte[] envelope(byte[] iv, byte[] blob) throws KmsException {
        iv = iv == null ? new byte[0] : iv;
        blob = blob == null ? new byte[0] : blob;
        if (iv.length > ENVELOPE_MAX_IV) {
            throw new KmsException(KmsException.Category.SERVER_ERROR, -1, "MalformedResponse",
                    "the service returned a " + iv.length + "-byte IV", null);
        }
        byte[] out = new byte[1 + iv.length + blob.length];
        out[0] = (byte) iv.length;
        System.arraycopy(iv, 0, out, 1, iv.length);
        System.arraycopy(blob, 0, out, 1 + iv.length, blob.length);
        return out;
    }

    /** Splits an {@link #envelope} into IV and blob. */
    static byte[][] unwrap(byte[] envelope) throws KmsException {
        int ivLength = envelope.length == 0 ? -1 : envelope[0] & 0xff;
        if (ivLength < 0 || ivLength > ENVELOPE_MAX_IV || envelope.length < 1 + ivLength) {
            throw KmsException.config("BadCiphertext", "", "the ciphertext is not an ENCRYPT output of the "
                    + "aliyun-kms-instance backend (" + envelope.length + " bytes)");
        }
        byte[] iv = java.util.Arrays.copyOfRange(envelope, 1, 1 + ivLength);
        byte[] blob = java.util.Arrays.copyOfRange(envelope, 1 + ivLength, envelope.length);
        return new byte[][] {iv, blob};
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ClientHelper.clients.remove(cacheKey, http);
        http.connectionPool().evictAll();
        http.dispatcher().executorService().shutdown();
    }
}
