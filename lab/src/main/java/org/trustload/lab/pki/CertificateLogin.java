package org.trustload.lab.pki;

import java.io.ByteArrayInputStream;
import java.net.Socket;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Certificate login, as a relying party does it: challenge–response ({@code /auth/nonce} then
 * {@code /auth/login} with the nonce signed by the user's key) and mutual TLS ({@code /auth/mtls}
 * behind a listener that requires a client certificate issued by one of the lab CAs).
 */
final class CertificateLogin {
    /** Lifetime of a nonce. */
    static final Duration NONCE_TTL = Duration.ofSeconds(120);
    /** Nonces handed out and not yet used or expired; beyond, {@code /auth/nonce} answers 503 {@code busy}. */
    static final int MAX_NONCES = 100_000;
    /** Bytes of a nonce. */
    static final int NONCE_BYTES = 32;
    /**
     * Signature algorithms {@code /auth/login} accepts (JCA names as BouncyCastle spells them). The
     * {@code PLAIN-ECDSA} forms take the raw r||s value that PKCS#11 tokens produce.
     */
    static final Set<String> ALGORITHMS = Set.of(
            "SHA256withECDSA", "SHA384withECDSA", "SHA512withECDSA",
            "SHA256withPLAIN-ECDSA", "SHA384withPLAIN-ECDSA", "SHA512withPLAIN-ECDSA",
            "SHA256withRSA", "SHA384withRSA", "SHA512withRSA",
            "SHA256withRSAandMGF1", "SHA384withRSAandMGF1", "SHA512withRSAandMGF1",
            "Ed25519", "Ed448");

    private final Map<String, Long> nonces = new ConcurrentHashMap<>();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicLong logins = new AtomicLong();
    private final AtomicLong clientChains = new AtomicLong();
    private final SecureRandom random = new SecureRandom();
    private final CertificateChecker checker;
    private final Provider verifyProvider;

    CertificateLogin(CertificateChecker checker, Provider verifyProvider) {
        this.checker = checker;
        this.verifyProvider = verifyProvider;
    }

    /** {@code GET|POST /auth/nonce}. */
    Map<String, Object> nonce() throws ApiException {
        if (outstanding.get() >= MAX_NONCES) {
            expire();
            if (outstanding.get() >= MAX_NONCES) {
                throw new ApiException(503, ApiException.BUSY, MAX_NONCES + " nonces are outstanding (unused, younger than "
                        + NONCE_TTL.toSeconds() + " s)");
            }
        }
        byte[] b = new byte[NONCE_BYTES];
        random.nextBytes(b);
        String nonce = Base64.getEncoder().encodeToString(b);
        nonces.put(nonce, System.nanoTime() + NONCE_TTL.toNanos());
        outstanding.incrementAndGet();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("nonce", nonce);
        out.put("expiresIn", NONCE_TTL.toSeconds());
        return out;
    }

    /**
     * {@code POST /auth/login}. A request that does not parse (400) leaves the nonce alone; from then on
     * the nonce is used up, whatever the outcome.
     */
    Map<String, Object> login(Json req) throws ApiException {
        byte[] nonce = req.base64("nonce", ApiException.BAD_REQUEST, 400);
        byte[] certDer = req.base64("certificate", ApiException.BAD_REQUEST, 400);
        List<byte[]> chainDer = req.base64Array("chain", ApiException.BAD_REQUEST, 400);
        byte[] value = req.base64("signature", ApiException.BAD_REQUEST, 400);
        X509Certificate cert = certificate(certDer, "certificate");
        List<X509Certificate> extra = new ArrayList<>();
        for (byte[] der : chainDer) {
            extra.add(certificate(der, "an element of chain"));
        }
        String algorithm = req.string("signatureAlgorithm", defaultAlgorithm(cert.getPublicKey()));
        if (!ALGORITHMS.contains(algorithm)) {
            throw ApiException.badRequest("signatureAlgorithm \"" + algorithm + "\" is not accepted (" + String.join(", ",
                    new java.util.TreeSet<>(ALGORITHMS)) + ")");
        }

        Long expiresAt = nonces.remove(Base64.getEncoder().encodeToString(nonce));
        if (expiresAt == null) {
            throw new ApiException(401, ApiException.UNKNOWN_NONCE, "the nonce is unknown or was already used");
        }
        outstanding.decrementAndGet();
        if (System.nanoTime() - expiresAt > 0) {
            throw new ApiException(401, ApiException.UNKNOWN_NONCE, "the nonce expired (nonces live "
                    + NONCE_TTL.toSeconds() + " s)");
        }

        List<X509Certificate> path = checker.check(cert, extra);
        if (!Engines.verifies(verifyProvider, algorithm, cert.getPublicKey(), nonce, value)) {
            throw new ApiException(401, ApiException.INVALID_SIGNATURE, "the signature does not verify over the nonce bytes"
                    + " with the certificate's public key (" + algorithm + ")");
        }
        logins.incrementAndGet();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", "OK");
        out.put("subject", cert.getSubjectX500Principal().getName());
        out.put("ca", checker.caNumber(path.get(path.size() - 1)));
        out.put("sessionId", sessionId());
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
                if (peer[i].getSubjectX500Principal().equals(current.getIssuerX500Principal()) && !path.contains(peer[i])) {
                    next = peer[i];
                }
            }
            if (next == null) {
                break;
            }
            path.add(next);
            current = next;
        }
        throw new ApiException(403, ApiException.UNTRUSTED_CERTIFICATE, "the client certificate does not chain to a lab CA");
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
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
                checkClientTrusted(chain, authType);
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
                checkClientTrusted(chain, authType);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                throw new CertificateException("this trust manager only checks clients");
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
                checkServerTrusted(chain, authType);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
                checkServerTrusted(chain, authType);
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                // sent as certificate_authorities: clients pick a key issued by one of these
                return checker.anchors().toArray(new X509Certificate[0]);
            }
        };
    }

    private static String defaultAlgorithm(PublicKey key) {
        return switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            case "Ed448" -> "Ed448";
            default -> "SHA256withECDSA";
        };
    }

    private static X509Certificate certificate(byte[] der, String what) throws ApiException {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException | RuntimeException e) {
            throw ApiException.badRequest(what + " is not a DER X.509 certificate: " + e.getMessage());
        }
    }

    private String sessionId() {
        byte[] b = new byte[18];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** Drops expired nonces; called periodically and when the table is full. */
    void expire() {
        long now = System.nanoTime();
        for (Map.Entry<String, Long> e : nonces.entrySet()) {
            if (now - e.getValue() > 0 && nonces.remove(e.getKey(), e.getValue())) {
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
}
