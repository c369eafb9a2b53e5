package org.trustload.jmeter.pki;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignatureServiceClient;
import org.trustload.pki.TimestampSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What CAdES Sign and PAdES Sign share: the key from a Key Store Config pool, the document from a
 * file or a variable, local signing (in this JVM or on the PKCS#11 token) or the remote
 * start → client-sign → complete flow (one sample, three sub-results), -B or -T level, and the
 * output to a variable and/or a file. The response body is a readable summary, never the signature.
 */
public abstract class AbstractSignSampler extends AbstractSampler implements TestBean {
    private static final long serialVersionUID = 1L;

    /** Thread variable (object) holding the last signature's bytes, read by the Signature Assertion. */
    public static final String LAST_SIGNATURE = "trustload.signature";
    /** Thread variable (object) holding the last signature's format: {@code cades} or {@code pades}. */
    public static final String LAST_FORMAT = "trustload.signature.format";
    /** Thread variable (object) holding the document a detached signature covers. */
    public static final String LAST_CONTENT = "trustload.signature.content";

    private static final ConcurrentHashMap<String, SignatureServiceClient> CLIENTS = new ConcurrentHashMap<>();

    private String keyPool = "default";
    private String mode = "local";
    private String serverUrl = "";
    private String level = "B";
    private String digest = "SHA-256";
    private String tsaUrl = "";
    private String inputFile = "";
    private String inputVariable = "";
    private String outputVariable = "";
    private String outputFile = "";
    private String connectTimeout = "5000";
    private String responseTimeout = "60000";

    /** {@code cades} or {@code pades}: the flow name prefix and the format. */
    protected abstract String format();

    /** Signs locally. */
    protected abstract byte[] signLocally(byte[] document, KeyMaterial key, String digest, boolean timestamped,
            TimestampSource tsa) throws PkiException;

    /** Whether the signature encapsulates the document (CAdES attached); PAdES is always "attached". */
    protected abstract boolean attached();

    @Override
    public SampleResult sample(Entry e) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.sampleStart();
        try {
            boolean remote = remote();
            boolean timestamped = timestamped();
            KeyMaterial key = KeyPools.current(keyPool);
            byte[] document = PkiResults.input(inputFile, inputVariable, true, "document");
            res.setSamplerData(format().toUpperCase(Locale.ROOT) + (timestamped ? "-T" : "-B") + " " + digest
                    + (remote ? " remote " + serverUrl : " local") + "\nsigner: " + key.alias() + " "
                    + key.certificate().getSubjectX500Principal().getName() + "\ndocument: " + document.length + " bytes\n");
            byte[] signature = remote ? signRemotely(res, document, key, timestamped)
                    : signLocally(document, key, digest.trim(), timestamped, timestamped ? tsa() : null);
            if (!remote) {
                res.sampleEnd();
            }
            publish(signature, document);
            String summary = format().toUpperCase(Locale.ROOT) + (timestamped ? "-T" : "-B") + " " + signature.length
                    + " bytes by " + key.alias();
            PkiResults.ok(res, summary, summary + "\nsigner: " + key.certificate().getSubjectX500Principal().getName()
                    + "\nissuer: " + key.certificate().getIssuerX500Principal().getName()
                    + "\ndigest: " + digest + "\ndocument: " + document.length + " bytes\n");
        } catch (PkiException ex) {
            PkiResults.fail(res, ex);
        } catch (RuntimeException ex) {
            PkiResults.unexpected(res, ex);
        }
        return res;
    }

    private byte[] signRemotely(SampleResult parent, byte[] document, KeyMaterial key, boolean timestamped)
            throws PkiException {
        SignatureServiceClient client = client();
        String flow = format() + (timestamped ? "-t" : "");
        SampleResult start = sub("start");
        SignatureServiceClient.Started started;
        try {
            started = client.start(flow, document, key.chain(), digest.trim(), attached());
        } catch (PkiException ex) {
            failSub(parent, start, ex);
            throw ex;
        }
        done(parent, start, "token " + started.token());
        SampleResult sign = sub("sign");
        byte[] value;
        try {
            value = key.sign(started.signatureAlgorithm(), started.toBeSigned());
        } catch (PkiException ex) {
            failSub(parent, sign, ex);
            throw ex;
        }
        done(parent, sign, started.signatureAlgorithm() + " " + value.length + " bytes");
        SampleResult complete = sub("complete");
        SignatureServiceClient.Completed done;
        try {
            done = client.complete(started.token(), value);
        } catch (PkiException ex) {
            failSub(parent, complete, ex);
            throw ex;
        }
        // addSubResult already extended the parent's end time to the end of the last step; calling
        // parent.sampleEnd() here as well made JMeter log "sampleEnd called twice" on every sample
        done(parent, complete, done.signature().length + " bytes");
        return done.signature();
    }

    private SampleResult sub(String step) {
        SampleResult s = new SampleResult();
        s.setSampleLabel(getName() + " " + step);
        s.sampleStart();
        return s;
    }

    private static void done(SampleResult parent, SampleResult s, String summary) {
        s.sampleEnd();
        PkiResults.ok(s, summary, summary);
        parent.addSubResult(s, false);
    }

    private static void failSub(SampleResult parent, SampleResult s, PkiException ex) {
        s.sampleEnd();
        PkiResults.fail(s, ex);
        parent.addSubResult(s, false);
    }

    private void publish(byte[] signature, byte[] document) throws PkiException {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null) {
            vars.putObject(LAST_SIGNATURE, signature);
            vars.putObject(LAST_FORMAT, format());
            vars.putObject(LAST_CONTENT, document);
            if (outputVariable != null && !outputVariable.isBlank()) {
                vars.put(outputVariable.trim(), Base64.getEncoder().encodeToString(signature));
            }
        }
        if (outputFile != null && !outputFile.isBlank()) {
            try {
                Files.write(Path.of(outputFile.trim()), signature);
            } catch (java.io.IOException ex) {
                throw new PkiException(PkiException.CONFIG_ERROR, "output file cannot be written", outputFile + ": " + ex, ex);
            }
        }
    }

    private boolean remote() throws PkiException {
        String m = mode == null ? "" : mode.trim().toLowerCase(Locale.ROOT);
        if (m.isEmpty() || m.equals("local")) {
            return false;
        }
        if (m.equals("remote")) {
            if (serverUrl == null || serverUrl.isBlank()) {
                throw new PkiException(PkiException.CONFIG_ERROR, "remote mode needs a server URL");
            }
            return true;
        }
        throw new PkiException(PkiException.CONFIG_ERROR, "unknown mode '" + mode + "' (expected local, remote)");
    }

    private boolean timestamped() throws PkiException {
        String l = level == null ? "" : level.trim().toUpperCase(Locale.ROOT);
        if (l.isEmpty() || l.equals("B") || l.equals("BES")) {
            return false;
        }
        if (l.equals("T")) {
            return true;
        }
        throw new PkiException(PkiException.CONFIG_ERROR, "unknown level '" + level + "' (expected B, T)");
    }

    private SignatureServiceClient client() throws PkiException {
        int ct = PkiResults.parseInt("connectTimeout", connectTimeout, 5000);
        int rt = PkiResults.parseInt("responseTimeout", responseTimeout, 60000);
        String key = serverUrl.trim() + "|" + ct + "|" + rt;
        try {
            return CLIENTS.computeIfAbsent(key, k -> new SignatureServiceClient(URI.create(serverUrl.trim()), ct, rt));
        } catch (IllegalArgumentException ex) {
            throw new PkiException(PkiException.CONFIG_ERROR, "bad server URL '" + serverUrl + "'");
        }
    }

    private TimestampSource tsa() throws PkiException {
        if (tsaUrl == null || tsaUrl.isBlank()) {
            throw new PkiException(PkiException.CONFIG_ERROR, "level T needs a TSA URL");
        }
        return PkiResults.tsa(tsaUrl, connectTimeout, responseTimeout, 60000);
    }

    public String getKeyPool() {
        return keyPool;
    }

    public void setKeyPool(String keyPool) {
        this.keyPool = keyPool;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getServerUrl() {
        return serverUrl;
    }

    public void setServerUrl(String serverUrl) {
        this.serverUrl = serverUrl;
    }

    public String getLevel() {
        return level;
    }

    public void setLevel(String level) {
        this.level = level;
    }

    public String getDigest() {
        return digest;
    }

    public void setDigest(String digest) {
        this.digest = digest;
    }

    public String getTsaUrl() {
        return tsaUrl;
    }

    public void setTsaUrl(String tsaUrl) {
        this.tsaUrl = tsaUrl;
    }

    public String getInputFile() {
        return inputFile;
    }

    public void setInputFile(String inputFile) {
        this.inputFile = inputFile;
    }

    public String getInputVariable() {
        return inputVariable;
    }

    public void setInputVariable(String inputVariable) {
        this.inputVariable = inputVariable;
    }

    public String getOutputVariable() {
        return outputVariable;
    }

    public void setOutputVariable(String outputVariable) {
        this.outputVariable = outputVariable;
    }

    public String getOutputFile() {
        return outputFile;
    }

    public void setOutputFile(String outputFile) {
        this.outputFile = outputFile;
    }

    public String getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(String connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public String getResponseTimeout() {
        return responseTimeout;
    }

    public void setResponseTimeout(String responseTimeout) {
        this.responseTimeout = responseTimeout;
    }
}
