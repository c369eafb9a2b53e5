package org.trustload.jmeter.pki;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.tsp.TimeStampToken;
import org.trustload.pki.PkiException;
import org.trustload.pki.TimestampClient;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Timestamp Request (TrustLoad): an RFC 3161 request to a TSA for the digest of a document (a file,
 * a variable, or fresh random bytes per sample); the client checks the status, the imprint and the
 * nonce. The response body shows the token's time, serial and policy.
 */
public class TimestampRequestSampler extends AbstractSampler implements TestBean {
    private static final long serialVersionUID = 1L;
    private static final SecureRandom RANDOM = new SecureRandom();

    private String tsaUrl = "";
    private String digest = "SHA-256";
    private String inputFile = "";
    private String inputVariable = "";
    private String randomBytes = "1024";
    private String outputVariable = "";
    private String connectTimeout = "5000";
    private String responseTimeout = "30000";

    @Override
    public SampleResult sample(Entry e) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.sampleStart();
        try {
            byte[] data = data();
            byte[] imprint = MessageDigest.getInstance(digest.trim()).digest(data);
            res.setSamplerData("POST " + tsaUrl + "\n" + digest + " imprint " + PkiResults.hex(imprint, 64) + "\n");
            byte[] token = client().timestamp(imprint, digest.trim());
            res.sampleEnd();
            TimeStampToken t = new TimeStampToken(new CMSSignedData(token));
            JMeterVariables vars = JMeterContextService.getContext().getVariables();
            if (vars != null) {
                vars.putObject(AbstractSignSampler.LAST_SIGNATURE, token);
                vars.putObject(AbstractSignSampler.LAST_FORMAT, "timestamp");
                vars.putObject(AbstractSignSampler.LAST_CONTENT, data);
                if (outputVariable != null && !outputVariable.isBlank()) {
                    vars.put(outputVariable.trim(), Base64.getEncoder().encodeToString(token));
                }
            }
            String summary = "timestamp " + t.getTimeStampInfo().getGenTime().toInstant() + " serial "
                    + t.getTimeStampInfo().getSerialNumber();
            PkiResults.ok(res, summary, summary + "\npolicy: " + t.getTimeStampInfo().getPolicy()
                    + "\ntsa: " + t.getSID().getIssuer() + "\ntoken: " + token.length + " bytes\n");
        } catch (PkiException ex) {
            PkiResults.fail(res, ex);
        } catch (java.security.NoSuchAlgorithmException ex) {
            PkiResults.fail(res, PkiException.CONFIG_ERROR, "unknown digest '" + digest + "'", String.valueOf(ex));
        } catch (Exception ex) {
            PkiResults.fail(res, PkiException.TSA_ERROR, "TSA token cannot be parsed", String.valueOf(ex));
        }
        return res;
    }

    private byte[] data() throws PkiException {
        if ((inputFile == null || inputFile.isBlank()) && (inputVariable == null || inputVariable.isBlank())) {
            byte[] b = new byte[Math.max(1, PkiResults.parseInt("randomBytes", randomBytes, 1024))];
            RANDOM.nextBytes(b);
            return b;
        }
        return PkiResults.input(inputFile, inputVariable, false, "data");
    }

    private TimestampClient client() throws PkiException {
        return PkiResults.tsa(tsaUrl, connectTimeout, responseTimeout, 30000);
    }

    public String getTsaUrl() {
        return tsaUrl;
    }

    public void setTsaUrl(String tsaUrl) {
        this.tsaUrl = tsaUrl;
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
