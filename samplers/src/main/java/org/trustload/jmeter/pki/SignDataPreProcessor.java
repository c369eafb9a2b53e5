package org.trustload.jmeter.pki;

import org.apache.jmeter.processor.PreProcessor;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.trustload.common.ClientException;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;

import java.util.Base64;
import java.util.Locale;

/**
 * Sign Data (TrustLoad): signs the bytes (or a precomputed hash) held in a variable with the
 * thread's key from a Key Store Config and stores the signature in base64 in another variable, so
 * stock HTTP samplers can drive any signature-server API. A failure sets the output variable to
 * empty and the variable {@code <output>_error} to the reason (pre-processors cannot fail a sample).
 */
public class SignDataPreProcessor extends AbstractTestElement implements PreProcessor, TestBean {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(SignDataPreProcessor.class);

    private String keyPool = "default";
    private String inputVariable = "toBeSigned";
    private String inputEncoding = "base64";
    private String inputKind = "data";
    private String digest = "SHA-256";
    private String outputVariable = "signature";
    private String certificateVariable = "signerCertificate";

    @Override
    public void process() {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars == null) {
            return;
        }
        String out = outputVariable == null || outputVariable.isBlank() ? "signature" : outputVariable.trim();
        try {
            KeyMaterial key = KeyStoreConfig.currentKey(keyPool);
            byte[] input = input(vars);
            byte[] signature = "hash".equals(kind()) ? key.signHash(digest.trim(), input)
                    : key.sign(key.signatureAlgorithm(digest.trim()), input);
            vars.put(out, Base64.getEncoder().encodeToString(signature));
            vars.remove(out + "_error");
            if (certificateVariable != null && !certificateVariable.isBlank()) {
                vars.put(certificateVariable.trim(),
                        Base64.getEncoder().encodeToString(key.certificate().getEncoded()));
            }
        } catch (ClientException e) {
            vars.put(out, "");
            vars.put(out + "_error", e.category() + ": " + e.getMessage());
            log.warn("Sign Data '{}': {} {}", getName(), e.category(), e.getMessage());
        } catch (java.security.cert.CertificateEncodingException | RuntimeException e) {
            vars.put(out, "");
            vars.put(out + "_error", "clientError: " + e);
            log.warn("Sign Data '{}': {}", getName(), e.toString());
        }
    }

    private String kind() throws PkiException {
        String k = inputKind == null ? "" : inputKind.trim().toLowerCase(Locale.ROOT);
        if (k.isEmpty() || k.equals("data") || k.equals("hash")) {
            return k.isEmpty() ? "data" : k;
        }
        throw new PkiException(PkiException.CONFIG_ERROR,
                "unknown input kind '" + inputKind + "' (expected data, hash)");
    }

    private byte[] input(JMeterVariables vars) throws PkiException {
        String name = inputVariable == null ? "" : inputVariable.trim();
        String v = vars.get(name);
        if (v == null) {
            throw new PkiException(PkiException.CONFIG_ERROR, "input variable '" + name + "' is not set");
        }
        String enc = inputEncoding == null ? "" : inputEncoding.trim().toLowerCase(Locale.ROOT);
        try {
            switch (enc) {
                case "text":
                    return v.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                case "hex":
                    return java.util.HexFormat.of().parseHex(v.trim());
                default:
                    return Base64.getMimeDecoder().decode(v);
            }
        } catch (IllegalArgumentException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "input variable '" + name + "' is not valid " + enc);
        }
    }

    public String getKeyPool() {
        return keyPool;
    }

    public void setKeyPool(String keyPool) {
        this.keyPool = keyPool;
    }

    public String getInputVariable() {
        return inputVariable;
    }

    public void setInputVariable(String inputVariable) {
        this.inputVariable = inputVariable;
    }

    public String getInputEncoding() {
        return inputEncoding;
    }

    public void setInputEncoding(String inputEncoding) {
        this.inputEncoding = inputEncoding;
    }

    public String getInputKind() {
        return inputKind;
    }

    public void setInputKind(String inputKind) {
        this.inputKind = inputKind;
    }

    public String getDigest() {
        return digest;
    }

    public void setDigest(String digest) {
        this.digest = digest;
    }

    public String getOutputVariable() {
        return outputVariable;
    }

    public void setOutputVariable(String outputVariable) {
        this.outputVariable = outputVariable;
    }

    public String getCertificateVariable() {
        return certificateVariable;
    }

    public void setCertificateVariable(String certificateVariable) {
        this.certificateVariable = certificateVariable;
    }
}
