package org.trustload.lab.pki;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.trustload.pki.CadesSigner;
import org.trustload.pki.PadesSigner;
import org.trustload.pki.PkiException;
import org.trustload.pki.PreparedSignature;
import org.trustload.pki.SignOptions;
import org.trustload.pki.TimestampSource;

/**
 * Rest PKI's two-step signature, the same for the classic and the Core routes: {@code start} validates
 * the signer's certificate (chain to a lab CA, validity, CRL), prepares the CAdES or PAdES signature of
 * the policy with the lib's engines and keeps it under a random token; {@code complete} takes the token
 * (once), checks the client's signature value over the to-sign data with the certificate's key and
 * assembles the CMS or the signed PDF (level T: with a signature timestamp from the lab's TSA).
 */
final class SignatureFlow {
    /** Default lifetime of a token; {@code -Dtrustload.lab.pki.token.seconds=N} changes it. */
    static final Duration DEFAULT_TOKEN_TTL = Duration.ofMinutes(5);
    /** Prepared signatures kept at most (each holds its document); beyond, {@code start} answers 503. */
    static final int MAX_PENDING = 5000;
    /** Rest PKI's policies sign with SHA-256; the start answer names it by OID. */
    static final String DIGEST = "SHA-256";
    private static final Map<String, String> DIGEST_OIDS = Map.of(
            "SHA-256", "2.16.840.1.101.3.4.2.1", "SHA-384", "2.16.840.1.101.3.4.2.2", "SHA-512",
            "2.16.840.1.101.3.4.2.3");

    /** What a start hands back: the token, the bytes to sign (and their hash), the signer's path. */
    record Started(String token, byte[] toSignData, byte[] toSignHash, String digestAlgorithmOid,
            List<X509Certificate> path) {
    }

    /** A completed signature: the CMS (CAdES) or the whole signed PDF (PAdES). */
    record Completed(byte[] signed, List<X509Certificate> path, String callbackArgument) {
    }

    private record Session(SignaturePolicy policy, List<X509Certificate> path, PreparedSignature pending,
            String callbackArgument, long expiresAtNanos) {
    }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final SecureRandom random = new SecureRandom();
    private final CertificateChecker checker;
    private final TimestampSource tsa;
    private final Duration tokenTtl;

    SignatureFlow(CertificateChecker checker, TimestampSource tsa, Duration tokenTtl) {
        this.checker = checker;
        this.tsa = tsa;
        this.tokenTtl = tokenTtl;
    }

    /**
     * Validates the signer and prepares the signature.
     *
     * @param reason PAdES only: the signature dictionary's /Reason, or null
     */
    Started start(SignaturePolicy policy, byte[] document, X509Certificate cert, boolean encapsulate, String reason,
            String callbackArgument, boolean ignoreRevocationStatusUnknown) throws RestPkiError {
        ValidationResults.CertificateValidation v = ValidationResults.ofCertificate(checker, cert,
                ignoreRevocationStatusUnknown);
        if (!v.valid()) {
            throw RestPkiError.validation("The signer's certificate is not valid (" + v.results().firstError() + ")",
                    v.results());
        }
        if (pending.get() >= MAX_PENDING) {
            expire();
            if (pending.get() >= MAX_PENDING) {
                throw RestPkiError.busy(MAX_PENDING + " signatures are waiting for completion");
            }
        }
        boolean pdf = policy.family() == SignaturePolicy.Family.PADES;
        SignOptions.Builder b = SignOptions.builder().digest(DIGEST).attached(pdf || encapsulate);
        if (policy.timestamped()) {
            b.level(SignOptions.Level.T).timestampSource(tsa);
        }
        if (pdf && reason != null && !reason.isBlank()) {
            b.reason(reason);
        }
        PreparedSignature p;
        try {
            p = pdf ? PadesSigner.prepare(document, v.path(), b.build())
                    : CadesSigner.prepare(document, v.path(), b.build());
        } catch (PkiException e) {
            throw fromPki(e);
        } catch (RuntimeException e) {
            // PDFBox throws unchecked exceptions on some broken files
            if (pdf) {
                throw RestPkiError.api(RestPkiError.INVALID_PDF, "The PDF cannot be signed", e);
            }
            throw e;
        }
        String oid = DIGEST_OIDS.get(p.digestAlgorithm());
        if (oid == null) {
            throw RestPkiError.api(RestPkiError.UNSUPPORTED_DIGEST_ALGORITHM, "The signer's key asks for "
                    + p.digestAlgorithm() + ", which the lab's policies do not use");
        }
        byte[] toSign = p.toBeSigned();
        String token = newToken();
        sessions.put(token, new Session(policy, v.path(), p, callbackArgument, System.nanoTime() + tokenTtl.toNanos()));
        pending.incrementAndGet();
        return new Started(token, toSign, sha(p.digestAlgorithm(), toSign), oid, v.path());
    }

    /**
     * Completes the signature under {@code token}. A token of the other family (a CAdES token on the PAdES
     * route) is unknown there and stays usable; otherwise the token is used up, whatever the outcome.
     */
    Completed complete(String token, SignaturePolicy.Family family, byte[] signature) throws RestPkiError {
        if (signature == null) {
            throw RestPkiError.api(RestPkiError.CLIENT_SIGNATURE_NOT_SET, "The request carries no signature");
        }
        Session s = token == null ? null : sessions.get(token);
        if (s == null || s.policy().family() != family || !sessions.remove(token, s)) {
            throw RestPkiError.api(RestPkiError.ENTITY_NOT_FOUND, "No " + family.label()
                    + " signature is waiting under this token (unknown, expired or already completed)");
        }
        pending.decrementAndGet();
        if (System.nanoTime() - s.expiresAtNanos() > 0) {
            throw RestPkiError.api(RestPkiError.ENTITY_NOT_FOUND, "The signature process expired (tokens live "
                    + tokenTtl.toSeconds() + " s)");
        }
        try {
            return new Completed(s.pending().complete(signature), s.path(), s.callbackArgument());
        } catch (PkiException e) {
            throw fromPki(e);
        }
    }

    static RestPkiError fromPki(PkiException e) {
        String msg = e.getMessage()
                + (e.detail().isEmpty() || e.detail().equals(e.getMessage()) ? "" : ": " + e.detail());
        return switch (e.category()) {
            case PkiException.INVALID_DOCUMENT -> RestPkiError.api(RestPkiError.INVALID_PDF, msg, e);
            case PkiException.INVALID_SIGNATURE -> RestPkiError.validation("The signature is not valid",
                    new ValidationResults().error(ValidationResults.SIGNATURE_ALGORITHM_VALIDATION_FAILED,
                            "The signature value does not verify over the to-sign data with the signer's public key",
                            msg));
            case PkiException.TSA_ERROR -> RestPkiError.api(RestPkiError.TIMESTAMPING_UNAVAILABLE, msg, e);
            case PkiException.CONFIG_ERROR -> RestPkiError.api(RestPkiError.INVALID_REQUEST, msg, e);
            default -> RestPkiError.internal("lab-" + e.category(), e);
        };
    }

    /** Marks a token as expired now (tests of the expiry answer). */
    void expireNow(String token) {
        sessions.computeIfPresent(token, (k, s) -> new Session(s.policy(), s.path(), s.pending(), s.callbackArgument(),
                System.nanoTime() - 1));
    }

    private String newToken() {
        byte[] b = new byte[24];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    static byte[] sha(String algorithm, byte[] data) {
        try {
            return MessageDigest.getInstance(algorithm).digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from the JDK", e);
        }
    }

    /** Drops expired sessions; called periodically and when the table is full. */
    void expire() {
        long now = System.nanoTime();
        for (Map.Entry<String, Session> e : sessions.entrySet()) {
            if (now - e.getValue().expiresAtNanos() > 0 && sessions.remove(e.getKey(), e.getValue())) {
                pending.decrementAndGet();
            }
        }
    }

    int pendingCount() {
        return pending.get();
    }
}
