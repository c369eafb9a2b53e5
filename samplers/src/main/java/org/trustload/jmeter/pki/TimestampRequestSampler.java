package org.trustload.jmeter.pki;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.pki.SignatureServer;
import org.trustload.pki.TimestampClient;

/**
 * Timestamp Request (TrustLoad): an RFC 3161 request to the TSA of the {@link SignatureServerConfig}
 * it names, for the digest of a document (a file, a variable, or fresh random bytes per sample); the
 * lib client checks the status, the imprint and the nonce and reads the token. The response body
 * shows the token's time, serial and policy.
 */
public class TimestampRequestSampler extends PkiSampler<TimestampRequestSampler.Prepared> {
    private static final long serialVersionUID = 1L;
    private static final SecureRandom RANDOM = new SecureRandom();

    private String configName = SignatureServerConfig.DEFAULT_NAME;
    private String digest = "SHA-256";
    private String inputFile = "";
    private String inputVariable = "";
    private String randomBytes = "1024";
    private String outputVariable = "";

    /** This thread's data file, read once. */
    private transient PkiResults.Input input;

    /** A request ready to send: the TSA client, the data and its imprint. */
    static final class Prepared {
        final TimestampClient tsa;
        final String digest;
        final byte[] data;
        final byte[] imprint;

        Prepared(TimestampClient tsa, String digest, byte[] data, byte[] imprint) {
            this.tsa = tsa;
            this.digest = digest;
            this.data = data;
            this.imprint = imprint;
        }
    }

    @Override
    protected String kind() {
        return "Timestamp Request";
    }

    @Override
    protected Prepared prepare(PropertyParser p, SampleResult res) throws ClientException {
        SignatureServer server = PkiResults.server(configName, p);
        if (server.settings().tsaUrl() == null) {
            throw p.error("configName", "", SignatureServerConfig.KIND + " '" + configName.trim()
                    + "' has no tsaUrl: timestamps need a TSA", null);
        }
        String d = p.required("digest", digest);
        MessageDigest md;
        try {
            md = MessageDigest.getInstance(d);
        } catch (NoSuchAlgorithmException e) {
            throw p.error("digest", "", "unknown digest '" + d + "'", null);
        }
        if (input == null) {
            input = new PkiResults.Input();
        }
        byte[] data = input.read(p, "inputFile", inputFile, "inputVariable", inputVariable, false);
        if (data == null) {
            data = new byte[p.integer("randomBytes", randomBytes, 1024, 1, 64 << 20)];
            RANDOM.nextBytes(data);
        }
        byte[] imprint = md.digest(data);
        TimestampClient tsa = server.timestamps();
        res.setSamplerData("POST " + tsa.url() + "\n" + d + " imprint " + PkiResults.hex(imprint, 64) + "\n");
        return new Prepared(tsa, d, data, imprint);
    }

    @Override
    protected void execute(Prepared r, SampleResult res) throws ClientException {
        TimestampClient.Granted t = r.tsa.request(r.imprint, r.digest);
        res.sampleEnd();
        reached();
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null) {
            vars.putObject(AbstractSignSampler.LAST_SIGNATURE, t.token());
            vars.putObject(AbstractSignSampler.LAST_FORMAT, "timestamp");
            vars.putObject(AbstractSignSampler.LAST_CONTENT, r.data);
            if (outputVariable != null && !outputVariable.isBlank()) {
                vars.put(outputVariable.trim(), Base64.getEncoder().encodeToString(t.token()));
            }
        }
        PkiResults.ok(res, t.summary(), t.summary() + "\npolicy: " + t.policy() + "\ntsa: " + t.tsa()
                + "\ntoken: " + t.token().length + " bytes\n");
    }

    public String getConfigName() {
        return configName;
    }

    public void setConfigName(String configName) {
        this.configName = configName;
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

    public String getRandomBytes() {
        return randomBytes;
    }

    public void setRandomBytes(String randomBytes) {
        this.randomBytes = randomBytes;
    }

    public String getOutputVariable() {
        return outputVariable;
    }

    public void setOutputVariable(String outputVariable) {
        this.outputVariable = outputVariable;
    }
}
