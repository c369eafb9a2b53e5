package org.trustload.lab.pki;

import java.io.ByteArrayInputStream;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignOptions;
import org.trustload.pki.TimestampSource;

/**
 * The two-step signature service: {@code start} checks the signer's certificate and prepares the
 * signature, keeping it under a random token; {@code complete} takes the token (once), checks the
 * client's signature value against the certificate and assembles the CMS or the signed PDF.
 */
final class SignatureFlow {
    /** How long a token stays usable after {@code start}. */
    static final Duration TOKEN_TTL = Duration.ofMinutes(5);
    /** Prepared signatures kept at most (each holds its document); beyond, {@code start} answers 503. */
    static final int MAX_PENDING = 5000;

    /** A signature format of the API path. */
    enum Format {
        CADES("cades", false, false), CADES_T("cades-t", false, true), PADES("pades", true, false),
        PADES_T("pades-t", true, true);

        final String path;
        final boolean pdf;
        final boolean timestamped;

        Format(String path, boolean pdf, boolean timestamped) {
            this.path = path;
            this.pdf = pdf;
            this.timestamped = timestamped;
        }

        static Format of(String path) {
            for (Format f : values()) {
                if (f.path.equals(path)) {
                    return f;
                }
            }
            return null;
        }

        String family() {
            return pdf ? "pades" : "cades";
        }
    }

    private record Session(Format format, X509Certificate certificate, Engines.Pending pending, long expiresAtNanos) {
    }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final SecureRandom random = new SecureRandom();
    private final CertificateChecker checker;
    private final TimestampSource tsa;
    private final Provider verifyProvider;

    SignatureFlow(CertificateChecker checker, TimestampSource tsa, Provider verifyProvider) {
        this.checker = checker;
        this.tsa = tsa;
        this.verifyProvider = verifyProvider;
    }

    /** {@code POST /api/signatures/{format}/start}. */
    Map<String, Object> start(Format format, Json req) throws ApiException {
        byte[] document = req.base64("document", ApiException.INVALID_DOCUMENT, 400);
        byte[] certDer = req.base64("certificate", ApiException.INVALID_CERTIFICATE, 400);
        List<byte[]> chainDer = req.base64Array("chain", ApiException.INVALID_CERTIFICATE, 400);
        String digest = req.string("digest", "SHA-256");
        boolean attached = req.bool("attached", true);

        X509Certificate cert = certificate(certDer);
        List<X509Certificate> extra = new ArrayList<>();
        for (byte[] der : chainDer) {
            extra.add(certificate(der));
        }
        SignOptions opts;
        try {
            SignOptions.Builder b = SignOptions.builder().digest(digest).attached(attached);
            if (format.timestamped) {
                b.level(SignOptions.Level.T).timestampSource(tsa);
            }
            if (format.pdf) {
                b.reason("TrustLoad lab signature service").location("127.0.0.1");
            }
            opts = b.build();
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        if (opts.digest().equals("SM3")) {
            throw ApiException.badRequest("digest SM3 is not offered here (SHA-256, SHA-384, SHA-512)");
        }

        List<X509Certificate> path = checker.check(cert, extra);

        if (pending.get() >= MAX_PENDING) {
            expire();
            if (pending.get() >= MAX_PENDING) {
                throw new ApiException(503, ApiException.BUSY, MAX_PENDING + " signatures are waiting for completion");
            }
        }
        Engines.Pending p;
        try {
            p = format.pdf ? Engines.preparePades(document, path, opts) : Engines.prepareCades(document, path, opts);
        } catch (PkiException e) {
            throw fromPki(e);
        } catch (RuntimeException e) {
            // PDFBox throws unchecked exceptions on some broken files
            if (format.pdf) {
                throw new ApiException(400, ApiException.INVALID_DOCUMENT, "the document is not a PDF this service can sign: " + e, e);
            }
            throw e;
        }
        String token = newToken();
        sessions.put(token, new Session(format, cert, p, System.nanoTime() + TOKEN_TTL.toNanos()));
        pending.incrementAndGet();

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("token", token);
        out.put("toBeSigned", p.toBeSigned());
        out.put("signatureAlgorithm", p.signatureAlgorithm());
        out.put("expiresIn", TOKEN_TTL.toSeconds());
        return out;
    }

    /** {@code POST /api/signatures/{token}/complete}: the token is used up whatever the outcome. */
    Map<String, Object> complete(String token, Json req) throws ApiException {
        byte[] value = req.base64("signature", ApiException.BAD_REQUEST, 400);
        Session s = sessions.remove(token);
        if (s == null) {
            throw new ApiException(404, ApiException.UNKNOWN_TOKEN, "no signature is waiting under this token (unknown, expired or already completed)");
        }
        pending.decrementAndGet();
        if (System.nanoTime() - s.expiresAtNanos() > 0) {
            throw new ApiException(404, ApiException.UNKNOWN_TOKEN, "the token expired");
        }
        Engines.Pending p = s.pending();
        if (!Engines.verifies(verifyProvider, p.signatureAlgorithm(), s.certificate().getPublicKey(), p.toBeSigned(), value)) {
            throw new ApiException(422, ApiException.INVALID_SIGNATURE,
                    "the signature value does not verify with the certificate's public key (" + p.signatureAlgorithm() + ")");
        }
        byte[] signed;
        try {
            signed = p.complete(value);
        } catch (PkiException e) {
            throw fromPki(e);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("signature", signed);
        out.put("format", s.format().family());
        out.put("size", signed.length);
        return out;
    }

    private static X509Certificate certificate(byte[] der) throws ApiException {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException | RuntimeException e) {
            throw new ApiException(400, ApiException.INVALID_CERTIFICATE, "not a DER X.509 certificate: " + e.getMessage());
        }
    }

    static ApiException fromPki(PkiException e) {
        String msg = e.getMessage() + (e.detail().isEmpty() || e.detail().equals(e.getMessage()) ? "" : ": " + e.detail());
        return switch (e.category()) {
            case PkiException.INVALID_DOCUMENT -> new ApiException(400, ApiException.INVALID_DOCUMENT, msg, e);
            case PkiException.CONFIG_ERROR -> new ApiException(400, ApiException.BAD_REQUEST, msg, e);
            case PkiException.CERTIFICATE_EXPIRED -> new ApiException(403, ApiException.CERTIFICATE_EXPIRED, msg, e);
            case PkiException.CERTIFICATE_REVOKED -> new ApiException(403, ApiException.CERTIFICATE_REVOKED, msg, e);
            case PkiException.UNTRUSTED_CERTIFICATE -> new ApiException(403, ApiException.UNTRUSTED_CERTIFICATE, msg, e);
            case PkiException.INVALID_SIGNATURE -> new ApiException(422, ApiException.INVALID_SIGNATURE, msg, e);
            case PkiException.TSA_ERROR -> new ApiException(500, ApiException.TSA_ERROR, msg, e);
            default -> new ApiException(500, ApiException.INTERNAL_ERROR, e.category() + ": " + msg, e);
        };
    }

    private String newToken() {
        byte[] b = new byte[18];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
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

    static String formatsList() {
        List<String> l = new ArrayList<>();
        for (Format f : Format.values()) {
            l.add(f.path);
        }
        return String.join(", ", l).toLowerCase(Locale.ROOT);
    }
}
