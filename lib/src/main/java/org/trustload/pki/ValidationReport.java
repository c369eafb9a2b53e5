package org.trustload.pki;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of validating a CAdES signature, a PAdES document or a timestamp token. {@link #problems()}
 * holds stable messages (see the constants) suitable as assertion messages, {@link #codes()} their stable
 * category codes ({@link #code(String)}); {@link #valid()} is true exactly when there are none.
 *
 * <p>Codes: {@code signature.invalid} (the signature value does not verify with the signer's key),
 * {@code signature.modified} (the content or the PDF changed after signing), {@code signature.malformed}
 * (not a CMS/PDF/token we can check, signer certificate missing, …), {@code timestamp.invalid} (a signature
 * timestamp that does not verify, match or chain), and the certificate codes of {@link ChainValidator.Problem}:
 * {@code chain.untrusted}, {@code chain.invalid}, {@code chain.expired}, {@code chain.revoked},
 * {@code chain.revocationUnknown}, {@code certificate.usage}.
 */
public final class ValidationReport {
    /** The signature value does not verify with the signer's key (e.g. made with another key). */
    public static final String SIGNATURE_INVALID = "signature value does not verify with the signer's key";
    /** The signed content (or the PDF) differs from what was signed, or the PDF grew after signing. */
    public static final String MODIFIED = "document modified after signing";
    /** Detached CMS without the content. */
    public static final String CONTENT_MISSING = "signed content missing";
    /** The signer's chain does not reach a trust anchor. */
    public static final String NOT_TRUSTED = ChainValidator.Problem.UNTRUSTED.message();
    /** The signer's certificate is on its CA's CRL. */
    public static final String REVOKED = ChainValidator.Problem.REVOKED.message();
    /** The signer's certificate has expired at the validation time. */
    public static final String EXPIRED = ChainValidator.Problem.EXPIRED.message();
    /** The signer's certificate is not valid yet at the validation time. */
    public static final String NOT_YET_VALID = ChainValidator.Problem.NOT_YET_VALID.message();
    /** The signer certificate is not in the CMS. */
    public static final String SIGNER_CERT_MISSING = "signer certificate missing";
    /** The signing-certificate(-v2) attribute names another certificate. */
    public static final String SIGNING_CERT_MISMATCH = "signing certificate attribute mismatch";
    /**
     * A timestamp token (standalone, or a signature timestamp) does not verify or does not match its data;
     * also a signature timestamp whose TSA path fails.
     */
    public static final String TIMESTAMP_INVALID = "timestamp invalid";
    /** Not a parsable CMS / PDF / token. */
    public static final String INVALID_DOCUMENT = "invalid document";
    /** The PDF contains no signature. */
    public static final String NO_SIGNATURE = "no signature";
    /** A PDF signature of a type we do not check (e.g. adbe.x509.rsa_sha1). */
    public static final String UNSUPPORTED = "unsupported signature type";
    /** The PDF signature's ByteRange is malformed (does not start at 0, overlaps, leaves gaps). */
    public static final String BAD_BYTE_RANGE = "invalid byte range";

    private static final Map<String, String> CODES = codeTable();

    private static Map<String, String> codeTable() {
        Map<String, String> m = new HashMap<>();
        m.put(SIGNATURE_INVALID, "signature.invalid");
        m.put(MODIFIED, "signature.modified");
        m.put(TIMESTAMP_INVALID, "timestamp.invalid");
        for (String s : List.of(CONTENT_MISSING, SIGNER_CERT_MISSING, SIGNING_CERT_MISMATCH, INVALID_DOCUMENT,
                NO_SIGNATURE, UNSUPPORTED, BAD_BYTE_RANGE)) {
            m.put(s, "signature.malformed");
        }
        for (ChainValidator.Problem p : ChainValidator.Problem.values()) {
            m.put(p.message(), p.code());
        }
        return Map.copyOf(m);
    }

    /** The stable code of a problem message of this class or of {@link ChainValidator.Problem}. */
    public static String code(String problem) {
        return CODES.getOrDefault(problem, "signature.malformed");
    }

    private final List<String> problems;
    private final String signer;
    private final String digestAlgorithm;
    private final Instant signingTime;
    private final boolean timestamped;
    private final Instant timestampTime;
    private final List<ValidationReport> signatures;

    ValidationReport(List<String> problems, String signer, String digestAlgorithm, Instant signingTime,
            boolean timestamped, Instant timestampTime, List<ValidationReport> signatures) {
        this.problems = List.copyOf(problems);
        this.signer = signer;
        this.digestAlgorithm = digestAlgorithm;
        this.signingTime = signingTime;
        this.timestamped = timestamped;
        this.timestampTime = timestampTime;
        this.signatures = signatures == null ? List.of() : List.copyOf(signatures);
    }

    static ValidationReport failed(String problem) {
        return new ValidationReport(List.of(problem), null, null, null, false, null, null);
    }

    /** True when nothing is wrong. */
    public boolean valid() {
        return problems.isEmpty();
    }

    /** The signer's (or the TSA's) subject DN in RFC 2253 form, or null if unknown. */
    public String signer() {
        return signer;
    }

    /** The digest of the signature, e.g. {@code SHA-256}, or null. */
    public String digestAlgorithm() {
        return digestAlgorithm;
    }

    /** The claimed signing time (signing-time attribute, else PDF /M, else the token's genTime), or null. */
    public Instant signingTime() {
        return signingTime;
    }

    /** True when a signature timestamp (or the token itself) is present and valid. */
    public boolean timestamped() {
        return timestamped;
    }

    /** The timestamp's genTime, or null. */
    public Instant timestampTime() {
        return timestampTime;
    }

    /** The code of the first (most telling) problem, or null when valid. */
    public String code() {
        return problems.isEmpty() ? null : code(problems.get(0));
    }

    /** The codes of {@link #problems()}, in the same order. */
    public List<String> codes() {
        List<String> out = new ArrayList<>(problems.size());
        for (String p : problems) {
            out.add(code(p));
        }
        return out;
    }

    /** Stable problem strings, empty when valid; no duplicates. */
    public List<String> problems() {
        return problems;
    }

    /** For a PDF, one report per signature in file order (this report summarises them); else empty. */
    public List<ValidationReport> signatures() {
        return signatures;
    }

    @Override
    public String toString() {
        return (valid() ? "valid" : "invalid " + problems) + ", signer " + signer + ", " + digestAlgorithm
                + (timestamped ? ", timestamped " + timestampTime : "");
    }
}
