package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;
import org.trustload.harness.Lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.jmeter.pki.CadesSignSampler;
import org.trustload.jmeter.pki.KeyStoreConfig;
import org.trustload.jmeter.pki.PadesSignSampler;
import org.trustload.jmeter.pki.SignatureServerConfig;

/**
 * The signing samplers in remote mode against the real lab signature server (its own JVM): the
 * server's refusals at each step become failed samples with the server's stable code, and the
 * steps that ran are kept as sub-results.
 */
class PkiRemoteErrorsIT {

    private static Lab lab;
    private static Properties props;
    private static SignatureServerConfig server;

    @BeforeAll
    static void startLab() throws Exception {
        JMeterUtils.setJMeterHome(Plans.HOME.toString());
        JMeterUtils.loadJMeterProperties(Plans.HOME.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
        Path dir = Plans.DIR.resolve("target/pki-remote");
        Files.createDirectories(dir);
        Path labProperties = dir.resolve("lab.properties");
        lab = PlanRunIT.startLab("pki", labProperties, dir.resolve("lab.log"));
        props = Plans.load(labProperties);
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        server = new SignatureServerConfig();
        server.setName("lab");
        server.setServerUrl(props.getProperty("pki.url"));
        server.testStarted();
    }

    @AfterAll
    static void stopLab() throws InterruptedException {
        if (server != null) {
            server.testEnded();
        }
        if (lab != null) {
            lab.close();
        }
    }

    private static KeyStoreConfig user(String alias) {
        KeyStoreConfig c = new KeyStoreConfig();
        c.setName("keys");
        c.setPoolName(alias);
        c.setKeyStoreFile(props.getProperty("pki.keystore"));
        c.setKeyStorePassword(props.getProperty("pki.keystore.password"));
        c.setAliases(alias);
        c.setAssignment(KeyStoreConfig.ASSIGN_FIRST);
        c.testStarted();
        return c;
    }

    private static SampleResult sign(String pool, boolean pades, String document) {
        var s = pades ? new PadesSignSampler() : new CadesSignSampler();
        s.setName("remote");
        s.setKeyPool(pool);
        s.setMode("remote");
        s.setInputFile(document);
        return s.sample(null);
    }

    @Test
    void aValidUserSignsRemotelyInThreeSteps() {
        String alias = "user0001";
        KeyStoreConfig c = user(alias);
        SampleResult r = sign(alias, true, props.getProperty("pki.document"));
        assertThat(r.isSuccessful()).as(r.getResponseDataAsString()).isTrue();
        assertThat(r.getSubResults()).extracting(SampleResult::getSampleLabel)
                .containsExactly("remote start", "remote sign", "remote complete");
        // the sample spans its three steps: it ends when the last one ends (no second sampleEnd)
        SampleResult last = r.getSubResults()[2];
        // (JMeter shifts the step's end by the difference of the two results' nano-time offsets)
        assertThat(r.getEndTime()).isCloseTo(last.getEndTime(), org.assertj.core.api.Assertions.within(5L));
        assertThat(r.getTime()).isGreaterThanOrEqualTo(last.getTime());
        // each step lies inside its parent's span, so reports nest it under the parent
        assertThat(r.getSubResults()).allMatch(s -> s.getStartTime() >= r.getStartTime() && s.getEndTime() <= r.getEndTime());
        c.testEnded();
    }

    @Test
    void revokedAndExpiredUsersAreRefusedAtStartWithTheServersCode() {
        String revoked = props.getProperty("pki.aliases.revoked").split(",")[0];
        String expired = props.getProperty("pki.aliases.expired").split(",")[0];
        KeyStoreConfig r1 = user(revoked);
        KeyStoreConfig r2 = user(expired);
        SampleResult r = sign(revoked, false, props.getProperty("pki.document"));
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo("certificateRevoked");
        assertThat(r.getResponseMessage()).isEqualTo("HTTP 403 certificateRevoked");
        assertThat(r.getSubResults()).hasSize(1);
        r = sign(expired, false, props.getProperty("pki.document"));
        assertThat(r.getResponseCode()).isEqualTo("certificateExpired");
        r1.testEnded();
        r2.testEnded();
    }

    @Test
    void aCorruptPdfIsRefusedByTheServer() throws Exception {
        String alias = "user0002";
        KeyStoreConfig c = user(alias);
        Path corrupt = Plans.DIR.resolve("target/pki-remote/corrupt.pdf");
        Files.writeString(corrupt, "%PDF-1.7 not really");
        SampleResult r = sign(alias, true, corrupt.toString());
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo("invalidDocument");
        c.testEnded();
    }
}
