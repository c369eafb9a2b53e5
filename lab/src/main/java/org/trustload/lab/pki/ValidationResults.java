package org.trustload.lab.pki;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lacuna's {@code ValidationResultsModel}: the checks that passed, the errors and the warnings, each an
 * item {@code {type, message, detail, innerValidationResults}} whose {@code type} is one of Lacuna's
 * {@code ValidationItemTypes}. {@link #ofCertificate} turns the lab's certificate check
 * ({@link CertificateChecker}) into such results.
 */
final class ValidationResults {
    /** {@code ValidationItemTypes} the lab reports. */
    static final String SUCCESS = "Success";
    static final String CERTIFICATE_NOT_YET_VALID = "CertificateNotYetValid";
    static final String CERTIFICATE_EXPIRED = "CertificateExpired";
    static final String CERTIFICATE_REVOKED = "CertificateRevoked";
    static final String CERTIFICATE_REVOCATION_STATUS_UNKNOWN = "CertificateRevocationStatusUnknown";
    static final String CERTIFICATE_CHAIN_ROOT_NOT_TRUSTED = "CertificateChainRootNotTrusted";
    static final String CERTIFICATE_VALIDATION_FAILED = "CertificateValidationFailed";
    static final String DECODE_ERROR = "DecodeError";
    static final String SIGNATURE_ALGORITHM_VALIDATION_FAILED = "SignatureAlgorithmValidationFailed";

    private record Item(String type, String message, String detail) {
        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", type);
            m.put("message", message);
            m.put("detail", detail);
            m.put("innerValidationResults", null);
            return m;
        }
    }

    /** A certificate check: its path (signer first, trust anchor last; empty when none) and its results. */
    record CertificateValidation(List<X509Certificate> path, ValidationResults results) {
        boolean valid() {
            return results.valid();
        }
    }

    private final List<Item> passed = new ArrayList<>(4);
    private final List<Item> errors = new ArrayList<>(1);
    private final List<Item> warnings = new ArrayList<>(1);

    ValidationResults pass(String type, String message) {
        passed.add(new Item(type, message, null));
        return this;
    }

    ValidationResults error(String type, String message, String detail) {
        errors.add(new Item(type, message, detail));
        return this;
    }

    ValidationResults warn(String type, String message, String detail) {
        warnings.add(new Item(type, message, detail));
        return this;
    }

    boolean valid() {
        return errors.isEmpty();
    }

    /** "type: message" of the first error, for logs and error messages; empty when valid. */
    String firstError() {
        return errors.isEmpty() ? "" : errors.get(0).type() + ": " + errors.get(0).message();
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("passedChecks", items(passed));
        m.put("errors", items(errors));
        m.put("warnings", items(warnings));
        return m;
    }

    private static List<Map<String, Object>> items(List<Item> list) {
        List<Map<String, Object>> out = new ArrayList<>(list.size());
        for (Item i : list) {
            out.add(i.toJson());
        }
        return out;
    }

    /**
     * Checks {@code cert} with the lab's checker (chain to a lab CA, validity, CRL) and reports it as Lacuna
     * does. With {@code ignoreRevocationStatusUnknown}, a CRL that cannot be had is a warning, not an error
     * (Rest PKI's request flag of that name).
     */
    static CertificateValidation ofCertificate(CertificateChecker checker, X509Certificate cert,
            boolean ignoreRevocationStatusUnknown) {
        ValidationResults r = new ValidationResults();
        try {
            List<X509Certificate> path = checker.check(cert, List.of());
            r.pass(SUCCESS, CHAINS);
            r.pass(SUCCESS, IN_VALIDITY);
            r.pass(SUCCESS, NOT_REVOKED);
            return new CertificateValidation(path, r);
        } catch (ApiException e) {
            String t = type(e);
            if (!t.equals(CERTIFICATE_CHAIN_ROOT_NOT_TRUSTED) && !t.equals(DECODE_ERROR)) {
                r.pass(SUCCESS, CHAINS);
            }
            if (ignoreRevocationStatusUnknown && t.equals(CERTIFICATE_REVOCATION_STATUS_UNKNOWN)) {
                r.pass(SUCCESS, IN_VALIDITY);
                r.warn(t, e.getMessage(), null);
                try {
                    return new CertificateValidation(checker.chain(cert, List.of()), r);
                } catch (ApiException again) {
                    r.error(type(again), again.getMessage(), null);
                    return new CertificateValidation(List.of(), r);
                }
            }
            r.error(t, e.getMessage(), null);
            return new CertificateValidation(List.of(), r);
        }
    }

    private static final String CHAINS = "The certificate chains to a root this server trusts";
    private static final String IN_VALIDITY = "The certificates of the path are within their validity periods";
    private static final String NOT_REVOKED = "The certificates of the path are not revoked";

    /** Lacuna's item type for a failure of the lab's checker, by its stable code. */
    static String type(ApiException e) {
        String code = e.code();
        if (code.equals(ApiException.CERTIFICATE_EXPIRED)) {
            String m = String.valueOf(e.getMessage());
            return m.contains("not valid before") ? CERTIFICATE_NOT_YET_VALID : CERTIFICATE_EXPIRED;
        }
        if (code.equals(ApiException.CERTIFICATE_REVOKED)) {
            return CERTIFICATE_REVOKED;
        }
        if (code.equals(ApiException.REVOCATION_UNAVAILABLE)) {
            return CERTIFICATE_REVOCATION_STATUS_UNKNOWN;
        }
        if (code.equals(ApiException.UNTRUSTED_CERTIFICATE)) {
            return CERTIFICATE_CHAIN_ROOT_NOT_TRUSTED;
        }
        if (code.equals(ApiException.INVALID_CERTIFICATE)) {
            return DECODE_ERROR;
        }
        return CERTIFICATE_VALIDATION_FAILED;
    }
}
