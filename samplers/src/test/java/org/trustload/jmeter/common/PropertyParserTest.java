package org.trustload.jmeter.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.jmeter.services.FileServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.common.ClientException;

class PropertyParserTest {

    private final PropertyParser p = new PropertyParser(PropertyParser.describe("Some Config", "mine"));

    @Test
    void integersHaveBoundsAndBlankDefaultsAndErrorsNameElementAndProperty() throws Exception {
        assertThat(p.integer("port", " 389 ", 0, 0, 65535)).isEqualTo(389);
        assertThat(p.integer("port", "", 7, 0, 65535)).isEqualTo(7);
        assertThatThrownBy(() -> p.integer("port", "38x9", 0, 0, 65535))
                .isInstanceOfSatisfying(ClientException.class, e -> {
            assertThat(e.isConfigError()).isTrue();
            assertThat(e.setting()).isEqualTo("port");
            assertThat(e.getMessage()).isEqualTo("Some Config 'mine': port: not a whole number: '38x9'");
        });
        assertThatThrownBy(() -> p.timeoutMs("connectTimeout", "0", 5000))
                .hasMessage("Some Config 'mine': connectTimeout: 0 is out of range 1-2147483647");
    }

    @Test
    void choicesAreCaseInsensitiveAndListTheAcceptedValues() throws Exception {
        assertThat(p.oneOf("mode", "Per-Thread", "per-iteration", "per-iteration", "per-thread"))
                .isEqualTo("per-thread");
        assertThat(p.oneOf("mode", " ", "per-iteration", "per-iteration", "per-thread")).isEqualTo("per-iteration");
        assertThatThrownBy(() -> p.oneOf("mode", "pooled", null, "per-iteration", "per-thread"))
                .hasMessage("Some Config 'mine': mode: unknown value 'pooled' (expected per-iteration, per-thread)");
    }

    @Test
    void filesResolveAgainstThePlanDirectoryLikeJMeterAndEachProblemNamesTheFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("ok.p12"), "x");
        Files.createFile(dir.resolve("empty.p12"));
        String before = FileServer.getFileServer().getBaseDir();
        FileServer.getFileServer().setBasedir(dir.resolve("plan.jmx").toString());
        try {
            assertThat(p.file("trustStore", "ok.p12", true)).isEqualTo(new File(dir.toFile(), "ok.p12"));
            assertThat(p.file("trustStore", "", false)).isNull();
            assertThatThrownBy(() -> p.file("trustStore", "missing.p12", true))
                    .isInstanceOfSatisfying(ClientException.class,
                    e -> {
                        assertThat(e.file()).isEqualTo(dir.resolve("missing.p12").toString());
                        assertThat(e.getMessage()).isEqualTo("Some Config 'mine': trustStore: file not found ("
                                + dir.resolve("missing.p12") + ")");
                    });
            assertThatThrownBy(() -> p.file("trustStore", "empty.p12", true)).hasMessageContaining("file is empty");
            assertThatThrownBy(() -> p.file("trustStore", " ", true))
                    .hasMessage("Some Config 'mine': trustStore: no file given");
        } finally {
            FileServer.getFileServer().setBasedir(before == null ? "." : before + "/x.jmx");
        }
    }

    @Test
    void aClientsConfigurationErrorGetsTheElementsNameOnceAndOthersPassUnchanged() {
        ClientException lib = ClientException.config("host", "", "host is empty", null);
        ClientException named = p.wrap(lib);
        assertThat(named.getMessage()).isEqualTo("Some Config 'mine': host: host is empty");
        assertThat(p.wrap(named)).isSameAs(named);
        assertThat(new PropertyParser("Other 'x'").wrap(named)).isSameAs(named);
        ClientException network = new ClientException("connectError", "refused", "d", null);
        assertThat(p.wrap(network)).isSameAs(network);
    }
}
