package org.trustload.jmeter.pki;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.ParsedOnChange;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.pki.CertificateLoginClient;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignatureServer;

/**
 * Certificate Login (TrustLoad): logs the current user of a Key Store Config pool in at the login
 * endpoints of the {@link SignatureServerConfig} it names, by challenge–response (nonce → sign →
 * login) or by mutual TLS (new connection, full handshake with the user's certificate, GET). The
 * whole exchange runs in lib ({@link CertificateLoginClient.Login#steps()}); one sample per login
 * with a sub-result per step. Users listed in {@code expectRefusedAliases} (the revoked and expired
 * ones) must be refused with {@code certificateRevoked} or {@code certificateExpired}: that refusal
 * is their successful outcome, and a successful login of such a user is the failure
 * {@code expectedRefusal}.
 */
public class CertificateLoginSampler extends PkiSampler<CertificateLoginSampler.Prepared> {
    private static final long serialVersionUID = 1L;

    public static final String METHOD_CHALLENGE_RESPONSE = "challenge-response";
    public static final String METHOD_MTLS = "mtls";
    /** Response code of a user who should have been refused but was let in. */
    public static final String EXPECTED_REFUSAL = "expectedRefusal";
    /** Thread variable set to the subject the server reported for the last successful login. */
    public static final String SUBJECT_VARIABLE = "trustload.login.subject";

    private static final Set<String> REFUSAL_CODES = Set.of(PkiException.CERTIFICATE_REVOKED,
            PkiException.CERTIFICATE_EXPIRED);

    private String keyPool = "default";
    private String configName = SignatureServerConfig.DEFAULT_NAME;
    private String method = METHOD_CHALLENGE_RESPONSE;
    private String nonceMethod = "GET";
    private String noncePath = "/auth/nonce";
    private String loginPath = "/auth/login";
    private String digest = "SHA-256";
    private String nonceField = "nonce";
    private String certificateField = "certificate";
    private String chainField = "chain";
    private String signatureField = "signature";
    private String signatureAlgorithmField = "signatureAlgorithm";
    private String mtlsPath = "/auth/mtls";
    private String sessionReuse = "false";
    private String expectRefusedAliases = "";
    /** expectRefusedAliases split into aliases (this thread's clone only). */
    private transient ParsedOnChange<Set<String>> refusedAliases;

    /** A login ready to run: the client for these options and the user. */
    static final class Prepared {
        final CertificateLoginClient client;
        final boolean mtls;
        final KeyMaterial key;

        Prepared(CertificateLoginClient client, boolean mtls, KeyMaterial key) {
            this.client = client;
            this.mtls = mtls;
            this.key = key;
        }
    }

    @Override
    protected String kind() {
        return "Certificate Login";
    }

    @Override
    protected Prepared prepare(PropertyParser p, SampleResult res) throws ClientException {
        boolean mtls = p.oneOf("method", method, METHOD_CHALLENGE_RESPONSE, METHOD_CHALLENGE_RESPONSE, METHOD_MTLS)
                .equals(METHOD_MTLS);
        SignatureServer server = PkiResults.server(configName, p);
        SignatureServer.Settings s = server.settings();
        if (mtls ? s.mtlsUrl() == null : s.loginUrl() == null) {
            throw p.error("configName", "", SignatureServerConfig.KIND + " '" + configName.trim() + "' has no "
                    + (mtls ? "mtlsUrl: method mtls needs it" : "loginUrl: challenge-response needs it"), null);
        }
        boolean reuse = p.oneOf("sessionReuse", sessionReuse, "false", "false", "true").equals("true");
        SignatureServer.LoginOptions o = new SignatureServer.LoginOptions(
                p.oneOf("nonceMethod", nonceMethod, "get", "get", "post").toUpperCase(java.util.Locale.ROOT),
                or(noncePath, "/auth/nonce"), or(loginPath, "/auth/login"), or(digest, "SHA-256"),
                new CertificateLoginClient.Fields(or(nonceField, "nonce"), or(certificateField, "certificate"),
                        s(chainField), or(signatureField, "signature"), s(signatureAlgorithmField)),
                s(mtlsPath), reuse);
        CertificateLoginClient client = server.login(o, mtls);
        KeyMaterial key = PkiResults.key(keyPool, p);
        res.setSamplerData((mtls ? "mtls " + s.mtlsUrl() + " " + o.mtlsPath() + (reuse ? " (session reuse)" : " (full handshake)")
                : "challenge-response " + s.loginUrl() + " " + o.nonceMethod() + " " + o.noncePath() + " -> POST "
                + o.loginPath()) + "\nuser: " + key.alias() + " " + key.certificate().getSubjectX500Principal().getName()
                + "\n");
        return new Prepared(client, mtls, key);
    }

    @Override
    protected void execute(Prepared r, SampleResult res) throws ClientException {
        CertificateLoginClient.Login login = r.mtls ? r.client.mutualTls(r.key) : r.client.challengeResponse(r.key);
        res.sampleEnd();
        if (!PkiResults.neverReachable(login.failure())) {
            reached();
        }
        String alias = r.key.alias();
        boolean expectRefusal = refused().contains(alias);
        boolean refusedAsExpected = expectRefusal && !login.ok() && REFUSAL_CODES.contains(login.code());
        PkiResults.addSteps(res, login.steps(), refusedAsExpected);
        String tls = login.tls().isEmpty() ? "" : "\ntls: " + login.tls();
        if (login.ok() && expectRefusal) {
            throw new PkiException(EXPECTED_REFUSAL, "expected a refusal, got HTTP " + login.status(),
                    "user " + alias + " is listed in expectRefusedAliases but the server let it in\nsubject: "
                            + login.subject() + tls, null);
        } else if (login.ok()) {
            JMeterVariables vars = JMeterContextService.getContext().getVariables();
            if (vars != null) {
                vars.put(SUBJECT_VARIABLE, login.subject());
            }
            PkiResults.ok(res, "login OK", "login OK\nuser: " + alias + "\nsubject: " + login.subject()
                    + "\nca: " + login.answer().path("ca").asText("") + tls + "\n");
        } else if (refusedAsExpected) {
            String m = "refused as expected: " + login.code();
            PkiResults.ok(res, m, m + "\nuser: " + alias + "\n" + login.failure().detail() + "\n");
        } else {
            PkiException f = login.failure();
            throw new PkiException(f.category(), f.getMessage(), "user: " + alias + "\n" + f.detail() + tls, f);
        }
    }

    /** The aliases of expectRefusedAliases, split again only when the property changed (not per sample: a regex). */
    private Set<String> refused() throws ClientException {
        String t = expectRefusedAliases == null ? "" : expectRefusedAliases;
        if (refusedAliases == null) {
            refusedAliases = new ParsedOnChange<>();
        }
        return refusedAliases.get(new Object[] {t}, () -> Arrays.stream(t.split("[,\\s]+")).filter(x -> !x.isEmpty())
                .collect(Collectors.toUnmodifiableSet()));
    }

    private static String s(String v) {
        return v == null ? "" : v.trim();
    }

    private static String or(String v, String def) {
        return s(v).isEmpty() ? def : s(v);
    }

    public String getConfigName() { return configName; }
    public void setConfigName(String v) { configName = v; }
    public String getKeyPool() { return keyPool; }
    public void setKeyPool(String v) { keyPool = v; }
    public String getMethod() { return method; }
    public void setMethod(String v) { method = v; }
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
    public String getMtlsPath() { return mtlsPath; }
    public void setMtlsPath(String v) { mtlsPath = v; }
    public String getSessionReuse() { return sessionReuse; }
    public void setSessionReuse(String v) { sessionReuse = v; }
    public String getExpectRefusedAliases() { return expectRefusedAliases; }
    public void setExpectRefusedAliases(String v) { expectRefusedAliases = v; }
}
