package org.trustload.jmeter.pki;

import org.apache.jmeter.assertions.Assertion;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignatureValidator;
import org.trustload.pki.ValidationReport;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Signature Assertion (TrustLoad): validates the signature the sample produced — CAdES, PAdES or an
 * RFC 3161 token — cryptographically and against the configured trust anchors (and CRLs, when
 * given). By default it checks the last signature of a TrustLoad sampler in this thread; it can also
 * check a base64 variable (e.g. extracted from a stock HTTP sampler's response).
 */
public class SignatureAssertion extends AbstractTestElement implements Assertion, TestBean {
    private static final long serialVersionUID = 1L;

    /** Validators are built once per distinct anchor/CRL configuration: parsing them per sample is waste. */
    private static final ConcurrentHashMap<String, SignatureValidator> VALIDATORS = new ConcurrentHashMap<>();

    private String format = "auto";
    private String trustAnchorsFile = "";
    private String crlFiles = "";
    private String signatureVariable = "";
    private boolean requireTimestamp;

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
                    throw new PkiException(PkiException.CONFIG_ERROR, "variable '" + signatureVariable.trim() + "' is empty");
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
            result.setFailureMessage(e.category() + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            result.setFailure(true);
            result.setFailureMessage("signature variable is not base64");
        }
        return result;
    }

    private SignatureValidator validator() throws PkiException {
        String key = trustAnchorsFile + "|" + crlFiles;
        SignatureValidator v = VALIDATORS.get(key);
        if (v == null) {
            v = new SignatureValidator(certificates(trustAnchorsFile), crls(crlFiles), null);
            VALIDATORS.putIfAbsent(key, v);
        }
        return v;
    }

    private static List<X509Certificate> certificates(String file) throws PkiException {
        if (file == null || file.isBlank()) {
            throw new PkiException(PkiException.CONFIG_ERROR, "trust anchors file is empty");
        }
        try (InputStream in = Files.newInputStream(Path.of(file.trim()))) {
            List<X509Certificate> out = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new PkiException(PkiException.CONFIG_ERROR, "no certificate in " + file);
            }
            return out;
        } catch (java.io.IOException | java.security.cert.CertificateException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "trust anchors file cannot be read", file + ": " + e, e);
        }
    }

    private static List<X509CRL> crls(String files) throws PkiException {
        List<X509CRL> out = new ArrayList<>();
        if (files == null || files.isBlank()) {
            return out;
        }
        for (String f : files.split("[,\\s]+")) {
            if (f.isEmpty()) {
                continue;
            }
            try (InputStream in = Files.newInputStream(Path.of(f))) {
                out.add((X509CRL) CertificateFactory.getInstance("X.509").generateCRL(in));
            } catch (java.io.IOException | java.security.cert.CertificateException | java.security.cert.CRLException e) {
                throw new PkiException(PkiException.CONFIG_ERROR, "CRL file cannot be read", f + ": " + e, e);
            }
        }
        return out;
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
