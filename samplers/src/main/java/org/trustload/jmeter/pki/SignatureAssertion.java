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
import java.nio.charset.StandardCharsets;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Signature Assertion (TrustLoad): validates the signature the sample produced — CAdES, PAdES or an
 * RFC 3161 token — cryptographically and against the configured trust anchors (and CRLs, when
 * given), by lib's {@link SignatureValidator} (the signer's path by PKIX). By default it checks the last
 * signature of a TrustLoad sampler in this thread, or a base64 variable when one is named (e.g. extracted
 * from a stock HTTP sampler's JSON); with {@code signatureSource=response} it checks the sample's response
 * body (a DER CMS, token or TimeStampResp, a PDF, or base64 text of one).
 *
 * <p>A failure message starts with a stable code ({@link ValidationReport#code()}: {@code signature.invalid},
 * {@code chain.revoked}, … or {@code timestamp.missing}) followed by the format and the stable problem
 * messages, so that failures group by cause in reports.
 */
public class SignatureAssertion extends AbstractTestElement implements Assertion, TestBean {
    private static final long serialVersionUID = 1L;

    /** {@link #setSignatureSource}: the named variable, else the thread's last TrustLoad signature. */
    public static final String SOURCE_AUTO = "auto";
    /** {@link #setSignatureSource}: the sample's response body. */
    public static final String SOURCE_RESPONSE = "response";
    /** A -B signature where {@code requireTimestamp} asks for -T. */
    public static final String TIMESTAMP_MISSING = "timestamp.missing";

    /** The DER of the OID id-ct-TSTInfo (1.2.840.113549.1.9.16.1.4): a timestamp token or response holds it. */
    private static final byte[] TST_INFO_OID = {0x06, 0x0B, 0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D,
        0x01, 0x09, 0x10, 0x01, 0x04};

    private String format = "auto";
    private String trustAnchorsFile = "";
    private String crlFiles = "";
    private String signatureSource = SOURCE_AUTO;
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
        String fmt = format == null ? "auto" : format.trim().toLowerCase(Locale.ROOT);
        try {
            JMeterVariables vars = JMeterContextService.getContext().getVariables();
            byte[] signature;
            byte[] content = null;
            if (SOURCE_RESPONSE.equals(signatureSource == null ? "" : signatureSource.trim())) {
                signature = fromResponse(response.getResponseData());
            } else if (signatureVariable != null && !signatureVariable.isBlank()) {
                String v = vars.get(signatureVariable.trim());
                if (v == null || v.isEmpty()) {
                    throw new PkiException(PkiException.INVALID_SIGNATURE,
                            "variable '" + signatureVariable.trim() + "' is empty");
                }
                signature = Base64.getMimeDecoder().decode(v);
            } else {
                Object o = vars.getObject(AbstractSignSampler.LAST_SIGNATURE);
                if (!(o instanceof byte[])) {
                    throw new PkiException(PkiException.CONFIG_ERROR,
                            "no signature from a TrustLoad sampler in this thread");
                }
                signature = (byte[]) o;
                if (fmt.equals("auto") || fmt.isEmpty()) {
                    fmt = String.valueOf(vars.getObject(AbstractSignSampler.LAST_FORMAT));
                }
                Object c = vars.getObject(AbstractSignSampler.LAST_CONTENT);
                content = c instanceof byte[] ? (byte[]) c : null;
            }
            if (fmt.equals("auto") || fmt.isEmpty()) {
                fmt = detectFormat(signature);
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
                result.setFailureMessage(report.code() + ": " + fmt + ": " + String.join("; ", report.problems()));
            } else if (requireTimestamp && !report.timestamped() && !fmt.equals("timestamp")) {
                result.setFailure(true);
                result.setFailureMessage(TIMESTAMP_MISSING + ": " + fmt
                        + ": no signature timestamp (-B where -T is required)");
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
            result.setFailureMessage(ValidationReport.code(ValidationReport.INVALID_DOCUMENT) + ": " + fmt
                    + ": signature is not base64");
        }
        return result;
    }

    /** The response body as DER or PDF bytes: raw, or base64 text of them. */
    private static byte[] fromResponse(byte[] body) throws PkiException {
        if (body == null || body.length == 0) {
            throw new PkiException(PkiException.INVALID_SIGNATURE, "the response body is empty");
        }
        if (body[0] == 0x30 || isPdf(body)) {
            return body;
        }
        return Base64.getMimeDecoder().decode(new String(body, StandardCharsets.US_ASCII).trim());
    }

    private static boolean isPdf(byte[] b) {
        return b.length > 4 && b[0] == '%' && b[1] == 'P' && b[2] == 'D' && b[3] == 'F';
    }

    /**
     * pades for a PDF; timestamp when id-ct-TSTInfo is among the first bytes (a token or a TimeStampResp); else cades.
     */
    private static String detectFormat(byte[] signature) {
        if (isPdf(signature)) {
            return "pades";
        }
        int end = Math.min(signature.length, 96) - TST_INFO_OID.length;
        outer:
        for (int i = 0; i <= end; i++) {
            for (int j = 0; j < TST_INFO_OID.length; j++) {
                if (signature[i + j] != TST_INFO_OID[j]) {
                    continue outer;
                }
            }
            return "timestamp";
        }
        return "cades";
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

    public String getSignatureSource() {
        return signatureSource;
    }

    public void setSignatureSource(String signatureSource) {
        this.signatureSource = signatureSource;
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
