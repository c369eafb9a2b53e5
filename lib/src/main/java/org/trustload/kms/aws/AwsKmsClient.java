package org.trustload.kms.aws;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.http.NoHttpResponseException;
import org.apache.http.conn.ConnectTimeoutException;
import org.apache.http.conn.ConnectionPoolTimeoutException;
import org.trustload.common.ClientException;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsException.Category;
import org.trustload.kms.KmsException.Rung;
import org.trustload.kms.KmsOperation;
import org.trustload.kms.KmsRequest;
import org.trustload.kms.KmsResult;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.kms.model.DecryptResponse;
import software.amazon.awssdk.services.kms.model.EncryptResponse;
import software.amazon.awssdk.services.kms.model.GenerateDataKeyResponse;
import software.amazon.awssdk.services.kms.model.KmsInvalidMacException;
import software.amazon.awssdk.services.kms.model.KmsInvalidSignatureException;
import software.amazon.awssdk.services.kms.model.SignResponse;
import software.amazon.awssdk.services.kms.model.VerifyResponse;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueResponse;
import software.amazon.awssdk.thirdparty.jackson.core.JsonProcessingException;

/** The {@code aws-kms} client: KMS and Secrets Manager sync clients over one Apache connection pool. */
final class AwsKmsClient implements KmsClient {
    private final software.amazon.awssdk.services.kms.KmsClient kms;
    private final SecretsManagerClient secrets;
    private final SdkHttpClient http;
    /** Default signing algorithm per key, from DescribeKey, for requests that name none. */
    private final Map<String, String> defaultAlgorithms = new ConcurrentHashMap<>();
    private volatile boolean closed;

    AwsKmsClient(software.amazon.awssdk.services.kms.KmsClient kms, SecretsManagerClient secrets, SdkHttpClient http) {
        this.kms = kms;
        this.secrets = secrets;
        this.http = http;
    }

    @Override
    public KmsResult execute(KmsRequest r) throws KmsException {
        if (closed) {
            throw KmsException.config("ClientClosed", "", "the KMS client was closed (test ended)");
        }
        check(r);
        Map<String, String> ctx = switch (r.operation()) {
            case ENCRYPT, DECRYPT, RE_ENCRYPT, GENERATE_DATA_KEY,
                    GENERATE_DATA_KEY_WITHOUT_PLAINTEXT -> r.context().map();
            default -> Map.of();
        };
        try {
            return switch (r.operation()) {
                case ENCRYPT -> {
                    EncryptResponse resp = kms.encrypt(b -> b.keyId(r.keyId())
                            .plaintext(SdkBytes.fromByteArrayUnsafe(r.data()))
                            .encryptionContext(ctx.isEmpty() ? null : ctx));
                    yield result(r, resp.ciphertextBlob(), true, resp.keyId(), resp.responseMetadata().requestId());
                }
                case DECRYPT -> {
                    DecryptResponse resp = kms.decrypt(b -> {
                        b.ciphertextBlob(SdkBytes.fromByteArrayUnsafe(r.ciphertext()))
                                .encryptionContext(ctx.isEmpty() ? null : ctx);
                        if (!r.keyId().isEmpty()) {
                            b.keyId(r.keyId());
                        }
                    });
                    yield result(r, resp.plaintext(), true, resp.keyId(), resp.responseMetadata().requestId());
                }
                case SIGN -> {
                    String alg = algorithm(r);
                    SignResponse resp = kms.sign(b -> b.keyId(r.keyId()).signingAlgorithm(alg)
                            .messageType(r.messageType().name()).message(SdkBytes.fromByteArrayUnsafe(r.data())));
                    yield result(r, resp.signature(), true, resp.keyId(), resp.responseMetadata().requestId());
                }
                case VERIFY -> verify(r);
                case GET_SECRET_VALUE -> {
                    GetSecretValueResponse resp = secrets.getSecretValue(b -> b.secretId(r.secretName()));
                    byte[] value = resp.secretString() != null ? resp.secretString().getBytes(StandardCharsets.UTF_8)
                            : resp.secretBinary() != null ? resp.secretBinary().asByteArrayUnsafe() : new byte[0];
                    yield new KmsResult(r.operation(), value, true, resp.arn(), resp.responseMetadata().requestId());
                }
                case GENERATE_DATA_KEY -> {
                    GenerateDataKeyResponse resp = kms.generateDataKey(b -> b.keyId(r.keyId())
                            .numberOfBytes(bytes(r)).encryptionContext(ctx.isEmpty() ? null : ctx));
                    yield result(r, resp.ciphertextBlob(), true, resp.keyId(), resp.responseMetadata().requestId());
                }
                case GENERATE_DATA_KEY_WITHOUT_PLAINTEXT -> {
                    var resp = kms.generateDataKeyWithoutPlaintext(b -> b.keyId(r.keyId())
                            .numberOfBytes(bytes(r)).encryptionContext(ctx.isEmpty() ? null : ctx));
                    yield result(r, resp.ciphertextBlob(), true, resp.keyId(), resp.responseMetadata().requestId());
                }
                case RE_ENCRYPT -> {
                    // same key and context on both sides: the cost of a re-encryption, not a key change
                    var resp = kms.reEncrypt(b -> b.ciphertextBlob(SdkBytes.fromByteArrayUnsafe(r.ciphertext()))
                            .sourceKeyId(r.keyId()).destinationKeyId(r.keyId())
                            .sourceEncryptionContext(ctx.isEmpty() ? null : ctx)
                            .destinationEncryptionContext(ctx.isEmpty() ? null : ctx));
                    yield result(r, resp.ciphertextBlob(), true, resp.keyId(), resp.responseMetadata().requestId());
                }
                case GENERATE_RANDOM -> {
                    var resp = kms.generateRandom(b -> b.numberOfBytes(bytes(r)));
                    yield result(r, resp.plaintext(), true, "", resp.responseMetadata().requestId());
                }
                case GET_PUBLIC_KEY -> {
                    var resp = kms.getPublicKey(b -> b.keyId(r.keyId()));
                    yield result(r, resp.publicKey(), true, resp.keyId(), resp.responseMetadata().requestId());
                }
                case DESCRIBE_KEY -> {
                    var resp = kms.describeKey(b -> b.keyId(r.keyId()));
                    yield result(r, null, true, resp.keyMetadata().arn(), resp.responseMetadata().requestId());
                }
                case GENERATE_MAC -> {
                    String alg = algorithm(r);
                    var resp = kms.generateMac(b -> b.keyId(r.keyId()).macAlgorithm(alg)
                            .message(SdkBytes.fromByteArrayUnsafe(r.data())));
                    yield result(r, resp.mac(), true, resp.keyId(), resp.responseMetadata().requestId());
                }
                case VERIFY_MAC -> verifyMac(r);
            };
        } catch (SdkException e) {
            throw map(e);
        } catch (RuntimeException e) {
            throw new KmsException(Category.CLIENT_ERROR, -1, e.getClass().getSimpleName(),
                    ClientException.readable(e), e);
        }
    }

    private KmsResult verify(KmsRequest r) {
        String alg = algorithm(r);
        try {
            VerifyResponse resp = kms.verify(b -> b.keyId(r.keyId()).signingAlgorithm(alg)
                    .messageType(r.messageType().name()).message(SdkBytes.fromByteArrayUnsafe(r.data()))
                    .signature(SdkBytes.fromByteArrayUnsafe(r.signature())));
            return new KmsResult(r.operation(), null, Boolean.TRUE.equals(resp.signatureValid()), resp.keyId(),
                    resp.responseMetadata().requestId());
        } catch (KmsInvalidSignatureException e) {
            // AWS answers an invalid signature with this error; moto answers SignatureValid=false. Same outcome.
            return new KmsResult(r.operation(), null, false, r.keyId(), e.requestId());
        }
    }

    private KmsResult verifyMac(KmsRequest r) {
        String alg = algorithm(r);
        try {
            var resp = kms.verifyMac(b -> b.keyId(r.keyId()).macAlgorithm(alg)
                    .message(SdkBytes.fromByteArrayUnsafe(r.data())).mac(SdkBytes.fromByteArrayUnsafe(r.signature())));
            return new KmsResult(r.operation(), null, Boolean.TRUE.equals(resp.macValid()), resp.keyId(),
                    resp.responseMetadata().requestId());
        } catch (KmsInvalidMacException e) {
            // AWS answers an invalid MAC with this error, as for signatures
            return new KmsResult(r.operation(), null, false, r.keyId(), e.requestId());
        }
    }

    private static int bytes(KmsRequest r) {
        return r.dataKeyBytes() > 0 ? r.dataKeyBytes() : 32;
    }

    /**
     * The request's algorithm, or the key's first signing algorithm (SIGN, VERIFY) or MAC algorithm
     * (GENERATE_MAC, VERIFY_MAC): one DescribeKey per key, cached.
     */
    private String algorithm(KmsRequest r) {
        if (!r.algorithm().isEmpty()) {
            return r.algorithm();
        }
        boolean mac = r.operation() == KmsOperation.GENERATE_MAC || r.operation() == KmsOperation.VERIFY_MAC;
        return defaultAlgorithms.computeIfAbsent((mac ? "mac|" : "sign|") + r.keyId(), k -> {
            var meta = kms.describeKey(b -> b.keyId(r.keyId())).keyMetadata();
            List<String> algs = mac ? meta.macAlgorithmsAsStrings() : meta.signingAlgorithmsAsStrings();
            if (algs.isEmpty()) {
                throw SdkClientException.create("key " + r.keyId() + " has no " + (mac ? "MAC" : "signing")
                        + " algorithm (not a " + (mac ? "GENERATE_VERIFY_MAC" : "SIGN_VERIFY") + " key)");
            }
            return algs.get(0);
        });
    }

    private static KmsResult result(KmsRequest r, SdkBytes out, boolean valid, String keyId, String requestId) {
        return new KmsResult(r.operation(), out == null ? null : out.asByteArrayUnsafe(), valid, keyId, requestId);
    }

    private static void check(KmsRequest r) throws KmsException {
        switch (r.operation()) {
            case GET_SECRET_VALUE -> {
                if (r.secretName().isBlank()) {
                    throw KmsException.config("MissingSecretName", "secretName",
                            "get_secret_value needs a secret name");
                }
            }
            case DECRYPT, RE_ENCRYPT -> {
                if (r.ciphertext().length == 0) {
                    throw KmsException.config("MissingCiphertext", "",
                            r.operation().planName() + " needs a ciphertext");
                }
            }
            case GENERATE_RANDOM -> {
            }
            default -> {
                if (r.keyId().isBlank()) {
                    throw KmsException.config("MissingKeyId", "keyId", r.operation().planName() + " needs a key id");
                }
            }
        }
    }

    /** Maps every SDK failure to a category and {@code <status or ->:<code>}. */
    static KmsException map(SdkException e) {
        if (e instanceof AwsServiceException se) {
            int status = se.statusCode();
            String code = se.awsErrorDetails() != null && se.awsErrorDetails().errorCode() != null
                    ? se.awsErrorDetails().errorCode() : "Unknown";
            Category c;
            if (se.isThrottlingException() || "LimitExceededException".equals(code)) {
                c = Category.LIMIT_EXCEEDED;
            } else if (status >= 500) {
                c = Category.SERVER_ERROR;
            } else {
                c = Category.CLIENT_ERROR;
            }
            String msg = se.awsErrorDetails() != null ? se.awsErrorDetails().errorMessage() : se.getMessage();
            return new KmsException(c, status, code, msg + " (request id " + se.requestId() + ")", e);
        }
        if (e instanceof ApiCallAttemptTimeoutException || e instanceof ApiCallTimeoutException) {
            return new KmsException(Category.TIMEOUT, -1, "CallTimeout", e.getMessage(), e);
        }
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof JsonProcessingException j) {
                // an answer, but not JSON (a maintenance page, a proxy's error): the service's fault, not the network's
                return new KmsException(Category.SERVER_ERROR, -1, "MalformedResponse",
                        "the answer is not the KMS JSON protocol: " + j.getOriginalMessage(), e);
            }
        }
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            KmsException k = fromIo(t, e);
            if (k != null) {
                return k;
            }
        }
        String code = e.getMessage() != null && e.getMessage().startsWith("Unable to unmarshall")
                ? "MalformedResponse" : e.getClass().getSimpleName();
        Category c = code.equals("MalformedResponse") ? Category.SERVER_ERROR : Category.CLIENT_ERROR;
        return new KmsException(c, -1, code, e.getMessage(), e);
    }

    /**
     * The Apache HTTP client's timeouts (a pool wait is a ConnectTimeoutException too: it comes first), the
     * shared rungs, then a connection the server closed and an interrupted wait.
     */
    private static final List<Rung> LADDER = KmsException.ladder(List.of(
            new Rung(ConnectionPoolTimeoutException.class, Category.TIMEOUT, "PoolTimeout"),
            new Rung(ConnectTimeoutException.class, Category.TIMEOUT, "ConnectTimeout"),
            new Rung(SocketTimeoutException.class, Category.TIMEOUT, "ReadTimeout")), List.of(
            new Rung(NoHttpResponseException.class, Category.CONNECTION_ERROR, "ConnectionClosed"),
            new Rung(SocketException.class, Category.CONNECTION_ERROR, "ConnectionClosed"),
            new Rung(InterruptedIOException.class, Category.TIMEOUT, "Interrupted")));

    private static KmsException fromIo(Throwable t, SdkException e) {
        KmsException k = KmsException.climb(LADDER, t, e);
        if (k == null && t instanceof IOException && t.getCause() == null) {
            // one readable cause, not the SDK's wrapped message
            k = new KmsException(Category.CONNECTION_ERROR, -1, t.getClass().getSimpleName(),
                    ClientException.readable(t), e);
        }
        return k;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        kms.close();
        secrets.close();
        http.close();
    }
}
