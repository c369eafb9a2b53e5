package org.trustload.jmeter.pki;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.trustload.pki.CertificateLoginClient;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Certificate Login (TrustLoad): logs the current user of a Key Store Config pool in, by
 * challenge–response (nonce → sign → login) or by mutual TLS (new connection, full handshake with
 * the user's certificate, GET). One sample per login with a sub-result per step. Users listed in
 * {@code expectRefusedAliases} (the revoked and expired ones) must be refused with
 * {@code certificateRevoked} or {@code certificateExpired}: that refusal is their successful outcome,
 * and a successful login of such a user is the failure {@code expectedRefusal}.
 */
public class CertificateLoginSampler extends AbstractSampler implements TestBean {
    private static final long serialVersionUID = 1L;

    public static final String METHOD_CHALLENGE_RESPONSE = "challenge-response";
    public static final String METHOD_MTLS = "mtls";
    /** Response code of a user who should have been refused but was let in. */
    public static final String EXPECTED_REFUSAL = "expectedRefusal";
    /** Thread variable set to the subject the server reported for the last successful login. */
    public static final String SUBJECT_VARIABLE = "trustload.login.subject";

    private static final Set<String> REFUSAL_CODES = Set.of(PkiException.CERTIFICATE_REVOKED,
            PkiException.CERTIFICATE_EXPIRED);
    private static final ConcurrentHashMap<String, CertificateLoginClient> CLIENTS = new ConcurrentHashMap<>();

    private String keyPool = "default";
    private String method = METHOD_CHALLENGE_RESPONSE;
    private String loginUrl = "";
    private String nonceMethod = "GET";
    private String noncePath = "/auth/nonce";
    private String loginPath = "/auth/login";
    private String digest = "SHA-256";
    private String nonceField = "nonce";
    private String certificateField = "certificate";
    private String chainField = "chain";
    private String signatureField = "signature";
    private String signatureAlgorithmField = "signatureAlgorithm";
    private String mtlsUrl = "";
    private String mtlsPath = "/auth/mtls";
    private String sessionReuse = "false";
    private String trustAnchorsFile = "";
    private String trustAll = "false";
    private String connectTimeout = "5000";
    private String handshakeTimeout = "10000";
    private String responseTimeout = "30000";
    private String expectRefusedAliases = "";

    private transient String refusedText;
    private transient Set<String> refused;

    @Override
    public SampleResult sample(Entry e) {
        SampleResult res = new SampleResult();
        res.setSampleLabel(getName());
        res.setDataType(SampleResult.TEXT);
        res.sampleStart();
        try {
            boolean mtls = mtls();
            KeyMaterial key = KeyPools.current(keyPool);
            CertificateLoginClient client = client(mtls);
            String who = key.alias() + " " + key.certificate().getSubjectX500Principal().getName();
            res.setSamplerData((mtls ? "mtls " + mtlsTarget() + (bool(sessionReuse) ? " (session reuse)" : " (full handshake)")
                    : "challenge-response " + loginUrl.trim() + " " + nonceMethod.trim() + " " + noncePath.trim()
                    + " -> POST " + loginPath.trim()) + "\nuser: " + who + "\n");
            CertificateLoginClient.Login login = mtls ? client.mutualTls(key) : client.challengeResponse(key);
            res.sampleEnd();
            boolean expectRefusal = refused().contains(key.alias());
            boolean refusedAsExpected = expectRefusal && !login.ok() && REFUSAL_CODES.contains(login.code());
            for (CertificateLoginClient.Step step : login.steps()) {
                SampleResult sub = new SampleResult();
                sub.setSampleLabel(getName() + " " + step.name());
                sub.setStampAndTime(step.startMillis(), step.elapsedMillis());
                if (step.ok()) {
                    PkiResults.ok(sub, step.summary(), step.summary());
                } else if (refusedAsExpected) {
                    String m = "refused as expected: " + step.failure().category();
                    PkiResults.ok(sub, m, m + "\n" + step.failure().detail());
                } else {
                    PkiResults.fail(sub, step.failure());
                }
                res.addSubResult(sub, false);
            }
            String tls = login.tls().isEmpty() ? "" : "\ntls: " + login.tls();
            if (login.ok()) {
                if (expectRefusal) {
                    PkiResults.fail(res, EXPECTED_REFUSAL, "expected a refusal, got HTTP " + login.status(),
                            "user " + key.alias() + " is listed in expectRefusedAliases but the server let it in\nsubject: "
                                    + login.subject() + tls);
                } else {
                    var vars = org.apache.jmeter.threads.JMeterContextService.getContext().getVariables();
                    if (vars != null) {
                        vars.put(SUBJECT_VARIABLE, login.subject());
                    }
                    PkiResults.ok(res, "login OK", "login OK\nuser: " + key.alias() + "\nsubject: " + login.subject()
                            + "\nca: " + login.answer().path("ca").asText("") + tls + "\n");
                }
            } else if (refusedAsExpected) {
                String m = "refused as expected: " + login.code();
                PkiResults.ok(res, m, m + "\nuser: " + key.alias() + "\n" + login.failure().detail() + "\n");
            } else {
                PkiResults.fail(res, login.failure().category(), login.failure().getMessage(),
                        "user: " + key.alias() + "\n" + login.failure().detail() + tls);
            }
        } catch (PkiException ex) {
            PkiResults.fail(res, ex);
        } catch (RuntimeException ex) {
            PkiResults.unexpected(res, ex);
        }
        return res;
    }

    private boolean mtls() throws PkiException {
        String m = method == null ? "" : method.trim().toLowerCase(Locale.ROOT);
        switch (m) {
            case "":
            case METHOD_CHALLENGE_RESPONSE:
                if (loginUrl == null || loginUrl.isBlank()) {
                    throw new PkiException(PkiException.CONFIG_ERROR, "challenge-response needs a login URL");
                }
                return false;
            case METHOD_MTLS:
                if (mtlsUrl == null || mtlsUrl.isBlank()) {
                    throw new PkiException(PkiException.CONFIG_ERROR, "mtls needs an mTLS URL");
                }
                return true;
            default:
                throw new PkiException(PkiException.CONFIG_ERROR, "unknown method '" + method
                        + "' (expected challenge-response, mtls)");
        }
    }

    private String mtlsTarget() {
        String p = mtlsPath == null ? "" : mtlsPath.trim();
        return p.isEmpty() ? mtlsUrl.trim() : URI.create(mtlsUrl.trim()).resolve(p).toString();
    }

    private CertificateLoginClient client(boolean mtls) throws PkiException {
        int ct = PkiResults.parseInt("connectTimeout", connectTimeout, 5000);
        int ht = PkiResults.parseInt("handshakeTimeout", handshakeTimeout, 10000);
        int rt = PkiResults.parseInt("responseTimeout", responseTimeout, 30000);
        if (ct <= 0 || ht <= 0 || rt <= 0) {
            throw new PkiException(PkiException.CONFIG_ERROR, "timeouts must be positive");
        }
        String anchors = trustAnchorsFile == null ? "" : trustAnchorsFile.trim();
        boolean all = bool(trustAll);
        boolean reuse = bool(sessionReuse);
        String cacheKey = String.join("|", mtls ? "mtls" : "cr", s(loginUrl), s(nonceMethod), s(noncePath), s(loginPath),
                s(digest), s(nonceField), s(certificateField), s(chainField), s(signatureField),
                s(signatureAlgorithmField), mtls ? mtlsTarget() : "", anchors, Boolean.toString(all),
                Boolean.toString(reuse), ct + "/" + ht + "/" + rt);
        CertificateLoginClient c = CLIENTS.get(cacheKey);
        if (c != null) {
            return c;
        }
        CertificateLoginClient.Builder b = CertificateLoginClient.builder()
                .nonceMethod(s(nonceMethod).isEmpty() ? "GET" : s(nonceMethod))
                .noncePath(s(noncePath)).loginPath(s(loginPath))
                .digest(s(digest).isEmpty() ? "SHA-256" : s(digest))
                .fields(new CertificateLoginClient.Fields(or(nonceField, "nonce"), or(certificateField, "certificate"),
                        s(chainField), or(signatureField, "signature"), s(signatureAlgorithmField)))
                .trustAll(all).sessionReuse(reuse)
                .connectTimeout(Duration.ofMillis(ct)).handshakeTimeout(Duration.ofMillis(ht))
                .responseTimeout(Duration.ofMillis(rt));
        try {
            if (!s(loginUrl).isEmpty()) {
                b.loginUrl(URI.create(s(loginUrl)));
            }
            if (mtls) {
                b.mtlsUrl(URI.create(mtlsTarget()));
            }
        } catch (IllegalArgumentException ex) {
            throw new PkiException(PkiException.CONFIG_ERROR, "bad URL", ex.getMessage(), ex);
        }
        if (!anchors.isEmpty() && !all) {
            b.trustAnchors(CertificateLoginClient.readCertificates(Path.of(anchors)));
        }
        c = b.build();
        CertificateLoginClient prev = CLIENTS.putIfAbsent(cacheKey, c);
        return prev != null ? prev : c;
    }

    private Set<String> refused() {
        String t = expectRefusedAliases == null ? "" : expectRefusedAliases;
        if (!t.equals(refusedText)) {
            refused = Arrays.stream(t.split("[,\\s]+")).filter(x -> !x.isEmpty()).collect(Collectors.toUnmodifiableSet());
            refusedText = t;
        }
        return refused;
    }

    private static boolean bool(String v) {
        return v != null && v.trim().equalsIgnoreCase("true");
    }

    private static String s(String v) {
        return v == null ? "" : v.trim();
    }

    private static String or(String v, String def) {
        return s(v).isEmpty() ? def : s(v);
    }

    @Override
    public Object clone() {
        CertificateLoginSampler c = (CertificateLoginSampler) super.clone();
        c.refused = null;
        c.refusedText = null;
        return c;
    }

    public String getKeyPool() { return keyPool; }
    public void setKeyPool(String v) { keyPool = v; }
    public String getMethod() { return method; }
    public void setMethod(String v) { method = v; }
    public String getLoginUrl() { return loginUrl; }
    public void setLoginUrl(String v) { loginUrl = v; }
    public String getNonceMethod() { return nonceMethod; }
    public void setNonceMethod(String v) { nonceMethod = v; }
    public String getNoncePath() { return noncePath; }
    public void setNoncePath(String v) { noncePath = v; }
    public String getLoginPath() { return loginPath; }
    public void setLoginPath(String v) { loginPath = v; }
    public String getDigest() { return digest; }
    public void setDigest(String v) { digest = v; }
    public String getNonceField() { return nonceField; }
    public void setNonceField(String v) { nonceField = v; }
    public String getCertificateField() { return certificateField; }
    public void setCertificateField(String v) { certificateField = v; }
    public String getChainField() { return chainField; }
    public void setChainField(String v) { chainField = v; }
    public String getSignatureField() { return signatureField; }
    public void setSignatureField(String v) { signatureField = v; }
    public String getSignatureAlgorithmField() { return signatureAlgorithmField; }
    public void setSignatureAlgorithmField(String v) { signatureAlgorithmField = v; }
    public String getMtlsUrl() { return mtlsUrl; }
    public void setMtlsUrl(String v) { mtlsUrl = v; }
    public String getMtlsPath() { return mtlsPath; }
    public void setMtlsPath(String v) { mtlsPath = v; }
    public String getSessionReuse() { return sessionReuse; }
    public void setSessionReuse(String v) { sessionReuse = v; }
    public String getTrustAnchorsFile() { return trustAnchorsFile; }
    public void setTrustAnchorsFile(String v) { trustAnchorsFile = v; }
    public String getTrustAll() { return trustAll; }
    public void setTrustAll(String v) { trustAll = v; }
    public String getConnectTimeout() { return connectTimeout; }
    public void setConnectTimeout(String v) { connectTimeout = v; }
    public String getHandshakeTimeout() { return handshakeTimeout; }
    public void setHandshakeTimeout(String v) { handshakeTimeout = v; }
    public String getResponseTimeout() { return responseTimeout; }
    public void setResponseTimeout(String v) { responseTimeout = v; }
    public String getExpectRefusedAliases() { return expectRefusedAliases; }
    public void setExpectRefusedAliases(String v) { expectRefusedAliases = v; }
}
