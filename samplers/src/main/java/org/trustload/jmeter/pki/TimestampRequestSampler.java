package org.trustload.jmeter.pki;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import org.apache.jmeter.samplers.SampleResult;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.pki.Flow;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignatureServer;
import org.trustload.pki.TimestampClient;
import org.trustload.pki.api.SignatureApi;
import org.trustload.pki.api.SignatureApiClient;
import org.trustload.pki.api.SignatureApis;

/**
 * Timestamp Request (TrustLoad): a timestamp for the digest of a document (a file, a variable, or fresh
 * random bytes per sample), by {@code rfc3161} from the TSA of the {@link SignatureServerConfig} it names
 * (the lib client checks the status, the imprint and the nonce) or through the config's {@code api}
 * (DSS's timestamp service, Rest PKI's timestamp plans; the token's imprint is checked). The response body
 * shows the token's time, serial and policy; the token can be kept in a variable, a file, or a directory
 * that receives every one.
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
    private String outputFile = "";
    private String outputDirectory = "";
    private String protocol = PROTOCOL_RFC3161;
    private String timestampPlan = "";

    /** Protocols: RFC 3161 at the config's TSA URL, or the config's API's own timestamp service. */
    public static final String PROTOCOL_RFC3161 = "rfc3161";
    public static final String PROTOCOL_API = "api";

    /** This thread's data file, read once. */
    private transient PkiResults.Input input;
    /** This thread's token files. */
    private transient PkiResults.Output output;

    /** A request ready to send: the TSA client (or the API's), the data and its imprint. */
    record Prepared(TimestampClient tsa, SignatureApiClient api, String plan, String digest, byte[] data,
            byte[] imprint) {
    }

    @Override
    protected String kind() {
        return "Timestamp Request";
    }

    @Override
    protected Prepared prepare(PropertyParser p, SampleResult res) throws ClientException {
        SignatureServer server = config(SignatureServer.class, SignatureServerConfig.KIND, configName, p);
        boolean viaApi =
                p.oneOf("protocol", protocol, PROTOCOL_RFC3161, PROTOCOL_RFC3161, PROTOCOL_API).equals(PROTOCOL_API);
        if (!viaApi && server.settings().tsaUrl() == null) {
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
        String plan = timestampPlan == null ? "" : timestampPlan.trim();
        if (viaApi) {
            SignatureApiClient api;
            try {
                SignatureApis.require(server.api(), SignatureApi.Feature.TIMESTAMP, "protocol", "timestamp service");
                api = server.signatures();
            } catch (PkiException e) {
                throw p.wrap(e);
            }
            res.setSamplerData(server.api().name() + " timestamp " + server.settings().serverUrl()
                    + (plan.isEmpty() ? "" : " plan " + plan) + "\n" + d + " imprint " + PkiResults.hex(imprint, 64)
                    + "\n");
            target(server, server.settings().serverUrl());
            return new Prepared(null, api, plan, d, data, imprint);
        }
        TimestampClient tsa = server.timestamps();
        target(server, tsa.url());
        res.setSamplerData("POST " + tsa.url() + "\n" + d + " imprint " + PkiResults.hex(imprint, 64) + "\n");
        return new Prepared(tsa, null, plan, d, data, imprint);
    }

    @Override
    protected void execute(Prepared r, SampleResult res) throws ClientException {
        byte[] token;
        String summary;
        String body;
        if (r.api() != null) {
            Flow f = r.api().timestamp(r.imprint(), r.digest(), r.plan());
            res.sampleEnd();
            PkiResults.addSteps(res, f.steps(), false);
            token = f.orThrow();
            summary = f.summary();
            body = summary + "\ntoken: " + token.length + " bytes\n";
        } else {
            TimestampClient.Granted t = r.tsa().request(r.imprint(), r.digest());
            res.sampleEnd();
            token = t.token();
            summary = t.summary();
            body = summary + "\npolicy: " + t.policy() + "\ntsa: " + t.tsa() + "\ntoken: " + token.length + " bytes\n";
        }
        reached();
        if (output == null) {
            output = new PkiResults.Output();
        }
        output.publish(new PropertyParser(element()), "timestamp", token, r.data(), outputVariable, outputFile,
                outputDirectory, getName(), ".tst");
        PkiResults.ok(res, summary, body);
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

    public String getOutputFile() {
        return outputFile;
    }

    public void setOutputFile(String outputFile) {
        this.outputFile = outputFile;
    }

    public String getOutputDirectory() {
        return outputDirectory;
    }

    public void setOutputDirectory(String outputDirectory) {
        this.outputDirectory = outputDirectory;
    }

    public String getProtocol() {
        return protocol;
    }

    public void setProtocol(String protocol) {
        this.protocol = protocol;
    }

    public String getTimestampPlan() {
        return timestampPlan;
    }

    public void setTimestampPlan(String timestampPlan) {
        this.timestampPlan = timestampPlan;
    }
}
