package org.trustload.jmeter.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineCheckTest {

    @TempDir
    static Path props;
    @TempDir
    Path dir;

    @BeforeAll
    static void jmeterProperties() throws Exception {
        Path p = props.resolve("jmeter.properties");
        Files.writeString(p, "");
        JMeterUtils.loadJMeterProperties(p.toString());
    }

    private static String sha(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    @Test
    void aMissingFileIsShippedWithPrivateFoldersAndTidyRemovesBoth() throws Exception {
        byte[] content = "a key store".getBytes(StandardCharsets.UTF_8);
        Path file = dir.resolve("lab/ldap/truststore.p12");
        SampleResult r = EngineCheck.checkOne("run-1", file.toString(), sha(content),
                Base64.getEncoder().encodeToString(content));
        assertThat(r.isSuccessful()).as(r.getResponseMessage()).isTrue();
        assertThat(r.getResponseMessage()).isEqualTo("shipped " + file);
        assertThat(Files.readAllBytes(file)).isEqualTo(content);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("lab"))))
                .isEqualTo("rwx------");
        try (var s = Files.list(file.getParent())) {
            assertThat(s).as("no partial file left").containsExactly(file);
        }

        assertThat(EngineCheck.checkOne("run-2", file.toString(), sha(content), null).getResponseMessage())
                .as("a second run finds the shipped copy").isEqualTo("same " + file);
        List<SampleResult> tidy = EngineCheck.tidy("run-1");
        assertThat(tidy).extracting(SampleResult::getResponseMessage).containsExactly("removed " + file);
        assertThat(dir.resolve("lab")).as("the folders it made").doesNotExist();
        assertThat(EngineCheck.tidy("run-1")).as("tidy twice: nothing left to do").isEmpty();
    }

    @Test
    void anExistingFileIsComparedAndNeverOverwritten() throws Exception {
        Path file = dir.resolve("users.csv");
        Files.writeString(file, "old rows");
        byte[] controller = "new rows".getBytes(StandardCharsets.UTF_8);
        SampleResult differs = EngineCheck.checkOne("run-3", file.toString(), sha(controller),
                Base64.getEncoder().encodeToString(controller));
        assertThat(differs.isSuccessful()).isFalse();
        assertThat(differs.getResponseMessage()).startsWith("differs " + file + ": sha256 ")
                .contains("never overwritten");
        assertThat(Files.readString(file)).isEqualTo("old rows");
        assertThat(EngineCheck.checkOne("run-3", file.toString(),
                sha("old rows".getBytes(StandardCharsets.UTF_8)), null)
                .getResponseMessage()).isEqualTo("same " + file);
        assertThat(EngineCheck.checkOne("run-3", file.toString(), "", null).getResponseMessage())
                .as("the controller has no copy to compare with").isEqualTo("present " + file);
        assertThat(EngineCheck.tidy("run-3")).as("nothing shipped, nothing removed").isEmpty();
        assertThat(file).exists();
    }

    @Test
    void aCopyThisEngineShippedForARunNeverTidiedIsReplaced() throws Exception {
        Path file = dir.resolve("lab/truststore.p12");
        byte[] first = "first lab start".getBytes(StandardCharsets.UTF_8);
        byte[] second = "second lab start".getBytes(StandardCharsets.UTF_8);
        EngineCheck.checkOne("run-6", file.toString(), sha(first), Base64.getEncoder().encodeToString(first));
        // run-6's controller died before its tidy-up; the next run's lab made a new store at the same path
        SampleResult r = EngineCheck.checkOne("run-7", file.toString(), sha(second),
                Base64.getEncoder().encodeToString(second));
        assertThat(r.getResponseMessage()).isEqualTo("shipped " + file);
        assertThat(Files.readAllBytes(file)).isEqualTo(second);
        EngineCheck.tidy("run-7");
        EngineCheck.tidy("run-6");
        assertThat(dir.resolve("lab")).doesNotExist();
    }

    @Test
    void aFileMissingHereAndOnTheControllerFails() {
        Path file = dir.resolve("document.pdf");
        SampleResult r = EngineCheck.checkOne("run-4", file.toString(), "", null);
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseMessage()).isEqualTo("missing " + file);
        assertThat(EngineCheck.checkOne("run-4", "relative.csv", "", null).getResponseMessage())
                .isEqualTo("unreadable relative.csv: not an absolute path");
    }

    @Test
    void theSampleSaysWhatTheEngineRunsAndHasOneSubResultPerFile() throws Exception {
        byte[] content = "pdf".getBytes(StandardCharsets.UTF_8);
        Path shipped = dir.resolve("docs/a.pdf");
        JMeterUtils.setProperty(EngineCheck.MODE, "check");
        JMeterUtils.setProperty(EngineCheck.RUN, "run-5");
        JMeterUtils.setProperty(EngineCheck.FILES, "2");
        JMeterUtils.setProperty(EngineCheck.FILE + "0.path", shipped.toString());
        JMeterUtils.setProperty(EngineCheck.FILE + "0.sha256", sha(content));
        JMeterUtils.setProperty(EngineCheck.FILE + "0.data", Base64.getEncoder().encodeToString(content));
        JMeterUtils.setProperty(EngineCheck.FILE + "1.path", dir.resolve("none.csv").toString());
        JMeterUtils.setProperty(EngineCheck.FILE + "1.sha256", "");
        SampleResult r = serialized(new EngineCheck()).sample(null);
        assertThat(r.getSampleLabel()).isEqualTo(EngineCheck.LABEL);
        assertThat(r.getResponseMessage()).matches("jmeter=\\S+ trustload=\\S+ java=\\S+ cpus=\\d+");
        assertThat(r.isSuccessful()).as("one file is missing").isFalse();
        assertThat(r.getSubResults()).extracting(SampleResult::getResponseMessage)
                .containsExactly("shipped " + shipped, "missing " + dir.resolve("none.csv"));
        assertThat(JMeterUtils.getProperty(EngineCheck.FILE + "0.data"))
                .as("the content is dropped once used").isNull();

        JMeterUtils.setProperty(EngineCheck.MODE, "tidy");
        SampleResult tidy = new EngineCheck().sample(null);
        assertThat(tidy.isSuccessful()).isTrue();
        assertThat(tidy.getSubResults()).extracting(SampleResult::getResponseMessage)
                .containsExactly("removed " + shipped);
        assertThat(shipped).doesNotExist();
    }

    /** The engine receives the element serialized (JMeter's distributed mode). */
    static <T> T serialized(T element) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(element);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            @SuppressWarnings("unchecked")
            T copy = (T) in.readObject();
            return copy;
        }
    }
}
