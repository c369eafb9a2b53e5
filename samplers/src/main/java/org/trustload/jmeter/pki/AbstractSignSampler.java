package org.trustload.jmeter.pki;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Base64;
import java.util.Locale;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignatureServer;
import org.trustload.pki.SignatureServiceClient;
import org.trustload.pki.TimestampSource;

/**
 * What CAdES Sign and PAdES Sign share: the key from a Key Store Config pool, the document from a
 * file or a variable, local signing (in this JVM or on the PKCS#11 token) or the remote
 * start → sign → complete flow of the {@link SignatureServerConfig} it names (run in lib as named
 * steps; one sample, three sub-results), -B or -T level, and the output to a variable and/or a file.
 * The response body is a readable summary, never the signature.
 */
public abstract class AbstractSignSampler extends PkiSampler<AbstractSignSampler.Prepared> {
    private static final long serialVersionUID = 1L;

    /** Thread variable (object) holding the last signature's bytes, read by the Signature Assertion. */
    public static final String LAST_SIGNATURE = "trustload.signature";
    /** Thread variable (object) holding the last signature's format: {@code cades} or {@code pades}. */
    public static final String LAST_FORMAT = "trustload.signature.format";
    /** Thread variable (object) holding the document a detached signature covers. */
    public static final String LAST_CONTENT = "trustload.signature.content";

    private String keyPool = "default";
    private String configName = SignatureServerConfig.DEFAULT_NAME;
    private String mode = "local";
    private String level = "B";
    private String digest = "SHA-256";
    private String inputFile = "";
    private String inputVariable = "";
    private String outputVariable = "";
    private String outputFile = "";

    /** This thread's document, read once. */
    private transient PkiResults.Input input;

    /** A signature ready to make: everything parsed, the key and the document at hand. */
    static final class Prepared {
        final boolean remote;
        final boolean timestamped;
        final String digest;
        final KeyMaterial key;
        final byte[] document;
        final SignatureServer server;

        Prepared(boolean remote, boolean timestamped, String digest, KeyMaterial key, byte[] document,
                SignatureServer server) {
            this.remote = remote;
            this.timestamped = timestamped;
            this.digest = digest;
            this.key = key;
            this.document = document;
            this.server = server;
        }
    }

    /** {@code cades} or {@code pades}: the flow name prefix and the format. */
    protected abstract String format();

    /** Signs locally. */
    protected abstract byte[] signLocally(byte[] document, KeyMaterial key, String digest, boolean timestamped,
            TimestampSource tsa) throws PkiException;

    /** Whether the signature encapsulates the document (CAdES attached); PAdES is always "attached". */
    protected abstract boolean attached();

    @Override
    protected Prepared prepare(PropertyParser p, SampleResult res) throws ClientException {
        boolean remote = p.oneOf("mode", mode, "local", "local", "remote").equals("remote");
        boolean timestamped = p.oneOf("level", level, "b", "b", "bes", "t").equals("t");
        String d = p.required("digest", digest);
        SignatureServer server = null;
        if (remote || timestamped) {
            server = PkiResults.server(configName, p);
            SignatureServer.Settings s = server.settings();
            if (remote && s.serverUrl() == null) {
                throw p.error("configName", "", SignatureServerConfig.KIND + " '" + configName.trim()
                        + "' has no serverUrl: remote signing needs it", null);
            }
            if (!remote && s.tsaUrl() == null) {
                throw p.error("configName", "", SignatureServerConfig.KIND + " '" + configName.trim()
                        + "' has no tsaUrl: level T needs a TSA", null);
            }
        }
        KeyMaterial key = PkiResults.key(keyPool, p);
        if (input == null) {
            input = new PkiResults.Input();
        }
        byte[] document = input.read(p, "inputFile", inputFile, "inputVariable", inputVariable, true);
        if (document == null) {
            throw p.error("inputFile", "", "no document: set a file or a variable", null);
        }
        res.setSamplerData(format().toUpperCase(Locale.ROOT) + (timestamped ? "-T" : "-B") + " " + d
                + (remote ? " remote " + server.settings().serverUrl() : " local") + "\nsigner: " + key.alias() + " "
                + key.certificate().getSubjectX500Principal().getName() + "\ndocument: " + document.length + " bytes\n");
        return new Prepared(remote, timestamped, d, key, document, server);
    }

    @Override
    protected void execute(Prepared r, SampleResult res) throws ClientException {
        byte[] signature;
        if (r.remote) {
            SignatureServiceClient.Signing s = r.server.signatures().sign(format() + (r.timestamped ? "-t" : ""),
                    r.document, r.key, r.digest, attached());
            res.sampleEnd();
            PkiResults.addSteps(res, s.steps(), false);
            signature = s.orThrow();
        } else {
            signature = signLocally(r.document, r.key, r.digest, r.timestamped,
                    r.timestamped ? r.server.timestamps() : null);
            res.sampleEnd();
        }
        reached();
        publish(signature, r.document);
        String summary = format().toUpperCase(Locale.ROOT) + (r.timestamped ? "-T" : "-B") + " " + signature.length
                + " bytes by " + r.key.alias();
        PkiResults.ok(res, summary, summary + "\nsigner: " + r.key.certificate().getSubjectX500Principal().getName()
                + "\nissuer: " + r.key.certificate().getIssuerX500Principal().getName()
                + "\ndigest: " + r.digest + "\ndocument: " + r.document.length + " bytes\n");
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
            java.io.File f = PropertyParser.resolve(outputFile.trim());
            try {
                Files.write(f.toPath(), signature);
            } catch (IOException ex) {
                throw PkiException.setting("outputFile", f.getPath(), "cannot be written", ex);
            }
        }
    }

    public String getConfigName() {
        return configName;
    }

    public void setConfigName(String configName) {
        this.configName = configName;
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

}
