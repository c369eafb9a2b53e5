package org.trustload.jmeter.pki;

import org.apache.jmeter.assertions.Assertion;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.FailFast;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.pki.KeyStores;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignatureValidator;
import org.trustload.pki.ValidationReport;

import java.io.File;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Signature Assertion (TrustLoad): validates the signature the sample produced — CAdES, PAdES or an
 * RFC 3161 token — cryptographically and against the configured trust anchors (and CRLs, when
 * given). By default it checks the last signature of a TrustLoad sampler in this thread; it can also
 * check a base64 variable (e.g. extracted from a stock HTTP sampler's response).
 */
public class SignatureAssertion extends AbstractTestElement implements Assertion, TestBean {
    private static final long serialVersionUID = 1L;

    private String format = "auto";
    private String trustAnchorsFile = "";
    private String crlFiles = "";
    private String signatureVariable = "";
    private boolean requireTimestamp;

    /** This thread's validator, built on first use from the anchor and CRL files (and rebuilt if they change). */
    private transient SignatureValidator validator;
    private transient String validatorKey;

    @Override
    public AssertionResult getResult(SampleResult response) {
        AssertionResult result = new AssertionResult(getName());
        if (!response.isSuccessful()) {
            // Nothing was signed: the sample already failed with its own reason.
            result.setFailure(true);
            result.setFailureMessage("no signature: the sample failed (" + response.getResponseCode() + ")");
            return result;
        }
        try {
            JMeterVariables vars = JMeterContextService.getContext().getVariables();
            byte[] signature;
            String fmt = format == null ? "auto" : format.trim().toLowerCase(Locale.ROOT);
            byte[] content = null;
            if (signatureVariable != null && !signatureVariable.isBlank()) {
                String v = vars.get(signatureVariable.trim());
                if (v == null || v.isEmpty()) {
                    throw new PkiException(PkiException.INVALID_SIGNATURE, "variable '" + signatureVariable.trim() + "' is empty");
                }
                signature = Base64.getMimeDecoder().decode(v);
            } else {
                Object o = vars.getObject(AbstractSignSampler.LAST_SIGNATURE);
                if (!(o instanceof byte[])) {
                    throw new PkiException(PkiException.CONFIG_ERROR, "no signature from a TrustLoad sampler in this thread");
                }
                signature = (byte[]) o;
                if (fmt.equals("auto") || fmt.isEmpty()) {
                    fmt = String.valueOf(vars.getObject(AbstractSignSampler.LAST_FORMAT));
                }
                Object c = vars.getObject(AbstractSignSampler.LAST_CONTENT);
                content = c instanceof byte[] ? (byte[]) c : null;
            }
            if (fmt.equals("auto") || fmt.isEmpty()) {
                fmt = signature.length > 4 && signature[0] == '%' && signature[1] == 'P' ? "pades" : "cades";
            }
            SignatureValidator validator = validator();
            ValidationReport report;
            switch (fmt) {
                case "pades":
                    report = validator.validatePades(signature);
                    break;
                case "timestamp":
                    report = validator.validateTimestamp(signature, content);
                    break;
                default:
                    report = validator.validateCades(signature, content);
            }
            if (!report.valid()) {
                result.setFailure(true);
                result.setFailureMessage(fmt + " signature invalid: " + String.join("; ", report.problems()));
            } else if (requireTimestamp && !report.timestamped() && !fmt.equals("timestamp")) {
                result.setFailure(true);
                result.setFailureMessage(fmt + " signature has no signature timestamp");
            }
        } catch (PkiException e) {
            result.setError(true);
            if (e.isConfigError()) {
                // the same files fail every sample the same way: say it once, stop this thread
                ClientException named = new PropertyParser(element()).wrap(e);
                FailFast.report(element(), named);
                response.setStopThread(true);
                result.setFailureMessage(e.category() + ": " + named.getMessage());
            } else {
                result.setFailureMessage(e.category() + ": " + e.getMessage());
            }
        } catch (IllegalArgumentException e) {
            result.setFailure(true);
            result.setFailureMessage("signature variable is not base64");
        }
        return result;
    }

    private SignatureValidator validator() throws PkiException {
        String key = trustAnchorsFile + "|" + crlFiles;
        if (validator == null || !key.equals(validatorKey)) {
            validator = new SignatureValidator(certificates(trustAnchorsFile), crls(crlFiles), null);
            validatorKey = key;
        }
        return validator;
    }

    private static List<X509Certificate> certificates(String file) throws PkiException {
        if (file == null || file.isBlank()) {
            throw PkiException.setting("trustAnchorsFile", "is empty: the signature's chain needs trust anchors");
        }
        File f = PropertyParser.resolve(file.trim());
        try {
            return KeyStores.certificates(f.toPath(), "trust anchors file");
        } catch (PkiException e) {
            throw PkiException.setting("trustAnchorsFile", f.getPath(), e.getMessage(), e);
        }
    }

    private static List<X509CRL> crls(String files) throws PkiException {
        List<X509CRL> out = new ArrayList<>();
        if (files == null || files.isBlank()) {
            return out;
        }
        for (String name : files.split("[,\\s]+")) {
            if (!name.isEmpty()) {
                File f = PropertyParser.resolve(name);
                try {
                    out.add(KeyStores.crl(f.toPath()));
                } catch (PkiException e) {
                    throw PkiException.setting("crlFiles", f.getPath(), e.getMessage(), e);
                }
            }
        }
        return out;
    }

    private String element() {
        return PropertyParser.describe("Signature Assertion", getName());
    }

    public String getFormat() {
        return format;
    }

    public void setFormat(String format) {
        this.format = format;
    }

    public String getTrustAnchorsFile() {
        return trustAnchorsFile;
    }

    public void setTrustAnchorsFile(String trustAnchorsFile) {
        this.trustAnchorsFile = trustAnchorsFile;
    }

    public String getCrlFiles() {
        return crlFiles;
    }

    public void setCrlFiles(String crlFiles) {
        this.crlFiles = crlFiles;
    }

    public String getSignatureVariable() {
        return signatureVariable;
    }

    public void setSignatureVariable(String signatureVariable) {
        this.signatureVariable = signatureVariable;
    }

    public boolean isRequireTimestamp() {
        return requireTimestamp;
    }

    public void setRequireTimestamp(boolean requireTimestamp) {
        this.requireTimestamp = requireTimestamp;
    }
}
