package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.jmeter.pki.CertificateLoginSampler;
import org.trustload.jmeter.pki.KeyStoreConfig;
import org.trustload.jmeter.pki.SignatureServerConfig;
import org.trustload.labkit.pki.TestPki;
import org.trustload.testing.Nginx;

/**
 * Certificate login against a real relying party: nginx (Debian's package) with {@code ssl_verify_client on}
 * and the test PKI's CRLs. nginx refuses a revoked or expired client certificate its own way, with
 * {@code 400 The SSL certificate error} after a completed handshake. With the default refusal rule
 * (HTTP 400/401/403, any answer, a TLS alert) such a user listed in {@code expectRefusedAliases} is
 * "refused as expected"; a rule naming other statuses turns it into a failure, and a body pattern must
 * match nginx's page. The plan's one-URL setting is used: the login URL (https) serves the mTLS method.
 */
class CertificateLoginNginxIT {
    @TempDir
    Path dir;

    private static String pem(Object o) throws Exception {
        return PkiDssIT.pem(o);
    }

    @Test
    void nginxRefusesRevokedAndExpiredUsersWith400AndTheDeclaredRuleCountsItAsExpected() throws Exception {
        Nginx.assumeOrFailInCi();
        JMeterUtils.setJMeterHome(Plans.HOME.toString());
        JMeterUtils.loadJMeterProperties(Plans.HOME.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        TestPki pki = TestPki.generate(new TestPki.Spec().withSeed(7).withCas(2).withUsers(6).withRevoked(List.of(3))
                .withExpired(List.of(4)), dir.resolve("pki"));
        // nginx's files: its server key and certificate (the test PKI's, for 127.0.0.1), the CAs, the CRLs in PEM
        KeyStore server = pki.serverKeyStore();
        String alias = server.aliases().nextElement();
        Path cert = dir.resolve("server.pem");
        Path key = dir.resolve("server.key");
        StringBuilder chain = new StringBuilder();
        for (var c : server.getCertificateChain(alias)) {
            chain.append(pem(c));
        }
        Files.writeString(cert, chain);
        Files.writeString(key, pem((PrivateKey) server.getKey(alias, pki.password().toCharArray())));
        Path cas = dir.resolve("cas.pem");
        Path crls = dir.resolve("crls.pem");
        StringBuilder caText = new StringBuilder();
        StringBuilder crlText = new StringBuilder();
        for (int n = 1; n <= pki.caCertificates().size(); n++) {
            caText.append(pem(pki.caCertificates().get(n - 1)));
            crlText.append(pem(pki.crl(n)));
        }
        Files.writeString(cas, caText);
        Files.writeString(crls, crlText);

        try (Nginx nginx = Nginx.startMtls(cert, key, cas, crls)) {
            SignatureServerConfig c = new SignatureServerConfig();
            c.setName("nginx");
            c.setConfigName("nginx");
            c.setLoginUrl("https://127.0.0.1:" + nginx.port() + "/"); // one URL: no mTLS URL needed
            c.setTrustAnchorsFile(cas.toString());
            c.testStarted();
            KeyStoreConfig users = new KeyStoreConfig();
            users.setName("users");
            users.setPoolName("users");
            users.setKeyStoreFile(pki.usersFile().toString());
            users.setKeyStorePassword(pki.password());
            users.setAssignment(KeyStoreConfig.ASSIGN_PER_ITERATION);
            users.setAliasVariable("keyAlias");
            users.testStarted();
            String revoked = pki.revokedAliases().get(0);
            String expired = pki.expiredAliases().get(0);
            try {
                CertificateLoginSampler s = new CertificateLoginSampler();
                s.setName("login");
                s.setConfigName("nginx");
                s.setKeyPool("users");
                s.setMethod("mtls");
                s.setExpectRefusedAliases(revoked + "," + expired);
                int admitted = 0;
                int refusedAsExpected = 0;
                for (int i = 0; i < pki.userAliases().size(); i++) {
                    users.iterationStart(null);
                    String user = JMeterContextService.getContext().getVariables().get("keyAlias");
                    SampleResult r = s.sample(null);
                    assertThat(r.isSuccessful())
                            .as(user + ": " + r.getResponseMessage() + "\n" + r.getResponseDataAsString())
                            .isTrue();
                    if (user.equals(revoked) || user.equals(expired)) {
                        assertThat(r.getResponseMessage()).isEqualTo("refused as expected: requestRefused");
                        assertThat(r.getResponseDataAsString()).contains("The SSL certificate error");
                        refusedAsExpected++;
                    } else {
                        assertThat(r.getResponseMessage()).isEqualTo("login OK");
                        admitted++;
                    }
                }
                assertThat(admitted).isEqualTo(4);
                assertThat(refusedAsExpected).isEqualTo(2);

                // nginx's page must match a declared body pattern; other declared statuses make it a failure
                s.setRefusalBody("The SSL certificate error");
                assertThat(loginAs(users, s, revoked).getResponseMessage())
                        .isEqualTo("refused as expected: requestRefused");
                s.setRefusalBody("certificate has been revoked");
                SampleResult r = loginAs(users, s, revoked);
                assertThat(r.isSuccessful()).isFalse();
                assertThat(r.getResponseCode()).isEqualTo("requestRefused");
                assertThat(r.getResponseMessage()).isEqualTo("HTTP 400 requestRefused");
                s.setRefusalBody("");
                s.setRefusalStatuses("401 403");
                assertThat(loginAs(users, s, expired).getResponseMessage()).isEqualTo("HTTP 400 requestRefused");
            } finally {
                users.testEnded();
                c.testEnded();
            }
        }
    }

    /** Iterates the per-iteration pool until {@code alias} is this thread's user, then logs in once. */
    private static SampleResult loginAs(KeyStoreConfig users, CertificateLoginSampler s, String alias) {
        for (int i = 0; i < 20; i++) {
            users.iterationStart(null);
            if (alias.equals(JMeterContextService.getContext().getVariables().get("keyAlias"))) {
                return s.sample(null);
            }
        }
        throw new AssertionError(alias + " never came round");
    }
}
