package org.trustload.jmeter.pki;

import java.util.Locale;
import org.apache.jmeter.samplers.SampleResult;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignOptions;
import org.trustload.pki.SignatureServer;
import org.trustload.pki.Flow;
import org.trustload.pki.api.SignRequest;
import org.trustload.pki.api.SignatureApi;
import org.trustload.pki.api.SignatureApis;

/**
 * What CAdES Sign and PAdES Sign share: the key from a Key Store Config pool, the document from a
 * file or a variable, and where the signature is made: {@code local} (in this JVM or on the PKCS#11
 * token), {@code remote} (the API of the {@link SignatureServerConfig} it names builds the signature
 * around a client-side signing step: Rest PKI's start → sign → complete, DSS's getDataToSign → sign →
 * signDocument; one sample, a sub-result per step) or {@code server-key} (the server signs with a key it
 * holds: DSS server signing); -B or -T level, the product's own level name when wanted
 * ({@code signaturePolicy}), and the output to a variable, a file and/or a directory that keeps every
 * signature. The response body is a readable summary, never the signature.
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
    private String outputDirectory = "";
    private String signaturePolicy = "";
    private String serverKeyAlias = "";

    /** Modes: sign here, sign through the server's API with the user's key, or let the server sign. */
    public static final String MODE_LOCAL = "local";
    public static final String MODE_REMOTE = "remote";
    public static final String MODE_SERVER_KEY = "server-key";

    /** This thread's document, read once. */
    private transient PkiResults.Input input;
    /** This thread's signature files. */
    private transient PkiResults.Output output;

    /**
     * A signature ready to make: everything parsed, the key (or the server's) and the document at hand;
     * {@code label} names format and level, e.g. {@code CADES-T}.
     */
    record Prepared(String label, boolean timestamped, String digest, KeyMaterial key, byte[] document,
            SignatureServer server, SignRequest request) {
    }

    /** {@code cades} or {@code pades}: the flow name prefix and the format. */
    protected abstract String format();

    /** Signs locally with these options (digest, level and TSA, CAdES's attached). */
    protected abstract byte[] signLocally(byte[] document, KeyMaterial key, SignOptions options) throws PkiException;

    /** Whether the signature encapsulates the document (CAdES attached); PAdES is always "attached". */
    protected abstract boolean attached();

    @Override
    protected Prepared prepare(PropertyParser p, SampleResult res) throws ClientException {
        String m = p.oneOf("mode", mode, MODE_LOCAL, MODE_LOCAL, MODE_REMOTE, MODE_SERVER_KEY);
        boolean timestamped = p.oneOf("level", level, "b", "b", "bes", "t").equals("t");
        String d = p.required("digest", digest);
        try {
            SignOptions.builder().digest(d); // a wrong name is a configuration error before anything is signed
        } catch (IllegalArgumentException e) {
            throw p.error("digest", "", e.getMessage(), null);
        }
        SignatureServer server = null;
        String policy = "";
        String alias = serverKeyAlias == null ? "" : serverKeyAlias.trim();
        boolean viaApi = !m.equals(MODE_LOCAL);
        if (viaApi || timestamped) {
            server = config(SignatureServer.class, SignatureServerConfig.KIND, configName, p);
            SignatureServer.Settings s = server.settings();
            if (viaApi && s.serverUrl() == null) {
                throw p.error("configName", "", SignatureServerConfig.KIND + " '" + configName.trim()
                        + "' has no serverUrl: mode " + m + " needs the API's URL", null);
            }
            if (!viaApi && s.tsaUrl() == null) {
                throw p.error("configName", "", SignatureServerConfig.KIND + " '" + configName.trim()
                        + "' has no tsaUrl: level T needs a TSA", null);
            }
        }
        if (viaApi) {
            SignatureApi api = server.api();
            try {
                SignatureApis.require(api,
                        format().equals("pades") ? SignatureApi.Feature.PADES : SignatureApi.Feature.CADES,
                        "mode", format().toUpperCase(Locale.ROOT) + " signatures");
                if (timestamped) {
                    SignatureApis.require(api, SignatureApi.Feature.LEVEL_T, "level", "level T");
                }
                if (m.equals(MODE_SERVER_KEY)) {
                    SignatureApis.require(api, SignatureApi.Feature.SERVER_KEYS, "mode", "server-held keys");
                    if (alias.isEmpty()) {
                        throw p.error("serverKeyAlias", "",
                                "is empty: mode server-key signs with the server's key of that alias", null);
                    }
                }
                policy = api.signaturePolicy(format(), timestamped, signaturePolicy);
            } catch (PkiException e) {
                throw p.wrap(e);
            }
        }
        KeyMaterial key = m.equals(MODE_SERVER_KEY) ? null : PkiResults.key(keyPool, p);
        if (input == null) {
            input = new PkiResults.Input();
        }
        byte[] document = input.read(p, "inputFile", inputFile, "inputVariable", inputVariable, true);
        if (document == null) {
            throw p.error("inputFile", "", "no document: set a file or a variable", null);
        }
        String label = format().toUpperCase(Locale.ROOT) + (timestamped ? "-T" : "-B");
        res.setSamplerData(label + " " + d + (viaApi ? " " + m + " " + server.api().name() + " "
                + server.settings().serverUrl() + (policy.isEmpty() ? "" : " policy " + policy) : " local")
                + "\nsigner: " + (key == null ? "the server's key " + alias : key.alias() + " "
                + key.certificate().getSubjectX500Principal().getName()) + "\ndocument: " + document.length
                + " bytes\n");
        target(server, server == null ? null : viaApi ? server.settings().serverUrl() : server.settings().tsaUrl());
        SignRequest request = viaApi ? new SignRequest(format(), timestamped, d, attached(), document, key,
                key == null ? alias : null, policy) : null;
        return new Prepared(label, timestamped, d, key, document, server, request);
    }

    @Override
    protected void execute(Prepared r, SampleResult res) throws ClientException {
        byte[] signature;
        String signer;
        if (r.request() != null) {
            Flow f = r.server().signatures().sign(r.request());
            res.sampleEnd();
            PkiResults.addSteps(res, f.steps(), false);
            signature = f.orThrow();
            signer = r.key() == null ? "the server's key " + r.request().serverKey() : r.key().alias();
        } else {
            signature = signLocally(r.document(), r.key(), SignOptions.builder().digest(r.digest()).attached(attached())
                    .level(r.timestamped() ? SignOptions.Level.T : SignOptions.Level.B)
                    .timestampSource(r.timestamped() ? r.server().timestamps() : null).build());
            res.sampleEnd();
            signer = r.key().alias();
        }
        reached();
        publish(signature, r.document());
        String summary = r.label() + " " + signature.length + " bytes by " + signer;
        PkiResults.ok(res, summary, summary + (r.key() == null ? "" : "\nsigner: "
                + r.key().certificate().getSubjectX500Principal().getName() + "\nissuer: "
                + r.key().certificate().getIssuerX500Principal().getName()) + "\ndigest: " + r.digest() + "\ndocument: "
                + r.document().length + " bytes\n");
    }

    private void publish(byte[] signature, byte[] document) throws ClientException {
        if (output == null) {
            output = new PkiResults.Output();
        }
        output.publish(new PropertyParser(element()), format(), signature, document, outputVariable, outputFile,
                outputDirectory, getName(), format().equals("pades") ? ".pdf" : ".p7s");
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

    public String getOutputDirectory() {
        return outputDirectory;
    }

    public void setOutputDirectory(String outputDirectory) {
        this.outputDirectory = outputDirectory;
    }

    public String getSignaturePolicy() {
        return signaturePolicy;
    }

    public void setSignaturePolicy(String signaturePolicy) {
        this.signaturePolicy = signaturePolicy;
    }

    public String getServerKeyAlias() {
        return serverKeyAlias;
    }

    public void setServerKeyAlias(String serverKeyAlias) {
        this.serverKeyAlias = serverKeyAlias;
    }

    public String getOutputFile() {
        return outputFile;
    }

    public void setOutputFile(String outputFile) {
        this.outputFile = outputFile;
    }

}
