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
import org.trustload.pki.Flow;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.LoginRefusal;
import org.trustload.pki.PkiException;
import org.trustload.pki.SignatureServer;
import org.trustload.pki.api.SignatureApi;
import org.trustload.pki.api.SignatureApiClient;
import org.trustload.pki.api.SignatureApis;

/**
 * Certificate Login (TrustLoad): logs the current user of a Key Store Config pool in at the server of the
 * {@link SignatureServerConfig} it names, by challenge–response through the server's API (Rest PKI:
 * {@code GET/POST Api/Authentication}; Rest PKI Core: {@code api/v2/authentication} prepare and completion)
 * or by mutual TLS (new connection, full handshake with the user's certificate, GET). The whole exchange
 * runs in lib as named steps ({@link Flow}); one sample per login with a sub-result per step. Users listed
 * in {@code expectRefusedAliases} (the revoked and expired ones) must be refused: a refusal that looks as
 * declared ({@link LoginRefusal}: the product's refusal codes, the HTTP statuses {@code refusalStatuses}
 * with an answer matching {@code refusalBody}, a TLS alert when {@code refusalTlsAlert}) is their
 * successful outcome, and a successful login of such a user is the failure {@code expectedRefusal}.
 */
public class CertificateLoginSampler extends PkiSampler<CertificateLoginSampler.Prepared> {
    private static final long serialVersionUID = 1L;

    public static final String METHOD_CHALLENGE_RESPONSE = "challenge-response";
    public static final String METHOD_MTLS = "mtls";
    /** Response code of a user who should have been refused but was let in. */
    public static final String EXPECTED_REFUSAL = "expectedRefusal";
    /** Thread variable set to the subject the server reported for the last successful login. */
    public static final String SUBJECT_VARIABLE = "trustload.login.subject";

    private String keyPool = "default";
    private String configName = SignatureServerConfig.DEFAULT_NAME;
    private String method = METHOD_CHALLENGE_RESPONSE;
    private String mtlsPath = "";
    private String sessionReuse = "false";
    private String expectRefusedAliases = "";
    private String refusalStatuses = LoginRefusal.DEFAULT_STATUSES;
    private String refusalTlsAlert = "true";
    private String refusalBody = "";
    /** expectRefusedAliases split into aliases (this thread's clone only). */
    private transient ParsedOnChange<Set<String>> refusedAliases;
    /** The refusal rule parsed from its three properties (this thread's clone only). */
    private transient ParsedOnChange<LoginRefusal> refusalRule;

    /** A login ready to run: the client for the method, the user and what a refusal looks like. */
    record Prepared(SignatureApiClient api, CertificateLoginClient mtls, KeyMaterial key, LoginRefusal refusal) {
    }

    @Override
    protected String kind() {
        return "Certificate Login";
    }

    @Override
    protected Prepared prepare(PropertyParser p, SampleResult res) throws ClientException {
        boolean mtls = p.oneOf("method", method, METHOD_CHALLENGE_RESPONSE, METHOD_CHALLENGE_RESPONSE, METHOD_MTLS)
                .equals(METHOD_MTLS);
        SignatureServer server = config(SignatureServer.class, SignatureServerConfig.KIND, configName, p);
        if (mtls && server.settings().effectiveMtlsUrl() == null) {
            throw p.error("configName", "", SignatureServerConfig.KIND + " '" + configName.trim()
                    + "' has no mtlsUrl (nor an https login URL): method mtls needs it", null);
        }
        SignatureApiClient api = null;
        CertificateLoginClient client = null;
        try {
            if (mtls) {
                boolean reuse = p.oneOf("sessionReuse", sessionReuse, "false", "false", "true").equals("true");
                client = server.mtls(reuse, mtlsPath);
            } else {
                SignatureApis.require(server.api(), SignatureApi.Feature.LOGIN, "method",
                        "certificate login (use method mtls against a TLS login endpoint)");
                api = server.logins();
            }
        } catch (PkiException e) {
            throw p.wrap(e);
        }
        target(server, mtls ? client.url() : server.settings().apiLoginUrl());
        LoginRefusal refusal = refusal(p);
        KeyMaterial key = PkiResults.key(keyPool, p);
        res.setSamplerData((mtls ? "mtls " + client.url() : "challenge-response " + server.api().name() + " "
                + server.settings().apiLoginUrl()) + "\nuser: " + key.alias() + " "
                + key.certificate().getSubjectX500Principal().getName() + "\nexpected refusal: " + refusal.describe()
                + "\n");
        return new Prepared(api, client, key, refusal);
    }

    @Override
    protected void execute(Prepared r, SampleResult res) throws ClientException {
        Flow login = r.mtls() != null ? r.mtls().mutualTls(r.key()) : r.api().login(r.key());
        res.sampleEnd();
        String alias = r.key().alias();
        boolean expectRefusal = refused().contains(alias);
        boolean refusedAsExpected = expectRefusal && r.refusal().matches(login);
        if (login.ok() || refusedAsExpected) {
            reached(); // a failure says itself whether the server answered (onFailure)
        }
        PkiResults.addSteps(res, login.steps(), refusedAsExpected);
        String tls = login.info().isEmpty() ? "" : "\ntls: " + login.info();
        if (login.ok() && expectRefusal) {
            throw new PkiException(EXPECTED_REFUSAL, "expected a refusal, got HTTP " + login.status(),
                    "user " + alias + " is listed in expectRefusedAliases but the server let it in\nsubject: "
                            + login.subject() + tls, null);
        } else if (login.ok()) {
            JMeterVariables vars = JMeterContextService.getContext().getVariables();
            if (vars != null) {
                vars.put(SUBJECT_VARIABLE, login.subject());
            }
            PkiResults.ok(res, "login OK", "login OK\nuser: " + alias + "\nsubject: " + login.subject() + tls + "\n");
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

    /** The refusal rule, parsed again only when one of its properties changed. */
    private LoginRefusal refusal(PropertyParser p) throws ClientException {
        if (refusalRule == null) {
            refusalRule = new ParsedOnChange<>();
        }
        return refusalRule.get(new Object[] {refusalStatuses, refusalTlsAlert, refusalBody}, () -> {
            boolean tlsAlert = p.oneOf("refusalTlsAlert", refusalTlsAlert, "true", "true", "false").equals("true");
            try {
                return LoginRefusal.parse(refusalStatuses, tlsAlert, refusalBody);
            } catch (PkiException e) {
                throw p.wrap(e);
            }
        });
    }

    public String getConfigName() { return configName; }
    public void setConfigName(String v) { configName = v; }
    public String getKeyPool() { return keyPool; }
    public void setKeyPool(String v) { keyPool = v; }
    public String getMethod() { return method; }
    public void setMethod(String v) { method = v; }
    public String getMtlsPath() { return mtlsPath; }
    public void setMtlsPath(String v) { mtlsPath = v; }
    public String getSessionReuse() { return sessionReuse; }
    public void setSessionReuse(String v) { sessionReuse = v; }
    public String getExpectRefusedAliases() { return expectRefusedAliases; }
    public void setExpectRefusedAliases(String v) { expectRefusedAliases = v; }
    public String getRefusalStatuses() { return refusalStatuses; }
    public void setRefusalStatuses(String v) { refusalStatuses = v; }
    public String getRefusalTlsAlert() { return refusalTlsAlert; }
    public void setRefusalTlsAlert(String v) { refusalTlsAlert = v; }
    public String getRefusalBody() { return refusalBody; }
    public void setRefusalBody(String v) { refusalBody = v; }
}
