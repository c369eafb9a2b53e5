package org.trustload.harness;

import org.trustload.harness.engine.Engines;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --remote}, {@code --controller} and {@code ./trustload engine}: what the command line accepts and refuses. */
class RemoteArgsTest {

    @Test
    void remoteHostsTakeThePortOf1099WhenNoneIsGivenAndIpv6InBrackets() throws Exception {
        assertThat(Engines.parseHosts("10.0.0.11, 10.0.0.12:2099,[fd00::1]:1099,engine3"))
                .containsExactly("10.0.0.11:1099", "10.0.0.12:2099", "[fd00::1]:1099", "engine3:1099");
        assertThatThrownBy(() -> Engines.parseHosts("10.0.0.11,10.0.0.11:1099"))
                .hasMessageContaining("names 10.0.0.11:1099 twice");
        assertThatThrownBy(() -> Engines.parseHosts("fd00::1")).hasMessageContaining("[ADDRESS]:PORT");
        assertThatThrownBy(() -> Engines.parseHosts("h:0")).hasMessageContaining("port 1-65535");
        assertThatThrownBy(() -> Engines.parseHosts(" , ")).hasMessageContaining("./trustload engine --bind ADDR");
    }

    @Test
    void remoteAndLocalEnginesExcludeEachOtherAndTheControllerAddressIsNeverAWildcard() throws Exception {
        org.trustload.harness.cli.Commands.RunArgs r = org.trustload.harness.cli.Commands.runArgs(List.of("--remote",
                "10.0.0.11,10.0.0.12", "--controller", "10.0.0.10", "-Jthreads=2"));
        assertThat(r.remote()).containsExactly("10.0.0.11:1099", "10.0.0.12:1099");
        assertThat(r.controller()).isEqualTo("10.0.0.10");
        assertThatThrownBy(() -> org.trustload.harness.cli.Commands.runArgs(List.of("--remote", "h", "--engines", "2")))
                .hasMessageContaining("'--engines' and '--remote' are not allowed to be used together");
        assertThatThrownBy(() -> org.trustload.harness.cli.Commands.runArgs(List.of("--controller", "10.0.0.10")))
                .hasMessageContaining("argument '--remote' must also be given");
        assertThatThrownBy(() -> org.trustload.harness.cli.Commands.runArgs(List.of("--remote", "h", "--controller",
                "0.0.0.0"))).hasMessageContaining("never 0.0.0.0");
    }

    @Test
    void anEngineNeedsOneAddressToBindAndTwoPorts() throws Exception {
        Layout layout = new Layout(Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize(),
                Path.of("/nonexistent"));
        for (List<String> bad : List.of(List.of("engine"), List.of("engine", "--bind", "0.0.0.0"), List.of("engine",
                "--bind", "::"),
                List.of("engine", "--bind", "10.0.0.11", "--port", "4000"), List.of("engine", "--bind", "10.0.0.11",
                        "--port", "x"),
                List.of("engine", "--bind", "10.0.0.11", "--nope", "1"))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = new Main(layout, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true,
                    StandardCharsets.UTF_8))
                    .run(bad.toArray(String[]::new));
            assertThat(status).as(bad + ": " + err.toString(StandardCharsets.UTF_8)).isEqualTo(ExitStatus.USAGE.code());
        }
    }
}
