package org.trustload.jmeter.kms;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.trustload.kms.EncryptionContext;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsException.Category;
import org.trustload.kms.KmsOperation;
import org.trustload.kms.KmsRequest;
import org.trustload.kms.KmsResult;
import org.trustload.kms.KmsSettings;
import org.trustload.kms.KmsWorkload;
import org.trustload.kms.MessageType;

/**
 * KMS Request (TrustLoad): one KMS call (any {@link KmsOperation} the backend serves: Encrypt, Decrypt,
 * ReEncrypt, Sign, Verify, GetSecretValue, GenerateDataKey[WithoutPlaintext], GenerateRandom, GetPublicKey,
 * DescribeKey, GenerateMac, VerifyMac) through a {@link org.trustload.kms.KmsBackend} chosen by name, with
 * an optional encryption context ({@link EncryptionContext}). The client (connection
 * pool, TLS, credentials) is built once per test in {@link #testStarted()} and shared by every thread
 * with the same connection settings; it is closed in {@link #testEnded()}. Each thread prepares its
 * request once (random data; for decrypt one Encrypt, for verify one Sign, outside any sample) and then
 * times only the repeated call, like the reference benchmark.
 *
 * <p>Failures carry a category response code ({@code KMS.Timeout}, {@code KMS.LimitExceeded},
 * {@code KMS.ClientError}, …) and the message {@code <http status or ->:<service error code>}. A Verify
 * that answers "invalid" is a failure ({@code KMS.VerifyFailed}). Key material, plaintexts, secret
 * values and passwords never reach the result: only lengths.
 *
 * <p>Property names are stored in users' plans: never rename them.
 */
public class KmsRequestSampler extends AbstractSampler implements TestBean, TestStateListener, ThreadListener {
    private static final long serialVersionUID = 1L;

    /** Clients of the running test by settings; each engine JVM has its own. */
    private static final Map<String, Shared> CLIENTS = new ConcurrentHashMap<>();
    /** Requests started in this JVM since the last test start (the report's RequestCount). */
    private static final LongAdder STARTED = new LongAdder();

    // Bean properties (TestBean): plain strings, so the element serializes for distributed mode.
    private String backend = KmsBackends.AWS;
    private String operation = "encrypt";
    private String keyId = "";
    private String dataSize = "32";
    private String algorithm = "";
    private String messageType = "RAW";
    private String secretName = "";
    private String dataKeyBytes = "32";
    private String encryptionContext = "";
    private String endpoint = "";
    private String region = "";
    private String accessKeyId = "";
    private String secretAccessKey = "";
    private String clientKeyFile = "";
    private String clientKeyPassword = "";
    private String caFile = "";
    private boolean trustAll;
    private String connectTimeout = String.valueOf(KmsSettings.DEFAULT_CONNECT_TIMEOUT_MS);
    private String responseTimeout = String.valueOf(KmsSettings.DEFAULT_RESPONSE_TIMEOUT_MS);
    private String maxConnections = String.valueOf(KmsSettings.DEFAULT_MAX_CONNECTIONS);
    private String retries = "0";

    /** This thread's client (from {@link #CLIENTS}), prepared request and its description, made on its first sample. */
    private transient KmsClient client;
    private transient KmsRequest prepared;
    private transient KmsWorkload.Spec preparedFor;
    private transient String samplerData;

    /** A client or the reason it could not be built (every sample then fails with it). */
    private record Shared(KmsClient client, KmsException error) {
    }

    /** Requests started in this JVM since the test started. */
    static long started() {
        return STARTED.sum();
    }

    @Override
    public SampleResult sample(Entry e) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.setDataType(SampleResult.TEXT);
        KmsRequest request = null;
        try {
            if (prepared == null) {
                // before the client: an operation the backend lacks is a configuration error, nothing is sent
                KmsBackends.requireOperation(KmsBackends.byName(backend), spec().operation());
            }
            KmsClient c = client;
            if (c == null) {
                // settings are fixed for the test (read at test start): look the shared client up once per thread
                c = client();
                client = c;
            }
            request = request(c);
            res.setSamplerData(samplerData);
            STARTED.increment();
            res.sampleStart();
            KmsResult r = c.execute(request);
            res.sampleEnd();
            res.setSentBytes(request.data().length + request.ciphertext().length + request.signature().length);
            res.setBytes((long) r.output().length);
            res.setResponseData(describe(r), "UTF-8");
            if (r.operation().isCheck() && !r.signatureValid()) {
                res.setSuccessful(false);
                res.setResponseCode(Category.VERIFY_FAILED.code());
                res.setResponseMessage(KmsException.NO_STATUS
                        + (r.operation() == KmsOperation.VERIFY ? ":SignatureInvalid" : ":MacInvalid"));
            } else {
                res.setSuccessful(true);
                res.setResponseCodeOK();
                res.setResponseMessageOK();
            }
        } catch (KmsException ex) {
            endIfRunning(res);
            fail(res, ex.category().code(), ex.getMessage(), ex.detail());
        } catch (RuntimeException ex) {
            endIfRunning(res);
            fail(res, Category.CLIENT_ERROR.code(), KmsException.NO_STATUS + ":" + ex.getClass().getSimpleName(),
                    String.valueOf(ex));
        }
        return res;
    }

    private static String describe(KmsResult r) {
        // lengths only: the output may be a plaintext, a secret value or a data key
        return r.operation().planName() + ": " + r.output().length + " bytes out"
                + (r.operation().isCheck() ? ", valid: " + r.signatureValid() : "")
                + "\nkey: " + r.keyId() + "\nrequest id: " + r.requestId() + "\n";
    }

    private static void endIfRunning(SampleResult res) {
        if (res.getStartTime() == 0) {
            res.sampleStart();
        }
        if (res.getEndTime() == 0) {
            res.sampleEnd();
        }
    }

    private static void fail(SampleResult res, String code, String message, String detail) {
        res.setSuccessful(false);
        res.setResponseCode(code);
        res.setResponseMessage(message);
        res.setResponseData(message + "\n" + detail + "\n", "UTF-8");
    }

    /* ---------------------------------------------------------------- shared client */

    private KmsClient client() throws KmsException {
        KmsSettings s = settings();
        Shared shared = CLIENTS.computeIfAbsent(key(s), k -> open(s));
        if (shared.error() != null) {
            throw shared.error();
        }
        return shared.client();
    }

    private Shared open(KmsSettings s) {
        try {
            return new Shared(KmsBackends.byName(backend).open(s), null);
        } catch (KmsException e) {
            return new Shared(null, e);
        }
    }

    /** Backend + settings; the secrets enter only as a hash so the key can be logged safely. */
    private String key(KmsSettings s) {
        return backend.trim().toLowerCase(Locale.ROOT) + "|" + s + "|" + s.hashCode() + "|"
                + (s.secretAccessKey() + "\0" + s.clientKeyPassword()).hashCode();
    }

    KmsSettings settings() throws KmsException {
        return KmsSettings.builder().endpoint(endpoint).region(region).credentials(accessKeyId, secretAccessKey)
                .clientKey(clientKeyFile, clientKeyPassword).caFile(caFile).trustAll(trustAll)
                .connectTimeoutMs(parseInt("connectTimeout", connectTimeout))
                .responseTimeoutMs(parseInt("responseTimeout", responseTimeout))
                .maxConnections(parseInt("maxConnections", maxConnections)).maxRetries(parseInt("retries", retries))
                .build();
    }

    private KmsRequest request(KmsClient client) throws KmsException {
        KmsWorkload.Spec spec = spec();
        if (prepared == null || !spec.equals(preparedFor)) {
            long seed = JMeterContextService.getContext().getThreadNum();
            prepared = KmsWorkload.prepare(client, spec, seed);
            preparedFor = spec;
            samplerData = backend + " " + prepared;
        }
        return prepared;
    }

    KmsWorkload.Spec spec() throws KmsException {
        KmsOperation op;
        MessageType type;
        try {
            op = KmsOperation.parse(operation);
        } catch (IllegalArgumentException e) {
            throw KmsException.config("BadOperation", e.getMessage());
        }
        try {
            type = MessageType.valueOf(messageType.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw KmsException.config("BadMessageType", "message type must be RAW or DIGEST, was " + messageType);
        }
        return new KmsWorkload.Spec(op, keyId.trim(), parseInt("dataSize", dataSize), algorithm.trim(), type,
                secretName.trim(), parseInt("dataKeyBytes", dataKeyBytes), EncryptionContext.parse(encryptionContext));
    }

    private static int parseInt(String name, String value) throws KmsException {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException | NullPointerException e) {
            throw KmsException.config("BadNumber", name + " must be a whole number, was '" + value + "'");
        }
    }

    /* ---------------------------------------------------------------- test and thread life cycle */

    @Override
    public void testStarted() {
        STARTED.reset();
        try {
            client(); // build it now, outside any sample; a bad setting is reported by every sample
        } catch (KmsException e) {
            // the samples report it
        }
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        for (Shared s : CLIENTS.values()) {
            if (s.client() != null) {
                s.client().close();
            }
        }
        CLIENTS.clear();
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    @Override
    public void threadStarted() {
        client = null;
        prepared = null;
    }

    @Override
    public void threadFinished() {
        client = null;
        prepared = null;
    }

    /* ---------------------------------------------------------------- bean properties */

    public String getBackend() { return backend; }
    public void setBackend(String v) { backend = v; }
    public String getOperation() { return operation; }
    public void setOperation(String v) { operation = v; }
    public String getKeyId() { return keyId; }
    public void setKeyId(String v) { keyId = v; }
    public String getDataSize() { return dataSize; }
    public void setDataSize(String v) { dataSize = v; }
    public String getAlgorithm() { return algorithm; }
    public void setAlgorithm(String v) { algorithm = v; }
    public String getMessageType() { return messageType; }
    public void setMessageType(String v) { messageType = v; }
    public String getSecretName() { return secretName; }
    public void setSecretName(String v) { secretName = v; }
    public String getDataKeyBytes() { return dataKeyBytes; }
    public void setDataKeyBytes(String v) { dataKeyBytes = v; }
    public String getEncryptionContext() { return encryptionContext; }
    public void setEncryptionContext(String v) { encryptionContext = v; }
    public String getEndpoint() { return endpoint; }
    public void setEndpoint(String v) { endpoint = v; }
    public String getRegion() { return region; }
    public void setRegion(String v) { region = v; }
    public String getAccessKeyId() { return accessKeyId; }
    public void setAccessKeyId(String v) { accessKeyId = v; }
    public String getSecretAccessKey() { return secretAccessKey; }
    public void setSecretAccessKey(String v) { secretAccessKey = v; }
    public String getClientKeyFile() { return clientKeyFile; }
    public void setClientKeyFile(String v) { clientKeyFile = v; }
    public String getClientKeyPassword() { return clientKeyPassword; }
    public void setClientKeyPassword(String v) { clientKeyPassword = v; }
    public String getCaFile() { return caFile; }
    public void setCaFile(String v) { caFile = v; }
    public boolean isTrustAll() { return trustAll; }
    public void setTrustAll(boolean v) { trustAll = v; }
    public String getConnectTimeout() { return connectTimeout; }
    public void setConnectTimeout(String v) { connectTimeout = v; }
    public String getResponseTimeout() { return responseTimeout; }
    public void setResponseTimeout(String v) { responseTimeout = v; }
    public String getMaxConnections() { return maxConnections; }
    public void setMaxConnections(String v) { maxConnections = v; }
    public String getRetries() { return retries; }
    public void setRetries(String v) { retries = v; }
}
