package org.trustload.lab.pki;

import java.io.ByteArrayInputStream;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Certificate login, as a relying party does it. Challenge–response is Rest PKI's authentication (the
 * server hands out a random challenge, the client signs it with the user's key, the server validates the
 * certificate and the signature): classic {@code GET /Api/Authentication} (a nonce) then
 * {@code POST /Api/Authentication}, and Core {@code POST api/v2/authentication} (a state and the hash to
 * sign) then {@code POST api/v2/authentication/completion}. Both answer 200 with validation results when
 * the certificate or the signature fails, as Rest PKI does. Mutual TLS ({@code /auth/mtls} behind a listener
 * that requires a client certificate issued by one of the lab CAs) is the lab's own relying party.
 */
final class CertificateLogin {
    /** Default lifetime of a challenge; {@code -Dtrustload.lab.pki.nonce.seconds=N} changes it. */
    static final Duration DEFAULT_NONCE_TTL = Duration.ofSeconds(120);
    /** Challenges handed out and not yet used or expired; beyond, a new one is refused with 503. */
    static final int MAX_NONCES = 100_000;
    /** Bytes of a challenge. */
    static final int NONCE_BYTES = 32;
    private static final String DIGEST = "SHA-256";

    /** An outstanding challenge: its bytes, when it expires, and the Core prepare's revocation flag. */
    private record Challenge(byte[] nonce, long expiresAtNanos, boolean ignoreRevocationStatusUnknown) {
    }

    private final Map<String, Challenge> challenges = new ConcurrentHashMap<>();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicLong logins = new AtomicLong();
    private final AtomicLong clientChains = new AtomicLong();
    private final SecureRandom random = new SecureRandom();
    private final CertificateChecker checker;
    private final CertificateModels models;
    private final Provider verifyProvider;
    private final Duration nonceTtl;

    CertificateLogin(CertificateChecker checker, CertificateModels models, Provider verifyProvider, Duration nonceTtl) {
        this.checker = checker;
        this.models = models;
        this.verifyProvider = verifyProvider;
        this.nonceTtl = nonceTtl;
    }

    /** Classic {@code GET /Api/Authentication}: {@code {nonce}}, 32 random bytes in base64. */
    Map<String, Object> nonce() throws RestPkiError {
        byte[] nonce = newChallenge();
        challenges.put(Base64.getEncoder().encodeToString(nonce), new Challenge(nonce, deadline(), false));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("nonce", nonce);
        return out;
    }

    /**
     * Classic {@code POST /Api/Authentication} {@code {nonce, certificate, signature, securityContextId,
     * ignoreRevocationStatusUnknown}}: 200 {@code {certificate, validationResults}}; the authentication
     * succeeded when the results have no errors. The client signs the nonce bytes with SHA-256.
     */
    Map<String, Object> completeClassic(Json req) throws RestPkiError, Json.Invalid {
        byte[] nonce = req.base64("nonce");
        X509Certificate cert = certificate(req.base64("certificate"));
        byte[] signature = req.base64("signature");
        req.uuid("securityContextId");
        boolean ignoreUnknown = req.bool("ignoreRevocationStatusUnknown", false);
        if (nonce == null || signature == null) {
            throw RestPkiError.api(RestPkiError.INVALID_REQUEST, "nonce, certificate and signature are required");
        }
        Challenge c = take(Base64.getEncoder().encodeToString(nonce));
        if (c == null) {
            throw RestPkiError.api(RestPkiError.ENTITY_NOT_FOUND, "The nonce is unknown, expired (nonces live "
                    + nonceTtl.toSeconds() + " s) or already used");
        }
        Outcome o = authenticate(cert, c.nonce(), signature, ignoreUnknown);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("certificate", o.certificate());
        out.put("validationResults", o.results().toJson());
        return out;
    }

    /**
     * Core {@code POST api/v2/authentication} {@code {securityContextId, ignoreRevocationStatusUnknown}}:
     * {@code {state, toSignHash: {algorithm, value, hexValue}, toSign: {data, hash, digestInfo}}}. The client
     * signs the hash (or, equally, the data with SHA-256).
     */
    Map<String, Object> prepare(Json req) throws RestPkiError, Json.Invalid {
        req.uuid("securityContextId");
        boolean ignoreUnknown = req.bool("ignoreRevocationStatusUnknown", false);
        byte[] nonce = newChallenge();
        byte[] state = new byte[24];
        random.nextBytes(state);
        String stateText = Base64.getUrlEncoder().withoutPadding().encodeToString(state);
        challenges.put(stateText, new Challenge(nonce, deadline(), ignoreUnknown));
        byte[] hash = SignatureFlow.sha(DIGEST, nonce);
        Map<String, Object> toSignHash = new LinkedHashMap<>();
        toSignHash.put("algorithm", "SHA256");
        toSignHash.put("value", hash);
        toSignHash.put("hexValue", HexFormat.of().formatHex(hash));
        Map<String, Object> toSign = new LinkedHashMap<>();
        toSign.put("data", nonce);
        toSign.put("hash", hash);
        toSign.put("digestInfo", concat(SHA256_DIGEST_INFO_PREFIX, hash));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("state", stateText);
        out.put("toSign", toSign);
        out.put("toSignHash", toSignHash);
        return out;
    }

    /**
     * Core {@code POST api/v2/authentication/completion} {@code {state, certificate, signature}}: 200
     * {@code {success, failure, certificate, validationResults}}; {@code failure} is
     * {@code CertificateFailedValidation} or, for an unknown, expired or used state, {@code StaleSession}.
     */
    Map<String, Object> completeCore(Json req) throws RestPkiError, Json.Invalid {
        String state = req.text("state");
        byte[] certDer = req.base64("certificate");
        byte[] signature = req.base64("signature");
        if (state == null || certDer == null || signature == null) {
            throw RestPkiError.badRequest("The state, certificate and signature fields are required");
        }
        X509Certificate cert = certificate(certDer);
        Map<String, Object> out = new LinkedHashMap<>();
        Challenge c = take(state);
        if (c == null) {
            out.put("success", false);
            out.put("failure", "StaleSession");
            out.put("certificate", null);
            out.put("validationResults", null);
            return out;
        }
        Outcome o = authenticate(cert, c.nonce(), signature, c.ignoreRevocationStatusUnknown());
        boolean ok = o.results().valid();
        out.put("success", ok);
        out.put("failure", ok ? null : "CertificateFailedValidation");
        out.put("certificate", o.certificate());
        out.put("validationResults", o.results().toJson());
        return out;
    }

    private record Outcome(Map<String, Object> certificate, ValidationResults results) {
    }

    /** Validates the certificate and the signature over the challenge; counts a success as a login. */
    private Outcome authenticate(X509Certificate cert, byte[] nonce, byte[] signature, boolean ignoreUnknown) {
        ValidationResults.CertificateValidation v = ValidationResults.ofCertificate(checker, cert, ignoreUnknown);
        ValidationResults r = v.results();
        String algorithm = signatureAlgorithm(cert.getPublicKey());
        if (verifies(verifyProvider, algorithm, cert.getPublicKey(), nonce, signature)) {
            r.pass(ValidationResults.SUCCESS, "The signature over the challenge is valid (" + algorithm + ")");
        } else {
            r.error(ValidationResults.SIGNATURE_ALGORITHM_VALIDATION_FAILED, "The signature over the challenge does not"
                    + " verify with the certificate's public key", algorithm);
        }
        if (r.valid()) {
            logins.incrementAndGet();
        }
        return new Outcome(models.of(v.path().isEmpty() ? List.of(cert) : v.path()), r);
    }

    private byte[] newChallenge() throws RestPkiError {
        if (outstanding.get() >= MAX_NONCES) {
            expire();
            if (outstanding.get() >= MAX_NONCES) {
                throw RestPkiError.busy(MAX_NONCES + " authentication challenges are outstanding (unused, younger than "
                        + nonceTtl.toSeconds() + " s)");
            }
        }
        byte[] b = new byte[NONCE_BYTES];
        random.nextBytes(b);
        outstanding.incrementAndGet();
        return b;
    }

    /** Removes and returns the challenge if it is known and unexpired; an expired one is removed too. */
    private Challenge take(String key) {
        Challenge c = challenges.remove(key);
        if (c == null) {
            return null;
        }
        outstanding.decrementAndGet();
        return System.nanoTime() - c.expiresAtNanos() > 0 ? null : c;
    }

    private long deadline() {
        return System.nanoTime() + nonceTtl.toNanos();
    }

    /** DER of DigestInfo's prefix for SHA-256 (RFC 8017 9.2 note 1). */
    private static final byte[] SHA256_DIGEST_INFO_PREFIX = HexFormat.of()
            .parseHex("3031300d060960864801650304020105000420");

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * {@code GET /auth/mtls}: {@code peer} was verified up to a lab CA by {@link #trustManager()} during
     * the handshake; checks validity and revocation.
     */
    Map<String, Object> mtls(X509Certificate[] peer) throws ApiException {
        List<X509Certificate> path = pathByName(peer);
        checker.checkPath(path);
        logins.incrementAndGet();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", "OK");
        out.put("subject", peer[0].getSubjectX500Principal().getName());
        out.put("ca", checker.caNumber(path.get(path.size() - 1)));
        return out;
    }

    /** The path of an already verified peer chain, matched by names only (no second signature check). */
    private List<X509Certificate> pathByName(X509Certificate[] peer) throws ApiException {
        List<X509Certificate> path = new ArrayList<>();
        X509Certificate current = peer[0];
        path.add(current);
        for (int depth = 0; depth < 5; depth++) {
            for (X509Certificate a : checker.anchors()) {
                if (a.getSubjectX500Principal().equals(current.getIssuerX500Principal())) {
                    if (!a.equals(current)) {
                        path.add(a);
                    }
                    return path;
                }
            }
            X509Certificate next = null;
            for (int i = 1; i < peer.length; i++) {
                if (peer[i].getSubjectX500Principal().equals(current.getIssuerX500Principal())
                        && !path.contains(peer[i])) {
                    next = peer[i];
                }
            }
            if (next == null) {
                break;
            }
            path.add(next);
            current = next;
        }
        throw new ApiException(403, ApiException.UNTRUSTED_CERTIFICATE,
                "the client certificate does not chain to a lab CA");
    }

    /**
     * The trust manager of the mTLS listener: a client chain is accepted when it leads, with every
     * signature verified, to one of the lab CAs. Validity and revocation are left to {@code /auth/mtls},
     * so that an expired or revoked user gets a 403 with a code instead of a failed handshake.
     */
    X509ExtendedTrustManager trustManager() {
        return new X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                if (chain == null || chain.length == 0) {
                    throw new CertificateException("no client certificate");
                }
                clientChains.incrementAndGet();
                try {
                    checker.chain(chain[0], List.of(chain).subList(1, chain.length));
                } catch (ApiException e) {
                    throw new CertificateException(e.getMessage());
                }
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                    throws CertificateException {
                checkClientTrusted(chain, authType);
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                    throws CertificateException {
                checkClientTrusted(chain, authType);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                throw new CertificateException("this trust manager only checks clients");
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                    throws CertificateException {
                checkServerTrusted(chain, authType);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                    throws CertificateException {
                checkServerTrusted(chain, authType);
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                // sent as certificate_authorities: clients pick a key issued by one of these
                return checker.anchors().toArray(new X509Certificate[0]);
            }
        };
    }

    /** SHA-256 with the key's algorithm: what Lacuna's clients and Web PKI sign a challenge with. */
    private static String signatureAlgorithm(PublicKey key) {
        return switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> "SHA256withECDSA";
        };
    }

    private static X509Certificate certificate(byte[] der) throws RestPkiError {
        if (der == null) {
            throw RestPkiError.api(RestPkiError.INVALID_REQUEST, "The certificate is required");
        }
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException | RuntimeException e) {
            throw RestPkiError.api(RestPkiError.PK_CERTIFICATE_MALFORMED,
                    "The certificate is not a DER X.509 certificate", e);
        }
    }

    /** Drops expired challenges; called periodically and when the table is full. */
    void expire() {
        long now = System.nanoTime();
        for (Map.Entry<String, Challenge> e : challenges.entrySet()) {
            if (now - e.getValue().expiresAtNanos() > 0 && challenges.remove(e.getKey(), e.getValue())) {
                outstanding.decrementAndGet();
            }
        }
    }

    int outstandingNonces() {
        return outstanding.get();
    }

    /** Client chains the mTLS trust manager checked: one per full handshake (none for a resumed one). */
    long fullHandshakes() {
        return clientChains.get();
    }

    long logins() {
        return logins.get();
    }

    /**
     * True when {@code value} is a valid signature of {@code data} by {@code key}. Uses the given
     * provider (BouncyCastle: several times cheaper than SunEC for verification) when it has the
     * algorithm, else the JVM's default. A malformed value, or an algorithm that does not fit the
     * key, is a wrong signature, not an error.
     */
    static boolean verifies(Provider provider, String algorithm, PublicKey key, byte[] data, byte[] value) {
        Signature v;
        try {
            v = Signature.getInstance(algorithm, provider);
        } catch (GeneralSecurityException e) {
            try {
                v = Signature.getInstance(algorithm);
            } catch (GeneralSecurityException e2) {
                return false;
            }
        }
        try {
            v.initVerify(key);
            v.update(data);
            return v.verify(value);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }
}
