package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.harness.Catalog;
import org.trustload.harness.DssFixture;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.Lab;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;
import org.trustload.jmeter.pki.AbstractSignSampler;
import org.trustload.jmeter.pki.CadesSignSampler;
import org.trustload.jmeter.pki.CertificateLoginSampler;
import org.trustload.jmeter.pki.KeyStoreConfig;
import org.trustload.jmeter.pki.PadesSignSampler;
import org.trustload.jmeter.pki.SignatureAssertion;
import org.trustload.jmeter.pki.SignatureServerConfig;
import org.trustload.jmeter.pki.TimestampRequestSampler;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;

/**
 * The pki plans and elements against a real EU DSS 6.4 REST server ({@link DssFixture}, one JVM for the
 * whole class) next to one lab (its CAs, CRLs, TSA and users): pki/cades, cades-t, pades, pades-t at smoke
 * scale with 0 errors (every signature checked by the Signature Assertion; one of each kept with
 * {@code pki.output.dir} and verified by {@code openssl cms -verify} or {@code pdfsig}), the server-held-key
 * mode and DSS's timestamp service (the elements, their outputs checked by openssl), a B-level signature
 * made with the wrong key (DSS answers 200; the assertion must fail it), and the bad-input table of the dss
 * API.
 *
 * <p>CI budget: ~80 s: EU DSS's own JVM (its start is most of it) and a lab, shared by the five cases.
 */
class PkiDssIT {
    private static final Path DIR = Plans.DIR.resolve("target/pki-dss");
    private static Lab lab;
    private static DssFixture dss;
    private static Properties labProps;
    private static Path dssProps;

    @BeforeAll
    static void start() throws Exception {
        JMeterUtils.setJMeterHome(Plans.HOME.toString());
        JMeterUtils.loadJMeterProperties(Plans.HOME.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
        Files.createDirectories(DIR);
        lab = PlanRunIT.startLab("pki", DIR.resolve("lab.properties"), DIR.resolve("lab.log"));
        labProps = Plans.load(lab.properties());
        dss = DssFixture.start(Plans.LAYOUT, lab.properties(), DIR.resolve("dss"), 0, Duration.ofMinutes(3));
        Properties p = new Properties();
        p.setProperty("pki.api", "dss");
        p.setProperty("pki.url", dss.url());
        dssProps = DIR.resolve("dss.properties");
        try (var w = Files.newBufferedWriter(dssProps)) {
            p.store(w, "the DSS fixture");
        }
        JMeterContextService.getContext().setVariables(new JMeterVariables());
    }

    @AfterAll
    static void stop() throws Exception {
        if (dss != null) {
            dss.close();
        }
        if (lab != null) {
            lab.close();
        }
    }

    // ------------------------------------------------------------------ the plans

    private static Run.Result plan(String id, Path out, String... props) throws Exception {
        Catalog.Entry e = Plans.catalog().get(id);
        RunSpec.Builder o = RunSpec.of(Plans.LAYOUT, e).dir(DIR.resolve("runs").resolve(out.getFileName()))
                .echo(false).timeout(Duration.ofMinutes(6)).lab(lab)
                .properties(Plans.DIR.resolve(id + ".smoke.properties")).properties(dssProps)
                .property("pki.output.dir", out.toString());
        for (String p : props) {
            o.property(p.substring(0, p.indexOf('=')), p.substring(p.indexOf('=') + 1));
        }
        Run.Result r = Run.execute(Plans.JMETER, o, System.out);
        assertThat(r.status()).as(id + ": " + r.message() + "\n" + r.summaryText()).isEqualTo(ExitStatus.OK);
        JsonNode total = Plans.statistics(r.dir()).path("Total");
        assertThat(total.path("errorCount").asLong()).as("errors, see " + r.dir()).isZero();
        return r;
    }

    private static Path first(Path dir, String ext) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(ext)).sorted().findFirst()
                    .orElseThrow(() -> new AssertionError("no " + ext + " kept in " + dir));
        }
    }

    private static String exec(Path dir, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", cmd)).isTrue();
        return "exit " + p.exitValue() + "\n" + out;
    }

    @Test
    void cadesAndCadesTPlansSignThroughDssAndOpensslVerifiesTheirCms() throws Exception {
        for (String id : List.of("pki/cades", "pki/cades-t")) {
            Path out = DIR.resolve("out-" + id.substring(4));
            plan(id, out);
            Path cms = first(out, ".p7s");
            String r = exec(out, "openssl", "cms", "-verify", "-binary", "-inform", "DER", "-in", cms.toString(),
                    "-CAfile", labProps.getProperty("pki.trust.anchors"), "-purpose", "any", "-out", "content");
            assertThat(r).as(id + " " + cms).startsWith("exit 0").contains("Verification successful");
            assertThat(Files.readAllBytes(out.resolve("content")))
                    .isEqualTo(Files.readAllBytes(Path.of(labProps.getProperty("pki.document"))));
            if (id.endsWith("-t")) {
                assertThat(exec(out, "openssl", "cms", "-cmsout", "-print", "-inform", "DER", "-in", cms.toString()))
                        .as("a signature timestamp (id-aa-signatureTimeStampToken) in the unsigned attributes")
                        .contains("id-smime-aa-timeStampToken");
            }
        }
    }

    @Test
    void padesAndPadesTPlansSignThroughDssAndPdfsigCallsThemValid() throws Exception {
        // a fresh NSS database: certutil -N on an existing one asks for its password on stdin, again and again
        Path db = DIR.resolve("nssdb");
        org.trustload.harness.Layout.deleteRecursively(db);
        Files.createDirectories(db);
        exec(DIR, "certutil", "-N", "-d", "sql:" + db, "--empty-password");
        // the lab's three CAs, each under its own nickname
        String pem = Files.readString(Path.of(labProps.getProperty("pki.trust.anchors")));
        int n = 0;
        for (String part : pem.split("(?=-----BEGIN CERTIFICATE-----)")) {
            if (part.isBlank()) {
                continue;
            }
            Path ca = DIR.resolve("ca-" + (++n) + ".pem");
            Files.writeString(ca, part);
            assertThat(exec(DIR, "certutil", "-A", "-d", "sql:" + db, "-n", "lab-ca-" + n, "-t", "CT,C,C", "-i",
                    ca.toString()))
                    .startsWith("exit 0");
        }
        for (String id : List.of("pki/pades", "pki/pades-t")) {
            Path out = DIR.resolve("out-" + id.substring(4));
            plan(id, out);
            Path pdf = first(out, ".pdf");
            String r = exec(out, "pdfsig", "-nssdir", "sql:" + db, pdf.toString());
            assertThat(r).as(id + " " + pdf)
                    .contains("Signature Validation: Signature is Valid.", "Total document signed",
                    "Certificate Validation: Certificate is Trusted.");
        }
    }

    @Test
    void theServerHeldKeyModeSignsWithDssKeyAndItsTimestampServiceStamps() throws Exception {
        SignatureServerConfig c = server("dss-keys", "dss", dss.url());
        try {
            Path out = Files.createDirectories(DIR.resolve("out-server-key"));
            AbstractSignSampler s = sampler(false, "dss-keys", "none", "T");
            s.setMode("server-key");
            s.setServerKeyAlias(validUser(1));
            s.setOutputFile(out.resolve("server-key.p7s").toString());
            for (int i = 0; i < 2; i++) {
                SampleResult r = s.sample(null);
                assertThat(r.isSuccessful()).as(r.getResponseMessage() + "\n" + r.getResponseDataAsString()).isTrue();
                assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel).containsExactlyElementsOf(i == 0
                        ? List.of("remote key", "remote getDataToSign", "remote sign", "remote signDocument")
                        : List.of("remote getDataToSign", "remote sign",
                                "remote signDocument")); // the chain is read once
                AssertionResult a = assertSignature(r);
                assertThat(a.isFailure()).as(a.getFailureMessage()).isFalse();
            }
            assertThat(exec(out, "openssl", "cms", "-verify", "-binary", "-inform", "DER", "-in", "server-key.p7s",
                    "-CAfile", labProps.getProperty("pki.trust.anchors"), "-purpose", "any", "-out", "/dev/null"))
                    .contains("Verification successful");

            TimestampRequestSampler ts = new TimestampRequestSampler();
            ts.setName("ts");
            ts.setConfigName("dss-keys");
            ts.setProtocol("api");
            ts.setOutputFile(out.resolve("token.tst").toString());
            SampleResult r = ts.sample(null);
            assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
            assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel)
                    .containsExactly("ts getTimestampResponse");
            assertThat(exec(out, "openssl", "ts", "-reply", "-token_in", "-in", "token.tst", "-text"))
                    .contains("Policy OID", "Message data");
        } finally {
            c.testEnded();
        }
    }

    // ------------------------------------------------------------------ in-process elements

    private static String validUser(int n) {
        List<String> bad = new ArrayList<>(List.of(labProps.getProperty("pki.aliases.revoked").split(",")));
        bad.addAll(List.of(labProps.getProperty("pki.aliases.expired").split(",")));
        for (int i = 1, found = 0; ; i++) {
            String a = String.format("user%04d", i);
            if (!bad.contains(a) && ++found == n) {
                return a;
            }
        }
    }

    private static SignatureServerConfig server(String name, String api, String url) {
        SignatureServerConfig c = new SignatureServerConfig();
        c.setName(name);
        c.setConfigName(name);
        c.setApi(api);
        c.setServerUrl(url);
        c.setTrustAnchorsFile(labProps.getProperty("pki.trust.anchors"));
        c.testStarted();
        return c;
    }

    private static KeyStoreConfig user(String pool, String alias) {
        KeyStoreConfig c = new KeyStoreConfig();
        c.setName("keys");
        c.setPoolName(pool);
        c.setKeyStoreFile(labProps.getProperty("pki.keystore"));
        c.setKeyStorePassword(labProps.getProperty("pki.keystore.password"));
        c.setAliases(alias);
        c.setAssignment(KeyStoreConfig.ASSIGN_FIRST);
        c.testStarted();
        c.iterationStart(null);
        return c;
    }

    private static AbstractSignSampler sampler(boolean pades, String config, String pool, String level) {
        AbstractSignSampler s = pades ? new PadesSignSampler() : new CadesSignSampler();
        s.setName("remote");
        s.setConfigName(config);
        s.setKeyPool(pool);
        s.setMode("remote");
        s.setLevel(level);
        s.setInputFile(labProps.getProperty("pki.document"));
        return s;
    }

    private static AssertionResult assertSignature(SampleResult r) {
        SignatureAssertion a = new SignatureAssertion();
        a.setName("assertion");
        a.setFormat("auto");
        a.setTrustAnchorsFile(labProps.getProperty("pki.trust.anchors"));
        return a.getResult(r);
    }

    /**
     * DSS at level B does not check the signature value: a key that does not belong to the certificate gets
     * HTTP 200 and a CMS whose signature does not verify. Every signature is checked: the Signature Assertion
     * fails it. (At level T DSS itself refuses: HTTP 500 "Cryptographic signature verification has failed".)
     */
    @Test
    void aSignatureMadeWithTheWrongKeyPassesDssAtLevelBAndFailsTheSignatureAssertion() throws Exception {
        String owner = validUser(2);
        String other = validUser(3);
        List<KeyMaterial> keys = KeySource.pkcs12(Path.of(labProps.getProperty("pki.keystore")),
                labProps.getProperty("pki.keystore.password").toCharArray(), List.of(owner, other)).load();
        KeyMaterial ownerKey = keys.stream().filter(k -> k.alias().equals(owner)).findFirst().orElseThrow();
        KeyMaterial otherKey = keys.stream().filter(k -> k.alias().equals(other)).findFirst().orElseThrow();
        Path keyFile = DIR.resolve("wrong-key.pem");
        Path chainFile = DIR.resolve("owner-chain.pem");
        Files.writeString(keyFile, pem(otherKey.privateKey()));
        StringBuilder chain = new StringBuilder();
        for (var c : ownerKey.chain()) {
            chain.append(pem(c));
        }
        Files.writeString(chainFile, chain.toString());
        KeyStoreConfig wrong = new KeyStoreConfig();
        wrong.setName("wrong key");
        wrong.setPoolName("wrong");
        wrong.setSourceType("pem");
        wrong.setKeyStoreFile(keyFile.toString());
        wrong.setCertificateFile(chainFile.toString());
        wrong.setAssignment(KeyStoreConfig.ASSIGN_FIRST);
        wrong.testStarted();
        wrong.iterationStart(null);
        SignatureServerConfig s = server("dss-wrong", "dss", dss.url());
        try {
            SampleResult r = sampler(false, "dss-wrong", "wrong", "B").sample(null);
            assertThat(r.isSuccessful()).as("DSS signs at level B without checking the value: "
                    + r.getResponseDataAsString()).isTrue();
            AssertionResult a = assertSignature(r);
            assertThat(a.isFailure()).as("the assertion fails a signature that does not verify").isTrue();
            // its own code, distinct from the chain failures (docs/elements/signature-assertion.md)
            assertThat(a.getFailureMessage()).startsWith("signature.invalid: ");

            SampleResult t = sampler(false, "dss-wrong", "wrong", "T").sample(null);
            assertThat(t.getResponseCode()).isEqualTo("serverError");
            assertThat(t.getResponseMessage()).as("a stable message: DSS's variable signature id left out")
                    .isEqualTo("HTTP 500 Error on signature augmentation");
            assertThat(t.getResponseDataAsString()).containsIgnoringCase("verification");
        } finally {
            s.testEnded();
            wrong.testEnded();
        }
    }

    /** PEM of a key, certificate or CRL (BouncyCastle's writer). */
    static String pem(Object o) throws Exception {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter p = new JcaPEMWriter(w)) {
            p.writeObject(o);
        }
        return w.toString();
    }

    /** The dss API's bad-input table: each a failed sample with a code and message that says what to fix. */
    @Test
    void badInputsAgainstDssReadAsWhatTheUserFixes() throws Exception {
        String alias = validUser(4);
        KeyStoreConfig keys = user("bad", alias);
        SignatureServerConfig good = server("dss", "dss", dss.url());
        try {
            // a wrong base URL: the server answers 404 where the API should be: a configuration error
            String base = dss.url().replace("/services/rest", "/services");
            SignatureServerConfig wrongBase = server("wrong-base", "dss", base);
            SampleResult r = sampler(false, "wrong-base", "bad", "B").sample(null);
            wrongBase.testEnded();
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage()).endsWith("serverUrl: no dss API at this URL (HTTP 404)");
            assertThat(r.isStopThread()).isTrue();

            // an unknown API name: the config stops the test, each sampler says so once
            SignatureServerConfig unknown = server("unknown-api", "signserver", dss.url());
            r = sampler(false, "unknown-api", "bad", "B").sample(null);
            unknown.testEnded();
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage())
                    .contains("api: unknown API 'signserver' (available: rest-pki, rest-pki-core, dss)");

            // a level DSS does not have: refused before anything is sent
            AbstractSignSampler s = sampler(false, "dss", "bad", "B");
            s.setSignaturePolicy("CAdES_BASELINE_X");
            r = s.sample(null);
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage())
                    .contains("signaturePolicy: DSS has no CAdES signature level 'CAdES_BASELINE_X'");

            // a server key DSS does not hold (DSS answers HTTP 200 without a key): a configuration error
            s = sampler(false, "dss", "bad", "B");
            s.setMode("server-key");
            s.setServerKeyAlias("nobody");
            r = s.sample(null);
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage()).contains("serverKeyAlias: DSS holds no key 'nobody'");
            assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel).containsExactly("remote key");

            // DSS's own refusal (HTTP 500 and its message, first line up to the colon): a document DSS cannot read
            s = sampler(true, "dss", "bad", "B");
            Path notPdf = DIR.resolve("not.pdf");
            Files.writeString(notPdf, "%PDF-1.7 not really");
            s.setInputFile(notPdf.toString());
            r = s.sample(null);
            assertThat(r.getResponseCode()).isEqualTo("serverError");
            assertThat(r.getResponseMessage()).startsWith("HTTP 500 ");
            assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel)
                    .containsExactly("remote getDataToSign");

            // nothing listens: a connect error that stops the thread after one sample
            int port;
            try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = ss.getLocalPort();
            }
            SignatureServerConfig closed = server("closed", "dss", "http://127.0.0.1:" + port + "/services/rest");
            r = sampler(true, "closed", "bad", "B").sample(null);
            closed.testEnded();
            assertThat(r.getResponseCode()).isEqualTo("connectError");
            assertThat(r.getResponseMessage()).isEqualTo("signature server connection refused");
            assertThat(r.isStopThread()).isTrue();

            // DSS has no certificate login
            CertificateLoginSampler login = new CertificateLoginSampler();
            login.setName("login");
            login.setConfigName("dss");
            login.setKeyPool("bad");
            r = login.sample(null);
            assertThat(r.getResponseCode()).isEqualTo("configError");
            assertThat(r.getResponseMessage()).contains("the dss API (EU DSS REST services) has no certificate login");

        } finally {
            good.testEnded();
            keys.testEnded();
        }
    }
}
