package org.trustload.jmeter.kms;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.ClientSampler;
import org.trustload.jmeter.common.ParsedOnChange;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.kms.EncryptionContext;
import org.trustload.kms.KmsConnection;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsException.Category;
import org.trustload.kms.KmsOperation;
import org.trustload.kms.KmsRequest;
import org.trustload.kms.KmsResult;
import org.trustload.kms.KmsWorkload;
import org.trustload.kms.MessageType;

/**
 * KMS Request (TrustLoad): one KMS call (any {@link KmsOperation} the backend serves) on the client of the
 * {@link KmsClientConfig} it names, holding only what varies per request. Each thread prepares its data once
 * per key outside the clock and times only the repeated call; failures carry a category code ({@code
 * KMS.Timeout}, {@code KMS.LimitExceeded}, …), a wrong setting stops the thread, and results carry lengths,
 * never key material or secrets. docs/elements/kms-request.md. Property names are stored in users' plans:
 * never rename them.
 */
public class KmsRequestSampler extends ClientSampler<KmsRequestSampler.Prepared> implements ThreadListener {
    private static final long serialVersionUID = 1L;

    /** What users see in menus and messages. */
    static final String KIND = "KMS Request";

    /** Requests started in this JVM since the last test start (the KMS Periodic Report's RequestCount). */
    private static final LongAdder STARTED = new LongAdder();
    private static final String UTF_8 = StandardCharsets.UTF_8.name();

    // Bean properties (TestBean): plain strings, so the element serializes for distributed mode.
    private String configName = "kms";
    private String operation = "encrypt";
    private String keyId = "";
    private String dataSize = "32";
    private String algorithm = "";
    private String messageType = "RAW";
    private String secretName = "";
    private String dataKeyBytes = "32";
    private String encryptionContext = "";

    /** This thread's request per key, each prepared on the first sample that uses it, for this spec and client. */
    private transient KmsWorkload.Case[] prepared;
    private transient String[] samplerData;
    private transient List<String> keys;
    /** This thread's next key (its position in {@code keys}, modulo their count). */
    private transient long turn;
    private transient KmsWorkload.Spec preparedFor;
    private transient KmsConnection preparedOn;
    /** The request spec, parsed again only when one of its properties changed. */
    private transient ParsedOnChange<KmsWorkload.Spec> specs;
    /** True once this thread got an answer from the KMS: a later refusal is load, not a wrong target. */
    private transient boolean reached;

    /** A request ready to send on its client, and what its answer must hold. */
    record Prepared(KmsConnection connection, KmsWorkload.Case check) {
        KmsRequest request() {
            return check.request();
        }
    }

    /** Requests started in this JVM since the test started. */
    static long started() {
        return STARTED.sum();
    }

    /** Called by the config at test start. */
    static void resetStarted() {
        STARTED.reset();
    }

    @Override
    protected String kind() {
        return KIND;
    }

    @Override
    protected Prepared prepare(PropertyParser p, SampleResult res) throws ClientException {
        KmsConnection c = config(KmsConnection.class, KmsClientConfig.KIND, configName, p);
        KmsWorkload.Spec spec = spec(p);
        c.requireOperation(spec.operation()); // before anything is sent
        int thread = JMeterContextService.getContext().getThreadNum();
        if (prepared == null || (spec != preparedFor && !spec.equals(preparedFor)) || c != preparedOn) {
            keys = KmsWorkload.keyIds(spec.keyId());
            prepared = new KmsWorkload.Case[keys.size()];
            samplerData = new String[keys.size()];
            preparedFor = spec;
            preparedOn = c;
            turn = thread; // threads start on different keys
        }
        int i = (int) Math.floorMod(turn++, (long) prepared.length);
        if (prepared[i] == null) {
            try {
                // data seeded per thread and key: requests differ across threads and keys
                prepared[i] = KmsWorkload.prepareCase(c, spec.withKeyId(keys.get(i)), thread * 1_000_003L + i);
            } catch (KmsException e) {
                stopIfUnreachable(e, c.reached(), res);
                throw e;
            }
            samplerData[i] = c.backend() + " " + prepared[i].request();
        }
        res.setSamplerData(samplerData[i]);
        return new Prepared(c, prepared[i]);
    }

    @Override
    protected void execute(Prepared r, SampleResult res) throws ClientException {
        KmsRequest request = r.request();
        STARTED.increment();
        KmsResult out = r.connection().execute(request);
        res.sampleEnd();
        reached = true;
        res.setSentBytes(request.data().length + request.ciphertext().length + request.signature().length);
        res.setBytes((long) out.output().length);
        KmsException wrong = r.check().check(out);
        // bytes + encoding: setResponseData(String, String) looks the charset up by name every sample
        res.setResponseData((wrong == null ? describe(out) : describe(out) + wrong.detail() + "\n")
                .getBytes(StandardCharsets.UTF_8));
        res.setDataEncoding(UTF_8);
        if (out.operation().isCheck() && !out.signatureValid()) {
            res.setSuccessful(false);
            res.setResponseCode(Category.VERIFY_FAILED.code());
            res.setResponseMessage(KmsException.NO_STATUS
                    + (out.operation() == KmsOperation.VERIFY ? ":SignatureInvalid" : ":MacInvalid"));
        } else if (wrong != null) {
            // a success that is not one: the answer lacks what the call must return (never a silent pass)
            res.setSuccessful(false);
            res.setResponseCode(wrong.category());
            res.setResponseMessage(wrong.getMessage());
        } else {
            res.setSuccessful(true);
            res.setResponseCodeOK();
            res.setResponseMessageOK();
        }
    }

    @Override
    protected void onFailure(Prepared r, ClientException e, SampleResult res) {
        if (e instanceof KmsException k) {
            stopIfUnreachable(k, r.connection().reached(), res);
        }
    }

    /**
     * A thread that never reached the KMS and whose connect can only fail the same way (refused, no
     * route, TLS trust) stops after this sample: one failed sample per thread says it. Timeouts are
     * not definitive: under load they come and go. Once another thread of the test got an answer
     * ({@code anyReached}), a refusal is an outage: a thread that starts during it goes on.
     */
    private void stopIfUnreachable(KmsException e, boolean anyReached, SampleResult res) {
        boolean definitive = e.kind() == Category.TLS_ERROR || (e.kind() == Category.CONNECTION_ERROR
                && (e.errorCode().equals("ConnectionRefused") || e.errorCode().equals("UnknownHost")
                        || e.errorCode().equals("NoRouteToHost")));
        if (definitive && !reached && !anyReached) {
            res.setStopThread(true);
        } else if (e.httpStatus() > 0) {
            reached = true;
        }
    }

    private static String describe(KmsResult r) {
        // lengths only: the output may be a plaintext, a secret value or a data key
        return r.operation().planName() + ": " + r.output().length + " bytes out"
                + (r.operation().isCheck() ? ", valid: " + r.signatureValid() : "")
                + "\nkey: " + r.keyId() + "\nrequest id: " + r.requestId() + "\n";
    }

    /**
     * The request spec, parsed again only when a property value changed since the last sample (a
     * {@code ${...}} value may change per iteration; a plan's literal or {@code __P} values do not): the
     * profile of a KMS Request sample showed the parse (operation, integers, encryption context) and
     * the comparison of a new spec with the prepared one in every sample.
     */
    KmsWorkload.Spec spec(PropertyParser p) throws ClientException {
        if (specs == null) {
            specs = new ParsedOnChange<>();
        }
        Object[] inputs =
                {operation, keyId, dataSize, algorithm, messageType, secretName, dataKeyBytes, encryptionContext};
        return specs.get(inputs, () -> parseSpec(p));
    }

    private KmsWorkload.Spec parseSpec(PropertyParser p) throws ClientException {
        KmsOperation op;
        MessageType type;
        try {
            op = KmsOperation.parse(operation);
        } catch (IllegalArgumentException e) {
            throw p.error("operation", "", "unknown operation '" + operation + "'", null);
        }
        type = MessageType.valueOf(p.oneOf("messageType", messageType, "raw", "raw", "digest")
                .toUpperCase(Locale.ROOT));
        return new KmsWorkload.Spec(op, clean(keyId), p.integer("dataSize", dataSize, 32, 0, 4096), clean(algorithm),
                type, clean(secretName), p.integer("dataKeyBytes", dataKeyBytes, 32, 0, 1024),
                EncryptionContext.parse(encryptionContext));
    }

    private static String clean(String v) {
        return v == null ? "" : v.trim();
    }

    @Override
    public void threadStarted() {
        if (specs != null) {
            specs.clear();
        }
        prepared = null;
        preparedOn = null;
        reached = false;
    }

    @Override
    public void threadFinished() {
        prepared = null;
        preparedOn = null;
    }

    // ---- bean accessors (names are the stored property names) ----

    public String getConfigName() {
        return configName;
    }

    public void setConfigName(String configName) {
        this.configName = configName;
    }

    public String getOperation() {
        return operation;
    }

    public void setOperation(String operation) {
        this.operation = operation;
    }

    public String getKeyId() {
        return keyId;
    }

    public void setKeyId(String keyId) {
        this.keyId = keyId;
    }

    public String getDataSize() {
        return dataSize;
    }

    public void setDataSize(String dataSize) {
        this.dataSize = dataSize;
    }

    public String getAlgorithm() {
        return algorithm;
    }

    public void setAlgorithm(String algorithm) {
        this.algorithm = algorithm;
    }

    public String getMessageType() {
        return messageType;
    }

    public void setMessageType(String messageType) {
        this.messageType = messageType;
    }

    public String getSecretName() {
        return secretName;
    }

    public void setSecretName(String secretName) {
        this.secretName = secretName;
    }

    public String getDataKeyBytes() {
        return dataKeyBytes;
    }

    public void setDataKeyBytes(String dataKeyBytes) {
        this.dataKeyBytes = dataKeyBytes;
    }

    public String getEncryptionContext() {
        return encryptionContext;
    }

    public void setEncryptionContext(String encryptionContext) {
        this.encryptionContext = encryptionContext;
    }
}
